// Region copies cut into pieces for the CPU backend's pool (backends/cpu/region_pieces.h), and
// the CPU queue's region copies, large ones on the pool and small ones on the calling thread.
#include "backends/cpu/region_pieces.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "backends/cpu/cpu_backend.h"

namespace loom::backends::cpu {
namespace {

// A region of `width` bytes x `height` rows x `depth` slices at an origin, in pitched memory.
struct Shape {
  uint64_t width, height, depth;
  core::Region3d from, to;
};

size_t spanBytes(const Shape& s, const core::Region3d& r) {
  return (r.originZ + s.depth) * r.slicePitch + (r.originY + s.height) * r.rowPitch + r.originX + s.width;
}

// Every byte of the region is copied exactly once, to where the whole copy puts it, for pieces of
// any size.
TEST(RegionPieces, PiecesCoverTheRegionOnce) {
  const Shape shapes[] = {
      {1000, 7, 3, {5, 1, 0, 1100, 9000}, {0, 2, 1, 1003, 8100}},  // padded rows and slices
      {4096, 8, 2, {0, 0, 0, 4096, 32768}, {0, 0, 0, 4096, 32768}},  // one block
      {4096, 8, 2, {0, 0, 0, 4096, 40000}, {0, 0, 0, 4096, 32768}},  // rows merge, slices do not
      {70000, 1, 1, {3, 0, 0, 70003, 70003}, {0, 0, 0, 70000, 70000}},  // one long row
  };
  for (const Shape& shape : shapes) {
    for (uint64_t pieceBytes : {1ull, 999ull, 4096ull, 20000ull, 1ull << 30}) {
      std::vector<uint8_t> source(spanBytes(shape, shape.from)), destination(spanBytes(shape, shape.to), 0);
      for (size_t i = 0; i < source.size(); ++i) source[i] = uint8_t(i * 7 + i / 251);
      std::vector<int> writes(destination.size(), 0);
      const core::CopyRegionCommand copy{destination.data(), source.data(), shape.to, shape.from, shape.width, shape.height, shape.depth};
      const RegionPieces pieces(copy, pieceBytes);
      ASSERT_EQ(pieces.bytes(), shape.width * shape.height * shape.depth);
      EXPECT_FALSE(pieces.mayOverlap());
      for (uint64_t i = 0; i < pieces.count(); ++i)
        pieces.copyPiece(i, [&](char* out, const char* in, uint64_t size) {
          std::memcpy(out, in, size);
          for (uint64_t b = 0; b < size; ++b) ++writes[out - reinterpret_cast<char*>(destination.data()) + b];
        });
      for (uint64_t z = 0; z < shape.depth; ++z)
        for (uint64_t y = 0; y < shape.height; ++y)
          for (uint64_t x = 0; x < shape.width; ++x) {
            const size_t to = (shape.to.originZ + z) * shape.to.slicePitch + (shape.to.originY + y) * shape.to.rowPitch + shape.to.originX + x;
            const size_t from =
                (shape.from.originZ + z) * shape.from.slicePitch + (shape.from.originY + y) * shape.from.rowPitch + shape.from.originX + x;
            ASSERT_EQ(destination[to], source[from]) << x << "," << y << "," << z << " pieces of " << pieceBytes;
            ASSERT_EQ(writes[to], 1) << x << "," << y << "," << z;
            writes[to] = 0;
          }
      for (size_t i = 0; i < writes.size(); ++i) ASSERT_EQ(writes[i], 0) << "byte " << i << " lies outside the region";
    }
  }
}

TEST(RegionPieces, CopiesWithinOneBufferMayOverlap) {
  std::vector<uint8_t> memory(1 << 16);
  const core::Region3d rows{0, 0, 0, 256, 256 * 64};
  core::Region3d shifted = rows;
  shifted.originY = 8;
  EXPECT_TRUE(RegionPieces({memory.data(), memory.data(), shifted, rows, 128, 16, 1}, 1024).mayOverlap());
  shifted.originY = 16;
  EXPECT_FALSE(RegionPieces({memory.data(), memory.data(), shifted, rows, 256, 16, 1}, 1024).mayOverlap());
  EXPECT_TRUE(RegionPieces({memory.data(), memory.data(), shifted, rows, 256, 17, 1}, 1024).mayOverlap());
}

// A copy large enough for the pool, pitched on both sides, lands exactly where the row-by-row
// copy puts it; padding stays as it was.
TEST(CpuBackend, LargeRegionCopiesRunOnThePoolAndKeepEveryByte) {
  CpuBackend backend(describeHostCpu(), 4);
  std::unique_ptr<core::BackendQueue> queue = backend.createQueue();
  for (const Shape& shape : {Shape{3000, 700, 2, {16, 3, 0, 3100, 3100 * 710}, {0, 0, 1, 3072, 3072 * 720}},  // > 2 MiB
                             Shape{1 << 22, 1, 1, {0, 0, 0, 1 << 22, 1 << 22}, {0, 0, 0, 1 << 22, 1 << 22}},   // one block
                             Shape{300, 20, 1, {0, 0, 0, 320, 6400}, {0, 0, 0, 300, 6000}}}) {               // small
    std::vector<uint8_t> source(spanBytes(shape, shape.from)), destination(spanBytes(shape, shape.to), 0xCD);
    for (size_t i = 0; i < source.size(); ++i) source[i] = uint8_t(i * 13 + i / 509);
    std::vector<uint8_t> expected = destination;
    const core::CopyRegionCommand copy{expected.data(), source.data(), shape.to, shape.from, shape.width, shape.height, shape.depth};
    queue->BackendQueue::copyRegion(copy);  // the reference: row by row
    core::CopyRegionCommand pooled = copy;
    pooled.destination = destination.data();
    queue->copyRegion(pooled);
    ASSERT_TRUE(destination == expected) << shape.width << " x " << shape.height << " x " << shape.depth;
  }
  // The pool takes the large ones only.
  std::vector<uint8_t> small(1 << 10), large(4 << 20);
  const core::Region3d line{0, 0, 0, 1 << 20, 1 << 20};
  EXPECT_FALSE(backend.copyRegionOnPool({small.data(), small.data() + 512, line, line, 512, 1, 1}));
  EXPECT_TRUE(backend.copyRegionOnPool({large.data(), large.data() + (2 << 20), line, line, 2 << 20, 1, 1}));
  EXPECT_FALSE(backend.copyRegionOnPool({large.data(), large.data() + (1 << 20), line, line, 3 << 20, 1, 1})) << "overlap";
}

}  // namespace
}  // namespace loom::backends::cpu
