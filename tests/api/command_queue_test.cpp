#include <thread>

#include "ze_test.h"

namespace loom::test {
namespace {

class CommandQueueTest : public ZeTest {
 protected:
  ze_command_queue_handle_t queue(uint32_t ordinal, uint32_t index, ze_command_queue_mode_t mode) {
    ze_command_queue_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
    desc.ordinal = ordinal, desc.index = index, desc.mode = mode;
    ze_command_queue_handle_t handle = nullptr;
    EXPECT_ZE(zeCommandQueueCreate(context, device, &desc, &handle));
    return handle;
  }
  ze_command_list_handle_t regularList(uint32_t ordinal = 0) {
    ze_command_list_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
    desc.commandQueueGroupOrdinal = ordinal;
    ze_command_list_handle_t handle = nullptr;
    EXPECT_ZE(zeCommandListCreate(context, device, &desc, &handle));
    return handle;
  }
};

TEST_F(CommandQueueTest, EveryQueueOfBothGroupsCopiesInBothModes) {
  uint32_t groups = 0;
  ASSERT_ZE(zeDeviceGetCommandQueueGroupProperties(device, &groups, nullptr));
  std::vector<ze_command_queue_group_properties_t> properties(groups, {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES});
  ASSERT_ZE(zeDeviceGetCommandQueueGroupProperties(device, &groups, properties.data()));
  int* source = shared<int>(1);
  int* destination = shared<int>(1);
  for (uint32_t ordinal = 0; ordinal < groups; ++ordinal)
    for (uint32_t index = 0; index < properties[ordinal].numQueues; ++index)
      for (auto mode : {ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS}) {
        ze_command_queue_handle_t q = queue(ordinal, index, mode);
        ze_command_list_handle_t l = regularList(ordinal);
        *source = int(ordinal * 100 + index), *destination = -1;
        ASSERT_ZE(zeCommandListAppendMemoryCopy(l, destination, source, sizeof(int), nullptr, 0, nullptr));
        ASSERT_ZE(zeCommandListClose(l));
        ASSERT_ZE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr));
        ASSERT_ZE(zeCommandQueueSynchronize(q, kTimeout));
        EXPECT_EQ(*destination, *source);
        EXPECT_ZE(zeCommandListDestroy(l));
        EXPECT_ZE(zeCommandQueueDestroy(q));
      }
}

