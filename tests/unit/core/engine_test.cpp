#include "loom/core/engine.h"

#include <gtest/gtest.h>

#include "fake_backend.h"
#include "loom/core/command_stream.h"
#include "loom/core/device.h"
#include "loom/core/engine_registry.h"
#include "loom/core/event.h"
#include "loom/core/runtime.h"

#include <atomic>
#include <chrono>
#include <thread>

namespace loom::core {
namespace {

std::shared_ptr<const std::vector<uint8_t>> share(const CommandStream& stream) {
  return std::make_shared<const std::vector<uint8_t>>(stream.bytes());
}

TEST(Engine, TaskCountsIncreaseAndCompleteInOrder) {
  testing::FakeBackend backend;
  std::atomic<int> completions{0};
  Engine engine(backend, [&] { ++completions; });
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
  for (int poll = 0; poll < 10000 && completions < 3; ++poll) std::this_thread::sleep_for(std::chrono::microseconds(100));
  EXPECT_EQ(completions.load(), 3);
}

// A stream handed over is taken whole, and once one has run (its completion is published after
// its storage is kept), the next submission leaves the stream in that storage: a submitter of one
// command after another, waiting for each, allocates none.
TEST(Engine, HandsASubmitterTheStorageOfAStreamThatHasRun) {
  testing::FakeBackend backend;
  Engine engine(backend, nullptr);
  uint64_t written[2] = {0, 0};
  CommandStream stream;
  stream.appendWriteTimestamp(&written[0]);
  const uint8_t* firstStorage = stream.bytes().data();
  const uint64_t first = engine.submit(stream);
  EXPECT_TRUE(stream.empty());
  ASSERT_TRUE(engine.waitForTaskCount(first, 10'000'000'000ull));
  stream.appendWriteTimestamp(&written[1]);
  EXPECT_NE(stream.bytes().data(), firstStorage) << "the first stream's storage went with it";
  const uint64_t second = engine.submit(stream);
  EXPECT_TRUE(stream.empty());
  EXPECT_EQ(stream.bytes().data(), firstStorage) << "the stream goes on in the storage of the one that ran";
  ASSERT_TRUE(engine.waitForTaskCount(second, 10'000'000'000ull));
  EXPECT_NE(written[0], 0u);
  EXPECT_LE(written[0], written[1]);
}

// The queue groups hold as many queues as the backend says its device offers.
TEST(Device, QueueGroupsHoldTheQueuesTheBackendOffers) {
  DeviceInfo info;
  info.computeQueues = 3;
  info.copyQueues = 5;
  Device device(std::make_unique<testing::FakeBackend>(info), nullptr);
  ASSERT_EQ(device.engineGroups().size(), 2u);
  EXPECT_EQ(device.engineGroups()[0].type, EngineType::Compute);
  EXPECT_EQ(device.engineGroups()[0].count, 3u);
  EXPECT_EQ(device.engineGroups()[1].type, EngineType::Copy);
  EXPECT_EQ(device.engineGroups()[1].count, 5u);
  EXPECT_NE(device.createEngine(1, 4), nullptr);
  EXPECT_EQ(device.createEngine(0, 3), nullptr);
}

// An engine's own completion handler runs after the device's, once per completed stream (OpenCL
// queues retire their commands' events there).
TEST(Device, EnginesRunTheirOwnCompletionHandlerAfterTheDevices) {
  std::atomic<int> deviceCompletions{0}, engineCompletions{0};
  Device device(std::make_unique<testing::FakeBackend>(), nullptr, [&] { ++deviceCompletions; });
  EXPECT_EQ(device.createEngine(0, 99, [] {}), nullptr);
  auto engine = device.createEngine(0, 0, [&] {
    EXPECT_GE(deviceCompletions.load(), engineCompletions.load() + 1);
    ++engineCompletions;
  });
  ASSERT_NE(engine, nullptr);
  uint64_t last = 0;
  for (int i = 0; i < 2; ++i) last = engine->submit(share(CommandStream{}));
  ASSERT_TRUE(engine->waitForTaskCount(last, 10'000'000'000ull));
  for (int poll = 0; poll < 10000 && engineCompletions < 2; ++poll) std::this_thread::sleep_for(std::chrono::microseconds(100));
  EXPECT_EQ(engineCompletions.load(), 2);
  EXPECT_EQ(deviceCompletions.load(), 2);
}

TEST(Engine, WaitTimesOutWhileWorkIsBlockedAndCompletesAfterTheSignal) {
  testing::FakeBackend backend;
  Engine engine(backend, nullptr);
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

TEST(Runtime, ReleasesWaitForWorkSubmittedBeforeThem) {
  std::vector<DiscoveredDevice> devices(1);
  devices[0].backend = std::make_unique<testing::FakeBackend>();
  Runtime runtime(std::move(devices));
  std::unique_ptr<Engine> engine = runtime.devices()[0]->createEngine(0, 0);
  ASSERT_NE(engine, nullptr);
  EXPECT_EQ(runtime.devices()[0]->createEngine(2, 0), nullptr);
  EXPECT_EQ(runtime.devices()[0]->createEngine(0, 99), nullptr);
  EventStorage storage;
  Event event(&storage);
  Event* events[1] = {&event};
  CommandStream stream;
  stream.appendWaitEvents(events, 1);
  const uint64_t taskCount = engine->submit(share(stream));
  std::atomic<bool> released{false};
  runtime.releaseAfterSubmittedWork([&] { released = true; });
  EXPECT_FALSE(released.load());
  event.hostSignal();
  ASSERT_TRUE(engine->waitForTaskCount(taskCount, 10'000'000'000ull));
  for (int poll = 0; poll < 10000 && !released; ++poll) std::this_thread::sleep_for(std::chrono::microseconds(100));
  EXPECT_TRUE(released.load());
  bool immediately = false;
  runtime.releaseAfterSubmittedWork([&] { immediately = true; });
  EXPECT_TRUE(immediately) << "nothing in flight: released at once";
}

// The two ways to hand an engine a stream to take.
using Submission = uint64_t (Engine::*)(CommandStream&);

class EngineOnAnAsynchronousDevice : public ::testing::TestWithParam<Submission> {};

// On an asynchronous device (a GPU) the engine never reports a stream complete before the device
// has run it, and retires it once the device has; runHereOrSubmit too hands the stream to the
// engine's thread there.
TEST_P(EngineOnAnAsynchronousDevice, CompletesOnlyAfterTheDeviceWork) {
  testing::FakeAsynchronousBackend backend;
  Engine engine(backend, nullptr);
  int source = 5, destination = 0;
  CommandStream stream;
  stream.appendCopy({&destination, &source, sizeof(int)});
  const uint64_t taskCount = (engine.*GetParam())(stream);
  EXPECT_TRUE(stream.empty()) << "the engine took the stream";
  EXPECT_FALSE(engine.waitForTaskCount(taskCount, 30'000'000)) << "the device has not run the copy";
  EXPECT_EQ(engine.completionTag(), 0u);
  backend.finishWork();
  ASSERT_TRUE(engine.waitForTaskCount(taskCount, 10'000'000'000ull));
  EXPECT_EQ(destination, 5);
}

INSTANTIATE_TEST_SUITE_P(SubmittedOrRunHere, EngineOnAnAsynchronousDevice,
                         ::testing::Values(static_cast<Submission>(&Engine::submit), &Engine::runHereOrSubmit),
                         [](const ::testing::TestParamInfo<Submission>& info) {
                           return info.index == 0 ? "Submit" : "RunHereOrSubmit";
                         });

// An idle engine on a synchronous device runs the stream on the caller; the task counts it hands
// out stay in order with the engine thread's own, and later submissions complete as usual.
TEST(Engine, RunHereOrSubmitRunsOnTheCallerWhenIdleAndKeepsTaskCountsInOrder) {
  testing::FakeBackend backend;
  Engine engine(backend, nullptr);
  uint64_t first = 0, second = 0;
  CommandStream here;
  here.appendWriteTimestamp(&first);
  const uint64_t hereTask = engine.runHereOrSubmit(here);
  EXPECT_NE(first, 0u) << "ran before returning";
  EXPECT_GE(engine.completionTag(), hereTask);
  CommandStream later;
  later.appendWriteTimestamp(&second);
  const uint64_t laterTask = engine.submit(share(later));
  EXPECT_EQ(laterTask, hereTask + 1);
  ASSERT_TRUE(engine.waitForTaskCount(laterTask, 10'000'000'000ull));
  EXPECT_LT(first, second);
  EXPECT_EQ(engine.completionTag(), laterTask);
}

// Work that waits in the device's queue for another queue's signal keeps neither the engine's
// thread nor later submissions waiting: they are issued to the device meanwhile, and all completes
// once the signal comes.
TEST(Engine, WorkWaitingInTheQueueForAnotherQueuesSignalDoesNotHoldUpLaterSubmissions) {
  testing::FakeAsynchronousBackend backend;
  Engine engine(backend, nullptr);
  EventStorage gateStorage;
  Event gate(&gateStorage, true);
  gate.noteDeviceSignalIssued();  // as another queue's signal behind its own work does
  Event* waited[] = {&gate};
  int source = 3, first = 0, second = 0;
  CommandStream waiting;
  waiting.appendWaitEvents(waited, 1);
  waiting.appendCopy({&first, &source, sizeof(int)});
  engine.submit(share(waiting));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the engine goes idle meanwhile
  CommandStream later;
  later.appendCopy({&second, &source, sizeof(int)});
  const uint64_t laterTask = engine.submit(share(later));
  auto issued = [&] {
    std::lock_guard lock(backend.workMutex);
    return backend.copiesIssued;
  };
  for (int i = 0; i < 500 && issued() < 2; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(issued(), 2u) << "the later copy was not issued before the signal";
  EXPECT_EQ(engine.completionTag(), 0u);
  gate.hostSignal();
  backend.finishWork();
  ASSERT_TRUE(engine.waitForTaskCount(laterTask, 10'000'000'000ull));
  EXPECT_EQ(first, 3);
  EXPECT_EQ(second, 3);
}

// Destroying an engine never waits for work that has not completed (it may never complete): the
// engine's thread finishes it alone, listed in the registry until then so that deferred releases
// wait for it, and the owner's completion handler, gone with the owner, no longer runs.
TEST(Engine, DestroyedWithWorkLeftItsThreadFinishesTheWorkAlone) {
  // What the thread uses lives to the end of the process: the thread may outlast this scope.
  struct Leftovers {
    testing::FakeBackend backend;
    EngineRegistry registry;
    EventStorage gateStorage, doneStorage;
    Event gate{&gateStorage}, done{&doneStorage};
    std::atomic<int> ownerCompletions{0};
  };
  static Leftovers left;
  auto engine = std::make_unique<Engine>(left.backend, nullptr, &left.registry, [] { ++left.ownerCompletions; });
  Event* waited[] = {&left.gate};
  CommandStream stream;
  stream.appendWaitEvents(waited, 1);
  stream.appendSignalEvent(&left.done);
  engine->submit(share(stream));
  const EngineRegistry::Snapshot work = left.registry.submittedWork();
  engine.reset();
  EXPECT_FALSE(left.registry.completed(work));
  EXPECT_FALSE(left.done.isSignaled());
  left.gate.hostSignal();
  ASSERT_TRUE(left.done.hostSynchronize(10'000'000'000ull));
  for (int poll = 0; poll < 10000 && !left.registry.submittedWork().empty(); ++poll)
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  EXPECT_TRUE(left.registry.submittedWork().empty()) << "the thread leaves the registry once done";
  EXPECT_TRUE(left.registry.completed(work));
  EXPECT_EQ(left.ownerCompletions.load(), 0);
}

}  // namespace
}  // namespace loom::core
