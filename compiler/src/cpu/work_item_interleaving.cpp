#include "work_item_interleaving.h"

#include <algorithm>
#include <deque>

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/UnrollLoop.h"
#include "module_passes.h"
#include "work_group_function_builder.h"

namespace loom::compiler::cpu {

namespace {

constexpr const char* kInterleaveProperty = "loom.interleave.work_items";
// Which step of the loop body an instruction is, while the loop is unrolled: the unroller's
// copies keep it, which tells them apart.
constexpr const char* kStepKind = "loom.work_item.step";
// Dependent floating-point operations in one work-item's turn from which its latency, not the
// throughput of the arithmetic units, bounds the loop (FMA latency 4, two units).
constexpr unsigned kLatencyBoundChain = 8;

llvm::MDNode* property(llvm::LLVMContext& context, const char* name) {
  return llvm::MDNode::get(context, llvm::MDString::get(context, name));
}

// The loop whose latch ends with `branch` gets these properties (a loop id first, if it has none).
void addLoopProperties(llvm::BranchInst& branch, std::initializer_list<const char*> names) {
  llvm::LLVMContext& context = branch.getContext();
  std::vector<llvm::Metadata*> operands{nullptr};
  if (llvm::MDNode* id = branch.getMetadata(llvm::LLVMContext::MD_loop))
    operands.insert(operands.end(), id->op_begin() + 1, id->op_end());
  for (const char* name : names) operands.push_back(property(context, name));
  llvm::MDNode* id = llvm::MDNode::getDistinct(context, operands);
  id->replaceOperandWith(0, id);
  branch.setMetadata(llvm::LLVMContext::MD_loop, id);
}

bool isFloatingPointArithmetic(const llvm::Instruction& instruction) {
  if (!instruction.getType()->isFPOrFPVectorTy()) return false;
  if (llvm::isa<llvm::BinaryOperator>(instruction) || llvm::isa<llvm::UnaryOperator>(instruction)) return true;
  auto* intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction);
  return intrinsic && (intrinsic->getIntrinsicID() == llvm::Intrinsic::fmuladd || intrinsic->getIntrinsicID() == llvm::Intrinsic::fma);
}

// The most floating-point operations on one path through the block's own values.
unsigned longestArithmeticChain(const llvm::BasicBlock& block) {
  llvm::DenseMap<const llvm::Instruction*, unsigned> depth;
  unsigned longest = 0;
  for (const llvm::Instruction& instruction : block) {
    unsigned deepest = 0;
    for (const llvm::Value* operand : instruction.operands())
      if (auto* defined = llvm::dyn_cast<llvm::Instruction>(operand); defined && defined->getParent() == &block)
        deepest = std::max(deepest, depth.lookup(defined));
    depth[&instruction] = deepest + (isFloatingPointArithmetic(instruction) ? 1 : 0);
    longest = std::max(longest, depth[&instruction]);
  }
  return longest;
}

// The target's vector registers: how many, and the bits of each that the code uses.
struct VectorRegisters {
  explicit VectorRegisters(const llvm::TargetTransformInfo& target)
      : count(target.getNumberOfRegisters(target.getRegisterClassForType(true))),
        bits(std::max<uint64_t>(1, target.getRegisterBitWidth(llvm::TargetTransformInfo::RGK_FixedWidthVector).getFixedSize())) {}
  unsigned count;
  uint64_t bits;
};

unsigned registersFor(const llvm::Type* type, const VectorRegisters& registers) {
  auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
  return vector ? llvm::divideCeil(vector->getPrimitiveSizeInBits().getFixedSize(), registers.bits) : 0;
}

// The most vector registers the block's own values fill at once: one work-item's share of the
// registers when its turn is the loop's one block.
unsigned vectorRegistersLive(const llvm::BasicBlock& block, const VectorRegisters& vectorRegisters) {
  llvm::DenseMap<const llvm::Instruction*, unsigned> position;
  unsigned next = 0;
  for (const llvm::Instruction& instruction : block) position[&instruction] = next++;
  std::vector<int> change(block.size() + 1, 0);
  for (const llvm::Instruction& instruction : block) {
    const unsigned registers = registersFor(instruction.getType(), vectorRegisters);
    if (!registers) continue;
    unsigned last = position[&instruction];
    for (const llvm::User* user : instruction.users()) {
      auto* use = llvm::cast<llvm::Instruction>(user);
      const bool inTurn = use->getParent() == &block && !llvm::isa<llvm::PHINode>(use);
      last = std::max<unsigned>(last, inTurn ? position[use] : block.size());
    }
    change[position[&instruction]] += registers;
    change[last] -= registers;
  }
  int live = 0, most = 0;
  for (int delta : change) most = std::max(most, live += delta);
  return most;
}

// Work-items side by side until their values fill the registers, up to kMostInterleavedWorkItems;
// below two, each runs alone.
unsigned workItemsSideBySide(const llvm::BasicBlock& body, const VectorRegisters& registers) {
  return std::min(kMostInterleavedWorkItems, registers.count / std::max(1u, vectorRegistersLive(body, registers)));
}

bool isCandidate(const llvm::Loop& loop, const VectorRegisters& registers) {
  return loop.isInnermost() && loop.getNumBlocks() == 1 && llvm::findOptionMDForLoop(&loop, kInterleaveProperty) &&
         loop.isAnnotatedParallel() && longestArithmeticChain(*loop.getHeader()) >= kLatencyBoundChain &&
         workItemsSideBySide(*loop.getHeader(), registers) >= 2;
}

void tagSteps(llvm::BasicBlock& body) {
  llvm::LLVMContext& context = body.getContext();
  const unsigned kind = context.getMDKindID(kStepKind);
  uint32_t step = 0;
  for (llvm::Instruction& instruction : body) {
    if (llvm::isa<llvm::PHINode>(instruction) || instruction.isTerminator()) continue;
    llvm::Metadata* value = llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(context), step++));
    instruction.setMetadata(kind, llvm::MDNode::get(context, value));
  }
}

