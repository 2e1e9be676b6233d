#pragma once
// A Level Zero kernel: the core kernel state plus Level Zero's own per-kernel settings.
#include <level_zero/ze_api.h>

#include "level_zero/handle/handle.h"
#include "loom/core/kernel.h"

namespace loom::l0 {

class Module;

class Kernel : public _ze_kernel_handle_t {
 public:
  Kernel(Module& module, const compiler::KernelDescriptor& descriptor, core::BackendKernel* loaded)
      : module_(module), kernel_(descriptor, loaded) {}
  static Kernel* fromHandle(ze_kernel_handle_t handle) { return static_cast<Kernel*>(handle); }

  core::Kernel& core() { return kernel_; }
  Module& module() const { return module_; }
  ze_kernel_indirect_access_flags_t indirectAccess = 0;
  ze_cache_config_flags_t cacheConfig = 0;

 private:
  Module& module_;
  core::Kernel kernel_;
};

ze_result_t zeKernelCreate(ze_module_handle_t hModule, const ze_kernel_desc_t* desc, ze_kernel_handle_t* phKernel);
ze_result_t zeKernelDestroy(ze_kernel_handle_t hKernel);
ze_result_t zeKernelSetGroupSize(ze_kernel_handle_t hKernel, uint32_t groupSizeX, uint32_t groupSizeY, uint32_t groupSizeZ);
ze_result_t zeKernelSetGlobalOffsetExp(ze_kernel_handle_t hKernel, uint32_t offsetX, uint32_t offsetY, uint32_t offsetZ);
ze_result_t zeKernelSuggestGroupSize(ze_kernel_handle_t hKernel, uint32_t globalSizeX, uint32_t globalSizeY,
                                     uint32_t globalSizeZ, uint32_t* groupSizeX, uint32_t* groupSizeY, uint32_t* groupSizeZ);
ze_result_t zeKernelSuggestMaxCooperativeGroupCount(ze_kernel_handle_t hKernel, uint32_t* totalGroupCount);
ze_result_t zeKernelSetArgumentValue(ze_kernel_handle_t hKernel, uint32_t argIndex, size_t argSize, const void* pArgValue);
ze_result_t zeKernelSetIndirectAccess(ze_kernel_handle_t hKernel, ze_kernel_indirect_access_flags_t flags);
ze_result_t zeKernelGetIndirectAccess(ze_kernel_handle_t hKernel, ze_kernel_indirect_access_flags_t* pFlags);
ze_result_t zeKernelGetSourceAttributes(ze_kernel_handle_t hKernel, uint32_t* pSize, char** pString);
ze_result_t zeKernelSetCacheConfig(ze_kernel_handle_t hKernel, ze_cache_config_flags_t flags);
ze_result_t zeKernelGetProperties(ze_kernel_handle_t hKernel, ze_kernel_properties_t* pKernelProperties);
ze_result_t zeKernelGetName(ze_kernel_handle_t hKernel, size_t* pSize, char* pName);

}  // namespace loom::l0
