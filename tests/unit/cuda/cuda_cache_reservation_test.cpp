// Level Zero's cache reservation on a GPU, over the fake driver (fake_cuda_driver.h): the
// persisting L2 limit the context gets, the access-policy window the advised ranges make, and a
// queue that sets that window on its stream once for each change, before its next launch.
#include "backends/cuda/cuda_cache_reservation.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "backends/cuda/cuda_program.h"
#include "backends/cuda/cuda_queue.h"
#include "fake_cuda_driver.h"

namespace loom::backends::cuda {
namespace {

using testing::FakeCudaDriver;

constexpr size_t KiB = 1024, MiB = 1024 * KiB;
constexpr uintptr_t kBase = 0x200000;

class CudaCacheReservation : public ::testing::Test {
 protected:
  CudaCacheReservation() : context(PrimaryContext::retain(fake.driver(), 0, error)) {
    kernel = std::make_unique<CudaKernel>(context, KernelEntries{entry, entry}, 1024, false, false);
    descriptor.name = "k";
    launch.setRange({1, {4, 1, 1}, {32, 1, 1}, {}, {}, false});
    launch.kernel = kernel.get();
    launch.descriptor = &descriptor;
  }
  ~CudaCacheReservation() override { EXPECT_TRUE(fake.misuse.empty()) << fake.misuse.front(); }

  void reserve(size_t bytes) {
    std::string why;
    ASSERT_TRUE(reservation.reserve(*context, bytes, why)) << why;
  }
  // A queue of the GPU that follows `reservation`.
  std::unique_ptr<CudaQueue> followingQueue() {
    std::unique_ptr<CudaQueue> queue = CudaQueue::create(context, "gpu0", CudaQueue::Caller::AnyThread, false, error);
    EXPECT_TRUE(queue) << error;
    if (queue) queue->followCacheReservation(&reservation);
    return queue;
  }
  void expectWindow(uintptr_t base, size_t bytes, float hitRatio) {
    const CUaccessPolicyWindow window = reservation.window();
    EXPECT_EQ(reinterpret_cast<uintptr_t>(window.base_ptr), base);
    EXPECT_EQ(window.num_bytes, bytes);
    EXPECT_FLOAT_EQ(window.hitRatio, hitRatio);
    EXPECT_EQ(window.hitProp, AccessProperty::Persisting);
    EXPECT_EQ(window.missProp, AccessProperty::Streaming);
  }

