// Colored memory over GPUs, on the fake driver: the sequence of virtual memory calls (one
// reservation, physical memory of each chunk on its owner, each chunk mapped, access for every
// GPU), and that a failure at any step leaves nothing reserved, created or mapped.
#include "backends/cuda/cuda_colored_memory.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "backends/cuda/cuda_backend.h"
#include "fake_cuda_driver.h"

namespace loom::backends::cuda {
namespace {


constexpr size_t kMiB = size_t(1) << 20;
constexpr size_t kGranule = 2 * kMiB;

class CudaColoredMemoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    gpus.clear();
    fake.virtualMemory = {};
    std::string error;
    gpus = {PrimaryContext::retain(fake.driver(), 3, error), PrimaryContext::retain(fake.driver(), 5, error)};
  }
  void TearDown() override { EXPECT_TRUE(fake.misuse.empty()) << fake.misuse.front(); }
  std::unique_ptr<CudaColoredMemory> create(core::MemoryColoring::Policy policy, size_t size) {
    const core::MemoryColoring coloring{2, policy, kGranule};
    return CudaColoredMemory::create(gpus, coloring.chunks(size), size, kGranule);
  }
  void expectNothingLeft() {
    EXPECT_TRUE(fake.virtualMemory.reserved.empty()) << "a reservation leaked";
    EXPECT_TRUE(fake.virtualMemory.created.empty()) << "physical memory leaked";
    EXPECT_TRUE(fake.virtualMemory.mapped.empty()) << "a mapping leaked";
  }

  testing::FakeCudaDriver fake;  // first: outlives everything that calls it
  std::vector<std::shared_ptr<const PrimaryContext>> gpus;
};

using Calls = std::vector<std::string>;

TEST_F(CudaColoredMemoryTest, ReservesOnceCreatesEachChunkOnItsOwnerMapsItAndGrantsEveryGpu) {
  auto memory = create(core::MemoryColoring::Policy::Even, 5 * kMiB + 10);
  ASSERT_NE(memory, nullptr);
  EXPECT_EQ(fake.virtualMemory.calls, (Calls{
                                  "cuMemAddressReserve size=6291456 alignment=2097152",
                                  "cuMemCreate device=3 size=4194304",
                                  "cuMemMap offset=0 size=4194304 handle=1",
                                  "cuMemCreate device=5 size=2097152",
                                  "cuMemMap offset=4194304 size=2097152 handle=2",
                                  "cuMemSetAccess size=6291456",
                              }))
      << "the last chunk is rounded up to the granularity";
  EXPECT_EQ(reinterpret_cast<CUdeviceptr>(memory->address()), fake.virtualMemory.reserved.begin()->first);
  ASSERT_EQ(fake.virtualMemory.grants.size(), 1u);
  const std::vector<CUmemAccessDesc>& grants = fake.virtualMemory.grants[0];
  ASSERT_EQ(grants.size(), 2u);
  for (size_t gpu = 0; gpu < 2; ++gpu) {
    EXPECT_EQ(grants[gpu].location.type, CU_MEM_LOCATION_TYPE_DEVICE);
    EXPECT_EQ(grants[gpu].location.id, gpu == 0 ? 3 : 5);
    EXPECT_EQ(grants[gpu].flags, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
  }
  fake.virtualMemory.calls.clear();
  memory.reset();
  EXPECT_EQ(fake.virtualMemory.calls, (Calls{"cuMemUnmap size=4194304", "cuMemRelease handle=1", "cuMemUnmap size=2097152",
                                     "cuMemRelease handle=2", "cuMemAddressFree size=6291456"}));
  expectNothingLeft();
}

TEST_F(CudaColoredMemoryTest, InterleavedMakesOneChunkPerGranuleOnEachOwnerInTurn) {
  auto memory = create(core::MemoryColoring::Policy::Interleaved, 3 * kGranule);
  ASSERT_NE(memory, nullptr);
  Calls creates;
  for (const std::string& call : fake.virtualMemory.calls)
    if (call.rfind("cuMemCreate", 0) == 0) creates.push_back(call);
  EXPECT_EQ(creates, (Calls{"cuMemCreate device=3 size=2097152", "cuMemCreate device=5 size=2097152",
                            "cuMemCreate device=3 size=2097152"}));
  EXPECT_EQ(fake.virtualMemory.mapped.size(), 3u);
  memory.reset();
  expectNothingLeft();
}

TEST_F(CudaColoredMemoryTest, AFailureAtAnyStepUndoesEverythingBeforeIt) {
  const std::vector<std::pair<std::string, int>> failures{{"cuMemAddressReserve", 1}, {"cuMemCreate", 1}, {"cuMemMap", 1},
                                                          {"cuMemCreate", 2}, {"cuMemMap", 2}, {"cuMemSetAccess", 1}};
  for (const auto& [call, time] : failures) {
    SetUp();
    fake.virtualMemory.failing = call;
    fake.virtualMemory.failingAt = time;
    EXPECT_EQ(create(core::MemoryColoring::Policy::Even, 4 * kGranule), nullptr) << call << " #" << time;
    expectNothingLeft();
    EXPECT_EQ(fake.virtualMemory.counts[call], time) << call << ": nothing after the failure";
  }
}

TEST_F(CudaColoredMemoryTest, RefusesChunksOffTheGranularityOrOfNoTile) {
  EXPECT_EQ(CudaColoredMemory::create(gpus, {{0, kMiB, 0}, {kMiB, kMiB, 1}}, 2 * kMiB, kGranule), nullptr);
  expectNothingLeft();
  EXPECT_EQ(CudaColoredMemory::create(gpus, {{0, kGranule, 0}, {kGranule, kGranule, 2}}, 2 * kGranule, kGranule), nullptr);
  expectNothingLeft();
}

TEST_F(CudaColoredMemoryTest, ReleasesThePrimaryContextsItHeld) {
  auto memory = create(core::MemoryColoring::Policy::Even, 4 * kGranule);
  ASSERT_NE(memory, nullptr);
  memory.reset();
  gpus.clear();
  EXPECT_EQ(fake.retainedContexts, 0);
}

// IPC: chunks made shareable where every GPU has POSIX descriptor handles, a descriptor of each
// exported, and the same layout mapped from them (another process's, as the descriptor channel
// brings them) with access for the importer's GPUs.
size_t openDescriptors() {
  size_t count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) ++count;
  return count;
}

