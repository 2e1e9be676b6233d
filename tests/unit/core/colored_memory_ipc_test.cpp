// IPC of colored memory made by a tile's driver (as GPUs make it), on tiles whose chunks are
// memfds mapped side by side: the root's handle carries a ticket, another process fetches the
// chunks over the descriptor channel and maps the same layout, and the exporter stops serving
// once the memory is freed.
#include "loom/core/colored_memory_ipc.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>

#include "fake_backend.h"
#include "loom/core/colored_allocations.h"
#include "loom/core/composite_backend.h"

namespace loom::core {
namespace {

constexpr size_t kGranule = size_t(64) << 10;

size_t openDescriptors() {
  size_t count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) ++count;
  return count;
}

// A tile whose colored memory is one reserved range with a memfd mapped on each chunk, as a GPU's
// is a range with physical memory of each GPU mapped on it.
class MemfdTile final : public testing::FakeBackendBase {
 public:
  size_t physicalGranularity() const override { return kGranule; }
  void* allocateColoredMemory(const std::vector<Backend*>&, const std::vector<MemoryChunk>& chunks, size_t size) override {
    std::vector<int> files;
    for (const MemoryChunk& chunk : chunks) {
      files.push_back(memfd_create("colored-chunk", MFD_CLOEXEC));
      if (ftruncate(files.back(), off_t(roundUp(chunk.size))) != 0) return nullptr;
    }
    return mapChunks(chunks, size, files);
  }
  std::vector<int> exportColoredMemory(void* address) override {
    std::lock_guard lock(mutex_);
    if (refusesExport) return {};
    std::vector<int> copies;
    for (int file : ranges_.at(address).files) copies.push_back(dup(file));
    return copies;
  }
  void* importColoredMemory(const std::vector<Backend*>&, const std::vector<MemoryChunk>& chunks, size_t size,
                            const std::vector<int>& descriptors) override {
    std::vector<int> copies;  // the caller closes its descriptors
    for (int descriptor : descriptors) copies.push_back(dup(descriptor));
    return mapChunks(chunks, size, copies);
  }
  bool refusesExport = false;  // as a GPU without POSIX descriptor handles
  void releaseColoredMemory(void* address) override {
    std::lock_guard lock(mutex_);
    const Range& range = ranges_.at(address);
    munmap(address, range.size);
    for (int file : range.files) close(file);
    ranges_.erase(address);
  }

 private:
  struct Range {
    size_t size;
    std::vector<int> files;
  };
  static size_t roundUp(size_t size) { return (size + kGranule - 1) / kGranule * kGranule; }
  void* mapChunks(const std::vector<MemoryChunk>& chunks, size_t size, const std::vector<int>& files) {
    void* start = mmap(nullptr, roundUp(size), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    for (size_t i = 0; i < chunks.size(); ++i)
      mmap(static_cast<char*>(start) + chunks[i].offset, roundUp(chunks[i].size), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
           files[i], 0);
    std::lock_guard lock(mutex_);
    ranges_[start] = {roundUp(size), files};
    return start;
  }

  std::mutex mutex_;
  std::map<void*, Range> ranges_;
};

class ColoredMemoryIpc : public ::testing::Test {
 protected:
  ColoredMemoryIpc() : root(createCompositeBackend({&tiles[0], &tiles[1]})) {}

  uint32_t* allocateColored(size_t words) {
    auto* memory = static_cast<uint32_t*>(root->allocateMemory(MemoryType::Device, words * 4));
    EXPECT_NE(memory, nullptr);
    EXPECT_EQ(ColoredAllocations::instance().chunksOf(memory).size(), 2u) << "colored across both tiles";
    for (size_t i = 0; i < words; ++i) memory[i] = uint32_t(i);
    return memory;
  }
  DriverIpcHandle exportOf(void* memory) {
    DriverIpcHandle handle{};
    EXPECT_TRUE(root->exportMemory(memory, MemoryType::Device, handle));
    EXPECT_EQ(handle.form, DriverIpcHandle::Form::ColoredChunks);
    return handle;
  }

