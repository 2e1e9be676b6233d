// CUDA queues on a fake driver (fake_cuda_driver.h): what a part of a split launch is launched
// with, how the queues of two GPUs join without the host, and (the fake's streams run copies and
// memory operations in order on threads of their own) how a queue under an engine orders signals
// and waits.
#include "backends/cuda/cuda_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "backends/cuda/cuda_context.h"
#include "backends/cuda/cuda_driver.h"
#include "backends/cuda/cuda_program.h"
#include "fake_cuda_driver.h"
#include "loom/core/command_stream.h"
#include "loom/core/composite_kernel.h"
#include "loom/core/composite_queue.h"
#include "loom/core/engine.h"
#include "loom/core/event.h"
#include "loom/core/futex.h"

namespace loom::backends::cuda {
namespace {

using testing::FakeCudaCall;
using testing::FakeCudaDriver;

CUfunction fakeFunction(uintptr_t value) { return reinterpret_cast<CUfunction>(value); }

class CudaQueues : public ::testing::Test {
 protected:
  CudaQueues() {
    for (CUdevice device = 0; device < 2; ++device) {
      std::string error;
      contexts[device] = PrimaryContext::retain(fake.driver(), device, error);
      queues[device] = CudaQueue::create(contexts[device], "gpu" + std::to_string(device), CudaQueue::Caller::AnyThread, false, error);
      kernels[device] = std::make_unique<CudaKernel>(contexts[device], KernelEntries{anyLaunch[device], wholeGroups[device]}, 1024,
                                                     false, false);
    }
    descriptor.name = "k";
    fake.implicitParameterIndex = 0;  // a kernel without arguments
  }
  ~CudaQueues() override { EXPECT_TRUE(fake.misuse.empty()) << fake.misuse.front(); }

  core::KernelLaunch launchOf(core::LaunchRange range, size_t device = 0) {
    core::KernelLaunch launch;
    launch.setRange(range);
    launch.kernel = kernels[device].get();
    launch.descriptor = &descriptor;
    return launch;
  }
  // A root over both GPUs, whose queues it takes, and a launch of 64 groups of its kernel.
  struct Root {
    std::unique_ptr<core::CompositeQueue> queue;
    std::unique_ptr<core::CompositeKernel> kernel;
    core::KernelLaunch launch;
  };
  Root rootOverBothGpus() {
    std::vector<std::unique_ptr<core::BackendQueue>> tiles;
    for (auto& queue : queues) tiles.push_back(std::move(queue));
    Root root{std::make_unique<core::CompositeQueue>(std::move(tiles), core::CompositeQueue::Splitting{true, true}),
              std::make_unique<core::CompositeKernel>(std::vector<core::BackendKernel*>{kernels[0].get(), kernels[1].get()}, 1),
              launchOf({1, {64, 1, 1}, {32, 1, 1}, {}, {}, false})};
    root.launch.kernel = root.kernel.get();
    return root;
  }
  FakeCudaCall lastLaunch() {
    const std::vector<FakeCudaCall> launches = fake.callsNamed("cuLaunchKernel");
    return launches.empty() ? FakeCudaCall{} : launches.back();
  }