std::string linkOf(int descriptor) {
  return std::filesystem::read_symlink("/proc/self/fd/" + std::to_string(descriptor)).string();
}

Calls startingWith(const Calls& calls, const std::string& prefix) {
  Calls matching;
  for (const std::string& call : calls)
    if (call.rfind(prefix, 0) == 0) matching.push_back(call);
  return matching;
}

TEST_F(CudaColoredMemoryTest, ExportsADescriptorOfEachChunkWhereEveryGpuSharesThem) {
  fake.virtualMemory.posixDescriptors = true;
  auto memory = create(core::MemoryColoring::Policy::Even, 4 * kGranule);
  ASSERT_NE(memory, nullptr);
  EXPECT_EQ(startingWith(fake.virtualMemory.calls, "cuMemCreate"),
            (Calls{"cuMemCreate device=3 size=4194304 shareable", "cuMemCreate device=5 size=4194304 shareable"}));
  const std::vector<int> descriptors = memory->exportChunks();
  ASSERT_EQ(descriptors.size(), 2u);
  EXPECT_EQ(linkOf(descriptors[0]), "/memfd:fake-cuda-memory-1 (deleted)");
  EXPECT_EQ(linkOf(descriptors[1]), "/memfd:fake-cuda-memory-2 (deleted)");
  for (int descriptor : descriptors) close(descriptor);
}

TEST_F(CudaColoredMemoryTest, HasNothingToExportWhereAGpuLacksDescriptorHandles) {
  auto memory = create(core::MemoryColoring::Policy::Even, 4 * kGranule);
  ASSERT_NE(memory, nullptr);
  EXPECT_EQ(startingWith(fake.virtualMemory.calls, "cuMemCreate"),
            (Calls{"cuMemCreate device=3 size=4194304", "cuMemCreate device=5 size=4194304"}))
      << "no handle type requested that the GPUs lack";
  EXPECT_TRUE(memory->exportChunks().empty());
  EXPECT_EQ(fake.virtualMemory.counts["cuMemExportToShareableHandle"], 0);
}