  FakeCudaDriver fake;  // first: outlives everything that calls it
  std::string error;
  std::shared_ptr<PrimaryContext> context;
  CacheReservation reservation{1 * MiB, 4 * MiB};  // the GPU's persisting L2 and largest window
  const CUfunction entry = reinterpret_cast<CUfunction>(uintptr_t(0xa0));
  std::unique_ptr<CudaKernel> kernel;
  compiler::KernelDescriptor descriptor;
  core::KernelLaunch launch;  // 4 groups of 32 work-items, without arguments
  const uint8_t noArguments[1] = {};
};

TEST_F(CudaCacheReservation, SetsThePersistingLimitAndLetsTheLinesGoWhenRemoved) {
  reserve(512 * KiB);
  EXPECT_EQ(fake.contextLimits[CU_LIMIT_PERSISTING_L2_CACHE_SIZE], 512 * KiB);
  EXPECT_EQ(fake.callsNamed("cuCtxSetLimit").back().current, FakeCudaDriver::contextOf(0));
  EXPECT_EQ(fake.count("cuCtxResetPersistingL2Cache"), 0u);
  reserve(0);
  EXPECT_EQ(fake.contextLimits[CU_LIMIT_PERSISTING_L2_CACHE_SIZE], 0u);
  EXPECT_EQ(fake.count("cuCtxResetPersistingL2Cache"), 1u);
}

TEST_F(CudaCacheReservation, ARefusedLimitSaysWhyAndChangesNothing) {
  fake.failing["cuCtxSetLimit"] = CUDA_ERROR_INVALID_VALUE;
  reservation.advise(kBase, 4 * KiB, true);
  const uint64_t generation = reservation.generation();
  std::string why;
  EXPECT_FALSE(reservation.reserve(*context, 4 * KiB, why));
  EXPECT_NE(why.find("cuCtxSetLimit"), std::string::npos) << why;
  EXPECT_EQ(reservation.generation(), generation);
  EXPECT_EQ(reservation.window().num_bytes, 0u);
}

TEST_F(CudaCacheReservation, TheWindowIsOffWithoutAReservationOrAdvisedRanges) {
  reservation.advise(kBase, 4 * KiB, true);
  EXPECT_EQ(reservation.window().num_bytes, 0u) << "nothing reserved";
  reserve(1 * MiB);
  EXPECT_EQ(reservation.window().num_bytes, 4 * KiB);
  reservation.advise(kBase, 4 * KiB, false);
  EXPECT_EQ(reservation.window().num_bytes, 0u) << "nothing advised";
}

TEST_F(CudaCacheReservation, OneAdvisedRangeIsTheWindowAndEveryHitPersists) {
  reserve(1 * MiB);
  reservation.advise(kBase, 256 * KiB, true);
  expectWindow(kBase, 256 * KiB, 1.0f);
}

TEST_F(CudaCacheReservation, RangesShareTheSmallestWindowOverThemAtTheShareTheyFill) {
  reserve(1 * MiB);
  reservation.advise(kBase + 384 * KiB, 128 * KiB, true);
  reservation.advise(kBase, 128 * KiB, true);
  expectWindow(kBase, 512 * KiB, 0.5f);
}

TEST_F(CudaCacheReservation, PersistingHitsStayWithinTheReservation) {
  reserve(256 * KiB);
  reservation.advise(kBase, 1 * MiB, true);
  expectWindow(kBase, 1 * MiB, 0.25f);
}

TEST_F(CudaCacheReservation, TheWindowEndsAtTheLargestTheGpuAllows) {
  reserve(1 * MiB);
  reservation.advise(kBase, 8 * MiB, true);
  expectWindow(kBase, 4 * MiB, 0.25f);
}

TEST_F(CudaCacheReservation, AdviceOutOfTheReservedRegionCutsTheRangesItCrosses) {
  reserve(1 * MiB);
  reservation.advise(kBase, 512 * KiB, true);
  reservation.advise(kBase + 128 * KiB, 128 * KiB, false);  // a hole: 384 KiB of 512 advised
  expectWindow(kBase, 512 * KiB, 0.75f);
  reservation.advise(kBase, 128 * KiB, false);  // the part before the hole
  expectWindow(kBase + 256 * KiB, 256 * KiB, 1.0f);
  reservation.advise(kBase + 128 * KiB, 128 * KiB, true);  // the hole again
  expectWindow(kBase + 128 * KiB, 384 * KiB, 1.0f);
}

TEST_F(CudaCacheReservation, AQueueSetsTheWindowOnItsStreamOnceForEachChangeBeforeItsNextLaunch) {
  std::unique_ptr<CudaQueue> queue = followingQueue();
  ASSERT_TRUE(queue);
  const CUstream stream = fake.callsNamed("cuStreamCreate").back().stream;

  queue->launch(launch, noArguments);
  EXPECT_EQ(fake.count("cuStreamSetAttribute"), 0u) << "nothing reserved: the stream keeps the driver's default";
  reserve(1 * MiB);
  reservation.advise(kBase, 64 * KiB, true);
  queue->launch(launch, noArguments);
  queue->launch(launch, noArguments);
  ASSERT_EQ(fake.count("cuStreamSetAttribute"), 1u);
  EXPECT_EQ(fake.accessPolicyWindows[stream].num_bytes, 64 * KiB);
  std::vector<std::string> order;  // of the window and the launches
  for (const auto& call : fake.calls)
    if (call.name == "cuStreamSetAttribute" || call.name == "cuLaunchKernel") order.push_back(call.name);
  EXPECT_EQ(order, (std::vector<std::string>{"cuLaunchKernel", "cuStreamSetAttribute", "cuLaunchKernel", "cuLaunchKernel"}));
  reserve(0);
  queue->launch(launch, noArguments);
  ASSERT_EQ(fake.count("cuStreamSetAttribute"), 2u);
  EXPECT_EQ(fake.accessPolicyWindows[stream].num_bytes, 0u);
  EXPECT_EQ(fake.count("cuLaunchKernel"), 4u);
}

TEST_F(CudaCacheReservation, ARefusedWindowIsSaidAndTheLaunchStillRuns) {
  std::unique_ptr<CudaQueue> queue = followingQueue();
  ASSERT_TRUE(queue);
  reserve(1 * MiB);
  reservation.advise(kBase, 64 * KiB, true);
  fake.failing["cuStreamSetAttribute"] = CUDA_ERROR_INVALID_VALUE;
  queue->launch(launch, noArguments);
  EXPECT_EQ(fake.count("cuLaunchKernel"), 1u);
  EXPECT_EQ(queue->takeFailure(), 0);
}

}  // namespace
}  // namespace loom::backends::cuda
