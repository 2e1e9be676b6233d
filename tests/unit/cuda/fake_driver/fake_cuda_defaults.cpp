// Every entry point Loom resolves, failing with CUDA_ERROR_NOT_SUPPORTED: weak, so that those the
// fake implements (fake_cuda_driver.cpp) take their place.
#include "backends/cuda/cuda_api.h"

using namespace loom::backends::cuda;

#define LOOM_CUDA_FUNCTION(member, symbol, fallback, ...)               \
  extern "C" CUresult member(__VA_ARGS__) __asm__(symbol);              \
  extern "C" __attribute__((weak)) CUresult member(__VA_ARGS__) { return CUDA_ERROR_NOT_SUPPORTED; }
#define LOOM_CUDA_OPTIONAL_FUNCTION(member, symbol, ...)
#include "backends/cuda/cuda_functions.inl"
#undef LOOM_CUDA_FUNCTION
#undef LOOM_CUDA_OPTIONAL_FUNCTION
