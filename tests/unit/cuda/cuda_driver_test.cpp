#include "backends/cuda/cuda_driver.h"

#include <gtest/gtest.h>

namespace loom::backends::cuda {
namespace {

TEST(CudaDriver, MissingLibraryFailsWithReason) {
  std::string error;
  EXPECT_EQ(Driver::load("/nonexistent/libcuda.so.1", error), nullptr);
  EXPECT_NE(error.find("/nonexistent/libcuda.so.1"), std::string::npos) << error;
}

TEST(CudaDriver, LibraryWithoutEntryPointsFailsNamingTheFirstMissing) {
  std::string error;
  EXPECT_EQ(Driver::load("libc.so.6", error), nullptr);
  EXPECT_EQ(error, "libc.so.6: the CUDA driver lacks cuInit");
}

TEST(CudaDriver, ErrorTextHasCallNameAndDescription) {
  EXPECT_EQ(formatError("cuMemAlloc", 2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"),
            "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (out of memory)");
}

TEST(CudaDriver, ErrorTextOfUnknownCodeHasNumber) {
  EXPECT_EQ(formatError("cuLaunchKernel", 12345, nullptr, nullptr), "cuLaunchKernel: CUDA error 12345");
  EXPECT_EQ(formatError("cuInit", 100, "CUDA_ERROR_NO_DEVICE", nullptr), "cuInit: CUDA_ERROR_NO_DEVICE");
}

}  // namespace
}  // namespace loom::backends::cuda