using Instructions = std::deque<llvm::Instruction*>;

// The unrolled body's instructions by the work-item they came from (a copy starts where the steps
// start over), and those without a step: the unroller's own counters.
struct Copies {
  std::vector<Instructions> workItems;
  Instructions unrollers;
};

Copies copiesOf(llvm::BasicBlock& body) {
  const unsigned kind = body.getContext().getMDKindID(kStepKind);
  Copies copies;
  int64_t previous = -1;
  for (llvm::Instruction& instruction : body) {
    if (llvm::isa<llvm::PHINode>(instruction) || instruction.isTerminator()) continue;
    llvm::MDNode* tag = instruction.getMetadata(kind);
    if (!tag) {
      copies.unrollers.push_back(&instruction);
      continue;
    }
    const int64_t step = llvm::mdconst::extract<llvm::ConstantInt>(tag->getOperand(0))->getSExtValue();
    if (step <= previous || copies.workItems.empty()) copies.workItems.emplace_back();
    copies.workItems.back().push_back(&instruction);
    previous = step;
  }
  return copies;
}

// The block's own operands of `instruction` not placed yet (phis are always in place).
std::vector<llvm::Instruction*> unplacedOperands(const llvm::Instruction& instruction,
                                                 const llvm::SmallPtrSetImpl<const llvm::Instruction*>& placed) {
  std::vector<llvm::Instruction*> operands;
  for (llvm::Value* operand : instruction.operands()) {
    auto* defined = llvm::dyn_cast<llvm::Instruction>(operand);
    if (defined && defined->getParent() == instruction.getParent() && !llvm::isa<llvm::PHINode>(defined) && !placed.contains(defined))
      operands.push_back(defined);
  }
  return operands;
}

// Computations without memory accesses or other effects (a copy's index from the one before it)
// can move ahead of their copy's other instructions.
bool canMoveAhead(const llvm::Instruction& instruction, const llvm::SmallPtrSetImpl<const llvm::Instruction*>& placed) {
  if (instruction.mayReadOrWriteMemory() || instruction.mayHaveSideEffects()) return false;
  for (const llvm::Instruction* operand : unplacedOperands(instruction, placed))
    if (!canMoveAhead(*operand, placed)) return false;
  return true;
}

class Alternation {
 public:
  void place(llvm::Instruction* instruction) {
    for (llvm::Instruction* operand : unplacedOperands(*instruction, placed_)) place(operand);
    order_.push_back(instruction);
    placed_.insert(instruction);
  }

  // Places the copy's next instruction if it can go now, with the computations it waits for.
  bool placeNext(Instructions& copy) {
    while (!copy.empty() && placed_.contains(copy.front())) copy.pop_front();
    if (copy.empty()) return false;
    for (const llvm::Instruction* operand : unplacedOperands(*copy.front(), placed_))
      if (!canMoveAhead(*operand, placed_)) return true;
    place(copy.front());
    copy.pop_front();
    return true;
  }

  std::vector<llvm::Instruction*> order() { return std::move(order_); }

 private:
  std::vector<llvm::Instruction*> order_;
  llvm::SmallPtrSet<const llvm::Instruction*, 32> placed_;
};

// One instruction of each copy in turn, each copy in its own order. The copies are iterations of a
// parallel loop, so only their values order them; the earliest instruction not placed yet always
// has its operands placed, so every round places one at least.
std::vector<llvm::Instruction*> alternate(std::vector<Instructions> queues) {
  Alternation alternation;
  bool left = true;
  while (left) {
    left = false;
    for (Instructions& queue : queues) left |= alternation.placeNext(queue);
  }
  return alternation.order();
}

