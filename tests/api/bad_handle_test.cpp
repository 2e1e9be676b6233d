// Handles that are not live handles of their kind (another kind, destroyed, garbage), descriptors
// with a wrong stype or a pNext chain that loops or leads nowhere, and copies and fills outside
// Loom's allocations: each case runs in a forked child, which expects the code the specification
// gives and then checks that the driver still runs a kernel. A signal, a hang or another code
// fails the case.
#include <level_zero/zes_api.h>
#include <sys/mman.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "bad_call_test.h"

namespace loom::test {
namespace {

constexpr ze_result_t kInvalidArgument = ZE_RESULT_ERROR_INVALID_ARGUMENT;
constexpr ze_result_t kInvalidSize = ZE_RESULT_ERROR_INVALID_SIZE;

template <typename To, typename From>
To as(From from) {
  return reinterpret_cast<To>(from);
}

// A handle of type `Handle` that points nowhere Loom ever allocated.
template <typename Handle>
Handle garbage() {
  return reinterpret_cast<Handle>(uintptr_t{0xdeadbeef});
}

class BadHandleTest : public BadCallTest {
 protected:
  void SetUp() override {
    ZeTest::SetUp();
    if (HasFatalFailure() || IsSkipped()) return;
    SKIP_UNLESS_CPU_DEVICE("the cases run in forked children (CUDA is not usable after fork)");
    createObjects();
    // What the children check the driver with; no case touches these.
    checkKernel = apiKernel("add_vectors");
    checkData = shared<float>(16);
    unreadable = mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(unreadable, MAP_FAILED);
  }

  void TearDown() override {
    if (unreadable && unreadable != MAP_FAILED) munmap(unreadable, 4096);
    ZeTest::TearDown();
  }

  // True when a kernel still runs and computes: sum = a + b over 16 elements.
  bool driverStillWorks() {
    for (int i = 0; i < 16; ++i) checkData[i] = float(i);
    auto set = [&](uint32_t index) { return zeKernelSetArgumentValue(checkKernel, index, sizeof(checkData), &checkData); };
    if (set(0) != ZE_RESULT_SUCCESS || set(1) != ZE_RESULT_SUCCESS || set(2) != ZE_RESULT_SUCCESS) return false;
    if (zeKernelSetGroupSize(checkKernel, 16, 1, 1) != ZE_RESULT_SUCCESS) return false;
    const ze_group_count_t groups{1, 1, 1};
    if (zeCommandListAppendLaunchKernel(list, checkKernel, &groups, nullptr, 0, nullptr) != ZE_RESULT_SUCCESS) return false;
    return checkData[15] == 30.0f;
  }

  // Each case in a child of its own: the expected code, then a working driver.
  void check(const std::vector<Case>& cases) {
    for (const Case& c : cases) {
      const int exitCode = runInChildProcess([&] {
        const ze_result_t result = c.invoke();
        if (result != c.expected) {
          std::fprintf(stderr, "%s returned 0x%x\n", c.call, unsigned(result));
          return false;
        }
        return driverStillWorks();
      });
      EXPECT_EQ(exitCode, 0) << c.call
                             << (exitCode > 128  ? ": killed by a signal"
                                 : exitCode < 0  ? ": did not finish"
                                                 : ": another code, or the driver failed afterwards");
    }
    EXPECT_TRUE(driverStillWorks());
  }

