#pragma once
// Level Zero passes specialization constant values without their sizes; the sizes come from the
// module's own declarations.
#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace loom::l0 {

// SpecId -> byte size (1, 2, 4 or 8) of every specialization constant the SPIR-V declares.
// Malformed input yields whatever was found before the damage (the compiler reports the error).
std::map<uint32_t, size_t> specializationConstantSizes(const uint8_t* spirv, size_t size);

}  // namespace loom::l0
