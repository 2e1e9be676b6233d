// Unified shared memory: host, device and shared allocations, their descriptions, bad sizes and
// alignments, and IPC handles across processes.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "ze_test_helpers.h"

namespace loom::test {
namespace {

class MemoryTest : public ZeTest {
 protected:
  // Allocates `size` bytes of `type` memory (not tracked: each test frees what it allocates).
  ze_result_t allocate(ze_memory_type_t type, size_t size, size_t alignment, void** out) {
    ze_device_mem_alloc_desc_t deviceDesc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    ze_host_mem_alloc_desc_t hostDesc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    switch (type) {
      case ZE_MEMORY_TYPE_HOST:
        return zeMemAllocHost(context, &hostDesc, size, alignment, out);
      case ZE_MEMORY_TYPE_DEVICE:
        return zeMemAllocDevice(context, &deviceDesc, size, alignment, device, out);
      default:
        return zeMemAllocShared(context, &deviceDesc, &hostDesc, size, alignment, device, out);
    }
  }
  static constexpr ze_memory_type_t kKinds[] = {ZE_MEMORY_TYPE_HOST, ZE_MEMORY_TYPE_DEVICE, ZE_MEMORY_TYPE_SHARED};
  // A second context of the driver, which the test destroys.
  ze_context_handle_t createOtherContext() {
    ze_context_desc_t contextDesc{ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    ze_context_handle_t other = nullptr;
    EXPECT_ZE(zeContextCreate(driver, &contextDesc, &other));
    return other;
  }
  // Copies through the synchronous list, which reach device memory on any device.
  void writeText(void* to, const std::string& text) {
    ASSERT_ZE(zeCommandListAppendMemoryCopy(list, to, text.data(), text.size(), nullptr, 0, nullptr));
  }
  std::string readText(const void* from, size_t size) {
    std::string text(size, '?');
    EXPECT_ZE(zeCommandListAppendMemoryCopy(list, text.data(), from, size, nullptr, 0, nullptr));
    return text;
  }
};

TEST_F(MemoryTest, EveryKindHonoursTheRequestedAlignment) {
  for (ze_memory_type_t type : kKinds)
    for (size_t alignment : {size_t(0), size_t(64), size_t(4096), size_t(65536)}) {
      void* memory = nullptr;
      ASSERT_ZE(allocate(type, 1000, alignment, &memory)) << type << " aligned to " << alignment;
      ASSERT_NE(memory, nullptr);
      EXPECT_EQ(reinterpret_cast<uintptr_t>(memory) % (alignment ? alignment : 8), 0u) << alignment;
      const uint8_t pattern = 0x3c;  // the whole allocation is usable
      EXPECT_ZE(zeCommandListAppendMemoryFill(list, memory, &pattern, 1, 1000, nullptr, 0, nullptr));
      EXPECT_ZE(zeMemFree(context, memory));
    }
}

TEST_F(MemoryTest, AllocationPropertiesNameTheKindAndTheDevice) {
  for (ze_memory_type_t type : kKinds) {
    void* memory = nullptr;
    ASSERT_ZE(allocate(type, 1000, 0, &memory));
    ze_memory_allocation_properties_t properties{ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
    ze_device_handle_t owner = reinterpret_cast<ze_device_handle_t>(0x1);
    ASSERT_ZE(zeMemGetAllocProperties(context, static_cast<char*>(memory) + 10, &properties, &owner));
    EXPECT_EQ(properties.type, type);
    EXPECT_NE(properties.id, 0u);
    EXPECT_EQ(owner, type == ZE_MEMORY_TYPE_HOST ? nullptr : device) << type;
    EXPECT_ZE(zeMemFree(context, memory));
  }
}

// ZE_extension_memory_free_policies. A copy into the allocation waits in a queue for an event the
// host signals later: a blocking free returns only once the copy is done and the memory gone; a
// deferred free returns at once and the memory goes when the copy is done.
class MemoryFreePolicyTest : public MemoryTest {
 protected:
  // Queues a copy into `memory` behind an event the host has not signalled yet; returns the event.
  ze_event_handle_t copyIntoBehindAnEvent(void* memory) {
    ze_event_handle_t gate = event(eventPool(ZE_EVENT_POOL_FLAG_HOST_VISIBLE));
    ze_command_list_handle_t regular = regularList();
    EXPECT_ZE(zeCommandListAppendMemoryCopy(regular, memory, source, sizeof(source), nullptr, 1, &gate));
    EXPECT_ZE(zeCommandListClose(regular));
    if (!executionQueue) executionQueue = commandQueue();
    EXPECT_ZE(zeCommandQueueExecuteCommandLists(executionQueue, 1, &regular, nullptr));
    return gate;
  }
  bool isAllocated(const void* memory) {
    ze_memory_allocation_properties_t properties{ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
    EXPECT_ZE(zeMemGetAllocProperties(context, memory, &properties, nullptr));
    return properties.type != ZE_MEMORY_TYPE_UNKNOWN;
  }
  const char source[64] = "bytes a queued copy writes";
};

TEST_F(MemoryFreePolicyTest, TheDriverSupportsBlockingAndDeferredFrees) {
  ze_driver_memory_free_ext_properties_t policies{ZE_STRUCTURE_TYPE_DRIVER_MEMORY_FREE_EXT_PROPERTIES};
  ze_driver_properties_t properties{ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES, &policies};
  ASSERT_ZE(zeDriverGetProperties(driver, &properties));
  EXPECT_EQ(policies.freePolicies, ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE | ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE);
  EXPECT_NE(listedExtensionVersion(ZE_MEMORY_FREE_POLICIES_EXT_NAME), 0u);
}

TEST_F(MemoryFreePolicyTest, ABlockingFreeReturnsOnceTheWorkUsingTheMemoryIsDone) {
  void* memory = nullptr;
  ASSERT_ZE(allocate(ZE_MEMORY_TYPE_SHARED, sizeof(source), 0, &memory));
  ze_event_handle_t gate = copyIntoBehindAnEvent(memory);
  std::atomic<bool> returned{false};
  ze_result_t result = ZE_RESULT_ERROR_UNKNOWN;
  std::thread freeing([&] {
    const ze_memory_free_ext_desc_t desc{ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC, nullptr,
                                         ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE};
    result = zeMemFreeExt(context, &desc, memory);
    returned = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(returned) << "the copy that uses the memory has not run yet";
  EXPECT_TRUE(isAllocated(memory));
  ASSERT_ZE(zeEventHostSignal(gate));
  freeing.join();
  EXPECT_ZE(result);
  EXPECT_FALSE(isAllocated(memory));
  ASSERT_ZE(zeCommandQueueSynchronize(executionQueue, kTimeout));
}

TEST_F(MemoryFreePolicyTest, ADeferredFreeReturnsAtOnceAndFreesWhenTheWorkIsDone) {
  void* memory = nullptr;
  ASSERT_ZE(allocate(ZE_MEMORY_TYPE_DEVICE, sizeof(source), 0, &memory));
  ze_event_handle_t gate = copyIntoBehindAnEvent(memory);
  const ze_memory_free_ext_desc_t desc{ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC, nullptr,
                                       ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE};
  ASSERT_ZE(zeMemFreeExt(context, &desc, memory));
  EXPECT_TRUE(isAllocated(memory)) << "the copy that uses the memory has not run yet";
  ASSERT_ZE(zeEventHostSignal(gate));
  ASSERT_ZE(zeCommandQueueSynchronize(executionQueue, kTimeout));
  // The free follows the copy's completion, which a GPU's engine reports from a thread of its own.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::nanoseconds(kTimeout);
  while (isAllocated(memory) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_FALSE(isAllocated(memory));
}

TEST_F(MemoryFreePolicyTest, BadPoliciesAndPointersAreRefused) {
  void* memory = nullptr;
  ASSERT_ZE(allocate(ZE_MEMORY_TYPE_HOST, 64, 0, &memory));
  const ze_memory_free_ext_desc_t unknown{ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC, nullptr, 0x4};
  EXPECT_EQ(zeMemFreeExt(context, &unknown, memory), ZE_RESULT_ERROR_INVALID_ENUMERATION);
  EXPECT_EQ(zeMemFreeExt(context, nullptr, memory), ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  const ze_memory_free_ext_desc_t immediate{ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC, nullptr, 0};
  EXPECT_EQ(zeMemFreeExt(context, &immediate, nullptr), ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  char onTheStack[8];
  EXPECT_EQ(zeMemFreeExt(context, &immediate, onTheStack), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_ZE(zeMemFreeExt(context, &immediate, memory));
  EXPECT_FALSE(isAllocated(memory));
}

TEST_F(MemoryTest, AllocationIdsDiffer) {
  char *first = shared<char>(16), *second = shared<char>(16);
  ze_memory_allocation_properties_t a{ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
  ze_memory_allocation_properties_t b{ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
  ASSERT_ZE(zeMemGetAllocProperties(context, first, &a, nullptr));
  ASSERT_ZE(zeMemGetAllocProperties(context, second, &b, nullptr));
  EXPECT_NE(a.id, b.id);
}

TEST_F(MemoryTest, AddressRangeOfAnInteriorPointerIsTheWholeAllocation) {
  for (ze_memory_type_t type : kKinds) {
    void* memory = nullptr;
    ASSERT_ZE(allocate(type, 1000, 64, &memory));
    void* base = nullptr;
    size_t size = 0;
    ASSERT_ZE(zeMemGetAddressRange(context, static_cast<char*>(memory) + 999, &base, &size));
    EXPECT_EQ(base, memory) << type;
    EXPECT_EQ(size, 1000u) << type;
    base = nullptr;
    ASSERT_ZE(zeMemGetAddressRange(context, static_cast<char*>(memory) + 500, &base, nullptr));  // size is optional
    EXPECT_EQ(base, memory);
    EXPECT_ZE(zeMemFree(context, memory));
  }
}

TEST_F(MemoryTest, AStackPointerIsUnknown) {
  int onTheStack = 0;
  ze_memory_allocation_properties_t properties{ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
  properties.type = ZE_MEMORY_TYPE_SHARED;
  ASSERT_ZE(zeMemGetAllocProperties(context, &onTheStack, &properties, nullptr));
  EXPECT_EQ(properties.type, ZE_MEMORY_TYPE_UNKNOWN);
  void* base = nullptr;
  EXPECT_NE(zeMemGetAddressRange(context, &onTheStack, &base, nullptr), ZE_RESULT_SUCCESS);
}

TEST_F(MemoryTest, FreeingAPointerLoomDidNotAllocateFails) {
  int onTheStack = 0;
  EXPECT_EQ(zeMemFree(context, &onTheStack), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  char* memory = shared<char>(64);
  EXPECT_EQ(zeMemFree(context, memory + 8), ZE_RESULT_ERROR_INVALID_ARGUMENT) << "an interior pointer is not an allocation";
}

TEST_F(MemoryTest, ZeroSizeIsUnsupportedForEveryKind) {
  for (ze_memory_type_t type : kKinds) {
    void* memory = nullptr;
    EXPECT_EQ(allocate(type, 0, 0, &memory), ZE_RESULT_ERROR_UNSUPPORTED_SIZE) << type;
    EXPECT_EQ(memory, nullptr);
  }
}

TEST_F(MemoryTest, ASizeBeyondTheDeviceIsUnsupported) {
  void* memory = nullptr;
  EXPECT_EQ(allocate(ZE_MEMORY_TYPE_DEVICE, SIZE_MAX / 2, 0, &memory), ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
}

// ZE_experimental_relaxed_allocation_limits: past maxMemAllocSize only when the device
// description chains the relaxed limits, and never past the device's memory.
TEST_F(MemoryTest, RelaxedLimitsAllowAllocationsPastMaxMemAllocSize) {
  EXPECT_NE(listedExtensionVersion(ZE_RELAXED_ALLOCATION_LIMITS_EXP_NAME), 0u);
  ze_device_properties_t properties{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
  ASSERT_ZE(zeDeviceGetProperties(device, &properties));
  ze_relaxed_allocation_limits_exp_desc_t relaxed{ZE_STRUCTURE_TYPE_RELAXED_ALLOCATION_LIMITS_EXP_DESC, nullptr,
                                                  ZE_RELAXED_ALLOCATION_LIMITS_EXP_FLAG_MAX_SIZE};
  ze_device_mem_alloc_desc_t plainDesc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
  ze_device_mem_alloc_desc_t relaxedDesc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, &relaxed};
  ze_host_mem_alloc_desc_t hostDesc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
  const size_t pastLimit = properties.maxMemAllocSize + 4096;
  void* memory = nullptr;
  EXPECT_EQ(zeMemAllocDevice(context, &plainDesc, pastLimit, 0, device, &memory), ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  EXPECT_EQ(zeMemAllocShared(context, &plainDesc, &hostDesc, pastLimit, 0, device, &memory), ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  ASSERT_ZE(zeMemAllocDevice(context, &relaxedDesc, pastLimit, 0, device, &memory));
  const uint8_t pattern = 0x5a;  // its last page is usable
  char* lastPage = static_cast<char*>(memory) + pastLimit - 4096;
  EXPECT_ZE(zeCommandListAppendMemoryFill(list, lastPage, &pattern, 1, 4096, nullptr, 0, nullptr));
  EXPECT_ZE(zeMemFree(context, memory));
  ze_device_memory_properties_t memoryProperties{ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES};
  uint32_t count = 1;
  ASSERT_ZE(zeDeviceGetMemoryProperties(device, &count, &memoryProperties));
  EXPECT_EQ(zeMemAllocDevice(context, &relaxedDesc, memoryProperties.totalSize + 4096, 0, device, &memory),
            ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  relaxed.flags = 0x10;
  EXPECT_EQ(zeMemAllocDevice(context, &relaxedDesc, 64, 0, device, &memory), ZE_RESULT_ERROR_INVALID_ENUMERATION);
}

TEST_F(MemoryTest, NonPowerOfTwoAlignmentIsUnsupportedForEveryKind) {
  for (ze_memory_type_t type : kKinds)
    for (size_t alignment : {size_t(3), size_t(48), size_t(4097)}) {
      void* memory = nullptr;
      EXPECT_EQ(allocate(type, 64, alignment, &memory), ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT) << type << " " << alignment;
    }
}

TEST_F(MemoryTest, UnknownAllocationFlagsAreABadEnumeration) {
  ze_host_mem_alloc_desc_t hostDesc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
  ze_device_mem_alloc_desc_t deviceDesc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
  void* memory = nullptr;
  hostDesc.flags = 0x10;  // beyond 0xf
  EXPECT_EQ(zeMemAllocHost(context, &hostDesc, 64, 0, &memory), ZE_RESULT_ERROR_INVALID_ENUMERATION);
  deviceDesc.flags = 0x8;  // beyond 0x7
  EXPECT_EQ(zeMemAllocDevice(context, &deviceDesc, 64, 0, device, &memory), ZE_RESULT_ERROR_INVALID_ENUMERATION);
}

// What a parent process asks of MemoryTest.DISABLED_WritesAPatternThroughAnIpcHandle.
struct IpcWrite {
  ze_ipc_mem_handle_t handle;
  uint32_t bytes;
};

uint8_t patternByte(uint32_t i) { return uint8_t(0xc0 + i * 7); }

// The other process's side: opens the handle in a context of its own, copies the pattern there
// (a copy reaches memory of every kind, on any device) and closes it.
TEST_F(MemoryTest, DISABLED_WritesAPatternThroughAnIpcHandle) {
  CHILD_INPUT(IpcWrite, request);
  std::vector<uint8_t> pattern(request.bytes);
  for (uint32_t i = 0; i < request.bytes; ++i) pattern[i] = patternByte(i);
  void* opened = nullptr;
  ASSERT_ZE(zeMemOpenIpcHandle(context, device, request.handle, 0, &opened));
  ASSERT_ZE(zeCommandListAppendMemoryCopy(list, opened, pattern.data(), pattern.size(), nullptr, 0, nullptr));
  ASSERT_ZE(zeMemCloseIpcHandle(context, opened));
}

// Every kind of allocation travels to another process, at the exported pointer (here inside the
// allocation); a GPU's driver shares device and host memory but not managed (shared) memory.
TEST_F(MemoryTest, AnotherProcessWritesThroughAnIpcHandleOfEveryKind) {
  constexpr uint32_t kSize = 8192, kOffset = 100, kWritten = 4096;
  for (ze_memory_type_t type : kKinds) {
    void* memory = nullptr;
    ASSERT_ZE(allocate(type, kSize, 0, &memory));
    allocations.push_back(memory);
    const uint8_t zero = 0;
    ASSERT_ZE(zeCommandListAppendMemoryFill(list, memory, &zero, 1, kSize, nullptr, 0, nullptr));
    IpcWrite request{{}, kWritten};
    const ze_result_t exported = zeMemGetIpcHandle(context, static_cast<char*>(memory) + kOffset, &request.handle);
    if (type == ZE_MEMORY_TYPE_SHARED && deviceType() != ZE_DEVICE_TYPE_CPU) {
      EXPECT_EQ(exported, ZE_RESULT_ERROR_UNSUPPORTED_FEATURE) << "CUDA has no IPC of managed memory";
      continue;
    }
    ASSERT_ZE(exported) << type;
    ASSERT_EQ(runTestInNewProcess("MemoryTest.DISABLED_WritesAPatternThroughAnIpcHandle", bytesOf(request)), 0) << type;
    std::vector<uint8_t> seen(kSize);
    ASSERT_ZE(zeCommandListAppendMemoryCopy(list, seen.data(), memory, kSize, nullptr, 0, nullptr));
    for (uint32_t i = 0; i < kSize; ++i) {
      const bool written = i >= kOffset && i < kOffset + kWritten;
      ASSERT_EQ(seen[i], written ? patternByte(i - kOffset) : 0) << type << " byte " << i;
    }
  }
}

// The specification lets a process open its own IPC handle: on the CPU that maps the memory once
// more; a GPU's driver opens handles only in other processes, so there the handle opens as the
// allocation itself. Either way it reaches the same memory, at the exported interior pointer, and
// closing it leaves the allocation as it was.
TEST_F(MemoryTest, AnIpcHandleOpensInTheExportingProcessAtItsInteriorPointer) {
  char* memory = deviceMemory<char>(4096);
  writeText(memory, std::string(4096, '\0'));
  ze_ipc_mem_handle_t handle{};
  ASSERT_ZE(zeMemGetIpcHandle(context, memory + 100, &handle));
  void* opened = nullptr;
  ASSERT_ZE(zeMemOpenIpcHandle(context, device, handle, 0, &opened));
  writeText(opened, "written through the handle");
  EXPECT_EQ(readText(memory + 99, 27), std::string(1, '\0') + "written through the handle");
  EXPECT_ZE(zeMemCloseIpcHandle(context, opened));
  EXPECT_EQ(zeMemCloseIpcHandle(context, opened), ZE_RESULT_ERROR_INVALID_ARGUMENT) << "closed already";

  writeText(memory + 100, "the allocation lives on");
  EXPECT_EQ(readText(memory + 100, 23), "the allocation lives on");
  ze_memory_allocation_properties_t properties{ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
  ASSERT_ZE(zeMemGetAllocProperties(context, memory, &properties, nullptr));
  EXPECT_EQ(properties.type, ZE_MEMORY_TYPE_DEVICE);
}

// Each open of a process's own handle is closed once, in the context that opened it.
TEST_F(MemoryTest, EachOpenOfAnOwnIpcHandleIsClosedOnceInItsContext) {
  ze_context_handle_t other = createOtherContext();
  ASSERT_NE(other, nullptr);
  char* memory = deviceMemory<char>(4096);
  ze_ipc_mem_handle_t handle{};
  ASSERT_ZE(zeMemGetIpcHandle(context, memory, &handle));
  void *first = nullptr, *second = nullptr;
  ASSERT_ZE(zeMemOpenIpcHandle(other, device, handle, 0, &first));
  ASSERT_ZE(zeMemOpenIpcHandle(other, device, handle, 0, &second));
  EXPECT_EQ(zeMemCloseIpcHandle(context, first), ZE_RESULT_ERROR_INVALID_ARGUMENT) << "opened in the other context";
  EXPECT_ZE(zeMemCloseIpcHandle(other, first));
  writeText(second, "the second open still works");
  EXPECT_EQ(readText(memory, 27), "the second open still works");
  EXPECT_ZE(zeMemCloseIpcHandle(other, second));
  ASSERT_ZE(zeContextDestroy(other));
  EXPECT_EQ(readText(memory, 27), "the second open still works");
}

// As zeMemFree, and as level-zero-tests expect (they export through a context of their own):
// any context of the driver exports the driver's allocations.
TEST_F(MemoryTest, AnotherContextOfTheDriverExportsAnAllocation) {
  ze_context_handle_t other = createOtherContext();
  ASSERT_NE(other, nullptr);
  char* memory = deviceMemory<char>(4096);
  ze_ipc_mem_handle_t handle{};
  ASSERT_ZE(zeMemGetIpcHandle(other, memory, &handle));
  ASSERT_ZE(zeContextDestroy(other));
  void* opened = nullptr;
  ASSERT_ZE(zeMemOpenIpcHandle(context, device, handle, 0, &opened));
  writeText(opened, "written through the handle");
  EXPECT_ZE(zeMemCloseIpcHandle(context, opened));
  EXPECT_EQ(readText(memory, 26), "written through the handle");
}

TEST_F(MemoryTest, AStackPointerHasNoIpcHandle) {
  int onTheStack = 0;
  ze_ipc_mem_handle_t handle{};
  EXPECT_EQ(zeMemGetIpcHandle(context, &onTheStack, &handle), ZE_RESULT_ERROR_INVALID_ARGUMENT);
}

}  // namespace
}  // namespace loom::test
