#include "composite_constructs.h"

#include <unordered_map>
#include <unordered_set>

#include "spirv_parsed_instructions.h"

namespace loom::compiler {

namespace {

using namespace spirv;

struct VectorShape {
  uint32_t component = 0;  // the component type
  uint32_t count = 0;
};

// What the rewrite needs to know of a module, from SPIRV-Tools' parser.
struct ModuleFacts {
  std::vector<size_t> constructs;                      // offsets of the OpCompositeConstructs
  std::unordered_map<uint32_t, uint32_t> typeOf;       // result id -> its type
  std::unordered_map<uint32_t, VectorShape> vectors;   // vector type id -> its shape
  std::unordered_set<uint32_t> constants;              // ids the translator reads as constants
};

bool isConstant(uint32_t opcode) {
  return (opcode >= OpConstantTrue && opcode <= OpConstantNull) || (opcode >= OpSpecConstantTrue && opcode <= OpSpecConstantComposite);
}

bool parse(const std::vector<uint32_t>& words, ModuleFacts& facts) {
  return forEachParsedInstruction(words, [&](const spv_parsed_instruction_t& parsed, size_t offset) {
    if (parsed.type_id) facts.typeOf[parsed.result_id] = parsed.type_id;
    if (parsed.opcode == OpTypeVector) facts.vectors[parsed.result_id] = {parsed.words[2], parsed.words[3]};
    if (isConstant(parsed.opcode)) facts.constants.insert(parsed.result_id);
    if (parsed.opcode == OpCompositeConstruct) facts.constructs.push_back(offset);
  });
}

const VectorShape* vectorShape(const ModuleFacts& facts, uint32_t type) {
  auto found = facts.vectors.find(type);
  return found == facts.vectors.end() ? nullptr : &found->second;
}

const VectorShape* vectorShapeOfValue(const ModuleFacts& facts, uint32_t id) {
  auto type = facts.typeOf.find(id);
  return type == facts.typeOf.end() ? nullptr : vectorShape(facts, type->second);
}

// The translator reads the instruction right only when it builds a constant from scalars or
// constants that are no vectors' parts.
bool translatorMisreads(const ModuleFacts& facts, const uint32_t* construct) {
  const bool buildsVector = vectorShape(facts, construct[1]) != nullptr;
  for (uint32_t at = 3; at < (construct[0] >> 16); ++at) {
    if (!facts.constants.count(construct[at])) return true;
    if (buildsVector && vectorShapeOfValue(facts, construct[at])) return true;
  }
  return false;
}

// The instructions that replace one OpCompositeConstruct, drawing fresh ids from `bound`.
class ConstructExpansion {
 public:
  ConstructExpansion(const ModuleFacts& facts, const uint32_t* construct, uint32_t& bound)
      : type_(construct[1]), bound_(bound) {
    value_ = append(OpUndef, {type_});
    const bool buildsVector = vectorShape(facts, type_) != nullptr;
    for (uint32_t at = 3; at < (construct[0] >> 16); ++at) {
      const VectorShape* shape = buildsVector ? vectorShapeOfValue(facts, construct[at]) : nullptr;
      if (!shape) {
        insert(construct[at]);
        continue;
      }
      for (uint32_t component = 0; component < shape->count; ++component)
        insert(append(OpCompositeExtract, {shape->component, construct[at], component}));  // a vector's parts, one by one
    }
    words_[lastResult_] = construct[2];  // the value built keeps the id its users name
  }

  const std::vector<uint32_t>& words() const { return words_; }

 private:
  // Appends `opcode` with result type `operands[0]`, a fresh result id and the other operands; the id.
  uint32_t append(uint32_t opcode, std::initializer_list<uint32_t> operands) {
    const uint32_t result = bound_++;
    words_.push_back(static_cast<uint32_t>(operands.size() + 2) << 16 | opcode);
    words_.push_back(*operands.begin());
    lastResult_ = words_.size();
    words_.push_back(result);
    words_.insert(words_.end(), operands.begin() + 1, operands.end());
    return result;
  }

  void insert(uint32_t part) { value_ = append(OpCompositeInsert, {type_, part, value_, position_++}); }

  uint32_t type_;
  uint32_t& bound_;
  uint32_t value_ = 0;
  uint32_t position_ = 0;
  size_t lastResult_ = 0;
  std::vector<uint32_t> words_;
};

}  // namespace

std::vector<uint32_t> withCompositeConstructsExpanded(const std::vector<uint32_t>& words) {
  ModuleFacts facts;
  if (words.size() <= kHeaderWords || words[0] != kMagic || !parse(words, facts)) return words;
  std::vector<uint32_t> result(words.begin(), words.begin() + kHeaderWords);
  uint32_t bound = words[3];
  size_t copied = kHeaderWords;
  for (size_t at : facts.constructs) {
    if (!translatorMisreads(facts, &words[at])) continue;
    result.insert(result.end(), words.begin() + static_cast<ptrdiff_t>(copied), words.begin() + static_cast<ptrdiff_t>(at));
    const ConstructExpansion expansion(facts, &words[at], bound);
    result.insert(result.end(), expansion.words().begin(), expansion.words().end());
    copied = at + (words[at] >> 16);
  }
  result.insert(result.end(), words.begin() + static_cast<ptrdiff_t>(copied), words.end());
  result[3] = bound;
  return result;
}

}  // namespace loom::compiler
