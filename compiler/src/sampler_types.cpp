#include "sampler_types.h"

#include <unordered_set>

#include "spirv_parsed_instructions.h"

namespace loom::compiler {

namespace {

using namespace spirv;

// Where the sampler types are declared and where ids name them, from SPIRV-Tools' parser.
struct SamplerTypeUses {
  uint32_t first = 0;                       // the id that stays
  std::vector<size_t> duplicates;           // offsets of the later declarations
  std::unordered_set<uint32_t> duplicateIds;
  std::vector<size_t> idOperands;           // word offsets of every id operand
};

bool isIdOperand(spv_operand_type_t type) {
  return type == SPV_OPERAND_TYPE_ID || type == SPV_OPERAND_TYPE_TYPE_ID || type == SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID ||
         type == SPV_OPERAND_TYPE_SCOPE_ID;
}

bool parse(const std::vector<uint32_t>& words, SamplerTypeUses& uses) {
  return forEachParsedInstruction(words, [&](const spv_parsed_instruction_t& parsed, size_t offset) {
    if (parsed.opcode == OpTypeSampler && uses.first != 0) {
      uses.duplicates.push_back(offset);
      uses.duplicateIds.insert(parsed.result_id);
    } else if (parsed.opcode == OpTypeSampler) {
      uses.first = parsed.result_id;
    }
    for (uint16_t i = 0; i < parsed.num_operands; ++i)
      if (isIdOperand(parsed.operands[i].type)) uses.idOperands.push_back(offset + parsed.operands[i].offset);
  });
}

}  // namespace

size_t samplerTypeCount(const std::vector<uint32_t>& words) {
  size_t count = 0;
  for (size_t at = kHeaderWords; at < words.size() && (words[at] >> 16) != 0; at += words[at] >> 16)
    if ((words[at] & 0xffff) == OpTypeSampler) ++count;
  return count;
}

std::vector<uint32_t> withOneSamplerType(const std::vector<uint32_t>& words) {
  if (samplerTypeCount(words) < 2) return words;
  SamplerTypeUses uses;
  if (!parse(words, uses)) return words;
  std::vector<uint32_t> renamed = words;
  for (size_t at : uses.idOperands)
    if (uses.duplicateIds.count(renamed[at])) renamed[at] = uses.first;
  std::vector<uint32_t> result;
  result.reserve(words.size());
  size_t copiedUpTo = 0;
  for (size_t at : uses.duplicates) {
    result.insert(result.end(), renamed.begin() + static_cast<ptrdiff_t>(copiedUpTo), renamed.begin() + static_cast<ptrdiff_t>(at));
    copiedUpTo = at + (words[at] >> 16);
  }
  result.insert(result.end(), renamed.begin() + static_cast<ptrdiff_t>(copiedUpTo), renamed.end());
  return result;
}

}  // namespace loom::compiler
