#pragma once
// Reading memory the application points at without trusting the pointer: an unmapped or
// protected address makes these return false instead of raising a signal.
#include <cstddef>

namespace loom::core {

// Copies `size` bytes from `address` to `out`; false when any of them cannot be read.
bool copyIfReadable(void* out, const void* address, size_t size);
// True when the first and the last byte of [address, address + size) can be read (size > 0): a
// cheap test that a range is mapped host memory, not a proof for every page between.
bool endsAreReadable(const void* address, size_t size);

}  // namespace loom::core
