#include "backends/cuda/cuda_driver.h"

#include <dlfcn.h>

namespace loom::backends::cuda {

namespace {
// Looks `symbol` up, then `fallback` for drivers older than the versioned name.
template <typename Function>
bool resolveSymbol(void* handle, const char* symbol, const char* fallback, Function& function, std::string& error) {
  void* address = dlsym(handle, symbol);
  if (!address && fallback) address = dlsym(handle, fallback);
  if (!address) {
    error = std::string("the CUDA driver lacks ") + symbol;
    return false;
  }
  function = reinterpret_cast<Function>(address);
  return true;
}
}  // namespace

std::unique_ptr<Driver> Driver::load(const std::string& library, std::string& error) {
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* reason = dlerror();
    error = reason ? reason : "cannot open " + library;
    return nullptr;
  }
  std::unique_ptr<Driver> driver(new Driver(handle));
  if (!driver->resolve(error)) {
    error = library + ": " + error;
    return nullptr;
  }
  return driver;
}

Driver::~Driver() {
  if (handle_) dlclose(handle_);
}

bool Driver::resolve(std::string& error) {
#define LOOM_CUDA_FUNCTION(member, symbol, fallback, ...) \
  if (!resolveSymbol(handle_, symbol, fallback, member, error)) return false;
#define LOOM_CUDA_OPTIONAL_FUNCTION(member, symbol, ...) member = reinterpret_cast<decltype(member)>(dlsym(handle_, symbol));
#include "backends/cuda/cuda_functions.inl"
#undef LOOM_CUDA_FUNCTION
#undef LOOM_CUDA_OPTIONAL_FUNCTION
  return true;
}

std::string Driver::describe(std::string_view call, CUresult result) const {
  const char* name = nullptr;
  const char* description = nullptr;
  if (cuGetErrorName(result, &name) != CUDA_SUCCESS) name = nullptr;
  if (cuGetErrorString(result, &description) != CUDA_SUCCESS) description = nullptr;
  return formatError(call, result, name, description);
}

std::string formatError(std::string_view call, CUresult result, const char* name, const char* description) {
  std::string text(call);
  text += ": ";
  text += name ? std::string(name) : "CUDA error " + std::to_string(result);
  if (description) text += std::string(" (") + description + ")";
  return text;
}

}  // namespace loom::backends::cuda
