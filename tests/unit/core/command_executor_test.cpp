#include "loom/core/command_executor.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <thread>

#include "fake_backend.h"
#include "loom/core/command_stream.h"
#include "loom/core/event.h"

namespace loom::core {
namespace {

using testing::FakeBackend;

TEST(CommandExecutor, CopiesAndFills) {
  FakeBackend backend;
  std::vector<int> source(64), destination(64, 0);
  std::iota(source.begin(), source.end(), 1);
  std::vector<uint8_t> filled(10, 0);
  const uint8_t pattern[4] = {1, 2, 3, 4};
  CommandStream stream;
  stream.appendCopy({destination.data(), source.data(), source.size() * sizeof(int)});
  stream.appendFill({filled.data(), filled.size(), sizeof(pattern)}, pattern);
  executeCommandStream(stream.bytes(), backend);
  EXPECT_EQ(destination, source);
  EXPECT_EQ(filled, (std::vector<uint8_t>{1, 2, 3, 4, 1, 2, 3, 4, 1, 2}));
}

TEST(CommandExecutor, CopiesA3dRegionBetweenDifferentPitches) {
  FakeBackend backend;
  // Source: 4 x 3 x 2 bytes, pitch 4, slice 12. Destination: 8 x 4 x 3 bytes, pitch 8, slice 32.
  std::vector<uint8_t> source(24), destination(96, 0);
  std::iota(source.begin(), source.end(), 0);
  CopyRegionCommand copy{};
  copy.destination = destination.data();
  copy.source = source.data();
  copy.sourceRegion = {1, 1, 0, 4, 12};
  copy.destinationRegion = {2, 0, 1, 8, 32};
  copy.width = 2, copy.height = 2, copy.depth = 2;
  CommandStream stream;
  stream.appendCopyRegion(copy);
  executeCommandStream(stream.bytes(), backend);
  for (uint64_t z = 0; z < 2; ++z)
    for (uint64_t y = 0; y < 2; ++y)
      for (uint64_t x = 0; x < 2; ++x)
        EXPECT_EQ(destination[(1 + z) * 32 + y * 8 + 2 + x], source[z * 12 + (1 + y) * 4 + 1 + x]) << x << y << z;
}

TEST(CommandExecutor, SignalsResetsAndTimestampsEvents) {
  FakeBackend backend;
  EventStorage storage;
  Event event(&storage);
  CommandStream stream;
  stream.appendMarkEventStart(&event);
  stream.appendSignalEvent(&event);
  executeCommandStream(stream.bytes(), backend);
  EXPECT_TRUE(event.isSignaled());
  EXPECT_LT(event.timestamps().globalStart, event.timestamps().globalEnd);

  const EventTimestamps recorded = event.timestamps();
  EventTimestamps queried[2];
  size_t offsets[1] = {sizeof(EventTimestamps)};
  Event* events[1] = {&event};
  CommandStream query;
  query.appendQueryKernelTimestamps(queried, events, 1, offsets);
  query.appendResetEvent(&event);
  executeCommandStream(query.bytes(), backend);
  EXPECT_EQ(queried[1].globalStart, recorded.globalStart);
  EXPECT_EQ(queried[1].globalEnd, recorded.globalEnd);
  EXPECT_FALSE(event.isSignaled());
}

TEST(CommandExecutor, WaitsForAnEventSignaledByAnotherThread) {
  FakeBackend backend;
  EventStorage storage;
  Event event(&storage);
  uint64_t timestamp = 0;
  Event* events[1] = {&event};
  CommandStream stream;
  stream.appendWaitEvents(events, 1);
  stream.appendWriteTimestamp(&timestamp);
  std::thread signaler([&] { event.hostSignal(); });
  executeCommandStream(stream.bytes(), backend);
  signaler.join();
  EXPECT_NE(timestamp, 0u);
}

TEST(CommandExecutor, LaunchesWithDirectAndIndirectGroupCounts) {
  FakeBackend backend;
  compiler::KernelDescriptor descriptor;
  descriptor.argumentBufferSize = 4;
  const uint32_t argument = 42;
  uint32_t indirect[3] = {5, 6, 7};
  LaunchKernelCommand direct{};
  direct.launch.descriptor = &descriptor;
  direct.launch.argumentSize = 4;
  direct.launch.setRange({3, {2, 1, 1}, {8, 1, 1}});
  LaunchKernelCommand fromMemory = direct;
  fromMemory.indirect.groupCount = indirect;
  CommandStream stream;
  stream.appendLaunchKernel(direct, &argument);
  stream.appendLaunchKernel(fromMemory, &argument);
  indirect[0] = 9;  // read when the command runs, not when it was recorded
  executeCommandStream(stream.bytes(), backend);
  ASSERT_EQ(backend.launches.size(), 2u);
  EXPECT_EQ(backend.launches[0].groupCount[0], 2u);
  EXPECT_EQ(backend.launches[0].globalSize[0], 16u);
  EXPECT_EQ(backend.launches[1].groupCount[0], 9u);
  EXPECT_EQ(backend.launches[1].groupCount[2], 7u);
  EXPECT_EQ(backend.launches[1].globalSize[0], 72u) << "an indirect launch's work-items follow the counts read";
  EXPECT_EQ(backend.launches[1].globalSize[1], 6u);
  EXPECT_EQ(backend.launchArguments[0], (std::vector<uint8_t>{42, 0, 0, 0}));
  EXPECT_EQ(backend.launchArguments[1], (std::vector<uint8_t>{42, 0, 0, 0}));
}

// The counts metric queries and streamers read: launches with their groups and work-items as they
// ran (OpenCL's partial last group, an indirect launch's counts read from memory), copies and
// fills by their bytes, sampled as the commands are issued; markers once the work before is done.
TEST(CommandExecutor, CountsTheWorkItIssues) {
  FakeBackend backend;
  compiler::KernelDescriptor descriptor;
  uint32_t indirect[3] = {3, 2, 1};
  LaunchKernelCommand partial{};
  partial.launch.descriptor = &descriptor;
  partial.launch.setRange({1, {3, 1, 1}, {8, 1, 1}, {0, 0, 0}, {20, 0, 0}});
  LaunchKernelCommand fromMemory{};
  fromMemory.launch.descriptor = &descriptor;
  fromMemory.launch.setRange({2, {1, 1, 1}, {4, 4, 1}});
  fromMemory.indirect.groupCount = indirect;
  std::vector<uint8_t> source(300, 1), destination(300, 0);
  const uint8_t pattern = 9;
  WorkCounts before, after;
  CommandStream stream;
  stream.appendSampleWorkCounters(&before);
  stream.appendLaunchKernel(partial, nullptr);
  stream.appendLaunchKernel(fromMemory, nullptr);
  stream.appendCopy({destination.data(), source.data(), 300});
  stream.appendFill({destination.data(), 100, 1}, &pattern);
  stream.appendPassStreamerMarker(5);
  stream.appendSampleWorkCounters(&after);
  executeCommandStream(stream.bytes(), backend);
  const WorkCounts counted = after - before;
  EXPECT_EQ(2u, counted.kernelLaunches);
  EXPECT_EQ(3u + 6u, counted.workGroups);
  EXPECT_EQ(20u + 6u * 16u, counted.workItems) << "the partial group's items that run, and every item of the indirect launch";
  EXPECT_EQ(300u, counted.copiedBytes);
  EXPECT_EQ(100u, counted.filledBytes);
  EXPECT_EQ(5u, backend.workCounters().lastMarker());
}

TEST(CommandExecutor, SkipsMultipleIndirectLaunchesBeyondTheCount) {
  FakeBackend backend;
  compiler::KernelDescriptor descriptor;
  uint32_t groups[3] = {1, 1, 1};
  uint32_t kernelCount = 2;
  CommandStream stream;
  for (uint32_t i = 0; i < 3; ++i) {
    LaunchKernelCommand launch{};
    launch.launch.descriptor = &descriptor;
    launch.indirect = {groups, &kernelCount, i};
    stream.appendLaunchKernel(launch, nullptr);
  }
  executeCommandStream(stream.bytes(), backend);
  EXPECT_EQ(backend.launches.size(), 2u);
}

TEST(CommandExecutor, RunsHostFunctionsInOrder) {
  FakeBackend backend;
  std::vector<int> order;
  auto record = [](void* data) { static_cast<std::vector<int>*>(data)->push_back(int(static_cast<std::vector<int>*>(data)->size())); };
  CommandStream stream;
  stream.appendHostFunction(record, &order);
  stream.appendHostFunction(record, &order);
  executeCommandStream(stream.bytes(), backend);
  EXPECT_EQ(order, (std::vector<int>{0, 1}));
}

// A failed event abandons what waits for it: the copy does not run and the stream's own event
// fails with the same status, so the failure reaches whatever waits on that event in turn.
TEST(CommandExecutor, AFailedWaitedEventAbandonsTheRestOfTheStream) {
  FakeBackend backend;
  EventStorage failedStorage, signalStorage;
  Event failed(&failedStorage), signal(&signalStorage);
  failed.fail(-14);
  int source = 7, destination = 0;
  Event* waits[] = {&failed};
  CommandStream stream;
  stream.appendWaitEvents(waits, 1);
  stream.appendCopy({&destination, &source, sizeof(int)});
  stream.appendSignalEvent(&signal);
  executeCommandStream(stream.bytes(), backend);
  EXPECT_EQ(destination, 0);
  EXPECT_TRUE(signal.isSignaled());
  EXPECT_EQ(signal.error(), -14);

  signal.reset();
  EXPECT_EQ(signal.error(), 0);
  EXPECT_FALSE(signal.isSignaled());
}

// An executor over an asynchronous queue (a GPU): the fake device runs what was issued only when
// the test calls finishWork().
class AsynchronousQueue : public ::testing::Test {
 protected:
  // Appends to `stream` a copy of `source` to `destination`, then signals of `signals` in order.
  void appendCopyThenSignal(std::initializer_list<Event*> signals) {
    stream.appendCopy({&destination, &source, sizeof(int)});
    for (Event* signal : signals) stream.appendSignalEvent(signal);
  }
  // The device finishes the work issued by then, a while after the test goes on.
  std::thread finishWorkSoon() {
    return std::thread([this] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      backend.finishWork();
    });
  }

