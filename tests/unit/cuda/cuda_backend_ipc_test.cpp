// IPC of a GPU's device memory on the fake driver: the driver's handle travels in Loom's handle,
// and a handle opened by the process that exported it is the allocation itself, since the driver
// opens handles only in other processes (cuIpcOpenMemHandle).
#include <gtest/gtest.h>

#include <string>

#include "backends/cuda/cuda_backend.h"
#include "fake_cuda_driver.h"
#include "loom/core/device.h"
#include "loom/core/memory_manager.h"

namespace loom::backends::cuda {
namespace {

const char kExporter = 0, kOpener = 0;  // API contexts: only their addresses count

class CudaBackendIpc : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    std::unique_ptr<CudaBackend> backend = CudaBackend::create(fake.driver(), 0, error);
    ASSERT_NE(backend, nullptr) << error;
    device = std::make_unique<core::Device>(std::move(backend), nullptr);
  }
  void TearDown() override {
    memory.reset();
    device.reset();
    EXPECT_TRUE(fake.deviceMemory.empty()) << "device memory leaked";
    EXPECT_TRUE(fake.misuse.empty()) << fake.misuse.front();
  }

  testing::FakeCudaDriver fake;  // first: outlives everything that calls it
  std::unique_ptr<core::Device> device;
  std::unique_ptr<core::MemoryManager> memory = std::make_unique<core::MemoryManager>();
};

TEST_F(CudaBackendIpc, AHandleOpenedInTheExportingProcessIsTheAllocationAndClosingItFreesNothing) {
  auto allocation = memory->allocate(core::MemoryType::Device, 4096, 0, device.get(), &kExporter);
  ASSERT_TRUE(allocation);
  char* interior = static_cast<char*>(allocation->address) + 256;
  const std::optional<core::IpcMemoryHandle> handle = memory->exportIpc(*allocation, interior);
  ASSERT_TRUE(handle);
  EXPECT_EQ(handle->kind, core::IpcMemoryKind::DriverHandle);
  EXPECT_EQ(fake.count("cuIpcGetMemHandle"), 1u);

  std::string why;
  auto opened = memory->importIpc(*handle, device.get(), &kOpener, why);
  ASSERT_TRUE(opened) << why;
  EXPECT_EQ(static_cast<char*>(opened->address) + handle->offset, interior);
  EXPECT_EQ(fake.count("cuIpcOpenMemHandle"), 0u) << "the driver refuses its own process's handles";

  EXPECT_TRUE(memory->closeIpc(interior, &kOpener));
  EXPECT_EQ(fake.count("cuIpcCloseMemHandle"), 0u);
  EXPECT_EQ(fake.count("cuMemFree"), 0u) << "closing freed the exporter's memory";
  EXPECT_EQ(fake.deviceMemory.count(reinterpret_cast<CUdeviceptr>(allocation->address)), 1u);
  EXPECT_FALSE(memory->closeIpc(interior, &kOpener)) << "closed already";

  EXPECT_TRUE(memory->free(allocation->address));
  EXPECT_EQ(fake.count("cuMemFree"), 1u);
}

}  // namespace
}  // namespace loom::backends::cuda
