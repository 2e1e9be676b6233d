#include "level_zero/module/module.h"

#include <algorithm>
#include <cstring>

#include "level_zero/context/context.h"
#include "level_zero/device/device.h"
#include "level_zero/kernel/kernel.h"
#include "level_zero/two_call.h"
#include "level_zero/validation.h"
#include "loom/core/log.h"
#include "loom/core/runtime.h"

namespace loom::l0 {

namespace {

ze_result_t buildResult(compiler::Status status) {
  switch (status) {
    case compiler::Status::Success: return ZE_RESULT_SUCCESS;
    case compiler::Status::InvalidOptions: return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    case compiler::Status::InvalidBinary: return ZE_RESULT_ERROR_INVALID_NATIVE_BINARY;
    case compiler::Status::LinkFailure: return ZE_RESULT_ERROR_MODULE_LINK_FAILURE;
    case compiler::Status::BuildFailure: return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
  }
  return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
}

// Specialization constants arrive as (id, pointer to value) pairs; each value is as wide as the
// constant the module declares (ids the module does not declare are ignored, as SPIR-V allows).
std::map<uint32_t, uint64_t> specializationConstants(const ze_module_desc_t& desc) {
  std::map<uint32_t, uint64_t> values;
  const ze_module_constants_t* constants = desc.pConstants;
  if (!constants || constants->numConstants == 0) return values;
  const auto sizes = compiler::specializationConstantSizes(desc.pInputModule, desc.inputSize);
  for (uint32_t i = 0; i < constants->numConstants; ++i) {
    auto size = sizes.find(constants->pConstantIds[i]);
    if (size == sizes.end() || !constants->pConstantValues[i]) continue;
    uint64_t value = 0;
    std::memcpy(&value, constants->pConstantValues[i], size->second);
    values[constants->pConstantIds[i]] = value;
  }
  return values;
}

core::ProgramBuild build(Device& device, const ze_module_desc_t& desc) {
  const auto* input = static_cast<const uint8_t*>(static_cast<const void*>(desc.pInputModule));
  if (desc.format == ZE_MODULE_FORMAT_NATIVE) return core::Program::fromNativeBinary(device.core(), input, desc.inputSize);
  compiler::CompileRequest request;
  request.spirv.assign(input, input + desc.inputSize);
  request.options = desc.pBuildFlags ? desc.pBuildFlags : "";
  request.specializationConstants = specializationConstants(desc);
  request.uniformWorkGroups = true;  // Level Zero launches whole groups of one size
  return core::Program::fromSpirv(device.core(), std::move(request));
}

}  // namespace

// Copies may have reached its variables (zeModuleGetGlobalPointer).
Module::~Module() { core::Runtime::get().memory().forgetProgramVariablesOf(this); }

void Module::addKernel() {
  std::lock_guard lock(mutex_);
  ++kernels_;
}

void Module::removeKernel() {
  bool unused = false;
  {
    std::lock_guard lock(mutex_);
    unused = --kernels_ == 0 && released_;
  }
  if (unused) deleteAfterSubmittedWork();
}

void Module::release() {
  bool unused = false;
  {
    std::lock_guard lock(mutex_);
    released_ = true;
    unused = kernels_ == 0;
  }
  if (unused) deleteAfterSubmittedWork();
}

size_t Module::kernelCount() {
  std::lock_guard lock(mutex_);
  return kernels_;
}

void Module::deleteAfterSubmittedWork() {
  // Launches in flight run the module's code and read its kernel descriptors.
  core::Runtime::get().releaseAfterSubmittedWork([this] { delete this; });
}

ze_result_t zeModuleCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice, const ze_module_desc_t* desc,
                           ze_module_handle_t* phModule, ze_module_build_log_handle_t* phBuildLog) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(desc);
  ZE_REQUIRE_POINTER(phModule);
  ZE_REQUIRE_DESCRIPTOR(desc, ZE_STRUCTURE_TYPE_MODULE_DESC);
  ZE_REQUIRE_POINTER(desc->pInputModule);
  ZE_REQUIRE(desc->inputSize != 0, ZE_RESULT_ERROR_INVALID_SIZE, "desc->inputSize is 0");
  ZE_REQUIRE(desc->format <= ZE_MODULE_FORMAT_NATIVE, ZE_RESULT_ERROR_INVALID_ENUMERATION, "desc->format is not a module format");
  ZE_REQUIRE(!desc->pConstants || desc->pConstants->numConstants == 0 ||
                 (desc->pConstants->pConstantIds && desc->pConstants->pConstantValues),
             ZE_RESULT_ERROR_INVALID_NULL_POINTER, "desc->pConstants has null arrays");
  Device& device = *Device::fromHandle(hDevice);
  core::ProgramBuild built = build(device, *desc);
  if (phBuildLog) *phBuildLog = new ModuleBuildLog(built.log);
  if (built.status != compiler::Status::Success) {
    *phModule = nullptr;
    return reportError(buildResult(built.status), __func__, built.log.c_str());
  }
  *phModule = new Module(device, std::move(built.program));
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeModuleDestroy(ze_module_handle_t hModule) {
  ZE_REQUIRE_HANDLE(hModule);
  Module* module = Module::fromHandle(hModule);
  module->retireHandle();
  if (const size_t left = module->kernelCount(); left != 0)
    core::debugMessage("zeModuleDestroy: %zu kernel(s) of the module are not destroyed yet; the module stays until they are",
                       left);
  module->release();
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeModuleDynamicLink(uint32_t numModules, ze_module_handle_t* phModules, ze_module_build_log_handle_t* phLinkLog) {
  ZE_REQUIRE_POINTER(phModules);
  ZE_REQUIRE_HANDLES(numModules, phModules);
  std::vector<core::BackendProgram*> programs;
  for (uint32_t i = 0; i < numModules; ++i) {
    programs.push_back(&Module::fromHandle(phModules[i])->program().loaded());
  }
  // A backend links only programs of its own target (CPU code, or PTX for any of the GPUs).
  auto targetOf = [&](uint32_t i) { return Module::fromHandle(phModules[i])->program().compiled().target; };
  for (uint32_t i = 1; i < numModules; ++i)
    if (targetOf(i) != targetOf(0)) {
      const char* log = "the modules were built for different kinds of device (CPU code and GPU code)\n";
      if (phLinkLog) *phLinkLog = new ModuleBuildLog(log);
      return reportError(ZE_RESULT_ERROR_MODULE_LINK_FAILURE, __func__, log);
    }
  std::string log;
  bool linked = true;
  // Each module sees the exports of all the others.
  for (uint32_t i = 0; i < numModules; ++i) {
    std::vector<core::BackendProgram*> others;
    for (uint32_t j = 0; j < numModules; ++j)
      if (j != i) others.push_back(programs[j]);
    linked &= programs[i]->link(others, log);
  }
  if (phLinkLog) *phLinkLog = new ModuleBuildLog(log);
  if (!linked) return reportError(ZE_RESULT_ERROR_MODULE_LINK_FAILURE, __func__, log.c_str());
  for (uint32_t i = 0; i < numModules; ++i) Module::fromHandle(phModules[i])->markLinked();
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeModuleBuildLogDestroy(ze_module_build_log_handle_t hModuleBuildLog) {
  ZE_REQUIRE_HANDLE(hModuleBuildLog);
  delete ModuleBuildLog::fromHandle(hModuleBuildLog);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeModuleBuildLogGetString(ze_module_build_log_handle_t hModuleBuildLog, size_t* pSize, char* pBuildLog) {
  ZE_REQUIRE_HANDLE(hModuleBuildLog);
  ZE_REQUIRE_POINTER(pSize);
  return copyString(ModuleBuildLog::fromHandle(hModuleBuildLog)->text(), pSize, pBuildLog);
}

ze_result_t zeModuleGetNativeBinary(ze_module_handle_t hModule, size_t* pSize, uint8_t* pModuleNativeBinary) {
  ZE_REQUIRE_HANDLE(hModule);
  ZE_REQUIRE_POINTER(pSize);
  const std::vector<uint8_t> binary = compiler::writeNativeBinary(Module::fromHandle(hModule)->program().compiled());
  if (pModuleNativeBinary == nullptr) {
    *pSize = binary.size();
    return ZE_RESULT_SUCCESS;
  }
  ZE_REQUIRE(*pSize >= binary.size(), ZE_RESULT_ERROR_INVALID_SIZE, "*pSize is smaller than the native binary");
  std::memcpy(pModuleNativeBinary, binary.data(), binary.size());
  *pSize = binary.size();
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeModuleGetGlobalPointer(ze_module_handle_t hModule, const char* pGlobalName, size_t* pSize, void** pptr) {
  ZE_REQUIRE_HANDLE(hModule);
  ZE_REQUIRE_POINTER(pGlobalName);
  core::Program& program = Module::fromHandle(hModule)->program();
  const auto& globals = program.info().globals;
  auto global = std::find_if(globals.begin(), globals.end(), [&](const auto& g) { return g.name == pGlobalName; });
  ZE_REQUIRE(global != globals.end(), ZE_RESULT_ERROR_INVALID_GLOBAL_NAME, "no global variable of that name");
  void* address = program.loaded().globalVariable(global->name);
  ZE_REQUIRE(address != nullptr, ZE_RESULT_ERROR_INVALID_GLOBAL_NAME, "the global variable could not be resolved");
  // Copies and fills may reach it now, also where it is device memory outside every allocation.
  core::Runtime::get().memory().addProgramVariable(address, global->size, Module::fromHandle(hModule));
  if (pSize) *pSize = global->size;
  if (pptr) *pptr = address;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeModuleGetKernelNames(ze_module_handle_t hModule, uint32_t* pCount, const char** pNames) {
  ZE_REQUIRE_HANDLE(hModule);
  ZE_REQUIRE_POINTER(pCount);
  // Kernels the module has but this device cannot run yet are named too: creating them fails.
  return fillArray(Module::fromHandle(hModule)->program().info().kernelNames(), pCount, pNames,
                   [](const char*& name, const std::string* kernel) { name = kernel->c_str(); });
}

ze_result_t zeModuleGetProperties(ze_module_handle_t hModule, ze_module_properties_t* pModuleProperties) {
  ZE_REQUIRE_HANDLE(hModule);
  ZE_REQUIRE_POINTER(pModuleProperties);
  pModuleProperties->flags = Module::fromHandle(hModule)->linked() ? 0 : ZE_MODULE_PROPERTY_FLAG_IMPORTS;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeModuleGetFunctionPointer(ze_module_handle_t hModule, const char* pFunctionName, void** pfnFunction) {
  ZE_REQUIRE_HANDLE(hModule);
  ZE_REQUIRE_POINTER(pFunctionName);
  ZE_REQUIRE_POINTER(pfnFunction);
  Module& module = *Module::fromHandle(hModule);
  const auto& exported = module.program().info().exportedFunctions;
  const bool isExported = std::find(exported.begin(), exported.end(), pFunctionName) != exported.end();
  ZE_REQUIRE(isExported || module.program().info().findKernel(pFunctionName) != nullptr, ZE_RESULT_ERROR_INVALID_FUNCTION_NAME,
             "no function of that name");
  ZE_REQUIRE(isExported, ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "kernels cannot be called through function pointers");
  ZE_REQUIRE(module.linked(), ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED, "the module has unresolved imports: call zeModuleDynamicLink");
  *pfnFunction = module.program().loaded().function(pFunctionName);
  ZE_REQUIRE(*pfnFunction != nullptr, ZE_RESULT_ERROR_INVALID_FUNCTION_NAME, "the function could not be resolved");
  return ZE_RESULT_SUCCESS;
}

}  // namespace loom::l0
