#include "backends/cpu/region_pieces.h"

#include <algorithm>

namespace loom::backends::cpu {
namespace {

// Whether a region's `count` steps of `step` bytes follow each other without a gap.
bool contiguous(uint64_t step, uint64_t pitch, uint64_t count) { return count <= 1 || step == pitch; }

uint64_t ceilDivide(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

}  // namespace

RegionPieces::RegionPieces(const core::CopyRegionCommand& copy, uint64_t pieceBytes)
    : copy_(copy), rowBytes_(copy.width), rows_(copy.height), slices_(copy.depth), pieceBytes_(std::max<uint64_t>(pieceBytes, 1)) {
  const core::Region3d& to = copy.destinationRegion;
  const core::Region3d& from = copy.sourceRegion;
  if (rowBytes_ == 0 || rows_ == 0 || slices_ == 0) return;
  if (contiguous(rowBytes_, to.rowPitch, rows_) && contiguous(rowBytes_, from.rowPitch, rows_)) {
    const bool slicesFollow = contiguous(rowBytes_ * rows_, to.slicePitch, slices_) && contiguous(rowBytes_ * rows_, from.slicePitch, slices_);
    rowBytes_ *= rows_, rows_ = 1;
    if (slicesFollow) rowBytes_ *= slices_, slices_ = 1;
  }
  if (rowBytes_ > pieceBytes_) {
    piecesPerRow_ = ceilDivide(rowBytes_, pieceBytes_);
    count_ = rows_ * slices_ * piecesPerRow_;
    return;
  }
  rowsPerPiece_ = pieceBytes_ / rowBytes_;
  count_ = ceilDivide(rows_ * slices_, rowsPerPiece_);
}

// Row `row` is row row % rows_ of slice row / rows_ (after merging, rows_ is 1 and a row a slice,
// or the whole region).
char* RegionPieces::destinationRow(uint64_t row) const {
  const core::Region3d& to = copy_.destinationRegion;
  return static_cast<char*>(copy_.destination) + (to.originZ + row / rows_) * to.slicePitch +
         (to.originY + row % rows_) * to.rowPitch + to.originX;
}

const char* RegionPieces::sourceRow(uint64_t row) const {
  const core::Region3d& from = copy_.sourceRegion;
  return static_cast<const char*>(copy_.source) + (from.originZ + row / rows_) * from.slicePitch +
         (from.originY + row % rows_) * from.rowPitch + from.originX;
}

bool RegionPieces::mayOverlap() const {
  if (count_ == 0) return false;
  const core::ByteSpan written = core::spanOf(copy_.destination, copy_.destinationRegion, copy_.width, copy_.height, copy_.depth);
  const core::ByteSpan read = core::spanOf(copy_.source, copy_.sourceRegion, copy_.width, copy_.height, copy_.depth);
  return written.begin < read.end && read.begin < written.end;
}

}  // namespace loom::backends::cpu