bool touchesMemory(const Instructions& instructions) {
  return llvm::any_of(instructions, [](const llvm::Instruction* instruction) { return instruction->mayReadOrWriteMemory(); });
}

void alternateCopies(llvm::BasicBlock& body) {
  Copies copies = copiesOf(body);
  // Memory accesses of the unroller's own (it makes none) would have no order with the copies'.
  if (copies.workItems.size() < 2 || touchesMemory(copies.unrollers)) return;
  std::vector<Instructions> queues = std::move(copies.workItems);
  queues.push_back(std::move(copies.unrollers));
  llvm::Instruction* terminator = body.getTerminator();
  for (llvm::Instruction* instruction : alternate(std::move(queues))) instruction->moveBefore(terminator);
}

void dropSteps(llvm::Function& function) {
  const unsigned kind = function.getContext().getMDKindID(kStepKind);
  for (llvm::BasicBlock& block : function)
    for (llvm::Instruction& instruction : block) instruction.setMetadata(kind, nullptr);
}

struct InterleaveWorkItems : llvm::PassInfoMixin<InterleaveWorkItems> {
  llvm::PreservedAnalyses run(llvm::Function& function, llvm::FunctionAnalysisManager& analyses) {
    if (function.isDeclaration() || !isWorkGroupFunction(function)) return llvm::PreservedAnalyses::all();
    llvm::LoopInfo& loops = analyses.getResult<llvm::LoopAnalysis>(function);
    auto& target = analyses.getResult<llvm::TargetIRAnalysis>(function);
    const VectorRegisters registers(target);
    std::vector<llvm::Loop*> candidates;
    for (llvm::Loop* loop : loops.getLoopsInPreorder())
      if (isCandidate(*loop, registers)) candidates.push_back(loop);
    if (candidates.empty()) return llvm::PreservedAnalyses::all();
    auto& evolution = analyses.getResult<llvm::ScalarEvolutionAnalysis>(function);
    auto& dominators = analyses.getResult<llvm::DominatorTreeAnalysis>(function);
    auto& assumptions = analyses.getResult<llvm::AssumptionAnalysis>(function);
    for (llvm::Loop* loop : candidates) {
      llvm::simplifyLoop(loop, &dominators, &loops, &evolution, &assumptions, nullptr, /*PreserveLCSSA=*/false);
      tagSteps(*loop->getHeader());
      const llvm::UnrollLoopOptions unroll{workItemsSideBySide(*loop->getHeader(), registers), /*Force=*/true, /*Runtime=*/true,
                                           /*AllowExpensiveTripCount=*/true, /*UnrollRemainder=*/false, /*ForgetAllSCEV=*/false};
      const llvm::LoopUnrollResult result =
          llvm::UnrollLoop(loop, unroll, &loops, &evolution, &dominators, &assumptions, &target, nullptr, /*PreserveLCSSA=*/false);
      if (result == llvm::LoopUnrollResult::PartiallyUnrolled && loop->getNumBlocks() == 1) alternateCopies(*loop->getHeader());
    }
    dropSteps(function);
    return llvm::PreservedAnalyses::none();
  }
  static bool isRequired() { return true; }
};

}  // namespace

void markForWorkItemInterleaving(const std::vector<RegionLoop>& loops) {
  for (const RegionLoop& loop : loops) {
    auto* branch = llvm::cast<llvm::BranchInst>(loop.latch->getTerminator());
    if (!branch->getMetadata(llvm::LLVMContext::MD_loop)) continue;  // not parallel: its work-items may depend on one another
    addLoopProperties(*branch, {"llvm.loop.unroll.disable", kInterleaveProperty});
    // Nor the y and z loops around it (whose latches the x loop exits to): LLVM's unroller would
    // copy the whole x loop for each of their work-items instead.
    llvm::BranchInst* inner = branch;
    for (int level = 0; level < 2; ++level) {
      auto* outer = llvm::dyn_cast<llvm::BranchInst>(inner->getSuccessor(1)->getTerminator());
      if (!outer || !outer->isConditional()) break;
      addLoopProperties(*outer, {"llvm.loop.unroll.disable"});
      inner = outer;
    }
  }
}

void interleaveWorkItems(llvm::Module& module, llvm::TargetMachine& machine) {
  runModulePipeline(module, &machine, [](llvm::PassBuilder&) {
    llvm::ModulePassManager manager;
    manager.addPass(llvm::createModuleToFunctionPassAdaptor(InterleaveWorkItems()));
    return manager;
  });
}

}  // namespace loom::compiler::cpu
