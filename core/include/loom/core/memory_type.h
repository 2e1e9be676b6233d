#pragma once
#include <cstdint>

namespace loom::core {

// The kinds of unified shared memory both APIs allocate.
enum class MemoryType : uint8_t { Host, Device, Shared };

}  // namespace loom::core