  ze_kernel_handle_t checkKernel = nullptr;
  float* checkData = nullptr;
  void* unreadable = nullptr;  // mapped, but no byte of it can be read
};

// `first` must succeed; the case is what `then` returns afterwards.
#define AFTER(first, then) \
  Case{#first "; " #then, kInvalidArgument, [&]() -> ze_result_t { return (first) == ZE_RESULT_SUCCESS ? (then) : ZE_RESULT_ERROR_UNKNOWN; }}

TEST_F(BadHandleTest, HandlesOfAnotherKindOrGarbageAreInvalidArguments) {
  const ze_group_count_t groups{1, 1, 1};
  ze_device_properties_t deviceProperties{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
  ze_driver_properties_t driverProperties{ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES};
  zes_freq_properties_t frequencyProperties{ZES_STRUCTURE_TYPE_FREQ_PROPERTIES};
  ze_context_desc_t contextDesc{ZE_STRUCTURE_TYPE_CONTEXT_DESC};
  ze_event_pool_desc_t poolDesc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, 0, 1};
  ze_device_mem_alloc_desc_t deviceDesc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
  int onTheStack[16] = {};
  std::unique_ptr<char[]> onTheHeap(new char[256]());
  ze_command_list_handle_t contextAsList = as<ze_command_list_handle_t>(context);
  ze_event_handle_t garbageEvent = garbage<ze_event_handle_t>();
  ze_device_handle_t contextAsDevice = as<ze_device_handle_t>(context);
  ze_module_handle_t kernelAsModule = as<ze_module_handle_t>(k);
  size_t size = 0;
  void* out = nullptr;
  check({
      CASE(kInvalidArgument, zeCommandListClose(contextAsList)),
      CASE(kInvalidArgument, zeCommandListAppendLaunchKernel(list, garbage<ze_kernel_handle_t>(), &groups, nullptr, 0, nullptr)),
      CASE(kInvalidArgument, zeCommandListAppendLaunchKernel(list, k, &groups, as<ze_event_handle_t>(queue), 0, nullptr)),
      CASE(kInvalidArgument, zeKernelDestroy(garbage<ze_kernel_handle_t>())),
      CASE(kInvalidArgument, zeEventHostSignal(as<ze_event_handle_t>(pool))),
      CASE(kInvalidArgument, zeModuleDestroy(as<ze_module_handle_t>(k))),
      CASE(kInvalidArgument, zeCommandQueueExecuteCommandLists(queue, 1, &contextAsList, nullptr)),
      CASE(kInvalidArgument, zeCommandQueueExecuteCommandLists(as<ze_command_queue_handle_t>(regular), 1, &regular, nullptr)),
      CASE(kInvalidArgument, zeCommandListAppendWaitOnEvents(list, 1, &garbageEvent)),
      CASE(kInvalidArgument, zeCommandListAppendBarrier(list, nullptr, 1, &garbageEvent)),
      CASE(kInvalidArgument, zeContextDestroy(as<ze_context_handle_t>(device))),
      CASE(kInvalidArgument, zeDeviceGetProperties(contextAsDevice, &deviceProperties)),
      CASE(kInvalidArgument, zeDriverGetProperties(as<ze_driver_handle_t>(device), &driverProperties)),
      CASE(kInvalidArgument, zeFenceQueryStatus(as<ze_fence_handle_t>(e))),
      CASE(kInvalidArgument, zeModuleBuildLogGetString(as<ze_module_build_log_handle_t>(m), &size, nullptr)),
      CASE(kInvalidArgument, zesFrequencyGetProperties(as<zes_freq_handle_t>(device), &frequencyProperties)),
      CASE(kInvalidArgument, zeEventHostSignal(as<ze_event_handle_t>(onTheStack))),
      CASE(kInvalidArgument, zeEventHostSignal(as<ze_event_handle_t>(onTheHeap.get()))),
      CASE(kInvalidArgument, zeEventHostSignal(as<ze_event_handle_t>(unreadable))),
      CASE(kInvalidArgument, zeKernelSetGroupSize(as<ze_kernel_handle_t>(as<char*>(k) + 8), 1, 1, 1)),
      CASE(kInvalidArgument, zeKernelSetGroupSize(as<ze_kernel_handle_t>(as<char*>(k) + 1), 1, 1, 1)),
      CASE(kInvalidArgument, zeMemAllocDevice(context, &deviceDesc, 64, 0, garbage<ze_device_handle_t>(), &out)),
      CASE(kInvalidArgument, zeContextCreateEx(driver, &contextDesc, 1, &contextAsDevice, &created.context)),
      CASE(kInvalidArgument, zeEventPoolCreate(context, &poolDesc, 1, &contextAsDevice, &created.pool)),
      CASE(kInvalidArgument, zeModuleDynamicLink(1, &kernelAsModule, nullptr)),
      CASE(kInvalidArgument, zeCommandListAppendMemoryCopyFromContext(list, memory, as<ze_context_handle_t>(list), memory + 8, 4,
                                                                      nullptr, 0, nullptr)),
  });
}

TEST_F(BadHandleTest, DestroyedHandlesAreInvalidArguments) {
  ze_context_desc_t contextDesc{ZE_STRUCTURE_TYPE_CONTEXT_DESC};
  ze_context_handle_t other = nullptr;
  ASSERT_ZE(zeContextCreate(driver, &contextDesc, &other));
  ze_module_build_log_handle_t log = nullptr;
  module("api_kernels.spv", "", &log);
  ze_fence_handle_t f = fence(queue);
  const ze_group_count_t groups{1, 1, 1};
  ze_command_list_desc_t listDesc{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
  // A queue made in the child: destroying the parent's queue in a forked child does not return.
  ze_command_queue_desc_t queueDesc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
  ze_command_queue_handle_t childQueue = nullptr;
  auto makeAndDestroyQueue = [&] {
    const ze_result_t made = zeCommandQueueCreate(context, device, &queueDesc, &childQueue);
    return made == ZE_RESULT_SUCCESS ? zeCommandQueueDestroy(childQueue) : made;
  };
  ze_kernel_desc_t kernelDesc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "add_vectors"};
  auto destroyModuleThenKernel = [&] {
    const ze_result_t destroyed = zeModuleDestroy(m);
    return destroyed == ZE_RESULT_SUCCESS ? zeKernelDestroy(k) : destroyed;
  };
  check({
      AFTER(zeEventDestroy(e), zeEventDestroy(e)),
      AFTER(zeEventDestroy(e), zeEventHostSignal(e)),
      AFTER(zeEventDestroy(e), zeCommandListAppendSignalEvent(list, e)),
      AFTER(zeEventPoolDestroy(pool), zeEventPoolDestroy(pool)),
      AFTER(zeEventPoolDestroy(pool), zeEventHostSignal(e)),
      AFTER(zeEventPoolDestroy(pool), zeEventDestroy(e)),
      AFTER(zeKernelDestroy(k), zeKernelDestroy(k)),
      AFTER(zeKernelDestroy(k), zeCommandListAppendLaunchKernel(list, k, &groups, nullptr, 0, nullptr)),
      AFTER(zeModuleDestroy(m), zeModuleDestroy(m)),
      AFTER(zeModuleDestroy(m), zeKernelCreate(m, &kernelDesc, &created.kernel)),
      // A module's kernels outlive it (ModuleTest.AKernelOutlivesItsDestroyedModule), not their own destruction.
      AFTER(destroyModuleThenKernel(), zeKernelDestroy(k)),
      AFTER(destroyModuleThenKernel(), zeKernelSetGroupSize(k, 1, 1, 1)),
      AFTER(zeModuleBuildLogDestroy(log), zeModuleBuildLogDestroy(log)),
      AFTER(zeCommandListDestroy(regular), zeCommandListDestroy(regular)),
      AFTER(zeCommandListDestroy(regular), zeCommandListClose(regular)),
      AFTER(zeFenceDestroy(f), zeFenceDestroy(f)),
      AFTER(zeFenceDestroy(f), zeFenceQueryStatus(f)),
      AFTER(makeAndDestroyQueue(), zeCommandQueueDestroy(childQueue)),
      AFTER(makeAndDestroyQueue(), zeCommandQueueExecuteCommandLists(childQueue, 1, &regular, nullptr)),
      AFTER(zeContextDestroy(other), zeContextDestroy(other)),
      AFTER(zeContextDestroy(other), zeCommandListCreate(other, device, &listDesc, &created.list)),
  });
  EXPECT_ZE(zeContextDestroy(other));
}

// Descriptor checks: a wrong stype, and pNext chains that loop, run too long or lead to memory
// that cannot be read. A well-formed chain of structures Loom does not know is passed over.
TEST_F(BadHandleTest, BadDescriptorsAreInvalidArguments) {
  // Any structure type that is no descriptor's own.
  constexpr auto kWrong = ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES;
  ze_context_desc_t contextDesc{kWrong};
  ze_command_queue_desc_t queueDesc{kWrong};
  ze_command_list_desc_t listDesc{kWrong};
  ze_event_pool_desc_t poolDesc{kWrong, nullptr, 0, 1};
  ze_event_desc_t eventDesc{kWrong};
  ze_fence_desc_t fenceDesc{kWrong};
  ze_kernel_desc_t kernelDesc{kWrong, nullptr, 0, "add_vectors"};
  ze_host_mem_alloc_desc_t hostDesc{kWrong};
  ze_device_mem_alloc_desc_t deviceDesc{kWrong};
  ze_host_mem_alloc_desc_t goodHostDesc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
  ze_device_mem_alloc_desc_t goodDeviceDesc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
  const std::vector<uint8_t> spirv = readKernelFile("api_kernels.spv");
  ze_module_desc_t moduleDesc{kWrong, nullptr, ZE_MODULE_FORMAT_IL_SPIRV, spirv.size(), spirv.data()};

  ze_command_list_desc_t loops{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
  loops.pNext = &loops;
  ze_command_list_desc_t intoGarbage{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
  intoGarbage.pNext = unreadable;
  // 40 chained structures of a type Loom does not know: longer than the 32 it walks.
  std::vector<ze_base_desc_t> chain(40, ze_base_desc_t{static_cast<ze_structure_type_t>(0x7fff0001), nullptr});
  for (size_t i = 0; i + 1 < chain.size(); ++i) chain[i].pNext = &chain[i + 1];
  ze_command_list_desc_t tooLong{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
  tooLong.pNext = chain.data();
  ze_command_list_desc_t unknownButFine{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
  unknownButFine.pNext = &chain[chain.size() - 3];
  ze_device_module_properties_t loopingProperties{ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES};
  loopingProperties.pNext = &loopingProperties;

  void* out = nullptr;
  check({
      CASE(kInvalidArgument, zeContextCreate(driver, &contextDesc, &created.context)),
      CASE(kInvalidArgument, zeCommandQueueCreate(context, device, &queueDesc, &created.queue)),
      CASE(kInvalidArgument, zeCommandListCreateImmediate(context, device, &queueDesc, &created.list)),
      CASE(kInvalidArgument, zeCommandListCreate(context, device, &listDesc, &created.list)),
      CASE(kInvalidArgument, zeEventPoolCreate(context, &poolDesc, 0, nullptr, &created.pool)),
      CASE(kInvalidArgument, zeEventCreate(pool, &eventDesc, &created.event)),
      CASE(kInvalidArgument, zeFenceCreate(queue, &fenceDesc, &created.fence)),
      CASE(kInvalidArgument, zeModuleCreate(context, device, &moduleDesc, &created.module, nullptr)),
      CASE(kInvalidArgument, zeKernelCreate(m, &kernelDesc, &created.kernel)),
      CASE(kInvalidArgument, zeMemAllocHost(context, &hostDesc, 64, 0, &out)),
      CASE(kInvalidArgument, zeMemAllocDevice(context, &deviceDesc, 64, 0, device, &out)),
      CASE(kInvalidArgument, zeMemAllocShared(context, &deviceDesc, &goodHostDesc, 64, 0, device, &out)),
      CASE(kInvalidArgument, zeMemAllocShared(context, &goodDeviceDesc, &hostDesc, 64, 0, device, &out)),
      CASE(kInvalidArgument, zeCommandListCreate(context, device, &loops, &created.list)),
      CASE(kInvalidArgument, zeCommandListCreate(context, device, &intoGarbage, &created.list)),
      CASE(kInvalidArgument, zeCommandListCreate(context, device, &tooLong, &created.list)),
      CASE(kInvalidArgument, zeDeviceGetModuleProperties(device, &loopingProperties)),
      CASE(ZE_RESULT_SUCCESS, zeCommandListCreate(context, device, &unknownButFine, &created.list)),
  });
}

// Copies and fills are checked where Loom knows the allocation: a range that runs past one, a
// size that wraps around, or an address that is neither an allocation nor mapped host memory.
TEST_F(BadHandleTest, CopiesAndFillsOutsideAllocationsAreRejected) {
  int host[32] = {};
  const uint32_t pattern = 7;
  const size_t allocation = 16 * sizeof(int);
  void* nowhere = unreadable;
  int* last = memory + 15;
  const ze_copy_region_t fourRows{0, 0, 0, 16, 4, 1};  // 4 rows of 16 bytes at a pitch of 32: 112 bytes
  const ze_copy_region_t origin{0, 0, 0, 16, 4, 1};
  ze_event_handle_t timestamped = event(eventPool(ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP, 1));
  check({
      CASE(kInvalidSize, zeCommandListAppendMemoryCopy(list, memory, host, allocation + 4, nullptr, 0, nullptr)),
      CASE(kInvalidSize, zeCommandListAppendMemoryCopy(list, host, memory + 8, 9 * sizeof(int), nullptr, 0, nullptr)),
      CASE(kInvalidSize, zeCommandListAppendMemoryCopy(list, memory, host, SIZE_MAX, nullptr, 0, nullptr)),
      CASE(kInvalidSize, zeCommandListAppendMemoryCopy(list, host, memory, SIZE_MAX, nullptr, 0, nullptr)),
      CASE(kInvalidArgument, zeCommandListAppendMemoryCopy(list, memory, nowhere, 4, nullptr, 0, nullptr)),
      CASE(kInvalidArgument, zeCommandListAppendMemoryCopy(list, nowhere, memory, 4, nullptr, 0, nullptr)),
      CASE(kInvalidArgument, zeCommandListAppendMemoryCopy(regular, garbage<void*>(), host, 4, nullptr, 0, nullptr)),
      CASE(kInvalidSize, zeCommandListAppendMemoryFill(list, memory, &pattern, 4, allocation + 4, nullptr, 0, nullptr)),
      CASE(kInvalidSize, zeCommandListAppendMemoryFill(list, last, &pattern, 4, SIZE_MAX - 3, nullptr, 0, nullptr)),
      CASE(kInvalidArgument, zeCommandListAppendMemoryFill(list, nowhere, &pattern, 4, 64, nullptr, 0, nullptr)),
      CASE(kInvalidArgument, zeCommandListAppendMemoryFill(list, memory, nowhere, 4, 64, nullptr, 0, nullptr)),
      CASE(kInvalidSize, zeCommandListAppendMemoryCopyRegion(list, memory, &fourRows, 32, 0, host, &origin, 16, 0, nullptr, 0,
                                                             nullptr)),
      CASE(kInvalidSize, zeCommandListAppendWriteGlobalTimestamp(list, as<uint64_t*>(last), nullptr, 0, nullptr)),
      CASE(kInvalidArgument, zeCommandListAppendWriteGlobalTimestamp(list, as<uint64_t*>(nowhere), nullptr, 0, nullptr)),
      CASE(kInvalidSize, zeCommandListAppendQueryKernelTimestamps(list, 1, &timestamped, memory + 12, nullptr, nullptr, 0, nullptr)),
      // Host memory that is no allocation stays allowed, as the API allows it.
      CASE(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(list, host, memory, allocation, nullptr, 0, nullptr)),
      CASE(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryFill(list, host, &pattern, 4, sizeof(host), nullptr, 0, nullptr)),
  });
}

// As in the model runtime (and level-zero-tests, which free through the default context), any
// context of the driver frees the driver's allocations; what is no allocation stays refused.
TEST_F(BadHandleTest, ZeMemFreeThroughAnotherContextOfTheDriverFreesTheAllocation) {
  ze_context_desc_t contextDesc{ZE_STRUCTURE_TYPE_CONTEXT_DESC};
  ze_context_handle_t other = nullptr;
  ASSERT_ZE(zeContextCreate(driver, &contextDesc, &other));
  ze_host_mem_alloc_desc_t hostDesc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
  void* allocation = nullptr;
  ASSERT_ZE(zeMemAllocHost(context, &hostDesc, 64, 64, &allocation));
  EXPECT_EQ(zeMemFree(other, static_cast<char*>(allocation) + 8), kInvalidArgument) << "not an allocation's base";
  int onTheStack = 0;
  EXPECT_EQ(zeMemFree(other, &onTheStack), kInvalidArgument);
  ASSERT_ZE(zeMemFree(other, allocation));
  ze_memory_allocation_properties_t properties{ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
  ASSERT_ZE(zeMemGetAllocProperties(context, allocation, &properties, nullptr));
  EXPECT_EQ(properties.type, ZE_MEMORY_TYPE_UNKNOWN) << "no work was in flight: the allocation is gone";
  EXPECT_EQ(zeMemFree(context, allocation), kInvalidArgument) << "freed once";
  EXPECT_ZE(zeContextDestroy(other));
}

// A pool destroyed while a command waits on one of its events: the specification leaves it to
// the application, Loom abandons the waiting command instead of hanging: the pool's events that
// are not signaled fail. The command's own signal event fails with them (a failed event reads as
// a lost device), and the list runs the next commands. It runs in a new
// process (a forked child would run the wait on its own thread, before the pool is destroyed).
TEST_F(BadHandleTest, DISABLED_DestroysAPoolThatACommandWaitsOn) {
  ze_event_pool_desc_t poolDesc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
  ze_event_pool_handle_t doomed = nullptr;
  ASSERT_ZE(zeEventPoolCreate(context, &poolDesc, 0, nullptr, &doomed));
  ze_event_desc_t eventDesc{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, 0, ZE_EVENT_SCOPE_FLAG_HOST};
  ze_event_handle_t never = nullptr;
  ASSERT_ZE(zeEventCreate(doomed, &eventDesc, &never));
  ze_event_handle_t done = hostVisibleEvent();
  ze_command_list_handle_t async = immediateList(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  ASSERT_ZE(zeCommandListAppendBarrier(async, done, 1, &never));
  ASSERT_ZE(zeCommandListAppendWaitOnEvents(regular, 1, &never));
  ASSERT_ZE(zeCommandListClose(regular));
  ASSERT_ZE(zeCommandQueueExecuteCommandLists(queue, 1, &regular, nullptr));
  EXPECT_EQ(zeEventQueryStatus(done), ZE_RESULT_NOT_READY);
  ASSERT_ZE(zeEventPoolDestroy(doomed));
  EXPECT_EQ(zeEventHostSynchronize(done, kTimeout), ZE_RESULT_ERROR_DEVICE_LOST);
  EXPECT_NE(zeCommandQueueSynchronize(queue, kTimeout), ZE_RESULT_NOT_READY);
  EXPECT_EQ(zeEventHostSignal(never), kInvalidArgument);
  // The list goes on: its next command runs.
  ASSERT_ZE(zeEventHostReset(done));
  ASSERT_ZE(zeCommandListAppendSignalEvent(async, done));
  EXPECT_ZE(zeEventHostSynchronize(done, kTimeout));
  EXPECT_TRUE(driverStillWorks());
}

TEST_F(BadHandleTest, DestroyingAPoolAbandonsTheCommandsWaitingOnItsEvents) {
  const int exitCode = runTestInNewProcess("BadHandleTest.DISABLED_DestroysAPoolThatACommandWaitsOn", {});
  EXPECT_EQ(exitCode, 0) << (exitCode < 0 ? "a wait on a destroyed pool's event hung" : "");
}

// The module's code and kernel descriptors stay until the launches in flight are done.
TEST_F(BadHandleTest, AModuleDestroyedWhileItsKernelsRunIsFreedAfterThem) {
  constexpr uint32_t kCount = 1 << 20;
  float* a = shared<float>(kCount);
  for (uint32_t i = 0; i < kCount; ++i) a[i] = float(i % 1024);
  ze_module_handle_t doomed = nullptr;
  ze_kernel_handle_t running = nullptr;
  {
    const std::vector<uint8_t> spirv = readKernelFile("api_kernels.spv");
    ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_IL_SPIRV, spirv.size(), spirv.data()};
    ASSERT_ZE(zeModuleCreate(context, device, &desc, &doomed, nullptr));
    ze_kernel_desc_t kernelDesc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "add_vectors"};
    ASSERT_ZE(zeKernelCreate(doomed, &kernelDesc, &running));
  }
  setArguments(running, a, a, a);
  ASSERT_ZE(zeKernelSetGroupSize(running, 64, 1, 1));
  ze_command_list_handle_t async = immediateList(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  ze_event_handle_t done = hostVisibleEvent();
  const ze_group_count_t groups{kCount / 64, 1, 1};
  for (int i = 0; i < 3; ++i) ASSERT_ZE(zeCommandListAppendLaunchKernel(async, running, &groups, nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListAppendSignalEvent(async, done));
  ASSERT_ZE(zeModuleDestroy(doomed));
  EXPECT_ZE(zeKernelDestroy(running));  // the module's last kernel: the module goes once the launches are done
  EXPECT_EQ(zeKernelDestroy(running), kInvalidArgument);
  ASSERT_ZE(zeEventHostSynchronize(done, kTimeout));
  EXPECT_EQ(a[kCount - 1], float((kCount - 1) % 1024) * 8.0f);  // doubled three times
}

#undef AFTER
#undef CASE

}  // namespace
}  // namespace loom::test
