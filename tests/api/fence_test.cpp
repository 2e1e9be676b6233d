// The fence object: created unsignaled or signaled, signaled by an execution, waited on by the
// host, queried and reset.
#include "ze_test_helpers.h"

namespace loom::test {
namespace {

class FenceTest : public ZeTest {
 protected:
  void SetUp() override {
    ZeTest::SetUp();
    if (HasFatalFailure() || IsSkipped()) return;
    queue = commandQueue();
  }
  // A closed list that waits for `gate` (when given) and then copies 21 into *target.
  ze_command_list_handle_t gatedCopy(ze_event_handle_t gate, int* target) {
    int* source = shared<int>(1);
    *source = 21;
    ze_command_list_handle_t l = regularList();
    if (gate) {
      EXPECT_ZE(zeCommandListAppendWaitOnEvents(l, 1, &gate));
    }
    EXPECT_ZE(zeCommandListAppendMemoryCopy(l, target, source, sizeof(int), nullptr, 0, nullptr));
    EXPECT_ZE(zeCommandListClose(l));
    return l;
  }
  ze_command_queue_handle_t queue = nullptr;
};

TEST_F(FenceTest, ANewFenceIsNotSignaled) {
  ze_fence_handle_t f = fence(queue);
  EXPECT_EQ(zeFenceQueryStatus(f), ZE_RESULT_NOT_READY);
  EXPECT_EQ(zeFenceHostSynchronize(f, 0), ZE_RESULT_NOT_READY);
}

TEST_F(FenceTest, AFenceCreatedWithTheSignaledFlagIsSignaled) {
  ze_fence_handle_t f = fence(queue, ZE_FENCE_FLAG_SIGNALED);
  EXPECT_ZE(zeFenceQueryStatus(f));
  EXPECT_ZE(zeFenceHostSynchronize(f, 0));
}

TEST_F(FenceTest, AnExecutionSignalsItsFenceWhenItsWorkIsDone) {
  ze_fence_handle_t f = fence(queue);
  int* target = shared<int>(1);
  *target = 0;
  ze_command_list_handle_t l = gatedCopy(nullptr, target);
  ASSERT_ZE(zeCommandQueueExecuteCommandLists(queue, 1, &l, f));
  ASSERT_ZE(zeFenceHostSynchronize(f, kTimeout));
  EXPECT_ZE(zeFenceQueryStatus(f));
  EXPECT_EQ(*target, 21);
}

TEST_F(FenceTest, AFenceWaitsForWorkThatWaitsForTheHost) {
  ze_event_handle_t gate = hostVisibleEvent();
  ze_fence_handle_t f = fence(queue);
  int* target = shared<int>(1);
  *target = 0;
  ze_command_list_handle_t l = gatedCopy(gate, target);
  ASSERT_ZE(zeCommandQueueExecuteCommandLists(queue, 1, &l, f));
  EXPECT_EQ(zeFenceQueryStatus(f), ZE_RESULT_NOT_READY);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(zeFenceHostSynchronize(f, 5'000'000), ZE_RESULT_NOT_READY);  // 5 ms
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(5));
  EXPECT_EQ(*target, 0);
  ASSERT_ZE(zeEventHostSignal(gate));
  ASSERT_ZE(zeFenceHostSynchronize(f, kTimeout));
  EXPECT_EQ(*target, 21);
}

TEST_F(FenceTest, ResetMakesASignaledFenceUnsignaledAndReusable) {
  ze_fence_handle_t f = fence(queue, ZE_FENCE_FLAG_SIGNALED);
  ASSERT_ZE(zeFenceReset(f));
  EXPECT_EQ(zeFenceQueryStatus(f), ZE_RESULT_NOT_READY);
  int* target = shared<int>(1);
  ze_command_list_handle_t l = gatedCopy(nullptr, target);
  for (int run = 0; run < 3; ++run) {
    *target = 0;
    ASSERT_ZE(zeCommandQueueExecuteCommandLists(queue, 1, &l, f));
    ASSERT_ZE(zeFenceHostSynchronize(f, kTimeout)) << "run " << run;
    EXPECT_EQ(*target, 21);
    ASSERT_ZE(zeFenceReset(f));
    EXPECT_EQ(zeFenceQueryStatus(f), ZE_RESULT_NOT_READY);
  }
}

TEST_F(FenceTest, BadArgumentsAreRejected) {
  ze_fence_desc_t desc{ZE_STRUCTURE_TYPE_FENCE_DESC};
  ze_fence_handle_t handle = nullptr;
  EXPECT_EQ(zeFenceCreate(nullptr, &desc, &handle), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  EXPECT_EQ(zeFenceCreate(queue, nullptr, &handle), ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  desc.flags = 0x2;
  EXPECT_EQ(zeFenceCreate(queue, &desc, &handle), ZE_RESULT_ERROR_INVALID_ENUMERATION);
  EXPECT_EQ(zeFenceQueryStatus(nullptr), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  EXPECT_EQ(zeFenceHostSynchronize(nullptr, 0), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  EXPECT_EQ(zeFenceReset(nullptr), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
}

}  // namespace
}  // namespace loom::test
