#pragma once
// LLVM 15's SPIR-V translator (llvm-spirv-15) declares OpTypeSampler twice in a module that has
// both a sampler literal (OpConstantSampler) and a sampler kernel argument. SPIR-V forbids a
// second declaration of a type without operands, but the two can only mean the same type, so
// Loom reads such a module with one.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace loom::compiler {

// How many times `words` declares OpTypeSampler.
size_t samplerTypeCount(const std::vector<uint32_t>& words);

// `words` with each OpTypeSampler after the first removed and every id operand that named one
// naming the first. `words` must be a module SPIRV-Tools can parse; otherwise it comes back unchanged.
std::vector<uint32_t> withOneSamplerType(const std::vector<uint32_t>& words);

}  // namespace loom::compiler
