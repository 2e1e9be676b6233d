#pragma once
// Modules (programs built for one device) and their build logs.
#include <level_zero/ze_api.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "level_zero/handle/handle.h"
#include "loom/core/program.h"

namespace loom::l0 {

class Context;
class Device;

class ModuleBuildLog : public _ze_module_build_log_handle_t {
 public:
  explicit ModuleBuildLog(std::string text) : text_(std::move(text)) {}
  static ModuleBuildLog* fromHandle(ze_module_build_log_handle_t handle) { return static_cast<ModuleBuildLog*>(handle); }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

class Module : public _ze_module_handle_t {
 public:
  Module(Device& device, std::unique_ptr<core::Program> program) : device_(device), program_(std::move(program)) {}
  ~Module();
  static Module* fromHandle(ze_module_handle_t handle) { return static_cast<Module*>(handle); }

  core::Program& program() const { return *program_; }
  Device& device() const { return device_; }
  // Imports stay unresolved until zeModuleDynamicLink succeeds.
  bool linked() const { return program_->info().importedFunctions.empty() || linked_; }
  void markLinked() { linked_ = true; }
  // The module's life: zeModuleDestroy releases it, and it goes once it is released and its last
  // kernel is destroyed (applications destroy modules before their kernels, which the model
  // runtime accepts), then after the work in flight that runs its code.
  void addKernel();
  void removeKernel();
  void release();
  size_t kernelCount();

 private:
  void deleteAfterSubmittedWork();

  Device& device_;
  std::unique_ptr<core::Program> program_;
  bool linked_ = false;
  std::mutex mutex_;
  size_t kernels_ = 0;
  bool released_ = false;
};

ze_result_t zeModuleCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice, const ze_module_desc_t* desc,
                           ze_module_handle_t* phModule, ze_module_build_log_handle_t* phBuildLog);
ze_result_t zeModuleDestroy(ze_module_handle_t hModule);
ze_result_t zeModuleDynamicLink(uint32_t numModules, ze_module_handle_t* phModules, ze_module_build_log_handle_t* phLinkLog);
ze_result_t zeModuleBuildLogDestroy(ze_module_build_log_handle_t hModuleBuildLog);
ze_result_t zeModuleBuildLogGetString(ze_module_build_log_handle_t hModuleBuildLog, size_t* pSize, char* pBuildLog);
ze_result_t zeModuleGetNativeBinary(ze_module_handle_t hModule, size_t* pSize, uint8_t* pModuleNativeBinary);
ze_result_t zeModuleGetGlobalPointer(ze_module_handle_t hModule, const char* pGlobalName, size_t* pSize, void** pptr);
ze_result_t zeModuleGetKernelNames(ze_module_handle_t hModule, uint32_t* pCount, const char** pNames);
ze_result_t zeModuleGetProperties(ze_module_handle_t hModule, ze_module_properties_t* pModuleProperties);
ze_result_t zeModuleGetFunctionPointer(ze_module_handle_t hModule, const char* pFunctionName, void** pfnFunction);

}  // namespace loom::l0
