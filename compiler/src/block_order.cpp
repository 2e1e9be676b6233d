#include "block_order.h"

#include <algorithm>
#include <unordered_map>

#include "spirv-tools/libspirv.h"
#include "spirv_words.h"

namespace loom::compiler::spirv {

namespace {

// A block: its words [begin, end) in the module (OpLine instructions before its OpLabel included),
// its label and the labels its terminator names.
struct Block {
  size_t begin = 0, end = 0;
  uint32_t label = 0;
  std::vector<uint32_t> successors;
};

// A function: its words before the first block, its blocks, and its words after the last one.
struct Function {
  size_t begin = 0, blocksBegin = 0, blocksEnd = 0, end = 0;
  std::vector<Block> blocks;
};

// Collects functions and blocks from SPIRV-Tools' parse, which knows each operand's kind (the
// literals of OpSwitch may be one or two words wide).
class FunctionCollector {
 public:
  explicit FunctionCollector(const uint32_t* module) : module_(module) {}

  static spv_result_t visit(void* user, const spv_parsed_instruction_t* instruction) {
    static_cast<FunctionCollector*>(user)->see(*instruction);
    return SPV_SUCCESS;
  }
  std::vector<Function> functions;

 private:
  void see(const spv_parsed_instruction_t& instruction) {
    const size_t at = static_cast<size_t>(instruction.words - module_);
    const size_t next = at + instruction.num_words;
    switch (instruction.opcode) {
      case OpFunction:
        functions.push_back(Function{at, 0, 0, 0, {}});
        pending_ = next;
        return;
      case OpFunctionEnd:
        if (functions.empty()) return;
        functions.back().blocksEnd = functions.back().blocks.empty() ? at : functions.back().blocks.back().end;
        functions.back().end = next;
        if (functions.back().blocksBegin == 0) functions.back().blocksBegin = at;
        return;
      case OpLabel:
        if (functions.empty()) return;
        if (functions.back().blocks.empty()) functions.back().blocksBegin = pending_;
        functions.back().blocks.push_back(Block{pending_, 0, instruction.result_id, {}});
        return;
      case OpFunctionParameter:
        pending_ = next;
        return;
      default:
        break;
    }
    if (instruction.opcode < OpBranch || instruction.opcode > OpUnreachable || functions.empty() || functions.back().blocks.empty())
      return;
    Block& block = functions.back().blocks.back();
    block.end = next;
    pending_ = next;
    for (uint16_t i = 0; i < instruction.num_operands; ++i)
      if (instruction.operands[i].type == SPV_OPERAND_TYPE_ID) block.successors.push_back(instruction.words[instruction.operands[i].offset]);
  }

  const uint32_t* module_;
  size_t pending_ = 0;  // where the next block starts: after the last terminator or parameter
};

// The function's block indices in reverse post-order from the entry block, then the unreachable.
std::vector<size_t> reversePostOrder(const Function& function) {
  std::unordered_map<uint32_t, size_t> indexOf;
  for (size_t i = 0; i < function.blocks.size(); ++i) indexOf[function.blocks[i].label] = i;
  std::vector<bool> visited(function.blocks.size(), false);
  std::vector<size_t> postOrder;
  // Depth-first with an explicit stack of (block, next successor to look at).
  std::vector<std::pair<size_t, size_t>> stack{{0, 0}};
  visited[0] = true;
  while (!stack.empty()) {
    auto& [block, nextSuccessor] = stack.back();
    const std::vector<uint32_t>& successors = function.blocks[block].successors;
    if (nextSuccessor == successors.size()) {
      postOrder.push_back(block);
      stack.pop_back();
      continue;
    }
    const auto target = indexOf.find(successors[nextSuccessor++]);
    if (target == indexOf.end() || visited[target->second]) continue;  // the condition of a branch is no label
    visited[target->second] = true;
    stack.emplace_back(target->second, 0);
  }
  std::vector<size_t> order(postOrder.rbegin(), postOrder.rend());
  for (size_t i = 0; i < function.blocks.size(); ++i)
    if (!visited[i]) order.push_back(i);
  return order;
}

}  // namespace

bool isBlockOrderError(const std::string& validatorMessage) {
  return validatorMessage.find("appears in the binary before its dominator") != std::string::npos;
}

size_t putBlocksInDominanceOrder(std::vector<uint32_t>& words) {
  FunctionCollector collector(words.data());
  spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_5);
  const spv_result_t parsed = spvBinaryParse(context, &collector, words.data(), words.size(), nullptr, &FunctionCollector::visit, nullptr);
  spvContextDestroy(context);
  if (parsed != SPV_SUCCESS) return 0;
  size_t changed = 0;
  std::vector<uint32_t> reordered;
  reordered.reserve(words.size());
  for (const Function& function : collector.functions) {
    // A block without a terminator this reader knows is left as it is, and so is its function.
    const bool complete = std::all_of(function.blocks.begin(), function.blocks.end(),
                                      [](const Block& block) { return block.end > block.begin; });
    if (function.blocks.empty() || !complete) continue;
    const std::vector<size_t> order = reversePostOrder(function);
    if (std::is_sorted(order.begin(), order.end())) continue;
    reordered.clear();
    for (size_t index : order) {
      const Block& block = function.blocks[index];
      reordered.insert(reordered.end(), words.begin() + block.begin, words.begin() + block.end);
    }
    // The blocks fill [blocksBegin, blocksEnd) contiguously, so the same words come back reordered.
    if (reordered.size() != function.blocksEnd - function.blocksBegin) continue;
    std::copy(reordered.begin(), reordered.end(), words.begin() + function.blocksBegin);
    ++changed;
  }
  return changed;
}

}  // namespace loom::compiler::spirv
