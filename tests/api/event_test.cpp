// Event pools and events: host signal, synchronize, query and reset; signals and waits between
// the host and the device; kernel timestamps; IPC event pools across processes.
#include <chrono>

#include "ze_test_helpers.h"

namespace loom::test {
namespace {

class EventTest : public ZeTest {
 protected:
  // add_vectors over `n` ones, in groups of 64: a kernel with some work to time.
  ze_kernel_handle_t addOnesKernel(uint32_t n) {
    ze_kernel_handle_t add = apiKernel("add_vectors");
    float *a = shared<float>(n), *sum = shared<float>(n);
    for (uint32_t i = 0; i < n; ++i) a[i] = 1.0f;
    setArguments(add, a, a, sum);
    EXPECT_ZE(zeKernelSetGroupSize(add, 64, 1, 1));
    return add;
  }
};

TEST_F(EventTest, ANewEventIsNotSignaled) {
  ze_event_handle_t e = hostVisibleEvent();
  EXPECT_EQ(zeEventQueryStatus(e), ZE_RESULT_NOT_READY);
  EXPECT_EQ(zeEventHostSynchronize(e, 0), ZE_RESULT_NOT_READY);
}

// A descriptor whose stype was zeroed (level-zero-tests' perf programs zero their event
// descriptors after setting it; no structure type is 0) is read as the parameter's own type; a
// wrong type is still refused.
TEST_F(EventTest, AZeroedDescriptorTypeIsReadAsTheEventDescriptor) {
  ze_event_pool_handle_t pool = eventPool(ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 2);
  ze_event_desc_t desc{};
  desc.index = 1;
  ze_event_handle_t zeroed = nullptr;
  ASSERT_ZE(zeEventCreate(pool, &desc, &zeroed));
  events.push_back(zeroed);
  EXPECT_ZE(zeEventHostSignal(zeroed));
  EXPECT_ZE(zeEventQueryStatus(zeroed));
  desc.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC;
  desc.index = 0;
  ze_event_handle_t wrong = nullptr;
  EXPECT_EQ(zeEventCreate(pool, &desc, &wrong), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(wrong, nullptr);
}

TEST_F(EventTest, HostSynchronizeWaitsAtLeastItsTimeoutBeforeNotReady) {
  ze_event_handle_t e = hostVisibleEvent();
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(zeEventHostSynchronize(e, 20'000'000), ZE_RESULT_NOT_READY);  // 20 ms
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(20));
}

TEST_F(EventTest, HostSignalIsSeenByQueryAndSynchronizeUntilReset) {
  ze_event_handle_t e = hostVisibleEvent();
  ASSERT_ZE(zeEventHostSignal(e));
  EXPECT_ZE(zeEventQueryStatus(e));
  EXPECT_ZE(zeEventHostSynchronize(e, 0));
  EXPECT_ZE(zeEventHostSynchronize(e, kTimeout));
  ASSERT_ZE(zeEventHostReset(e));
  EXPECT_EQ(zeEventQueryStatus(e), ZE_RESULT_NOT_READY);
  ASSERT_ZE(zeEventHostSignal(e));  // reusable
  EXPECT_ZE(zeEventQueryStatus(e));
}

TEST_F(EventTest, AHostThreadWakesAnotherWaitingOnTheEvent) {
  ze_event_handle_t e = hostVisibleEvent();
  std::thread signaler([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    EXPECT_ZE(zeEventHostSignal(e));
  });
  EXPECT_ZE(zeEventHostSynchronize(e, kTimeout));
  signaler.join();
}

TEST_F(EventTest, EventsOfOnePoolAreIndependent) {
  ze_event_pool_handle_t pool = eventPool(ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 3);
  ze_event_handle_t first = event(pool, 0), third = event(pool, 2);
  ASSERT_ZE(zeEventHostSignal(third));
  EXPECT_EQ(zeEventQueryStatus(first), ZE_RESULT_NOT_READY);
  EXPECT_ZE(zeEventQueryStatus(third));
}

TEST_F(EventTest, DeviceWorkWaitsForASignalFromAnotherHostThread) {
  ze_event_handle_t fromHost = hostVisibleEvent(), fromDevice = hostVisibleEvent();
  ze_command_list_handle_t async = immediateList(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  int *source = shared<int>(1), *destination = shared<int>(1);
  *source = 7, *destination = 0;
  ASSERT_ZE(zeCommandListAppendMemoryCopy(async, destination, source, sizeof(int), fromDevice, 1, &fromHost));
  EXPECT_EQ(zeEventHostSynchronize(fromDevice, 2'000'000), ZE_RESULT_NOT_READY);
  EXPECT_EQ(*destination, 0) << "the copy must wait for the host's signal";
  std::thread signaler([&] { EXPECT_ZE(zeEventHostSignal(fromHost)); });
  ASSERT_ZE(zeEventHostSynchronize(fromDevice, kTimeout));
  signaler.join();
  EXPECT_EQ(*destination, 7);
}

// level-zero-tests' GivenMemoryCopiesWithDependencies: a copy signals `copied`; the next copy waits
// for `gate`, which the host signals only once it has seen `copied`. `copied` signals when its
// copy is done, whatever the work after it waits for (on a GPU that wait is in the device's queue).
TEST_F(EventTest, ASignalBeforeAWaitForTheHostIsSeenWhileTheListWaits) {
  for (const bool immediate : {false, true}) {
    SCOPED_TRACE(immediate ? "immediate list" : "regular list on a queue");
    ze_event_handle_t copied = hostVisibleEvent(), gate = hostVisibleEvent(), done = hostVisibleEvent();
    const size_t n = 4096;
    int *source = shared<int>(n), *middle = shared<int>(n), *destination = shared<int>(n);
    for (size_t i = 0; i < n; ++i) source[i] = int(i), middle[i] = -1, destination[i] = -1;
    ze_command_list_handle_t copies = immediate ? immediateList(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS) : regularList();
    ASSERT_ZE(zeCommandListAppendMemoryCopy(copies, middle, source, n * sizeof(int), copied, 0, nullptr));
    ASSERT_ZE(zeCommandListAppendMemoryCopy(copies, destination, middle, n * sizeof(int), done, 1, &gate));
    if (!immediate) {
      ASSERT_ZE(zeCommandListClose(copies));
      ASSERT_ZE(zeCommandQueueExecuteCommandLists(commandQueue(), 1, &copies, nullptr));
    }
    const ze_result_t seen = zeEventHostSynchronize(copied, kTimeout);
    const bool waited = zeEventQueryStatus(gate) == ZE_RESULT_NOT_READY && destination[n - 1] == -1;
    ASSERT_ZE(zeEventHostSignal(gate));  // in any case, so that a failure ends instead of hanging
    ASSERT_ZE(zeEventHostSynchronize(done, kTimeout));
    EXPECT_ZE(seen) << "the first copy's signal waited for the work after the wait";
    EXPECT_TRUE(waited) << "the second copy ran before the host signaled";
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(destination[i], int(i)) << i;
  }
}

TEST_F(EventTest, AppendedSignalAndResetAreSeenByTheHost) {
  ze_event_handle_t e = hostVisibleEvent();
  ASSERT_ZE(zeCommandListAppendSignalEvent(list, e));
  EXPECT_ZE(zeEventQueryStatus(e));
  ASSERT_ZE(zeCommandListAppendEventReset(list, e));
  EXPECT_EQ(zeEventQueryStatus(e), ZE_RESULT_NOT_READY);
}

TEST_F(EventTest, AKernelsSignalEventIsSetOnlyAfterTheKernelsWrites) {
  ze_event_handle_t gate = hostVisibleEvent(), done = hostVisibleEvent();
  ze_command_list_handle_t async = immediateList(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  const uint32_t n = 1 << 18;
  ze_kernel_handle_t add = apiKernel("add_vectors");
  float *a = shared<float>(n), *sum = shared<float>(n);
  for (uint32_t i = 0; i < n; ++i) a[i] = 1.0f, sum[i] = 0.0f;
  setArguments(add, a, a, sum);
  ASSERT_ZE(zeKernelSetGroupSize(add, 64, 1, 1));
  ze_group_count_t groups{n / 64, 1, 1};
  ASSERT_ZE(zeCommandListAppendLaunchKernel(async, add, &groups, done, 1, &gate));
  ASSERT_ZE(zeEventHostSignal(gate));
  ASSERT_ZE(zeEventHostSynchronize(done, kTimeout));
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(sum[i], 2.0f) << i;
}

// A kernel that waits for an event the host signals later (on a GPU the wait is in the device's
// queue): the list takes more work meanwhile, none of it runs before the signal, all of it after.
TEST_F(EventTest, AKernelWaitingForAHostSignalRunsOnlyAfterTheSignalAndTheListGoesOn) {
  ze_event_handle_t gate = hostVisibleEvent(), summed = hostVisibleEvent(), copied = hostVisibleEvent();
  ze_command_list_handle_t async = immediateList(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  const uint32_t n = 1 << 16;
  ze_kernel_handle_t add = apiKernel("add_vectors");
  float *a = shared<float>(n), *sum = shared<float>(n), *copy = shared<float>(n);
  for (uint32_t i = 0; i < n; ++i) a[i] = float(i), sum[i] = -1.0f, copy[i] = -1.0f;
  setArguments(add, a, a, sum);
  ASSERT_ZE(zeKernelSetGroupSize(add, 64, 1, 1));
  ze_group_count_t groups{n / 64, 1, 1};
  ASSERT_ZE(zeCommandListAppendLaunchKernel(async, add, &groups, summed, 1, &gate));
  ASSERT_ZE(zeCommandListAppendMemoryCopy(async, copy, sum, n * sizeof(float), copied, 0, nullptr));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(zeEventQueryStatus(summed), ZE_RESULT_NOT_READY);
  EXPECT_EQ(zeEventQueryStatus(copied), ZE_RESULT_NOT_READY);
  std::thread signaler([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_ZE(zeEventHostSignal(gate));
  });
  ASSERT_ZE(zeEventHostSynchronize(copied, kTimeout));
  signaler.join();
  EXPECT_ZE(zeEventQueryStatus(summed));
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(copy[i], 2.0f * float(i)) << i;
}

TEST_F(EventTest, AListWaitingOnAnEventDoesNotBlockAnotherListOfTheSameEngineThatSignalsIt) {
  // Both lists use queue index 0 of the compute group; the second signals what the first waits for.
  ze_command_list_handle_t waiting = immediateList(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  ze_command_list_handle_t signaling = immediateList(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  ze_event_handle_t ready = hostVisibleEvent(), done = hostVisibleEvent();
  int *source = shared<int>(1), *destination = shared<int>(1);
  *source = 11, *destination = 0;
  ASSERT_ZE(zeCommandListAppendMemoryCopy(waiting, destination, source, sizeof(int), done, 1, &ready));
  ASSERT_ZE(zeCommandListAppendSignalEvent(signaling, ready));
  ASSERT_ZE(zeEventHostSynchronize(done, kTimeout));
  EXPECT_EQ(*destination, 11);
}

TEST_F(EventTest, KernelTimestampsBracketTheKernelInsideTheHostsView) {
  ze_event_handle_t timed = hostVisibleEvent(ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP);
  const uint32_t n = 1 << 16;
  ze_kernel_handle_t add = addOnesKernel(n);
  ze_kernel_timestamp_result_t result{};
  EXPECT_EQ(zeEventQueryKernelTimestamp(timed, &result), ZE_RESULT_NOT_READY);
  uint64_t before = 0, after = 0, hostTime = 0;
  ASSERT_ZE(zeDeviceGetGlobalTimestamps(device, &hostTime, &before));
  ze_group_count_t groups{n / 64, 1, 1};
  ASSERT_ZE(zeCommandListAppendLaunchKernel(list, add, &groups, timed, 0, nullptr));
  ASSERT_ZE(zeDeviceGetGlobalTimestamps(device, &hostTime, &after));
  ASSERT_ZE(zeEventQueryKernelTimestamp(timed, &result));
  EXPECT_LE(before, result.global.kernelStart);
  EXPECT_LE(result.global.kernelStart, result.global.kernelEnd);
  EXPECT_LE(result.global.kernelEnd, after);
  EXPECT_LE(result.context.kernelStart, result.context.kernelEnd);
  EXPECT_EQ(result.context.kernelEnd - result.context.kernelStart, result.global.kernelEnd - result.global.kernelStart);
}

// Applications (ze_peak's kernel latency) subtract device and kernel timestamps masked by
// (1 << validBits) - 1: the mask must be defined (fewer than 64 bits) and keep every bit Loom writes.
TEST_F(EventTest, TimestampsFitTheValidBitsApplicationsMaskThemWith) {
  ze_device_properties_t properties{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES, nullptr};
  ASSERT_ZE(zeDeviceGetProperties(device, &properties));
  const uint32_t bits = std::min(properties.timestampValidBits, properties.kernelTimestampValidBits);
  ASSERT_LT(bits, 64u);
  const uint64_t mask = (uint64_t(1) << bits) - 1;
  ze_event_handle_t timed = hostVisibleEvent(ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP);
  const uint32_t n = 1 << 12;
  ze_kernel_handle_t add = addOnesKernel(n);
  uint64_t hostTime = 0, before = 0;
  ASSERT_ZE(zeDeviceGetGlobalTimestamps(device, &hostTime, &before));
  ze_group_count_t groups{n / 64, 1, 1};
  ASSERT_ZE(zeCommandListAppendLaunchKernel(list, add, &groups, timed, 0, nullptr));
  ze_kernel_timestamp_result_t result{};
  ASSERT_ZE(zeEventHostSynchronize(timed, kTimeout));
  ASSERT_ZE(zeEventQueryKernelTimestamp(timed, &result));
  EXPECT_EQ(before & mask, before);
  EXPECT_EQ(result.global.kernelStart & mask, result.global.kernelStart);
  EXPECT_EQ(result.global.kernelEnd & mask, result.global.kernelEnd);
  EXPECT_GE(result.global.kernelStart & mask, before & mask) << "a latency of at least 0";
}

// zeEventQueryTimestampsExp: one result per tile where a root device split the kernel, else one,
// the kernel timestamp; asked with a count of 0 it counts them.
TEST_F(EventTest, TimestampsPerTileSpanToTheKernelTimestamp) {
  ze_event_handle_t timed = hostVisibleEvent(ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP);
  uint32_t count = 0;
  EXPECT_EQ(zeEventQueryTimestampsExp(timed, device, &count, nullptr), ZE_RESULT_NOT_READY);
  ze_kernel_handle_t add = apiKernel("add_vectors");
  const uint32_t n = 1 << 12;
  float *a = shared<float>(n), *sum = shared<float>(n);
  std::fill(a, a + n, 1.0f);
  setArguments(add, a, a, sum);
  ASSERT_ZE(zeKernelSetGroupSize(add, 64, 1, 1));
  const ze_group_count_t groups{n / 64, 1, 1};
  ASSERT_ZE(zeCommandListAppendLaunchKernel(list, add, &groups, timed, 0, nullptr));
  ASSERT_ZE(zeEventHostSynchronize(timed, kTimeout));
  ASSERT_ZE(zeEventQueryTimestampsExp(timed, device, &count, nullptr));
  uint32_t subDevices = 0;
  ASSERT_ZE(zeDeviceGetSubDevices(device, &subDevices, nullptr));
  EXPECT_EQ(count, std::max(subDevices, 1u)) << "one per tile of a root device, else one";
  uint32_t asked = count + 3;
  std::vector<ze_kernel_timestamp_result_t> perTile(asked);
  ASSERT_ZE(zeEventQueryTimestampsExp(timed, device, &asked, perTile.data()));
  EXPECT_EQ(asked, count) << "a count above what there is comes back corrected";
  perTile.resize(count);
  ze_kernel_timestamp_result_t whole{};
  ASSERT_ZE(zeEventQueryKernelTimestamp(timed, &whole));
  uint64_t earliest = UINT64_MAX, latest = 0;
  for (const ze_kernel_timestamp_result_t& tile : perTile) {
    EXPECT_LE(tile.global.kernelStart, tile.global.kernelEnd);
    earliest = std::min(earliest, tile.global.kernelStart);
    latest = std::max(latest, tile.global.kernelEnd);
  }
  EXPECT_EQ(earliest, whole.global.kernelStart);
  EXPECT_EQ(latest, whole.global.kernelEnd);
  ze_event_handle_t plain = hostVisibleEvent();
  ASSERT_ZE(zeEventHostSignal(plain));
  EXPECT_EQ(zeEventQueryTimestampsExp(plain, device, &count, nullptr), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(zeEventQueryTimestampsExp(timed, device, nullptr, nullptr), ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  EXPECT_EQ(zeEventQueryTimestampsExp(timed, nullptr, &count, nullptr), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
}

// The specification leaves this to the application; as the model runtime does, the query answers
// (ze_peak's kernel_lat relies on it). Only the signal is timed: an empty interval at its time.
TEST_F(EventTest, AnEventWithoutTimestampsReportsAnEmptyKernelIntervalAtItsSignal) {
  ze_event_handle_t plain = hostVisibleEvent();
  const uint32_t n = 1 << 12;
  ze_kernel_handle_t add = addOnesKernel(n);
  ze_kernel_timestamp_result_t result{{7, 7}, {7, 7}};
  EXPECT_EQ(zeEventQueryKernelTimestamp(plain, &result), ZE_RESULT_NOT_READY);
  EXPECT_EQ(result.global.kernelStart, 7u) << "unsignaled: the destination is left as it was";
  uint64_t before = 0, after = 0, hostTime = 0;
  ASSERT_ZE(zeDeviceGetGlobalTimestamps(device, &hostTime, &before));
  ze_group_count_t groups{n / 64, 1, 1};
  ASSERT_ZE(zeCommandListAppendLaunchKernel(list, add, &groups, plain, 0, nullptr));
  ASSERT_ZE(zeEventHostSynchronize(plain, kTimeout));
  ASSERT_ZE(zeDeviceGetGlobalTimestamps(device, &hostTime, &after));
  ASSERT_ZE(zeEventQueryKernelTimestamp(plain, &result));
  EXPECT_LE(before, result.global.kernelEnd);
  EXPECT_LE(result.global.kernelEnd, after);
  EXPECT_EQ(result.global.kernelStart, result.global.kernelEnd);
  EXPECT_EQ(result.context.kernelStart, result.global.kernelEnd);
  EXPECT_EQ(result.context.kernelEnd, result.global.kernelEnd);

  ASSERT_ZE(zeEventHostReset(plain));
  ASSERT_ZE(zeEventHostSignal(plain));
  ASSERT_ZE(zeEventQueryKernelTimestamp(plain, &result));
  EXPECT_EQ(result.global.kernelStart, result.global.kernelEnd);
}

// The other process's side: opens the pool and signals its event 1 from the host.
TEST_F(EventTest, DISABLED_SignalsEventOneOfAnIpcPool) {
  CHILD_INPUT(ze_ipc_event_pool_handle_t, handle);
  ze_event_pool_handle_t opened = nullptr;
  ze_event_handle_t childSide = nullptr;
  ze_event_desc_t desc{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 1, 0, 0};
  ASSERT_ZE(zeEventPoolOpenIpcHandle(context, handle, &opened));
  ASSERT_ZE(zeEventCreate(opened, &desc, &childSide));
  EXPECT_ZE(zeEventHostSignal(childSide));
  EXPECT_ZE(zeEventDestroy(childSide));
  EXPECT_ZE(zeEventPoolCloseIpcHandle(opened));
}

TEST_F(EventTest, AnotherProcessSignalsAnEventOfAnIpcPool) {
  ze_event_pool_handle_t pool = eventPool(ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_IPC, 2);
  ze_event_handle_t parentSide = event(pool, 1);
  ze_ipc_event_pool_handle_t handle{};
  ASSERT_ZE(zeEventPoolGetIpcHandle(pool, &handle));
  ASSERT_EQ(runTestInNewProcess("EventTest.DISABLED_SignalsEventOneOfAnIpcPool", bytesOf(handle)), 0);
  EXPECT_ZE(zeEventHostSynchronize(parentSide, kTimeout));
}

// Device work in this process waits for an event that another process signals (on a GPU, in
// the device's queue, on the pool's memory that both processes map).
TEST_F(EventTest, DeviceWorkWaitsForAnEventThatAnotherProcessSignals) {
  ze_event_pool_handle_t pool = eventPool(ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_IPC, 2);
  ze_event_handle_t gate = event(pool, 1), done = hostVisibleEvent();
  ze_command_list_handle_t async = immediateList(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  int *source = shared<int>(1), *destination = deviceMemory<int>(1);
  *source = 42;
  ASSERT_ZE(zeCommandListAppendMemoryCopy(async, destination, source, sizeof(int), done, 1, &gate));
  EXPECT_EQ(zeEventHostSynchronize(done, 20'000'000), ZE_RESULT_NOT_READY) << "the copy must wait for the other process";
  ze_ipc_event_pool_handle_t handle{};
  ASSERT_ZE(zeEventPoolGetIpcHandle(pool, &handle));
  ASSERT_EQ(runTestInNewProcess("EventTest.DISABLED_SignalsEventOneOfAnIpcPool", bytesOf(handle)), 0);
  ASSERT_ZE(zeEventHostSynchronize(done, kTimeout));
  int seen = 0;
  ASSERT_ZE(zeCommandListAppendMemoryCopy(list, &seen, destination, sizeof(int), nullptr, 0, nullptr));
  EXPECT_EQ(seen, 42);
}

TEST_F(EventTest, APoolWithoutTheIpcFlagHasNoIpcHandle) {
  ze_ipc_event_pool_handle_t handle{};
  EXPECT_EQ(zeEventPoolGetIpcHandle(eventPool(ZE_EVENT_POOL_FLAG_HOST_VISIBLE), &handle), ZE_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_F(EventTest, BadPoolsAndIndicesAreRejected) {
  ze_event_pool_desc_t poolDesc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, 0, 0};
  ze_event_pool_handle_t pool = nullptr;
  EXPECT_EQ(zeEventPoolCreate(context, &poolDesc, 0, nullptr, &pool), ZE_RESULT_ERROR_INVALID_SIZE);
  poolDesc.count = 1, poolDesc.flags = 0x80;
  EXPECT_EQ(zeEventPoolCreate(context, &poolDesc, 0, nullptr, &pool), ZE_RESULT_ERROR_INVALID_ENUMERATION);
  ze_event_pool_handle_t fourEvents = eventPool(0, 4);
  ze_event_desc_t desc{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 4, 0, 0};
  ze_event_handle_t handle = nullptr;
  EXPECT_EQ(zeEventCreate(fourEvents, &desc, &handle), ZE_RESULT_ERROR_INVALID_ARGUMENT) << "index 4 of 4";
  desc.index = 0, desc.signal = 0x8;
  EXPECT_EQ(zeEventCreate(fourEvents, &desc, &handle), ZE_RESULT_ERROR_INVALID_ENUMERATION);
}

}  // namespace
}  // namespace loom::test
