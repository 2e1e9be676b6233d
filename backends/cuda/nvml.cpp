#include "backends/cuda/nvml.h"

#include <dlfcn.h>

#include <mutex>

namespace loom::backends::cuda {

namespace {
template <typename Function>
void resolve(void* handle, const char* name, Function& function) {
  function = reinterpret_cast<Function>(dlsym(handle, name));
}
}  // namespace

std::unique_ptr<Nvml> Nvml::load(const std::string& library, std::string& error) {
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    error = "cannot open " + library;
    return nullptr;
  }
  std::unique_ptr<Nvml> nvml(new Nvml());
  resolve(handle, "nvmlInit_v2", nvml->nvmlInit_v2);
  resolve(handle, "nvmlDeviceGetHandleByPciBusId_v2", nvml->nvmlDeviceGetHandleByPciBusId_v2);
#define LOOM_NVML_FUNCTION(name, ...) resolve(handle, #name, nvml->name);
#include "backends/cuda/nvml_functions.inl"
#undef LOOM_NVML_FUNCTION
  if (!nvml->nvmlInit_v2 || !nvml->nvmlDeviceGetHandleByPciBusId_v2) {
    error = library + " lacks nvmlInit_v2 or nvmlDeviceGetHandleByPciBusId_v2";
  } else if (const nvmlReturn_t result = nvml->nvmlInit_v2(); result != NVML_SUCCESS) {
    error = "nvmlInit_v2 failed with " + std::to_string(result);
  } else {
    return nvml;  // the library stays open for the process's lifetime
  }
  dlclose(handle);
  return nullptr;
}

std::shared_ptr<const Nvml> Nvml::shared(std::string& error) {
  static std::once_flag once;
  static std::shared_ptr<const Nvml>* nvml = nullptr;  // never destroyed
  static std::string whyNone;
  std::call_once(once, [] { nvml = new std::shared_ptr<const Nvml>(load(kNvmlLibrary, whyNone)); });
  error = whyNone;
  return *nvml;
}

}  // namespace loom::backends::cuda
