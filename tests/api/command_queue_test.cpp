// The command queue object: both modes, every ordinal and index, synchronization and bad
// descriptors.
#include <unistd.h>

#include "../child_process.h"
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
  // Submits, to a new asynchronous queue (the last of `queues`), a list that copies 3 to
  // `destination` and signals `copied` once the returned event is signaled.
  ze_event_handle_t submitACopyBehindAGate(int* destination, ze_event_handle_t copied) {
    ze_event_handle_t gate = hostVisibleEvent();
    int* source = shared<int>(1);
    *source = 3;
    ze_command_list_handle_t l = regularList();
    EXPECT_ZE(zeCommandListAppendWaitOnEvents(l, 1, &gate));
    EXPECT_ZE(zeCommandListAppendMemoryCopy(l, destination, source, sizeof(int), copied, 0, nullptr));
    EXPECT_ZE(zeCommandListClose(l));
    EXPECT_ZE(zeCommandQueueExecuteCommandLists(commandQueue(), 1, &l, nullptr));
    return gate;
  }
};

// A child that hangs fails (SIGALRM ends it) rather than stalling the suite.
constexpr unsigned kSecondsBeforeAHangFails = 60;

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

// The application must not destroy a queue in use, yet it may: the destroy returns at once, and
// the work finishes on the queue's own thread, the events and memory it uses kept until then.
// In a child process, where a destroy that hangs fails (SIGALRM) rather than stalls the suite.
TEST_F(CommandQueueTest, DestroyingAQueueInUseReturnsAndItsWorkFinishesAlone) {
  EXPECT_PASSES_IN_A_CHILD_PROCESS({
    alarm(kSecondsBeforeAHangFails);
    ze_event_handle_t copied = hostVisibleEvent();
    int* destination = shared<int>(1);
    *destination = 0;
    ze_event_handle_t gate = submitACopyBehindAGate(destination, copied);
    EXPECT_ZE(zeCommandQueueDestroy(queues.back()));
    queues.pop_back();
    EXPECT_EQ(zeEventQueryStatus(copied), ZE_RESULT_NOT_READY);
    EXPECT_EQ(*destination, 0);
    ASSERT_ZE(zeEventHostSignal(gate));
    EXPECT_ZE(zeEventHostSynchronize(copied, kTimeout));
    EXPECT_EQ(*destination, 3);
  });
}

// A forked child inherits its parent's queues without their threads: it may still destroy them,
// even one whose work the parent had not completed when the child was forked.
TEST_F(CommandQueueTest, AForkedChildDestroysTheQueuesItInherited) {
  SKIP_UNLESS_CPU_DEVICE("a forked child can use its parent's device (CUDA is not usable after fork)");
  int* destination = shared<int>(1);
  *destination = 0;
  ze_event_handle_t copied = hostVisibleEvent();
  ze_event_handle_t gate = submitACopyBehindAGate(destination, copied);
  ze_command_queue_handle_t waiting = queues.back();
  ze_command_list_handle_t immediate = immediateList(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  ASSERT_ZE(zeCommandListAppendWaitOnEvents(immediate, 1, &gate));
  EXPECT_EQ(runInChildProcess([&] {
              return zeCommandQueueDestroy(waiting) == ZE_RESULT_SUCCESS && zeCommandListDestroy(immediate) == ZE_RESULT_SUCCESS;
            }),
            0);
  // The parent's queues are untouched.
  ASSERT_ZE(zeEventHostSignal(gate));
  EXPECT_ZE(zeCommandQueueSynchronize(waiting, kTimeout));
  EXPECT_ZE(zeEventHostSynchronize(copied, kTimeout));
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
