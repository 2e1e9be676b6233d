// specializationConstantSizes: a scan of the declarations, for APIs that pass values without sizes.
#include <unordered_map>

#include "loom/compiler/compiler.h"
#include "spirv_words.h"

namespace loom::compiler {

using namespace spirv;

std::map<uint32_t, size_t> specializationConstantSizes(const uint8_t* spirv, size_t size) {
  const std::vector<uint32_t> words = spirv::words(spirv, size);
  std::map<uint32_t, size_t> sizes;
  if (words.size() < kHeaderWords || words[0] != kMagic) return sizes;
  std::unordered_map<uint32_t, uint32_t> specIdOfTarget;  // result id -> SpecId
  std::unordered_map<uint32_t, size_t> typeSize;          // type id -> bytes
  for (size_t at = kHeaderWords; at < words.size();) {
    const uint32_t wordCount = words[at] >> 16, opcode = words[at] & 0xffff;
    if (wordCount == 0 || at + wordCount > words.size()) break;
    const uint32_t* operands = &words[at + 1];
    if (opcode == OpDecorate && wordCount >= 4 && operands[1] == kDecorationSpecId) specIdOfTarget[operands[0]] = operands[2];
    if ((opcode == OpTypeInt || opcode == OpTypeFloat) && wordCount >= 3) typeSize[operands[0]] = operands[1] / 8;
    if (opcode == OpTypeBool && wordCount >= 2) typeSize[operands[0]] = 1;
    const bool specConstant = opcode == OpSpecConstant || opcode == OpSpecConstantTrue || opcode == OpSpecConstantFalse;
    if (specConstant && wordCount >= 3) {
      auto specId = specIdOfTarget.find(operands[1]);
      auto type = typeSize.find(operands[0]);
      if (specId != specIdOfTarget.end() && type != typeSize.end()) sizes[specId->second] = type->second;
    }
    at += wordCount;
  }
  return sizes;
}

}  // namespace loom::compiler
