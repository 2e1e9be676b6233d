// Without a CUDA driver, Loom lists exactly the CPU device, as before the CUDA backend existed.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include "backends/cpu/cpu_backend.h"
#include "backends/cuda/cuda_backend.h"
#include "loom/core/runtime.h"

namespace loom::backends::cuda {
namespace {

TEST(CudaDiscovery, NoDriverLibraryFindsNoGpuAndSaysWhy) {
  std::string whyNone;
  EXPECT_TRUE(discoverCudaDevices("/nonexistent/libcuda.so.1", whyNone).empty());
  EXPECT_NE(whyNone.find("/nonexistent/libcuda.so.1"), std::string::npos) << whyNone;
}

TEST(CudaDiscovery, DriverOlderThanThePtxNeedsIsRefusedWithItsVersion) {
  EXPECT_EQ(whyDriverUnsupported(11040), "the CUDA driver is 11.4, older than 11.5, the first that loads Loom's PTX");
  EXPECT_EQ(whyDriverUnsupported(11050), "");
  EXPECT_EQ(whyDriverUnsupported(12080), "");
}

TEST(CudaDiscovery, RuntimeWithoutGpusHasOnlyTheCpu) {
  std::string whyNone;
  std::vector<core::DiscoveredDevice> devices = discoverCudaDevices("/nonexistent/libcuda.so.1", whyNone);
  devices.push_back(cpu::discoverCpuDevice());
  core::Runtime runtime(std::move(devices));
  ASSERT_EQ(runtime.devices().size(), 1u);
  EXPECT_EQ(runtime.devices()[0]->info().type, core::DeviceType::Cpu);
}

TEST(CudaDiscovery, ProcessRuntimeWithoutLibcudaHasOnlyTheCpu) {
  if (void* libcuda = dlopen(kDriverLibrary, RTLD_NOW | RTLD_LOCAL)) {
    dlclose(libcuda);
    GTEST_SKIP() << "this machine has a CUDA driver";
  }
  const auto& devices = core::Runtime::get().devices();
  ASSERT_EQ(devices.size(), 1u);
  EXPECT_EQ(devices[0]->info().backendName, "cpu");
}

}  // namespace
}  // namespace loom::backends::cuda
