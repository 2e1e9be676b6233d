#include "spirv_imports.h"

#include <cstring>
#include <unordered_set>
#include <utility>

#include "spirv_parsed_instructions.h"

namespace loom::compiler::spirv {

namespace {

// Instructions that only describe an id: naming or decorating an import does not use it.
bool describesOnly(uint32_t opcode) {
  return opcode == OpName || opcode == OpMemberName || opcode == OpDecorate || opcode == OpDecorateString;
}

// OpDecorate <target> LinkageAttributes "<name>" Import: the target and its name.
std::optional<std::pair<uint32_t, std::string>> importOf(const spv_parsed_instruction_t& instruction) {
  if (instruction.opcode != OpDecorate || instruction.num_operands != 4) return std::nullopt;
  const uint32_t* words = instruction.words;
  const spv_parsed_operand_t* operands = instruction.operands;
  if (words[operands[1].offset] != kDecorationLinkageAttributes || words[operands[3].offset] != kLinkageTypeImport)
    return std::nullopt;
  const auto* name = reinterpret_cast<const char*>(words + operands[2].offset);
  return std::make_pair(words[operands[0].offset], std::string(name, strnlen(name, operands[2].num_words * 4)));
}

}  // namespace

std::optional<std::vector<std::string>> usedImports(const std::vector<uint32_t>& words) {
  std::vector<std::pair<uint32_t, std::string>> imports;
  std::unordered_set<uint32_t> used;
  const bool parsed = forEachParsedInstruction(words, [&](const spv_parsed_instruction_t& instruction, size_t) {
    if (auto import = importOf(instruction)) imports.push_back(std::move(*import));
    if (describesOnly(instruction.opcode)) return;
    for (uint16_t i = 0; i < instruction.num_operands; ++i)
      if (instruction.operands[i].type == SPV_OPERAND_TYPE_ID) used.insert(instruction.words[instruction.operands[i].offset]);
  });
  if (!parsed) return std::nullopt;
  std::vector<std::string> names;
  for (auto& [id, name] : imports)
    if (used.count(id)) names.push_back(std::move(name));
  return names;
}

}  // namespace loom::compiler::spirv
