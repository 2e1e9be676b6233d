// Peer access between devices: what zeDeviceCanAccessPeer and zeDeviceGetP2PProperties report,
// and that copies and kernels on one GPU reach another GPU's memory. The GPU tests skip unless the
// driver lists two GPUs.
#include <numeric>

#include "ze_test_helpers.h"

namespace loom::test {
namespace {

class PeerTest : public ZeTest {
 protected:
  void SetUp() override {
    ZeTest::SetUp();
    if (HasFatalFailure() || IsSkipped()) return;
    uint32_t count = 0;
    ASSERT_ZE(zeDeviceGet(driver, &count, nullptr));
    all.resize(count);
    ASSERT_ZE(zeDeviceGet(driver, &count, all.data()));
    for (ze_device_handle_t candidate : all) (typeOf(candidate) == ZE_DEVICE_TYPE_GPU ? gpus : cpus).push_back(candidate);
  }

  static ze_device_type_t typeOf(ze_device_handle_t of) {
    ze_device_properties_t properties{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    EXPECT_ZE(zeDeviceGetProperties(of, &properties));
    return properties.type;
  }
  static bool canAccess(ze_device_handle_t from, ze_device_handle_t to) {
    ze_bool_t value = false;
    EXPECT_ZE(zeDeviceCanAccessPeer(from, to, &value));
    return value;
  }
  static ze_device_p2p_property_flags_t p2pFlags(ze_device_handle_t from, ze_device_handle_t to) {
    ze_device_p2p_properties_t properties{ZE_STRUCTURE_TYPE_DEVICE_P2P_PROPERTIES};
    EXPECT_ZE(zeDeviceGetP2PProperties(from, to, &properties));
    return properties.flags;
  }

  // A synchronous immediate list on `on`'s compute group.
  ze_command_list_handle_t listOn(ze_device_handle_t on) {
    const ze_command_queue_desc_t desc = queueDesc(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS, 0, 0);
    ze_command_list_handle_t handle = nullptr;
    EXPECT_ZE(zeCommandListCreateImmediate(context, on, &desc, &handle));
    if (handle) commandLists.push_back(handle);
    return handle;
  }
  template <typename T>
  T* deviceMemoryOn(ze_device_handle_t on, size_t count) {
    ze_device_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    void* memory = nullptr;
    EXPECT_ZE(zeMemAllocDevice(context, &desc, count * sizeof(T), 64, on, &memory));
    if (memory) allocations.push_back(memory);
    return static_cast<T*>(memory);
  }

  std::vector<ze_device_handle_t> all, gpus, cpus;
};

#define SKIP_UNLESS_TWO_GPUS() \
  if (gpus.size() < 2) GTEST_SKIP() << "needs two GPUs; the driver lists " << gpus.size()

TEST_F(PeerTest, PeerQueriesAgreeWithEachOther) {
  for (ze_device_handle_t from : all)
    for (ze_device_handle_t to : all) {
      const ze_device_p2p_property_flags_t flags = p2pFlags(from, to);
      EXPECT_EQ(canAccess(from, to), (flags & ZE_DEVICE_P2P_PROPERTY_FLAG_ACCESS) != 0);
      if (!(flags & ZE_DEVICE_P2P_PROPERTY_FLAG_ACCESS)) {
        EXPECT_FALSE(flags & ZE_DEVICE_P2P_PROPERTY_FLAG_ATOMICS);
      }
    }
}

TEST_F(PeerTest, AGpuAndTheCpuAreNoPeers) {
  if (gpus.empty() || cpus.empty()) GTEST_SKIP() << "needs a GPU and the CPU device in one driver";
  EXPECT_FALSE(canAccess(gpus[0], cpus[0]));
  EXPECT_FALSE(canAccess(cpus[0], gpus[0]));
  EXPECT_EQ(p2pFlags(gpus[0], cpus[0]), 0u);
}

TEST_F(PeerTest, CopiesMoveDataBetweenTwoGpus) {
  SKIP_UNLESS_TWO_GPUS();
  std::printf("GPU 0 -> GPU 1: access %d, flags 0x%x; GPU 1 -> GPU 0: access %d\n", canAccess(gpus[0], gpus[1]),
              p2pFlags(gpus[0], gpus[1]), canAccess(gpus[1], gpus[0]));
  const size_t n = 1 << 16;
  std::vector<uint32_t> values(n);
  std::iota(values.begin(), values.end(), 11u);
  auto* first = deviceMemoryOn<uint32_t>(gpus[0], n);
  auto* second = deviceMemoryOn<uint32_t>(gpus[1], n);
  ze_command_list_handle_t onFirst = listOn(gpus[0]);
  ze_command_list_handle_t onSecond = listOn(gpus[1]);
  ASSERT_ZE(zeCommandListAppendMemoryCopy(onFirst, first, values.data(), n * 4, nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListAppendMemoryCopy(onFirst, second, first, n * 4, nullptr, 0, nullptr));
  std::vector<uint32_t> seen(n);
  ASSERT_ZE(zeCommandListAppendMemoryCopy(onSecond, seen.data(), second, n * 4, nullptr, 0, nullptr));
  EXPECT_EQ(seen, values);
}

TEST_F(PeerTest, AKernelOnOneGpuWritesAnotherGpusMemory) {
  SKIP_UNLESS_TWO_GPUS();
  if (!canAccess(gpus[0], gpus[1])) GTEST_SKIP() << "GPU 0 cannot reach GPU 1's memory";
  device = gpus[0];  // the kernel's module and list are GPU 0's
  const size_t n = 256;
  auto* a = deviceMemoryOn<float>(gpus[0], n);
  auto* b = deviceMemoryOn<float>(gpus[1], n);
  auto* sum = deviceMemoryOn<float>(gpus[1], n);
  std::vector<float> left(n), right(n), expected(n);
  for (size_t i = 0; i < n; ++i) {
    left[i] = float(i);
    right[i] = 2.0f;
    expected[i] = float(i) + 2.0f;
  }
  ze_command_list_handle_t onFirst = listOn(gpus[0]);
  ASSERT_ZE(zeCommandListAppendMemoryCopy(onFirst, a, left.data(), n * 4, nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListAppendMemoryCopy(onFirst, b, right.data(), n * 4, nullptr, 0, nullptr));
  ze_kernel_handle_t add = apiKernel("add_vectors");
  setArguments(add, a, b, sum);
  launch(add, n / 64, 64, onFirst);
  std::vector<float> seen(n);
  ASSERT_ZE(zeCommandListAppendMemoryCopy(listOn(gpus[1]), seen.data(), sum, n * 4, nullptr, 0, nullptr));
  EXPECT_EQ(seen, expected);
}

// GPU 1's physical memory mapped into the context's reservation: GPU 0 reaches it when it is GPU
// 1's peer (access is granted to every GPU that reaches the memory's own).
TEST_F(PeerTest, AGpuReachesAnotherGpusPhysicalMemoryThroughAMapping) {
  SKIP_UNLESS_TWO_GPUS();
  if (!canAccess(gpus[0], gpus[1])) GTEST_SKIP() << "GPU 0 cannot reach GPU 1's memory";
  size_t pageSize = 0;
  ASSERT_ZE(zeVirtualMemQueryPageSize(context, gpus[1], 1, &pageSize));
  void* reserved = nullptr;
  ASSERT_ZE(zeVirtualMemReserve(context, nullptr, pageSize, &reserved));
  ze_physical_mem_desc_t desc{ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, nullptr, 0, pageSize};
  ze_physical_mem_handle_t physical = nullptr;
  ASSERT_ZE(zePhysicalMemCreate(context, gpus[1], &desc, &physical));
  ASSERT_ZE(zeVirtualMemMap(context, reserved, pageSize, physical, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
  const uint8_t pattern = 0x3c;
  ze_command_list_handle_t onFirst = listOn(gpus[0]);
  ASSERT_ZE(zeCommandListAppendMemoryFill(onFirst, reserved, &pattern, 1, pageSize, nullptr, 0, nullptr));
  std::vector<uint8_t> seen(pageSize);
  ASSERT_ZE(zeCommandListAppendMemoryCopy(listOn(gpus[1]), seen.data(), reserved, pageSize, nullptr, 0, nullptr));
  EXPECT_EQ(seen, std::vector<uint8_t>(pageSize, pattern));
  EXPECT_ZE(zeVirtualMemFree(context, reserved, pageSize));
  EXPECT_ZE(zePhysicalMemDestroy(context, physical));
}

}  // namespace
}  // namespace loom::test