  FakeCudaDriver fake;  // first: outlives everything that calls it
  std::shared_ptr<PrimaryContext> contexts[2];
  std::unique_ptr<CudaQueue> queues[2];
  const CUfunction anyLaunch[2] = {fakeFunction(0xa0), fakeFunction(0xa8)};
  const CUfunction wholeGroups[2] = {fakeFunction(0xb0), fakeFunction(0xb8)};
  std::unique_ptr<CudaKernel> kernels[2];
  compiler::KernelDescriptor descriptor;
  const uint8_t noArguments[1] = {};
};

TEST_F(CudaQueues, ALaunchThatIsNoPartRunsItsGroupsFromZero) {
  queues[0]->launch(launchOf({3, {4, 6, 8}, {32, 2, 1}, {}, {}, false}), noArguments);
  const FakeCudaCall launch = lastLaunch();
  EXPECT_EQ(launch.function, wholeGroups[0]);
  EXPECT_EQ(launch.stream, fake.callsNamed("cuStreamCreate")[0].stream);
  const unsigned groups[3] = {4, 6, 8};
  for (int d = 0; d < 3; ++d) {
    EXPECT_EQ(launch.grid[d], groups[d]) << d;
    EXPECT_EQ(launch.implicit.groupIdBase[d], 0u) << d;
    EXPECT_EQ(launch.implicit.numGroups[d], launch.grid[d]) << d;
  }
  EXPECT_EQ(launch.block[0], 32u);
  EXPECT_EQ(launch.block[1], 2u);
}

TEST_F(CudaQueues, APartRunsItsOwnGroupsWithTheIdsOfTheWholeLaunch) {
  const core::KernelLaunch whole = launchOf({3, {4, 6, 8}, {32, 2, 1}, {}, {}, false});
  queues[0]->launch(whole.part(2, 5, 3), noArguments);
  const FakeCudaCall launch = lastLaunch();
  EXPECT_EQ(launch.function, wholeGroups[0]) << "the part's groups are whole and the offset 0";
  const unsigned grid[3] = {4, 6, 3}, base[3] = {0, 0, 5}, total[3] = {4, 6, 8};
  const uint64_t globalSize[3] = {128, 12, 8};
  for (int d = 0; d < 3; ++d) {
    EXPECT_EQ(launch.grid[d], grid[d]) << d;
    EXPECT_EQ(launch.implicit.groupIdBase[d], base[d]) << d;
    EXPECT_EQ(launch.implicit.numGroups[d], total[d]) << d;
    EXPECT_EQ(launch.implicit.globalSize[d], globalSize[d]) << d;
  }
}

TEST_F(CudaQueues, APartOfARangeWithAnOffsetAndAPartialGroupRunsOnTheEntryForAnyLaunch) {
  // 100 work-items in groups of 16: 7 groups, the last one partial; split along x.
  const core::KernelLaunch whole = launchOf({1, {7, 1, 1}, {16, 1, 1}, {5, 0, 0}, {100, 1, 1}, false}, 1);
  queues[1]->launch(whole.part(0, 4, 3), noArguments);
  const FakeCudaCall launch = lastLaunch();
  EXPECT_EQ(launch.function, anyLaunch[1]);
  EXPECT_EQ(launch.grid[0], 3u);
  EXPECT_EQ(launch.implicit.groupIdBase[0], 4u);
  EXPECT_EQ(launch.implicit.numGroups[0], 7u);
  EXPECT_EQ(launch.implicit.globalSize[0], 100u);
  EXPECT_EQ(launch.implicit.globalOffset[0], 5u);
  EXPECT_EQ(launch.current, FakeCudaDriver::contextOf(1));
}

TEST_F(CudaQueues, APartOfNoGroupsLaunchesNothing) {
  const core::KernelLaunch whole = launchOf({1, {7, 1, 1}, {16, 1, 1}, {}, {}, false});
  queues[0]->launch(whole.part(0, 7, 0), noArguments);
  EXPECT_EQ(fake.count("cuLaunchKernel"), 0u);
  EXPECT_EQ(queues[0]->takeFailure(), 0);
}

// The join records an event of GPU 1's context on GPU 1's stream; GPU 0's stream waits for it.
TEST_F(CudaQueues, AJoinIsAStreamWaitOnAnEventOfTheOtherGpu) {
  const CUstream stream0 = fake.callsNamed("cuStreamCreate")[0].stream, stream1 = fake.callsNamed("cuStreamCreate")[1].stream;
  fake.calls.clear();
  ASSERT_TRUE(queues[0]->joinAfter(*queues[1]));
  ASSERT_EQ(fake.count("cuEventCreate"), 1u);
  const FakeCudaCall created = fake.callsNamed("cuEventCreate")[0];
  EXPECT_EQ(created.current, FakeCudaDriver::contextOf(1));
  EXPECT_EQ(created.flags & CU_EVENT_DISABLE_TIMING, CU_EVENT_DISABLE_TIMING);
  ASSERT_EQ(fake.count("cuEventRecord"), 1u);
  EXPECT_EQ(fake.callsNamed("cuEventRecord")[0].stream, stream1);
  ASSERT_EQ(fake.count("cuStreamWaitEvent"), 1u);
  const FakeCudaCall wait = fake.callsNamed("cuStreamWaitEvent")[0];
  EXPECT_EQ(wait.stream, stream0);
  EXPECT_EQ(wait.event, created.event);
  EXPECT_EQ(fake.count("cuStreamSynchronize"), 0u) << "no host round trip";
  EXPECT_TRUE(fake.contextStack.empty()) << "every context pushed was popped";
}

TEST_F(CudaQueues, OneEventServesEveryJoinAfterAQueue) {
  ASSERT_TRUE(queues[0]->joinAfter(*queues[1]));
  queues[1]->launch(launchOf({1, {7, 1, 1}, {16, 1, 1}, {}, {}, false}, 1), noArguments);
  ASSERT_TRUE(queues[0]->joinAfter(*queues[1]));
  EXPECT_EQ(fake.count("cuEventCreate"), 1u);
  EXPECT_EQ(fake.count("cuEventRecord"), 2u) << "recorded again after the work issued since";
  EXPECT_EQ(fake.count("cuStreamWaitEvent"), 2u);
}

// Joins of several GPUs after one: its event is recorded once while it issues nothing new. A wait
// it issued counts as new (a later join after it must also follow what it waited for).
TEST_F(CudaQueues, AJoinPointIsRecordedAgainOnlyAfterWorkOrAJoinIssuedSince) {
  ASSERT_TRUE(queues[0]->joinAfter(*queues[1]));
  ASSERT_TRUE(queues[0]->joinAfter(*queues[1]));
  EXPECT_EQ(fake.count("cuEventRecord"), 1u) << "GPU 1 issued nothing since its event was recorded";
  EXPECT_EQ(fake.count("cuStreamWaitEvent"), 2u);
  const CUstream stream1 = fake.callsNamed("cuStreamCreate")[1].stream;
  ASSERT_TRUE(queues[1]->joinAfter(*queues[0]));
  fake.calls.clear();
  ASSERT_TRUE(queues[0]->joinAfter(*queues[1]));
  ASSERT_EQ(fake.count("cuEventRecord"), 1u) << "GPU 1 waited for GPU 0 since";
  EXPECT_EQ(fake.callsNamed("cuEventRecord")[0].stream, stream1);
}

TEST_F(CudaQueues, AJoinTheDriverRefusesIsLeftToTheHost) {
  fake.failing["cuStreamWaitEvent"] = CUDA_ERROR_NOT_SUPPORTED;
  EXPECT_FALSE(queues[0]->joinAfter(*queues[1]));
  EXPECT_EQ(queues[0]->takeFailure(), 0) << "the caller joins on the host instead: nothing failed";
  fake.failing = {{"cuEventCreate", CUDA_ERROR_OUT_OF_MEMORY}};
  EXPECT_FALSE(queues[1]->joinAfter(*queues[0])) << "GPU 0's join event cannot be made";
  EXPECT_EQ(queues[0]->takeFailure(), 0);
}

TEST_F(CudaQueues, OnlyQueuesOfTheDriverJoin) {
  class OtherQueue final : public core::BackendQueue {
   public:
    bool asynchronous() const override { return false; }
    void launch(const core::KernelLaunch&, const uint8_t*) override {}
    void copy(void*, const void*, size_t) override {}
    void fill(void*, const void*, size_t, size_t) override {}
    bool completed() override { return true; }
    void synchronize() override {}
  } other;
  EXPECT_FALSE(queues[0]->joinAfter(other));
}

// A root over both GPUs: the split launch's parts go to each GPU's stream, and the launch after
// it on the root starts on each GPU only once the other GPU's part is done, by stream waits.
TEST_F(CudaQueues, ARootOverTwoGpusSplitsLaunchesAndJoinsThemOnTheGpus) {
  Root root = rootOverBothGpus();
  fake.calls.clear();
  root.queue->launch(root.launch, noArguments);
  const std::vector<FakeCudaCall> launches = fake.callsNamed("cuLaunchKernel");
  ASSERT_EQ(launches.size(), 2u);
  for (unsigned tile = 0; tile < 2; ++tile) {
    // The parts are issued together (tile 1's from a thread of its own): in either order.
    const auto onTile = std::find_if(launches.begin(), launches.end(),
                                     [&](const FakeCudaCall& call) { return call.current == FakeCudaDriver::contextOf(tile); });
    ASSERT_NE(onTile, launches.end()) << "no launch with GPU " << tile << "'s context current";
    EXPECT_EQ(onTile->function, wholeGroups[tile]);
    EXPECT_EQ(onTile->grid[0], 32u);
    EXPECT_EQ(onTile->implicit.groupIdBase[0], 32u * tile);
    EXPECT_EQ(onTile->implicit.numGroups[0], 64u);
  }
  EXPECT_EQ(fake.count("cuStreamWaitEvent"), 0u) << "nothing ran before the first launch";
  fake.calls.clear();
  fake.failing["cuStreamQuery"] = CUDA_ERROR_NOT_READY;  // both parts still run
  root.queue->launch(root.launch, noArguments);
  fake.failing.clear();
  EXPECT_EQ(fake.count("cuStreamWaitEvent"), 2u) << "each GPU waits for the other's part";
  EXPECT_EQ(fake.count("cuStreamSynchronize"), 0u);
  ASSERT_EQ(fake.count("cuLaunchKernel"), 2u);
  // Each GPU's wait comes before its second part, on its stream.
  std::vector<CUstream> waited;
  for (const FakeCudaCall& call : fake.calls) {
    if (call.name == "cuStreamWaitEvent") waited.push_back(call.stream);
    if (call.name == "cuLaunchKernel") {
      EXPECT_NE(std::find(waited.begin(), waited.end(), call.stream), waited.end());
    }
  }
}

// A GPU whose stream is idle has completed its part: the launch after it needs no join with it.
TEST_F(CudaQueues, ARootJoinsNoGpuThatHasFinishedItsPart) {
  Root root = rootOverBothGpus();
  root.queue->launch(root.launch, noArguments);
  fake.calls.clear();
  root.queue->launch(root.launch, noArguments);  // the fake's streams run no kernels: both are idle
  EXPECT_EQ(fake.count("cuStreamWaitEvent"), 0u);
  EXPECT_EQ(fake.count("cuEventRecord"), 0u);
  EXPECT_EQ(fake.count("cuStreamQuery"), 2u) << "each GPU's stream asked once";
  EXPECT_EQ(fake.count("cuLaunchKernel"), 2u);
}

// Once the root found every GPU idle (an engine polling for completion), the next launch needs
// neither joins nor questions.
TEST_F(CudaQueues, ARootThatFoundEveryGpuIdleNeitherJoinsNorAsksAgain) {
  Root root = rootOverBothGpus();
  root.queue->launch(root.launch, noArguments);
  fake.failing["cuStreamQuery"] = CUDA_ERROR_NOT_READY;
  EXPECT_FALSE(root.queue->completed());
  fake.failing.clear();
  EXPECT_TRUE(root.queue->completed());
  fake.calls.clear();
  root.queue->launch(root.launch, noArguments);
  EXPECT_EQ(fake.count("cuStreamQuery"), 0u);
  EXPECT_EQ(fake.count("cuStreamWaitEvent"), 0u);
  EXPECT_EQ(fake.count("cuLaunchKernel"), 2u);
}

constexpr uint64_t kHangBoundNs = 20'000'000'000ull;  // a wait this long means a hang

// The least of a GPU backend an engine needs: queues of one fake device.
class FakeGpuBackend final : public core::Backend {
 public:
  explicit FakeGpuBackend(std::shared_ptr<const PrimaryContext> context) : context_(std::move(context)) {
    info_.type = core::DeviceType::Gpu;
    info_.name = "fake GPU";
  }
  const core::DeviceInfo& info() const override { return info_; }
  compiler::Target compilerTarget() const override { return compiler::Target::Nvptx; }
  std::unique_ptr<core::BackendProgram> loadProgram(std::shared_ptr<const compiler::CompiledProgram>,
                                                    std::string& log) override {
    log = "the fake driver runs no kernels";
    return nullptr;
  }
  std::unique_ptr<core::BackendQueue> createQueue() override {
    std::string error;
    auto queue = CudaQueue::create(context_, info_.name, CudaQueue::Caller::AnyThread, true, error);
    EXPECT_NE(queue, nullptr) << error;
    return queue;
  }
  void copy(void* destination, const void* source, size_t size) override { std::memmove(destination, source, size); }
  void fill(void*, const void*, size_t, size_t) override { ADD_FAILURE() << "not used"; }
  uint64_t timestamp() const override { return core::monotonicNanoseconds(); }

