#pragma once
// Runs forced onto CUDA (LOOM_ForceBackend=cuda) on a machine without the CUDA driver, as CI is:
// Loom lists no device there, and the API suites have nothing to test.
#include <dlfcn.h>

#include <cstdlib>
#include <cstring>

namespace loom::test {

inline bool forcedOntoAbsentCuda() {
  const char* backend = std::getenv("LOOM_ForceBackend");
  if (!backend || std::strcmp(backend, "cuda") != 0) return false;
  void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (driver) dlclose(driver);
  return driver == nullptr;
}

}  // namespace loom::test
