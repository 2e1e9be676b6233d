// The command queue object: both modes, every ordinal and index, synchronization and bad
// descriptors.
#include "ze_test_helpers.h"

namespace loom::test {
namespace {

class CommandQueueTest : public ZeTest {
 protected:
  std::vector<ze_command_queue_group_properties_t> queueGroups() {
    uint32_t count = 0;
    EXPECT_ZE(zeDeviceGetCommandQueueGroupProperties(device, &count, nullptr));
    std::vector<ze_command_queue_group_properties_t> groups(count, {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES});
    EXPECT_ZE(zeDeviceGetCommandQueueGroupProperties(device, &count, groups.data()));
    return groups;
  }
  // A closed list of the group `ordinal` that copies one int.
  ze_command_list_handle_t copyOneInt(uint32_t ordinal, int* to, const int* from) {
    ze_command_list_handle_t l = regularList(ordinal);
    EXPECT_ZE(zeCommandListAppendMemoryCopy(l, to, from, sizeof(int), nullptr, 0, nullptr));
    EXPECT_ZE(zeCommandListClose(l));
    return l;
  }
};

TEST_F(CommandQueueTest, EveryQueueOfBothGroupsRunsAListInBothModes) {
  const auto groups = queueGroups();
  ASSERT_EQ(groups.size(), 2u);
  int *source = shared<int>(1), *destination = shared<int>(1);
  for (uint32_t ordinal = 0; ordinal < groups.size(); ++ordinal)
    for (uint32_t index = 0; index < groups[ordinal].numQueues; ++index)
      for (auto mode : {ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS}) {
        ze_command_queue_handle_t q = commandQueue(mode, ordinal, index);
        ASSERT_NE(q, nullptr) << "ordinal " << ordinal << " index " << index;
        *source = int(ordinal * 100 + index), *destination = -1;
        ze_command_list_handle_t l = copyOneInt(ordinal, destination, source);
        ASSERT_ZE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr));
        ASSERT_ZE(zeCommandQueueSynchronize(q, kTimeout));
        EXPECT_EQ(*destination, *source) << "ordinal " << ordinal << " index " << index;
      }
}

TEST_F(CommandQueueTest, ASynchronousQueueHasFinishedWhenExecuteReturns) {
  ze_command_queue_handle_t q = commandQueue(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
  const uint32_t n = 1 << 16;
  ze_kernel_handle_t add = apiKernel("add_vectors");
  float *a = shared<float>(n), *sum = shared<float>(n);
  for (uint32_t i = 0; i < n; ++i) a[i] = float(i), sum[i] = 0.0f;
  setArguments(add, a, a, sum);
  ze_command_list_handle_t l = regularList();
  launch(add, n / 64, 64, l);
  ASSERT_ZE(zeCommandListClose(l));
  ASSERT_ZE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr));
  EXPECT_EQ(sum[n - 1], 2.0f * float(n - 1));  // no synchronize needed
}

TEST_F(CommandQueueTest, SeveralListsInOneExecuteRunInOrder) {
  ze_command_queue_handle_t q = commandQueue();
  int *a = shared<int>(1), *b = shared<int>(1), *c = shared<int>(1);
  *a = 5, *b = 0, *c = 0;
  ze_command_list_handle_t lists[2] = {copyOneInt(0, b, a), copyOneInt(0, c, b)};
  ASSERT_ZE(zeCommandQueueExecuteCommandLists(q, 2, lists, nullptr));
  ASSERT_ZE(zeCommandQueueSynchronize(q, kTimeout));
  EXPECT_EQ(*c, 5);
}