  testing::FakeAsynchronousBackend backend;
  CommandExecutor executor{backend};
  int source = 7, destination = 0;
  CommandStream stream;
};

// On an asynchronous queue the executor returns before the device work is done; the event that
// follows the work is signaled only once retire() finds it complete.
TEST_F(AsynchronousQueue, SignalsWaitForTheDeviceWork) {
  EventStorage storage;
  Event event(&storage);
  appendCopyThenSignal({&event});
  executor.execute(stream.bytes());
  EXPECT_FALSE(executor.idle());
  EXPECT_FALSE(executor.retire(false)) << "the device has not run the copy";
  EXPECT_FALSE(event.isSignaled());
  EXPECT_EQ(destination, 0);
  backend.finishWork();
  EXPECT_TRUE(executor.retire(false));
  EXPECT_TRUE(event.isSignaled());
  EXPECT_EQ(destination, source);
  EXPECT_TRUE(executor.idle());
}

// A command the device refuses abandons the rest of its stream, as a failed wait does, and the
// failure stays on record for the API's synchronization calls.
TEST_F(AsynchronousQueue, ACommandTheDeviceRefusesFailsTheSignalsAfterIt) {
  int second = 0;
  EventStorage storage;
  Event event(&storage);
  appendCopyThenSignal({});
  stream.appendCopy({&second, &source, sizeof(int)});
  stream.appendSignalEvent(&event);
  backend.failure = kStatusOutOfResources;
  executor.execute(stream.bytes());
  backend.finishWork();
  EXPECT_TRUE(executor.retire(true));
  EXPECT_TRUE(event.isSignaled());
  EXPECT_EQ(event.error(), kStatusOutOfResources);
  EXPECT_EQ(second, 0) << "the command after the refused one must not run";
  EXPECT_EQ(executor.deviceFailure(), kStatusOutOfResources);
}

// A fault while the device ran the work reaches every signal that waited for that work.
TEST_F(AsynchronousQueue, AFaultWhileTheDeviceRanFailsTheDeferredSignals) {
  EventStorage firstStorage, secondStorage;
  Event first(&firstStorage), second(&secondStorage);
  appendCopyThenSignal({&first, &second});
  executor.execute(stream.bytes());
  EXPECT_EQ(executor.deviceFailure(), 0);
  backend.failure = kStatusAllocationFailure;
  backend.finishWork();
  EXPECT_TRUE(executor.retire(false));
  EXPECT_EQ(first.error(), kStatusAllocationFailure);
  EXPECT_EQ(second.error(), kStatusAllocationFailure);
  EXPECT_EQ(executor.deviceFailure(), kStatusAllocationFailure);

  // Later work that succeeds signals normally; the first failure stays on record.
  first.reset();
  stream.clear();
  appendCopyThenSignal({&first});
  executor.execute(stream.bytes());
  backend.finishWork();
  EXPECT_TRUE(executor.retire(false));
  EXPECT_TRUE(first.isSignaled());
  EXPECT_EQ(first.error(), 0);
  EXPECT_EQ(executor.deviceFailure(), kStatusAllocationFailure);
}

// On an asynchronous queue an event's start and end are the device's times at marks placed
// around the work, not the host's times at issue and retirement.
TEST_F(AsynchronousQueue, EventTimesComeFromTheDevice) {
  EventStorage timedStorage, plainStorage;
  Event timed(&timedStorage), plain(&plainStorage);
  stream.appendMarkEventStart(&timed);
  appendCopyThenSignal({&timed, &plain});
  executor.execute(stream.bytes());
  EXPECT_EQ(backend.markTimes.size(), 2u) << "an event without a start needs no device time";
  backend.finishWork();
  EXPECT_TRUE(executor.retire(false));
  EXPECT_EQ(timed.timestamps().globalStart, 1000u);
  EXPECT_EQ(timed.timestamps().globalEnd, 2000u);
  EXPECT_TRUE(plain.isSignaled());
  EXPECT_TRUE(backend.markTimes.empty()) << "marks are forgotten once retired";
}

// In an in-order queue a command runs only once the one before it is done: a waiter woken by the
// first command's signal must not find the second started while the first still shows as running
// (OpenCL-CTS test_events waitlists). Before the device reaches a start mark, nothing is started.
TEST_F(AsynchronousQueue, ACommandIsSeenStartedOnlyAfterTheOneBeforeItIsSeenComplete) {
  EventStorage firstStorage, secondStorage;
  Event first(&firstStorage), second(&secondStorage);
  stream.appendMarkEventStart(&first);
  appendCopyThenSignal({&first});
  stream.appendMarkEventStart(&second);
  appendCopyThenSignal({&second});
  constexpr uint32_t kSecondStart = 2;  // marks: first's start and end, then second's
  bool firstCompleteAtSecondsStart = false;
  backend.onTimeOfMark = [&](uint32_t mark) {
    if (mark == kSecondStart) firstCompleteAtSecondsStart = first.isSignaled();
  };
  executor.execute(stream.bytes());
  EXPECT_FALSE(executor.retire(false));
  EXPECT_EQ(first.timestamps().globalStart, 0u) << "started before the device reached its start";
  EXPECT_EQ(second.timestamps().globalStart, 0u) << "started before the device reached its start";
  backend.finishWork();
  EXPECT_TRUE(executor.retire(false));
  EXPECT_TRUE(firstCompleteAtSecondsStart) << "the second command was seen started before the first completed";
  EXPECT_TRUE(second.isSignaled());
  EXPECT_LT(first.timestamps().globalEnd, second.timestamps().globalStart);
}

// Where the queue cannot mark a start, the command behind work in flight is not started at issue
// either: it starts when that work is retired.
TEST_F(AsynchronousQueue, AStartTheQueueCannotMarkWaitsForTheWorkBeforeIt) {
  EventStorage firstStorage, secondStorage;
  Event first(&firstStorage), second(&secondStorage);
  appendCopyThenSignal({&first});
  stream.appendMarkEventStart(&second);
  appendCopyThenSignal({&second});
  backend.marks = false;
  executor.execute(stream.bytes());
  EXPECT_EQ(second.timestamps().globalStart, 0u) << "started while the work before it was in flight";
  backend.finishWork();
  EXPECT_TRUE(executor.retire(false));
  EXPECT_TRUE(first.isSignaled());
  EXPECT_NE(second.timestamps().globalStart, 0u);
  EXPECT_TRUE(second.isSignaled());
}

// Results the executor makes on the host (timestamps) may be due in device memory, which only the
// device's queue can write: they go there by a copy.
TEST_F(AsynchronousQueue, HostResultsReachTheDestinationByACopy) {
  uint64_t timestamp = 0;
  stream.appendWriteTimestamp(&timestamp);
  std::atomic<bool> done{false};
  std::thread device([&] {
    while (!done.load()) backend.finishWork();
  });
  executor.execute(stream.bytes());
  done = true;
  device.join();
  EXPECT_NE(timestamp, 0u);
  EXPECT_EQ(backend.copiesIssued, 1u);
}

// Host-side commands see the device work issued before them: the executor waits for it first.
TEST_F(AsynchronousQueue, HostFunctionsRunAfterTheDeviceWork) {
  int seen = -1;
  struct Probe {
    int* destination;
    int* seen;
  } probe{&destination, &seen};
  appendCopyThenSignal({});
  stream.appendHostFunction([](void* data) { *static_cast<Probe*>(data)->seen = *static_cast<Probe*>(data)->destination; },
                            &probe);
  std::thread device = finishWorkSoon();
  executor.execute(stream.bytes());
  device.join();
  EXPECT_EQ(seen, source);
  EXPECT_TRUE(executor.idle());
}

// A wait on an event signaled earlier on the same queue does not deadlock: the in-order queue
// reaches the deferred signal before the work after the wait, so nothing waits at all.
TEST_F(AsynchronousQueue, AWaitOnAnEarlierSignalOfTheSameQueueCompletes) {
  EventStorage storage;
  Event event(&storage);
  Event* waited[] = {&event};
  appendCopyThenSignal({&event});
  stream.appendWaitEvents(waited, 1);
  std::thread device = finishWorkSoon();
  executor.execute(stream.bytes());
  device.join();
  EXPECT_TRUE(executor.retire(true));
  EXPECT_TRUE(event.isSignaled());
  EXPECT_EQ(destination, source);
}

// A wait for an event the device can address, whose device write another queue has issued, goes
// into the queue: execute() returns before the signal, the device holds the copy until it, and the
// engine's thread never blocks.
TEST_F(AsynchronousQueue, AWaitForASignalAnotherQueueIssuedGoesIntoTheQueue) {
  EventStorage gateStorage, doneStorage;
  Event gate(&gateStorage, true), done(&doneStorage, true);
  gate.noteDeviceSignalIssued();  // as another queue's signal behind its own work does
  Event* waited[] = {&gate};
  stream.appendWaitEvents(waited, 1);
  appendCopyThenSignal({&done});
  // Were execute() to block on the gate, this signal after a generous delay would release it,
  // and the checks below would fail instead of the test hanging.
  std::atomic<bool> executed{false};
  std::thread watchdog([&] {
    for (int i = 0; i < 500 && !executed; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (!executed) gate.hostSignal();
  });
  executor.execute(stream.bytes());
  const bool signaledBeforeReturn = gate.isSignaled();
  executed = true;
  watchdog.join();
  ASSERT_FALSE(signaledBeforeReturn) << "execute() blocked until the host signaled";
  EXPECT_EQ(backend.waitsIssued, (std::vector<const uint32_t*>{gate.deviceWord()}));
  EXPECT_TRUE(executor.waitsInQueue());
  backend.finishWork();
  EXPECT_FALSE(executor.retire(false)) << "the device waits for the host's signal";
  EXPECT_EQ(destination, 0);

  gate.hostSignal();
  backend.finishWork();
  EXPECT_EQ(destination, source);
  EXPECT_EQ(*done.deviceWord(), 1u) << "the device wrote the signal for waiters in other queues";
  EXPECT_FALSE(done.isSignaled()) << "the host sees the signal at retirement, with its times";
  EXPECT_TRUE(executor.retire(false));
  EXPECT_TRUE(done.isSignaled());
  EXPECT_FALSE(executor.waitsInQueue());
}

// A signal behind device work is written by the device, and says so to the queues that wait for
// the event, until the event is reset.
TEST_F(AsynchronousQueue, ASignalWrittenByTheDeviceIsNotedAsIssued) {
  EventStorage storage;
  Event event(&storage, true);
  appendCopyThenSignal({&event});
  executor.execute(stream.bytes());
  EXPECT_EQ(backend.writesIssued, (std::vector<const uint32_t*>{event.deviceWord()}));
  EXPECT_TRUE(event.deviceSignalIssued());
  backend.finishWork();
  EXPECT_TRUE(executor.retire(false));
  event.reset();
  EXPECT_FALSE(event.deviceSignalIssued());
}

// Nothing has issued the device's write of the event yet (the host, or a queue not yet run, will
// signal it): the queue must not wait for it on the device, where CUDA's module loads would wait
// for that stream. The work before the wait completes, and its signals with it; the thread that
// runs the stream then waits for the host's signal.
TEST_F(AsynchronousQueue, AWaitForASignalNothingIssuedYetIsHeldOnTheHost) {
  EventStorage copiedStorage, gateStorage, doneStorage;
  Event copied(&copiedStorage, true), gate(&gateStorage, true), done(&doneStorage, true);
  Event* waited[] = {&gate};
  appendCopyThenSignal({&copied});
  stream.appendWaitEvents(waited, 1);
  stream.appendCopy({&destination, &destination, sizeof(int)});
  stream.appendSignalEvent(&done);
  std::atomic<bool> stop{false};
  std::thread device([&] {
    while (!stop) backend.finishWork();
  });
  std::thread host([&] {
    while (!copied.isSignaled()) std::this_thread::yield();
    gate.hostSignal();
  });
  executor.execute(stream.bytes());
  host.join();
  EXPECT_TRUE(backend.waitsIssued.empty()) << "the wait went into the device's queue";
  EXPECT_TRUE(executor.retire(true));
  stop = true;
  device.join();
  EXPECT_TRUE(done.isSignaled());
  EXPECT_EQ(destination, source);
}

// What a queue stuck on the device waits for, as the engine says it after a long wait.
TEST_F(AsynchronousQueue, DescribesTheEventsItWaitsForOnTheDevice) {
  EventStorage gateStorage;
  Event gate(&gateStorage, true);
  gate.noteDeviceSignalIssued();
  Event* waited[] = {&gate};
  stream.appendWaitEvents(waited, 1);
  executor.execute(stream.bytes());
  char expected[64];
  std::snprintf(expected, sizeof expected, "event %p: device word 0, not signaled", static_cast<void*>(&gate));
  EXPECT_EQ(executor.describeQueueWaits(), expected);
  gate.hostSignal();
  backend.finishWork();
  EXPECT_TRUE(executor.retire(false));
  EXPECT_EQ(executor.describeQueueWaits(), "");
}

// Events whose storage no device can address (OpenCL's), and queues without value operations,
// keep the host's wait.
class AsynchronousQueueWithoutDeviceWaits : public AsynchronousQueue, public ::testing::WithParamInterface<bool> {};

TEST_P(AsynchronousQueueWithoutDeviceWaits, EventsAreWaitedForOnTheHost) {
  const bool deviceVisible = GetParam();
  backend.valueOperations = !deviceVisible;
  EventStorage storage;
  Event event(&storage, deviceVisible);
  Event* waited[] = {&event};
  uint64_t timestamp = 0;
  stream.appendWaitEvents(waited, 1);
  stream.appendWriteTimestamp(&timestamp);
  std::atomic<bool> stop{false};
  std::thread device([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    event.hostSignal();
    while (!stop) backend.finishWork();
  });
  executor.execute(stream.bytes());
  EXPECT_TRUE(event.isSignaled()) << "execute() returned before the wait was over";
  stop = true;
  device.join();
  EXPECT_TRUE(backend.waitsIssued.empty());
  EXPECT_NE(timestamp, 0u);
}

INSTANTIATE_TEST_SUITE_P(EventInHostMemoryOrQueueWithoutValueOperations, AsynchronousQueueWithoutDeviceWaits,
                         ::testing::Bool());

// The host may signal the event a queue waits for only once it has seen a signal before the wait
// (level-zero-tests' GivenMemoryCopiesWithDependencies): that signal completes when the device
// passes it, not when the whole stream does. Once completed, it is not signaled again.
TEST_F(AsynchronousQueue, SignalsBeforeAWaitInTheQueueCompleteWhileItWaits) {
  int middle = 0;
  EventStorage copiedStorage, gateStorage, doneStorage;
  Event copied(&copiedStorage, true), gate(&gateStorage, true), done(&doneStorage, true);
  gate.noteDeviceSignalIssued();
  Event* waited[] = {&gate};
  stream.appendMarkEventStart(&copied);
  stream.appendCopy({&middle, &source, sizeof(int)});
  stream.appendSignalEvent(&copied);
  stream.appendWaitEvents(waited, 1);
  stream.appendCopy({&destination, &middle, sizeof(int)});
  stream.appendSignalEvent(&done);
  executor.execute(stream.bytes());
  EXPECT_FALSE(executor.retire(false));
  EXPECT_FALSE(copied.isSignaled()) << "the device has not run the copy yet";

  backend.finishWork();
  EXPECT_FALSE(executor.retire(false)) << "the device waits for the host's signal";
  ASSERT_TRUE(copied.isSignaled());
  EXPECT_EQ(copied.error(), 0);
  EXPECT_EQ(middle, source);
  EXPECT_LT(copied.timestamps().globalStart, copied.timestamps().globalEnd) << "times from the device's marks";
  EXPECT_FALSE(done.isSignaled());

  copied.reset();
  gate.hostSignal();
  backend.finishWork();
  EXPECT_TRUE(executor.retire(false));
  EXPECT_TRUE(done.isSignaled());
  EXPECT_EQ(destination, source);
  EXPECT_FALSE(copied.isSignaled()) << "completed once, before the host reset it";
}

// Work that waited in the queue for an event that then failed ran anyway; the signals after the
// wait report the failure, those before it do not.
TEST_F(AsynchronousQueue, AFailedEventWaitedForInTheQueueFailsTheSignalsAfterIt) {
  EventStorage gateStorage, beforeStorage, afterStorage;
  Event gate(&gateStorage, true), before(&beforeStorage, true), after(&afterStorage, true);
  gate.noteDeviceSignalIssued();
  Event* waited[] = {&gate};
  appendCopyThenSignal({&before});
  stream.appendWaitEvents(waited, 1);
  appendCopyThenSignal({&after});
  executor.execute(stream.bytes());
  gate.fail(kStatusOutOfResources);
  backend.finishWork();
  EXPECT_TRUE(executor.retire(false));
  EXPECT_TRUE(before.isSignaled());
  EXPECT_EQ(before.error(), 0);
  EXPECT_TRUE(after.isSignaled());
  EXPECT_EQ(after.error(), kStatusOutOfResources);
  EXPECT_EQ(executor.deviceFailure(), 0) << "the device itself did not fail";
}

// An event this queue signals earlier needs no wait at all: the in-order queue reaches the signal
// first. A failed event already signaled abandons the rest of the stream at once.
TEST_F(AsynchronousQueue, WaitsForEarlierSignalsAndFailedEventsNeedNoDevice) {
  EventStorage ownStorage, failedStorage, afterStorage;
  Event own(&ownStorage, true), failed(&failedStorage, true), after(&afterStorage, true);
  appendCopyThenSignal({&own});
  Event* waitedOwn[] = {&own};
  stream.appendWaitEvents(waitedOwn, 1);
  executor.execute(stream.bytes());
  EXPECT_TRUE(backend.waitsIssued.empty());
  EXPECT_FALSE(own.isSignaled()) << "execute() did not wait for the device";

  failed.fail(kStatusAllocationFailure);
  Event* waitedFailed[] = {&failed};
  CommandStream second;
  second.appendWaitEvents(waitedFailed, 1);
  second.appendCopy({&destination, &destination, sizeof(int)});
  second.appendSignalEvent(&after);
  executor.execute(second.bytes());
  EXPECT_TRUE(after.isSignaled());
  EXPECT_EQ(after.error(), kStatusAllocationFailure);
  EXPECT_TRUE(backend.waitsIssued.empty());
  backend.finishWork();
  EXPECT_TRUE(executor.retire(false));
  EXPECT_TRUE(own.isSignaled());
  EXPECT_EQ(destination, source);
}

}  // namespace
}  // namespace loom::core