TEST_F(CommandQueueTest, InvalidDescriptorsAreRejected) {
  ze_command_queue_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
  ze_command_queue_handle_t handle = nullptr;
  desc.ordinal = 7;
  EXPECT_EQ(zeCommandQueueCreate(context, device, &desc, &handle), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  desc.ordinal = 0, desc.index = 1000;
  EXPECT_EQ(zeCommandQueueCreate(context, device, &desc, &handle), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  desc.index = 0, desc.mode = static_cast<ze_command_queue_mode_t>(9);
  EXPECT_EQ(zeCommandQueueCreate(context, device, &desc, &handle), ZE_RESULT_ERROR_INVALID_ENUMERATION);
  EXPECT_EQ(zeCommandQueueCreate(context, device, nullptr, &handle), ZE_RESULT_ERROR_INVALID_NULL_POINTER);
}

TEST_F(CommandQueueTest, SynchronizeTimesOutUntilTheHostSignalsTheAwaitedEvent) {
  ze_event_pool_desc_t poolDesc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
  ze_event_pool_handle_t pool = nullptr;
  ASSERT_ZE(zeEventPoolCreate(context, &poolDesc, 0, nullptr, &pool));
  ze_event_desc_t eventDesc{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, 0, 0};
  ze_event_handle_t event = nullptr;
  ASSERT_ZE(zeEventCreate(pool, &eventDesc, &event));
  ze_command_queue_handle_t q = queue(0, 0, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  ze_command_list_handle_t l = regularList();
  ASSERT_ZE(zeCommandListAppendWaitOnEvents(l, 1, &event));
  ASSERT_ZE(zeCommandListClose(l));
  ze_fence_desc_t fenceDesc{ZE_STRUCTURE_TYPE_FENCE_DESC};
  ze_fence_handle_t fence = nullptr;
  ASSERT_ZE(zeFenceCreate(q, &fenceDesc, &fence));
  EXPECT_EQ(zeFenceQueryStatus(fence), ZE_RESULT_NOT_READY);
  ASSERT_ZE(zeCommandQueueExecuteCommandLists(q, 1, &l, fence));
  EXPECT_EQ(zeCommandQueueSynchronize(q, 1'000'000), ZE_RESULT_NOT_READY);
  EXPECT_EQ(zeFenceHostSynchronize(fence, 0), ZE_RESULT_NOT_READY);
  ASSERT_ZE(zeEventHostSignal(event));
  EXPECT_ZE(zeFenceHostSynchronize(fence, kTimeout));
  EXPECT_ZE(zeFenceQueryStatus(fence));
  EXPECT_ZE(zeCommandQueueSynchronize(q, kTimeout));
  ASSERT_ZE(zeFenceReset(fence));
  EXPECT_EQ(zeFenceQueryStatus(fence), ZE_RESULT_NOT_READY);
  EXPECT_ZE(zeFenceDestroy(fence));
  EXPECT_ZE(zeCommandListDestroy(l));
  EXPECT_ZE(zeCommandQueueDestroy(q));
  EXPECT_ZE(zeEventDestroy(event));
  EXPECT_ZE(zeEventPoolDestroy(pool));
}

TEST_F(CommandQueueTest, AFenceCreatedSignaledIsSignaledAndImmediateListsCannotBeExecuted) {
  ze_command_queue_handle_t q = queue(0, 0, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  ze_fence_desc_t fenceDesc{ZE_STRUCTURE_TYPE_FENCE_DESC, nullptr, ZE_FENCE_FLAG_SIGNALED};
  ze_fence_handle_t fence = nullptr;
  ASSERT_ZE(zeFenceCreate(q, &fenceDesc, &fence));
  EXPECT_ZE(zeFenceQueryStatus(fence));
  EXPECT_EQ(zeCommandQueueExecuteCommandLists(q, 1, &list, nullptr), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  ze_command_list_handle_t open = regularList();
  EXPECT_EQ(zeCommandQueueExecuteCommandLists(q, 1, &open, nullptr), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_ZE(zeCommandListDestroy(open));
  EXPECT_ZE(zeFenceDestroy(fence));
  EXPECT_ZE(zeCommandQueueDestroy(q));
}

TEST_F(CommandQueueTest, ThreadsAppendToTheirOwnListsAndAllocateConcurrently) {
  constexpr int kThreads = 4, kRounds = 50;
  std::vector<int*> results(kThreads);
  for (int t = 0; t < kThreads; ++t) results[t] = shared<int>(kRounds);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      ze_command_queue_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
      desc.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
      desc.index = uint32_t(t % 4);
      ze_command_list_handle_t own = nullptr;
      ASSERT_ZE(zeCommandListCreateImmediate(context, device, &desc, &own));
      for (int round = 0; round < kRounds; ++round) {
        ze_host_mem_alloc_desc_t hostDesc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
        void* scratch = nullptr;
        ASSERT_ZE(zeMemAllocHost(context, &hostDesc, sizeof(int), 0, &scratch));
        const int value = t * 1000 + round;
        ASSERT_ZE(zeCommandListAppendMemoryFill(own, scratch, &value, sizeof(value), sizeof(value), nullptr, 0, nullptr));
        ASSERT_ZE(zeCommandListAppendMemoryCopy(own, &results[t][round], scratch, sizeof(int), nullptr, 0, nullptr));
        ASSERT_ZE(zeMemFree(context, scratch));
      }
      ASSERT_ZE(zeCommandListDestroy(own));
    });
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t)
    for (int round = 0; round < kRounds; ++round) EXPECT_EQ(results[t][round], t * 1000 + round);
}

}  // namespace
}  // namespace loom::test