TEST_F(CommandQueueTest, SynchronizeReturnsNotReadyUntilTheHostSignalsTheAwaitedEvent) {
  ze_event_handle_t gate = hostVisibleEvent();
  ze_command_queue_handle_t q = commandQueue();
  int *source = shared<int>(1), *destination = shared<int>(1);
  *source = 3, *destination = 0;
  ze_command_list_handle_t l = regularList();
  ASSERT_ZE(zeCommandListAppendWaitOnEvents(l, 1, &gate));
  ASSERT_ZE(zeCommandListAppendMemoryCopy(l, destination, source, sizeof(int), nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListClose(l));
  ASSERT_ZE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr));
  EXPECT_EQ(zeCommandQueueSynchronize(q, 0), ZE_RESULT_NOT_READY);
  EXPECT_EQ(zeCommandQueueSynchronize(q, 1'000'000), ZE_RESULT_NOT_READY);
  EXPECT_EQ(*destination, 0);
  ASSERT_ZE(zeEventHostSignal(gate));
  ASSERT_ZE(zeCommandQueueSynchronize(q, kTimeout));
  EXPECT_EQ(*destination, 3);
}

TEST_F(CommandQueueTest, AnIdleQueueIsSynchronized) {
  ze_command_queue_handle_t q = commandQueue();
  EXPECT_ZE(zeCommandQueueSynchronize(q, 0));
}

TEST_F(CommandQueueTest, AnOrdinalBeyondTheGroupsIsAnInvalidArgument) {
  ze_command_queue_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
  ze_command_queue_handle_t handle = nullptr;
  desc.ordinal = uint32_t(queueGroups().size());
  EXPECT_EQ(zeCommandQueueCreate(context, device, &desc, &handle), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  desc.ordinal = 7;
  EXPECT_EQ(zeCommandQueueCreate(context, device, &desc, &handle), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(handle, nullptr);
}

TEST_F(CommandQueueTest, AnIndexBeyondTheGroupsQueuesIsAnInvalidArgument) {
  ze_command_queue_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
  ze_command_queue_handle_t handle = nullptr;
  desc.index = queueGroups()[0].numQueues;
  EXPECT_EQ(zeCommandQueueCreate(context, device, &desc, &handle), ZE_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_F(CommandQueueTest, BadModesPrioritiesAndFlagsAreInvalidEnumerations) {
  ze_command_queue_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
  ze_command_queue_handle_t handle = nullptr;
  desc.mode = static_cast<ze_command_queue_mode_t>(9);
  EXPECT_EQ(zeCommandQueueCreate(context, device, &desc, &handle), ZE_RESULT_ERROR_INVALID_ENUMERATION);
  desc.mode = ZE_COMMAND_QUEUE_MODE_DEFAULT;
  desc.priority = static_cast<ze_command_queue_priority_t>(9);
  EXPECT_EQ(zeCommandQueueCreate(context, device, &desc, &handle), ZE_RESULT_ERROR_INVALID_ENUMERATION);
  desc.priority = ZE_COMMAND_QUEUE_PRIORITY_NORMAL;
  desc.flags = 0x10;
  EXPECT_EQ(zeCommandQueueCreate(context, device, &desc, &handle), ZE_RESULT_ERROR_INVALID_ENUMERATION);
}

TEST_F(CommandQueueTest, ListsThatCannotBeExecutedAreRefused) {
  ze_command_queue_handle_t q = commandQueue();
  EXPECT_EQ(zeCommandQueueExecuteCommandLists(q, 1, &list, nullptr), ZE_RESULT_ERROR_INVALID_ARGUMENT)
      << "an immediate list";
  ze_command_list_handle_t open = regularList();
  EXPECT_EQ(zeCommandQueueExecuteCommandLists(q, 1, &open, nullptr), ZE_RESULT_ERROR_INVALID_ARGUMENT)
      << "a list that was not closed";
  ze_command_list_handle_t copyList = regularList(1);
  ASSERT_ZE(zeCommandListClose(copyList));
  EXPECT_EQ(zeCommandQueueExecuteCommandLists(q, 1, &copyList, nullptr), ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE)
      << "a list of the copy group on a compute queue";
  EXPECT_EQ(zeCommandQueueExecuteCommandLists(q, 0, &open, nullptr), ZE_RESULT_ERROR_INVALID_SIZE);
}

}  // namespace
}  // namespace loom::test
