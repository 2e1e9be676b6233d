#include "loom/core/engine.h"

#include <gtest/gtest.h>

#include "fake_backend.h"
#include "loom/core/command_stream.h"
#include "loom/core/event.h"

namespace loom::core {
namespace {

std::shared_ptr<const std::vector<uint8_t>> share(const CommandStream& stream) {
  return std::make_shared<const std::vector<uint8_t>>(stream.bytes());
}

TEST(Engine, TaskCountsIncreaseAndCompleteInOrder) {
  testing::FakeBackend backend;
  Engine engine(backend);
  std::vector<uint64_t> written(3, 0);
  uint64_t last = 0;
  for (auto& slot : written) {
    CommandStream stream;
    stream.appendWriteTimestamp(&slot);
    const uint64_t taskCount = engine.submit(share(stream));
    EXPECT_EQ(taskCount, last + 1);
    last = taskCount;
  }
  ASSERT_TRUE(engine.waitForTaskCount(last, 10'000'000'000ull));
  EXPECT_GE(engine.completionTag(), last);
  EXPECT_LT(written[0], written[1]);
  EXPECT_LT(written[1], written[2]);
}

TEST(Engine, WaitTimesOutWhileWorkIsBlockedAndCompletesAfterTheSignal) {
  testing::FakeBackend backend;
  Engine engine(backend);
  EventStorage storage;
  Event event(&storage);
  Event* events[1] = {&event};
  CommandStream stream;
  stream.appendWaitEvents(events, 1);
  const uint64_t taskCount = engine.submit(share(stream));
  EXPECT_FALSE(engine.waitForTaskCount(taskCount, 1'000'000));
  event.hostSignal();
  EXPECT_TRUE(engine.waitForTaskCount(taskCount, 10'000'000'000ull));
}

}  // namespace
}  // namespace loom::core