 private:
  std::shared_ptr<const PrimaryContext> context_;
  core::DeviceInfo info_;
};

class CudaQueueOnFakeDriver : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    std::shared_ptr<const PrimaryContext> context = PrimaryContext::retain(fake.driver(), 0, error);
    ASSERT_NE(context, nullptr) << error;
    backend_ = std::make_unique<FakeGpuBackend>(std::move(context));
  }
  void TearDown() override { EXPECT_TRUE(fake.misuse.empty()) << fake.misuse.front(); }

  FakeCudaDriver fake;  // first: outlives everything that calls it
  std::unique_ptr<FakeGpuBackend> backend_;
};

// level-zero-tests' GivenMemoryCopiesWithDependencies: a copy signals `copied`; the next copy waits
// in the stream for `gate`, which the host signals only once it has seen `copied`. The signal
// completes when the stream passes it, not when the stream is done.
TEST_F(CudaQueueOnFakeDriver, ASignalBeforeAWaitInTheStreamCompletesWhileTheStreamWaits) {
  core::Engine engine(*backend_, {});
  std::vector<int> source(256, 7), middle(256, 0), destination(256, 0);
  const size_t bytes = source.size() * sizeof(int);
  core::EventStorage copiedStorage, gateStorage, doneStorage;
  core::Event copied(&copiedStorage, true, core::DeviceType::Gpu), gate(&gateStorage, true, core::DeviceType::Gpu),
      done(&doneStorage, true, core::DeviceType::Gpu);
  gate.noteDeviceSignalIssued();  // as another queue's signal does: the stream waits for it
  core::Event* waited[] = {&gate};
  core::CommandStream stream;
  stream.appendCopy({middle.data(), source.data(), bytes});
  stream.appendSignalEvent(&copied);
  stream.appendWaitEvents(waited, 1);
  stream.appendCopy({destination.data(), middle.data(), bytes});
  stream.appendSignalEvent(&done);
  const uint64_t task = engine.submit(std::make_shared<const std::vector<uint8_t>>(stream.bytes()));

  const bool copiedSeen = copied.hostSynchronize(kHangBoundNs);
  const bool waitedForTheGate = destination[0] == 0 && !done.isSignaled();
  gate.hostSignal();  // in any case, so that a failure ends instead of hanging
  ASSERT_TRUE(engine.waitForTaskCount(task, kHangBoundNs));
  EXPECT_TRUE(copiedSeen) << "the signal waited for the work after the stream's wait";
  EXPECT_EQ(copied.error(), 0);
  EXPECT_EQ(middle, source);
  EXPECT_TRUE(waitedForTheGate) << "the second copy ran before the host signaled";
  EXPECT_TRUE(done.isSignaled());
  EXPECT_EQ(destination, source);
}

