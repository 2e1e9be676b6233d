#include "level_zero/kernel/kernel.h"

#include <algorithm>
#include <cstring>

#include "level_zero/device/device.h"
#include "level_zero/image/image.h"
#include "level_zero/module/module.h"
#include "level_zero/sampler/sampler.h"
#include "level_zero/two_call.h"
#include "level_zero/validation.h"
#include "loom/core/program.h"

namespace loom::l0 {

namespace {

const core::DeviceInfo& deviceInfo(Kernel& kernel) { return kernel.module().device().core().info(); }

// The extension structures chained to zeKernelGetProperties' output that Loom knows; others are
// left as the application gave them.
void fillKernelPropertiesChain(const core::DeviceInfo& info, void* next) {
  // What zeKernelSuggestGroupSize rounds x to (core::Kernel::suggestGroupSize).
  fillChained<ze_kernel_preferred_group_size_properties_t>(next, ZE_STRUCTURE_TYPE_KERNEL_PREFERRED_GROUP_SIZE_PROPERTIES,
                                                           [&](auto& preferred) { preferred.preferredMultiple = core::preferredGroupSizeMultiple(info); });
}

}  // namespace

ze_result_t zeKernelCreate(ze_module_handle_t hModule, const ze_kernel_desc_t* desc, ze_kernel_handle_t* phKernel) {
  ZE_REQUIRE_HANDLE(hModule);
  ZE_REQUIRE_POINTER(desc);
  ZE_REQUIRE_POINTER(phKernel);
  ZE_REQUIRE_DESCRIPTOR(desc, ZE_STRUCTURE_TYPE_KERNEL_DESC);
  ZE_REQUIRE_POINTER(desc->pKernelName);
  ZE_REQUIRE_FLAGS(desc->flags, ZE_KERNEL_FLAG_FORCE_RESIDENCY | ZE_KERNEL_FLAG_EXPLICIT_RESIDENCY);
  Module& module = *Module::fromHandle(hModule);
  ZE_REQUIRE(module.linked(), ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED, "the module has unresolved imports: call zeModuleDynamicLink");
  core::Program& program = module.program();
  const compiler::KernelDescriptor* descriptor = program.info().findKernel(desc->pKernelName);
  if (const compiler::UnavailableKernel* unavailable = program.info().findUnavailableKernel(desc->pKernelName))
    return reportError(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, __func__, ("the kernel cannot run: " + unavailable->reason).c_str());
  ZE_REQUIRE(descriptor != nullptr, ZE_RESULT_ERROR_INVALID_KERNEL_NAME, "no kernel of that name in the module");
  std::string log;
  core::BackendKernel* loaded = program.loaded().kernel(descriptor->name, log);
  ZE_REQUIRE(loaded != nullptr, ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED, log.c_str());
  auto* kernel = new Kernel(module, *descriptor, loaded);
  module.addKernel();
  *phKernel = kernel;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeKernelDestroy(ze_kernel_handle_t hKernel) {
  ZE_REQUIRE_HANDLE(hKernel);
  Kernel* kernel = Kernel::fromHandle(hKernel);
  kernel->retireHandle();
  Module& module = kernel->module();
  // Launches record the program's code and descriptors, which stay with the module, not the kernel.
  delete kernel;
  module.removeKernel();
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeKernelSetGroupSize(ze_kernel_handle_t hKernel, uint32_t groupSizeX, uint32_t groupSizeY, uint32_t groupSizeZ) {
  ZE_REQUIRE_HANDLE(hKernel);
  Kernel& kernel = *Kernel::fromHandle(hKernel);
  const core::DeviceInfo& info = deviceInfo(kernel);
  const uint32_t sizes[3] = {groupSizeX, groupSizeY, groupSizeZ};
  for (int d = 0; d < 3; ++d)
    ZE_REQUIRE(sizes[d] != 0 && sizes[d] <= info.maxGroupSize[d], ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION,
               "a group size is 0 or above the device's maximum");
  ZE_REQUIRE(uint64_t(groupSizeX) * groupSizeY * groupSizeZ <= kernel.core().maxGroupSize(info.maxWorkGroupSize),
             ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION,
             "the group has more work-items than maxTotalGroupSize or than the kernel's registers allow");
  const auto& required = kernel.core().descriptor().requiredWorkGroupSize;
  ZE_REQUIRE(required[0] == 0 || (required[0] == groupSizeX && required[1] == groupSizeY && required[2] == groupSizeZ),
             ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION, "the kernel requires another work-group size");
  kernel.core().setGroupSize(groupSizeX, groupSizeY, groupSizeZ);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeKernelSetGlobalOffsetExp(ze_kernel_handle_t hKernel, uint32_t offsetX, uint32_t offsetY, uint32_t offsetZ) {
  ZE_REQUIRE_HANDLE(hKernel);
  Kernel::fromHandle(hKernel)->core().setGlobalOffset(offsetX, offsetY, offsetZ);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeKernelSuggestGroupSize(ze_kernel_handle_t hKernel, uint32_t globalSizeX, uint32_t globalSizeY,
                                     uint32_t globalSizeZ, uint32_t* groupSizeX, uint32_t* groupSizeY, uint32_t* groupSizeZ) {
  ZE_REQUIRE_HANDLE(hKernel);
  ZE_REQUIRE_POINTER(groupSizeX);
  ZE_REQUIRE_POINTER(groupSizeY);
  ZE_REQUIRE_POINTER(groupSizeZ);
  ZE_REQUIRE(globalSizeX && globalSizeY && globalSizeZ, ZE_RESULT_ERROR_INVALID_GLOBAL_WIDTH_DIMENSION, "a global size is 0");
  // Level Zero launches whole groups only.
  Kernel& kernel = *Kernel::fromHandle(hKernel);
  const auto size = kernel.core().suggestGroupSize(deviceInfo(kernel), {globalSizeX, globalSizeY, globalSizeZ}, 3, false);
  *groupSizeX = size[0], *groupSizeY = size[1], *groupSizeZ = size[2];
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeKernelSuggestMaxCooperativeGroupCount(ze_kernel_handle_t hKernel, uint32_t* totalGroupCount) {
  ZE_REQUIRE_HANDLE(hKernel);
  ZE_REQUIRE_POINTER(totalGroupCount);
  Kernel& kernel = *Kernel::fromHandle(hKernel);
  *totalGroupCount = kernel.core().maxCooperativeGroupCount(deviceInfo(kernel));
  return ZE_RESULT_SUCCESS;
}

namespace {

// What an image or sampler argument holds instead of the handle the application passes: the
// image's descriptor address, the sampler's bits. False when pArgValue holds no such handle.
bool imageOrSamplerValue(compiler::ArgumentKind kind, size_t argSize, const void* pArgValue, uint64_t& value) {
  if (argSize != sizeof(void*) || !pArgValue) return false;
  void* handle = *static_cast<void* const*>(pArgValue);
  if (kind == compiler::ArgumentKind::Image) {
    if (!HandleObject::isLive(handle, HandleKind::Image)) return false;
    value = Image::fromHandle(static_cast<ze_image_handle_t>(handle))->core().descriptorAddress();
    return true;
  }
  if (!HandleObject::isLive(handle, HandleKind::Sampler)) return false;
  value = Sampler::fromHandle(static_cast<ze_sampler_handle_t>(handle))->state().argumentValue();
  return true;
}

}  // namespace

ze_result_t zeKernelSetArgumentValue(ze_kernel_handle_t hKernel, uint32_t argIndex, size_t argSize, const void* pArgValue) {
  ZE_REQUIRE_HANDLE(hKernel);
  core::Kernel& kernel = Kernel::fromHandle(hKernel)->core();
  const auto& arguments = kernel.descriptor().arguments;
  if (argIndex < arguments.size() &&
      (arguments[argIndex].kind == compiler::ArgumentKind::Image || arguments[argIndex].kind == compiler::ArgumentKind::Sampler)) {
    ZE_REQUIRE(argSize == sizeof(void*), ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE, "an image or sampler argument takes a handle");
    uint64_t value = 0;
    ZE_REQUIRE(imageOrSamplerValue(arguments[argIndex].kind, argSize, pArgValue, value), ZE_RESULT_ERROR_INVALID_ARGUMENT,
               "pArgValue does not point at a live image (or sampler) handle for this argument");
    argSize = sizeof(value);
    pArgValue = &value;
    switch (kernel.setArgument(argIndex, argSize, pArgValue)) {
      case core::ArgumentError::None: return ZE_RESULT_SUCCESS;
      default: return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, __func__, "pArgValue is not valid for this argument");
    }
  }
  switch (kernel.setArgument(argIndex, argSize, pArgValue)) {
    case core::ArgumentError::None: return ZE_RESULT_SUCCESS;
    case core::ArgumentError::InvalidIndex:
      return reportError(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX, __func__, "argIndex is past the last argument");
    case core::ArgumentError::InvalidSize:
      return reportError(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE, __func__, "argSize does not match the argument");
    case core::ArgumentError::InvalidValue:
      return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, __func__, "pArgValue is not valid for this argument");
  }
  return ZE_RESULT_ERROR_INVALID_ARGUMENT;
}

ze_result_t zeKernelSetIndirectAccess(ze_kernel_handle_t hKernel, ze_kernel_indirect_access_flags_t flags) {
  ZE_REQUIRE_HANDLE(hKernel);
  ZE_REQUIRE_FLAGS(flags, ZE_KERNEL_INDIRECT_ACCESS_FLAG_HOST | ZE_KERNEL_INDIRECT_ACCESS_FLAG_DEVICE |
                              ZE_KERNEL_INDIRECT_ACCESS_FLAG_SHARED);
  // Every allocation is always accessible on the CPU; the flags are kept for the query.
  Kernel::fromHandle(hKernel)->indirectAccess = flags;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeKernelGetIndirectAccess(ze_kernel_handle_t hKernel, ze_kernel_indirect_access_flags_t* pFlags) {
  ZE_REQUIRE_HANDLE(hKernel);
  ZE_REQUIRE_POINTER(pFlags);
  *pFlags = Kernel::fromHandle(hKernel)->indirectAccess;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeKernelGetSourceAttributes(ze_kernel_handle_t hKernel, uint32_t* pSize, char** pString) {
  ZE_REQUIRE_HANDLE(hKernel);
  ZE_REQUIRE_POINTER(pSize);
  ZE_REQUIRE(pString == nullptr || *pSize == 0 || *pString != nullptr, ZE_RESULT_ERROR_INVALID_NULL_POINTER, "*pString is null");
  return copyString(Kernel::fromHandle(hKernel)->core().descriptor().attributes, pSize, pString ? *pString : nullptr);
}

ze_result_t zeKernelSetCacheConfig(ze_kernel_handle_t hKernel, ze_cache_config_flags_t flags) {
  ZE_REQUIRE_HANDLE(hKernel);
  ZE_REQUIRE_FLAGS(flags, ZE_CACHE_CONFIG_FLAG_LARGE_SLM | ZE_CACHE_CONFIG_FLAG_LARGE_DATA);
  // CPU caches cannot be partitioned between local memory and data; the setting is a hint.
  Kernel::fromHandle(hKernel)->cacheConfig = flags;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeKernelGetProperties(ze_kernel_handle_t hKernel, ze_kernel_properties_t* pKernelProperties) {
  ZE_REQUIRE_HANDLE(hKernel);
  ZE_REQUIRE_POINTER(pKernelProperties);
  if (ze_result_t result = checkChain(__func__, pKernelProperties->pNext); result != ZE_RESULT_SUCCESS) return result;
  Kernel& kernel = *Kernel::fromHandle(hKernel);
  const compiler::KernelDescriptor& descriptor = kernel.core().descriptor();
  const core::DeviceInfo& info = deviceInfo(kernel);
  ze_kernel_properties_t& p = *pKernelProperties;
  p.numKernelArgs = static_cast<uint32_t>(descriptor.arguments.size());
  p.requiredGroupSizeX = descriptor.requiredWorkGroupSize[0];
  p.requiredGroupSizeY = descriptor.requiredWorkGroupSize[1];
  p.requiredGroupSizeZ = descriptor.requiredWorkGroupSize[2];
  p.requiredNumSubGroups = 0;
  p.requiredSubgroupSize = descriptor.requiredSubGroupSize;
  p.maxSubgroupSize = info.subGroupSizes.empty() ? 1 : info.subGroupSizes.back();
  // Sub-groups run along the local linear id, the last one of a group partial.
  p.maxNumSubgroups = (info.maxWorkGroupSize + p.maxSubgroupSize - 1) / p.maxSubgroupSize;
  p.localMemSize = descriptor.staticLocalMemorySize;
  p.privateMemSize = descriptor.privateMemorySize;
  p.spillMemSize = 0;
  std::memset(&p.uuid, 0, sizeof(p.uuid));
  fillKernelPropertiesChain(info, p.pNext);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeKernelGetName(ze_kernel_handle_t hKernel, size_t* pSize, char* pName) {
  ZE_REQUIRE_HANDLE(hKernel);
  ZE_REQUIRE_POINTER(pSize);
  return copyString(Kernel::fromHandle(hKernel)->core().descriptor().name, pSize, pName);
}

}  // namespace loom::l0