  MemfdTile tiles[2];
  std::unique_ptr<Backend> root;
};

constexpr size_t kWords = 4 * kGranule / 4;  // two chunks of two granules

TEST_F(ColoredMemoryIpc, AnotherProcessMapsTheChunksAndWritesAcrossTheirBoundary) {
  uint32_t* memory = allocateColored(kWords);
  const DriverIpcHandle handle = exportOf(memory);
  const size_t boundary = kWords / 2;
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto* opened = static_cast<uint32_t*>(root->importMemory(handle));
    if (!opened || opened == memory) _exit(1);
    if (ColoredAllocations::instance().chunksOf(opened) != ColoredAllocations::instance().chunksOf(memory)) _exit(2);
    for (size_t i = boundary - 8; i < boundary + 8; ++i) {
      if (opened[i] != i) _exit(3);
      opened[i] = uint32_t(0xc0de0000 + i);
    }
    root->closeImportedMemory(opened);
    if (!ColoredAllocations::instance().chunksOf(opened).empty()) _exit(4);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1: not opened, 2: other chunks, 3: other contents, 4: its record stayed";
  for (size_t i = 0; i < kWords; ++i) {
    const bool written = i >= boundary - 8 && i < boundary + 8;
    ASSERT_EQ(memory[i], written ? uint32_t(0xc0de0000 + i) : uint32_t(i)) << "word " << i;
  }
  root->releaseMemory(memory, MemoryType::Device);
}

TEST_F(ColoredMemoryIpc, StopsServingOnceTheMemoryIsFreedAndLeavesNothingOpen) {
  const size_t before = openDescriptors();
  uint32_t* memory = allocateColored(kWords);
  const DriverIpcHandle handle = exportOf(memory);
  EXPECT_EQ(std::memcmp(exportOf(memory).bytes, handle.bytes, sizeof(handle.bytes)), 0) << "one offer per allocation";
  auto* opened = static_cast<uint32_t*>(root->importMemory(handle));  // in this process too
  ASSERT_NE(opened, nullptr);
  opened[kWords - 1] = 77;
  EXPECT_EQ(memory[kWords - 1], 77u) << "the same memory";
  root->closeImportedMemory(opened);
  root->releaseMemory(memory, MemoryType::Device);
  EXPECT_EQ(root->importMemory(handle), nullptr) << "freed memory is no longer offered";
  EXPECT_EQ(openDescriptors(), before);
}

TEST_F(ColoredMemoryIpc, ARootOfFewerTilesRefusesChunksOfTilesItLacks) {
  uint32_t* memory = allocateColored(kWords);
  const DriverIpcHandle handle = exportOf(memory);
  MemfdTile single;
  std::unique_ptr<Backend> smallRoot = createCompositeBackend({&single});
  EXPECT_EQ(smallRoot->importMemory(handle), nullptr);
  root->releaseMemory(memory, MemoryType::Device);
}

TEST_F(ColoredMemoryIpc, MemoryWhoseDriverGivesNoDescriptorsHasNoHandle) {
  uint32_t* memory = allocateColored(kWords);
  tiles[0].refusesExport = true;
  DriverIpcHandle handle{};
  EXPECT_FALSE(root->exportMemory(memory, MemoryType::Device, handle));
  root->releaseMemory(memory, MemoryType::Device);
}

TEST(ColoredChunkTable, RoundTripsAndRefusesTablesThatDoNotCoverTheAllocation) {
  const std::vector<MemoryChunk> chunks{{0, 2 * kGranule, 0}, {2 * kGranule, 100, 1}};
  const auto decoded = decodeChunkTable(encodeChunkTable(2 * kGranule + 100, chunks));
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->first, 2 * kGranule + 100);
  EXPECT_EQ(decoded->second, chunks);
  EXPECT_FALSE(decodeChunkTable(encodeChunkTable(2 * kGranule + 101, chunks))) << "a gap at the end";
  EXPECT_FALSE(decodeChunkTable(encodeChunkTable(2 * kGranule + 100, {chunks[1], chunks[0]}))) << "out of order";
  EXPECT_FALSE(decodeChunkTable(encodeChunkTable(0, {}))) << "no chunks";
  std::vector<uint8_t> truncated = encodeChunkTable(2 * kGranule + 100, chunks);
  truncated.pop_back();
  EXPECT_FALSE(decodeChunkTable(truncated));
}

}  // namespace
}  // namespace loom::core
