// The CUDA queue under an engine, on a fake CUDA driver (fake_driver/) whose streams run copies and
// memory operations in order on threads of their own.
#include "backends/cuda/cuda_queue.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "backends/cuda/cuda_context.h"
#include "backends/cuda/cuda_driver.h"
#include "loom/core/command_stream.h"
#include "loom/core/engine.h"
#include "loom/core/event.h"
#include "loom/core/futex.h"

namespace loom::backends::cuda {
namespace {

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
    std::shared_ptr<const Driver> driver = Driver::load(LOOM_FAKE_CUDA_DRIVER, error);
    ASSERT_NE(driver, nullptr) << error;
    std::shared_ptr<const PrimaryContext> context = PrimaryContext::retain(driver, 0, error);
    ASSERT_NE(context, nullptr) << error;
    backend_ = std::make_unique<FakeGpuBackend>(std::move(context));
  }
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

}  // namespace
}  // namespace loom::backends::cuda
