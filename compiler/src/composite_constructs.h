#pragma once
// Debian's SPIR-V translator 15 reads every OpCompositeConstruct as a constant: given a constituent
// that is not a constant it dereferences a null pointer and the process dies; given vectors as
// constituents of a vector it builds a vector of vectors. Both forms are valid SPIR-V that other
// producers emit, so before the translator reads a module, such instructions become an OpUndef
// and a chain of OpCompositeExtract/OpCompositeInsert that builds the same value.
#include <cstdint>
#include <vector>

namespace loom::compiler {

// `words` with each OpCompositeConstruct the translator cannot read rewritten; the result keeps
// its id, the new instructions take fresh ids and the header's bound grows to match. `words`
// must be a module SPIRV-Tools can parse; otherwise it comes back unchanged.
std::vector<uint32_t> withCompositeConstructsExpanded(const std::vector<uint32_t>& words);

}  // namespace loom::compiler