// A command shows as started (an OpenCL CL_RUNNING) only once the stream has passed the mark
// recorded before it: here the second command's mark lies behind a wait in the stream, so the
// first completes and the second stays unstarted (CL_SUBMITTED) until the host opens the gate.
TEST_F(CudaQueueOnFakeDriver, ACommandWhoseStartMarkTheStreamHasNotReachedIsNotStarted) {
  core::Engine engine(*backend_, {});
  std::vector<int> source(256, 7), middle(256, 0), destination(256, 0);
  const size_t bytes = source.size() * sizeof(int);
  core::EventStorage firstStorage, gateStorage, secondStorage;
  core::Event first(&firstStorage, true, core::DeviceType::Gpu), gate(&gateStorage, true, core::DeviceType::Gpu),
      second(&secondStorage, true, core::DeviceType::Gpu);
  gate.noteDeviceSignalIssued();  // as another queue's signal does: the stream waits for it
  core::Event* waited[] = {&gate};
  core::CommandStream stream;
  stream.appendMarkEventStart(&first);
  stream.appendCopy({middle.data(), source.data(), bytes});
  stream.appendSignalEvent(&first);
  stream.appendWaitEvents(waited, 1);
  stream.appendMarkEventStart(&second);
  stream.appendCopy({destination.data(), middle.data(), bytes});
  stream.appendSignalEvent(&second);
  const uint64_t task = engine.submit(std::make_shared<const std::vector<uint8_t>>(stream.bytes()));

  const bool firstSeen = first.hostSynchronize(kHangBoundNs);
  const uint64_t secondStartWhileGated = second.timestamps().globalStart;
  gate.hostSignal();  // in any case, so that a failure ends instead of hanging
  ASSERT_TRUE(engine.waitForTaskCount(task, kHangBoundNs));
  ASSERT_TRUE(firstSeen);
  EXPECT_NE(first.timestamps().globalStart, 0u);
  EXPECT_EQ(secondStartWhileGated, 0u) << "started before the stream reached its start mark";
  EXPECT_TRUE(second.isSignaled());
  EXPECT_LE(first.timestamps().globalEnd, second.timestamps().globalStart);
  EXPECT_EQ(destination, source);
}

}  // namespace
}  // namespace loom::backends::cuda
