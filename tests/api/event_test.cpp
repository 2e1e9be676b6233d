#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "ze_test.h"

namespace loom::test {
namespace {

class EventTest : public ZeTest {
 protected:
  void TearDown() override {
    for (auto event : events) EXPECT_ZE(zeEventDestroy(event));
    for (auto pool : pools) EXPECT_ZE(zeEventPoolDestroy(pool));
    ZeTest::TearDown();
  }
  ze_event_handle_t event(ze_event_pool_flags_t flags) {
    ze_event_pool_desc_t poolDesc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, flags, 4};
    ze_event_pool_handle_t pool = nullptr;
    EXPECT_ZE(zeEventPoolCreate(context, &poolDesc, 1, &device, &pool));
    pools.push_back(pool);
    ze_event_desc_t desc{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
    ze_event_handle_t handle = nullptr;
    EXPECT_ZE(zeEventCreate(pool, &desc, &handle));
    events.push_back(handle);
    return handle;
  }
  std::vector<ze_event_pool_handle_t> pools;
  std::vector<ze_event_handle_t> events;
};

TEST_F(EventTest, HostSignalSynchronizeQueryAndReset) {
  ze_event_handle_t e = event(ZE_EVENT_POOL_FLAG_HOST_VISIBLE);
  EXPECT_EQ(zeEventQueryStatus(e), ZE_RESULT_NOT_READY);
  EXPECT_EQ(zeEventHostSynchronize(e, 0), ZE_RESULT_NOT_READY);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(zeEventHostSynchronize(e, 20'000'000), ZE_RESULT_NOT_READY);
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(20));
  ASSERT_ZE(zeEventHostSignal(e));
  EXPECT_ZE(zeEventQueryStatus(e));
  EXPECT_ZE(zeEventHostSynchronize(e, 0));
  ASSERT_ZE(zeEventHostReset(e));
  EXPECT_EQ(zeEventQueryStatus(e), ZE_RESULT_NOT_READY);
}

TEST_F(EventTest, DeviceWorkWaitsForTheHostAndSignalsTheHost) {
  ze_event_handle_t fromHost = event(ZE_EVENT_POOL_FLAG_HOST_VISIBLE);
  ze_event_handle_t fromDevice = event(ZE_EVENT_POOL_FLAG_HOST_VISIBLE);
  ze_command_list_handle_t async = immediateList(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  int *source = shared<int>(1), *destination = shared<int>(1);
  *source = 7, *destination = 0;
  ASSERT_ZE(zeCommandListAppendMemoryCopy(async, destination, source, sizeof(int), fromDevice, 1, &fromHost));
  EXPECT_EQ(zeEventHostSynchronize(fromDevice, 2'000'000), ZE_RESULT_NOT_READY);
  EXPECT_EQ(*destination, 0);
  std::thread signaler([&] { EXPECT_ZE(zeEventHostSignal(fromHost)); });
  EXPECT_ZE(zeEventHostSynchronize(fromDevice, kTimeout));
  signaler.join();
  EXPECT_EQ(*destination, 7);
  // Appended signal and reset.
  ASSERT_ZE(zeCommandListAppendEventReset(list, fromDevice));
  EXPECT_EQ(zeEventQueryStatus(fromDevice), ZE_RESULT_NOT_READY);
  ASSERT_ZE(zeCommandListAppendSignalEvent(list, fromDevice));
  EXPECT_ZE(zeEventQueryStatus(fromDevice));
}

TEST_F(EventTest, AQueueWaitingOnAnEventDoesNotBlockAnotherQueueOfTheSameEngine) {
  // Both lists use queue index 0 of the compute group; the second signals what the first waits for.
  ze_command_list_handle_t waiting = immediateList(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  ze_command_list_handle_t signaling = immediateList(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  ze_event_handle_t ready = event(ZE_EVENT_POOL_FLAG_HOST_VISIBLE);
  ze_event_handle_t done = event(ZE_EVENT_POOL_FLAG_HOST_VISIBLE);
  int *source = shared<int>(1), *destination = shared<int>(1);
  *source = 11, *destination = 0;
  ASSERT_ZE(zeCommandListAppendMemoryCopy(waiting, destination, source, sizeof(int), done, 1, &ready));
  ASSERT_ZE(zeCommandListAppendSignalEvent(signaling, ready));
  EXPECT_ZE(zeEventHostSynchronize(done, kTimeout));
  EXPECT_EQ(*destination, 11);
}

TEST_F(EventTest, KernelTimestampsBracketTheKernel) {
  ze_event_handle_t timed = event(ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP);
  ze_kernel_handle_t add = apiKernel("add_vectors");
  const uint32_t n = 1 << 16;
  float *a = shared<float>(n), *sum = shared<float>(n);
  for (uint32_t i = 0; i < n; ++i) a[i] = 1.0f;
  setArguments(add, a, a, sum);
  ASSERT_ZE(zeKernelSetGroupSize(add, 64, 1, 1));
  ze_kernel_timestamp_result_t result{};
  EXPECT_EQ(zeEventQueryKernelTimestamp(timed, &result), ZE_RESULT_NOT_READY);
  uint64_t before = 0, after = 0, hostTime = 0;
  ASSERT_ZE(zeDeviceGetGlobalTimestamps(device, &hostTime, &before));
  ze_group_count_t groups{n / 64, 1, 1};
  ASSERT_ZE(zeCommandListAppendLaunchKernel(list, add, &groups, timed, 0, nullptr));
  ASSERT_ZE(zeDeviceGetGlobalTimestamps(device, &hostTime, &after));
  ASSERT_ZE(zeEventQueryKernelTimestamp(timed, &result));
  EXPECT_LE(before, result.global.kernelStart);
  EXPECT_LT(result.global.kernelStart, result.global.kernelEnd);
  EXPECT_LE(result.global.kernelEnd, after);
  EXPECT_EQ(result.context.kernelEnd - result.context.kernelStart, result.global.kernelEnd - result.global.kernelStart);
  auto* copied = shared<ze_kernel_timestamp_result_t>(1);
  ASSERT_ZE(zeCommandListAppendQueryKernelTimestamps(list, 1, &timed, copied, nullptr, nullptr, 0, nullptr));
  EXPECT_EQ(copied->global.kernelStart, result.global.kernelStart);
  EXPECT_EQ(copied->global.kernelEnd, result.global.kernelEnd);
  ze_event_handle_t plain = event(ZE_EVENT_POOL_FLAG_HOST_VISIBLE);
  EXPECT_EQ(zeEventQueryKernelTimestamp(plain, &result), ZE_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_F(EventTest, IpcEventPoolIsSignaledFromAChildProcess) {
  ze_event_handle_t shared = event(ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_IPC);
  ze_ipc_event_pool_handle_t handle{};
  ASSERT_ZE(zeEventPoolGetIpcHandle(pools.back(), &handle));
  const pid_t child = fork();
  if (child == 0) {
    ze_event_pool_handle_t opened = nullptr;
    ze_event_handle_t childEvent = nullptr;
    ze_event_desc_t desc{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, 0, 0};
    bool ok = zeEventPoolOpenIpcHandle(context, handle, &opened) == ZE_RESULT_SUCCESS &&
              zeEventCreate(opened, &desc, &childEvent) == ZE_RESULT_SUCCESS &&
              zeEventHostSignal(childEvent) == ZE_RESULT_SUCCESS && zeEventDestroy(childEvent) == ZE_RESULT_SUCCESS &&
              zeEventPoolCloseIpcHandle(opened) == ZE_RESULT_SUCCESS;
    _exit(ok ? 0 : 1);
  }
  EXPECT_ZE(zeEventHostSynchronize(shared, kTimeout));
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  event(ZE_EVENT_POOL_FLAG_HOST_VISIBLE);  // a pool without the IPC flag
  EXPECT_EQ(zeEventPoolGetIpcHandle(pools.back(), &handle), ZE_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_F(EventTest, BadPoolsAndIndicesAreRejected) {
  ze_event_pool_desc_t poolDesc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, 0, 0};
  ze_event_pool_handle_t pool = nullptr;
  EXPECT_EQ(zeEventPoolCreate(context, &poolDesc, 0, nullptr, &pool), ZE_RESULT_ERROR_INVALID_SIZE);
  poolDesc.count = 1, poolDesc.flags = 0x80;
  EXPECT_EQ(zeEventPoolCreate(context, &poolDesc, 0, nullptr, &pool), ZE_RESULT_ERROR_INVALID_ENUMERATION);
  event(0);
  ze_event_desc_t desc{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 4, 0, 0};
  ze_event_handle_t handle = nullptr;
  EXPECT_EQ(zeEventCreate(pools.back(), &desc, &handle), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(zeEventHostSignal(nullptr), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
}

}  // namespace
}  // namespace loom::test
