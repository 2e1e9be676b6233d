#pragma once
// The CUDA driver, opened at run time with dlopen: Loom never links libcuda, so it builds and runs
// on machines without CUDA, where it simply finds no NVIDIA GPU.
#include <memory>
#include <string>
#include <string_view>

#include "backends/cuda/cuda_api.h"

namespace loom::backends::cuda {

constexpr const char* kDriverLibrary = "libcuda.so.1";

class Driver {
 public:
  // Opens `library` and resolves every entry point; nullptr, with `error` saying what was missing,
  // when the library cannot be opened or lacks one that is not optional. Never calls into the library.
  static std::unique_ptr<Driver> load(const std::string& library, std::string& error);
  // A driver of no library, whose entry points are all null until the caller sets them: for
  // tests that stand in for the driver.
  static std::unique_ptr<Driver> withoutLibrary() { return std::unique_ptr<Driver>(new Driver(nullptr)); }
  ~Driver();
  Driver(const Driver&) = delete;
  Driver& operator=(const Driver&) = delete;

#define LOOM_CUDA_FUNCTION(member, symbol, fallback, ...) CUresult (*member)(__VA_ARGS__) = nullptr;
#define LOOM_CUDA_OPTIONAL_FUNCTION(member, symbol, ...) CUresult (*member)(__VA_ARGS__) = nullptr;
#include "backends/cuda/cuda_functions.inl"
#undef LOOM_CUDA_FUNCTION
#undef LOOM_CUDA_OPTIONAL_FUNCTION

  // "<call>: <error name> (<description>)", e.g. "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (out of memory)".
  std::string describe(std::string_view call, CUresult result) const;

 private:
  explicit Driver(void* handle) : handle_(handle) {}
  bool resolve(std::string& error);

  void* handle_;
};

// The text Driver::describe prints; `name` and `description` may be null for codes the driver
// does not know.
std::string formatError(std::string_view call, CUresult result, const char* name, const char* description);

}  // namespace loom::backends::cuda
