#pragma once
// Every instruction of a module as SPIRV-Tools' parser sees it (operand kinds, result and type
// ids), with its word offset in the module: what the rewrites made before the translator reads a
// module need to find instructions and the ids they name.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "spirv-tools/libspirv.h"
#include "spirv_words.h"

namespace loom::compiler::spirv {

// Calls visit(instruction, offset) for each instruction in order. False when the module does not
// parse (then some instructions may have been visited).
template <typename Visit>
bool forEachParsedInstruction(const std::vector<uint32_t>& words, Visit visit) {
  struct Walk {
    Visit& visit;
    size_t offset = kHeaderWords;
  } walk{visit};
  auto step = [](void* user, const spv_parsed_instruction_t* parsed) {
    Walk& at = *static_cast<Walk*>(user);
    at.visit(*parsed, at.offset);
    at.offset += parsed->num_words;
    return SPV_SUCCESS;
  };
  spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_5);
  const bool parsed = spvBinaryParse(context, &walk, words.data(), words.size(), nullptr, step, nullptr) == SPV_SUCCESS;
  spvContextDestroy(context);
  return parsed;
}

}  // namespace loom::compiler::spirv