TEST_F(CudaColoredMemoryTest, AFailedExportClosesTheDescriptorsItMade) {
  fake.virtualMemory.posixDescriptors = true;
  auto memory = create(core::MemoryColoring::Policy::Even, 4 * kGranule);
  ASSERT_NE(memory, nullptr);
  const size_t before = openDescriptors();
  fake.virtualMemory.failing = "cuMemExportToShareableHandle";
  fake.virtualMemory.failingAt = 2;
  EXPECT_TRUE(memory->exportChunks().empty());
  EXPECT_EQ(openDescriptors(), before);
}

TEST_F(CudaColoredMemoryTest, ImportsEachDescriptorOnItsChunkAndGrantsTheImportersGpus) {
  fake.virtualMemory.posixDescriptors = true;
  const core::MemoryColoring coloring{2, core::MemoryColoring::Policy::Even, kGranule};
  const std::vector<core::MemoryChunk> chunks = coloring.chunks(3 * kGranule + 10);
  auto exported = CudaColoredMemory::create(gpus, chunks, 3 * kGranule + 10, kGranule);
  ASSERT_NE(exported, nullptr);
  const std::vector<int> descriptors = exported->exportChunks();
  ASSERT_EQ(descriptors.size(), 2u);
  fake.virtualMemory.calls.clear();
  fake.virtualMemory.grants.clear();
  std::string error;
  std::vector<std::shared_ptr<const PrimaryContext>> importers{PrimaryContext::retain(fake.driver(), 6, error),
                                                              PrimaryContext::retain(fake.driver(), 7, error)};
  auto imported = CudaColoredMemory::import(importers, chunks, 3 * kGranule + 10, kGranule, descriptors);
  ASSERT_NE(imported, nullptr);
  EXPECT_EQ(fake.virtualMemory.calls, (Calls{
                                           "cuMemAddressReserve size=8388608 alignment=2097152",
                                           "cuMemImportFromShareableHandle of=1",
                                           "cuMemMap offset=0 size=4194304 handle=3",
                                           "cuMemImportFromShareableHandle of=2",
                                           "cuMemMap offset=4194304 size=4194304 handle=4",
                                           "cuMemSetAccess size=8388608",
                                       }));
  ASSERT_EQ(fake.virtualMemory.grants.size(), 1u);
  EXPECT_EQ(fake.virtualMemory.grants[0][0].location.id, 6);
  EXPECT_EQ(fake.virtualMemory.grants[0][1].location.id, 7);
  EXPECT_TRUE(imported->exportChunks().empty()) << "imported memory is shared by its exporter only";
  for (int descriptor : descriptors) close(descriptor);
  imported.reset();
  EXPECT_EQ(fake.virtualMemory.created.size(), 2u) << "the imported handles are released, the exporter's kept";
  exported.reset();
  expectNothingLeft();
}

