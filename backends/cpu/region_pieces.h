#pragma once
// A copy of a 3-D region between pitched layouts (core's CopyRegionCommand) cut into pieces that
// threads copy at once: runs of whole rows where rows are short, parts of a row where rows are
// long. Rows and slices that lie back to back in both layouts count as one row.
#include <cstdint>

#include "loom/core/command_stream.h"

namespace loom::backends::cpu {

class RegionPieces {
 public:
  // Pieces of about `pieceBytes` (never less than a whole short row).
  RegionPieces(const core::CopyRegionCommand& copy, uint64_t pieceBytes);

  uint64_t count() const { return count_; }
  uint64_t bytes() const { return rowBytes_ * rows_ * slices_; }
  // Calls copy(destination, source, size) for the memory of piece `index`, row by row.
  template <typename Copy>
  void copyPiece(uint64_t index, Copy&& copy) const {
    if (piecesPerRow_ > 1) {
      const uint64_t first = (index % piecesPerRow_) * pieceBytes_;
      const uint64_t size = first + pieceBytes_ < rowBytes_ ? pieceBytes_ : rowBytes_ - first;
      copy(destinationRow(index / piecesPerRow_) + first, sourceRow(index / piecesPerRow_) + first, size);
      return;
    }
    const uint64_t rows = rows_ * slices_;
    const uint64_t last = (index + 1) * rowsPerPiece_ < rows ? (index + 1) * rowsPerPiece_ : rows;
    for (uint64_t row = index * rowsPerPiece_; row < last; ++row) copy(destinationRow(row), sourceRow(row), rowBytes_);
  }

  // True when the bytes the copy reads and those it writes may meet: pieces copied at once could
  // then read what another wrote.
  bool mayOverlap() const;

 private:
  // Row `row` counted over all slices.
  char* destinationRow(uint64_t row) const;
  const char* sourceRow(uint64_t row) const;

  core::CopyRegionCommand copy_;
  uint64_t rowBytes_, rows_, slices_;  // after merging back-to-back rows and slices
  uint64_t pieceBytes_;
  uint64_t piecesPerRow_ = 1;  // > 1: each piece is part of a row
  uint64_t rowsPerPiece_ = 1;
  uint64_t count_ = 0;
};

}  // namespace loom::backends::cpu
