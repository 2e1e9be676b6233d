#pragma once
// SPIR-V lists a function's blocks after the blocks that dominate them (SPIR-V 1.6 section 2.4,
// Logical Layout of a Module); some producers list a loop's exit before its body, as level-zero-tests'
// sysman_matrix_multiplication.spv does. Apart from the entry block coming first, the order
// means nothing, so Loom reads such functions with their blocks in reverse post-order of the
// control flow graph, which puts every block after its dominators.
#include <cstdint>
#include <string>
#include <vector>

namespace loom::compiler::spirv {

// Whether a validator's message is the block-order rule's.
bool isBlockOrderError(const std::string& validatorMessage);

// Puts the blocks of every function of `words` in reverse post-order from its entry block;
// unreachable blocks follow in their order. Returns how many functions changed.
size_t putBlocksInDominanceOrder(std::vector<uint32_t>& words);

}  // namespace loom::compiler::spirv