TEST_F(CudaColoredMemoryTest, AFailedImportUndoesEverythingBeforeIt) {
  fake.virtualMemory.posixDescriptors = true;
  const core::MemoryColoring coloring{2, core::MemoryColoring::Policy::Even, kGranule};
  const std::vector<core::MemoryChunk> chunks = coloring.chunks(4 * kGranule);
  auto exported = CudaColoredMemory::create(gpus, chunks, 4 * kGranule, kGranule);
  ASSERT_NE(exported, nullptr);
  const std::vector<int> descriptors = exported->exportChunks();
  const std::vector<std::pair<std::string, int>> failures{
      {"cuMemImportFromShareableHandle", 1}, {"cuMemImportFromShareableHandle", 2}, {"cuMemMap", 2}, {"cuMemSetAccess", 1}};
  for (const auto& [call, time] : failures) {
    fake.virtualMemory.counts.clear();
    fake.virtualMemory.failing = call;
    fake.virtualMemory.failingAt = time;
    EXPECT_EQ(CudaColoredMemory::import(gpus, chunks, 4 * kGranule, kGranule, descriptors), nullptr) << call << " #" << time;
    EXPECT_EQ(fake.virtualMemory.created.size(), 2u) << call << " #" << time << ": an imported handle leaked";
    EXPECT_EQ(fake.virtualMemory.mapped.size(), 2u) << call << " #" << time << ": a mapping leaked";
    EXPECT_EQ(fake.virtualMemory.reserved.size(), 1u) << call << " #" << time << ": a reservation leaked";
  }
  fake.virtualMemory.failing.clear();
  EXPECT_EQ(CudaColoredMemory::import(gpus, chunks, 4 * kGranule, kGranule, {descriptors[0]}), nullptr)
      << "a descriptor for each chunk";
  for (int descriptor : descriptors) close(descriptor);
  exported.reset();
  expectNothingLeft();
}

}  // namespace
}  // namespace loom::backends::cuda

namespace loom::backends::cuda {
namespace {

// On two real GPUs (skipped without them): each GPU's copies and fills reach every chunk.
class CudaColoredMemoryOnGpus : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::string whyNone;
    static auto* devices = new std::vector<core::DiscoveredDevice>(discoverCudaDevices(kDriverLibrary, whyNone));
    if (devices->size() < 2) GTEST_SKIP() << "needs two NVIDIA GPUs: " << (devices->empty() ? whyNone : "one found");
    first = static_cast<CudaBackend*>((*devices)[0].backend.get());
    second = static_cast<CudaBackend*>((*devices)[1].backend.get());
    if (!first->peerAccess(*second).access || !second->peerAccess(*first).access) GTEST_SKIP() << "the GPUs are no peers";
    if (first->physicalGranularity() == 0) GTEST_SKIP() << "no virtual memory management";
  }

  template <typename T>
  std::vector<T> downloadThrough(CudaBackend* gpu, const void* device, size_t count) {
    std::vector<T> host(count);
    gpu->copy(host.data(), device, count * sizeof(T));
    return host;
  }

  CudaBackend* first = nullptr;
  CudaBackend* second = nullptr;
};

TEST_F(CudaColoredMemoryOnGpus, EveryGpuWritesAndReadsAcrossTheChunksOfBoth) {
  const size_t granularity = first->physicalGranularity();
  for (auto policy : {core::MemoryColoring::Policy::Even, core::MemoryColoring::Policy::Interleaved}) {
    const size_t size = 3 * granularity + 4096;
    const core::MemoryColoring coloring = core::MemoryColoring::of(2, policy, 0, granularity);
    auto* memory = static_cast<uint32_t*>(first->allocateColoredMemory({first, second}, coloring.chunks(size), size));
    ASSERT_NE(memory, nullptr) << "LOOM_PrintDebugMessages=1 says which call failed";
    const size_t words = size / 4;
    std::vector<uint32_t> pattern(words);
    for (size_t i = 0; i < words; ++i) pattern[i] = uint32_t(i * 2654435761u);
    second->copy(memory, pattern.data(), size);
    EXPECT_EQ(downloadThrough<uint32_t>(first, memory, words), pattern);
    // A fill by each GPU across the boundary between the first two chunks.
    const uint32_t sevens = 0x07070707, nines = 0x09090909;
    const size_t boundary = granularity / 4;
    first->fill(memory + boundary - 16, &sevens, 4, 64);
    second->fill(memory + boundary, &nines, 4, 64);
    const std::vector<uint32_t> seen = downloadThrough<uint32_t>(second, memory + boundary - 32, 64);
    for (size_t i = 0; i < 64; ++i) {
      const uint32_t expected = i < 16 ? pattern[boundary - 32 + i] : i < 32 ? sevens : i < 48 ? nines : pattern[boundary - 32 + i];
      ASSERT_EQ(seen[i], expected) << "word " << i;
    }
    first->releaseColoredMemory(memory);
  }
}

}  // namespace
}  // namespace loom::backends::cuda
