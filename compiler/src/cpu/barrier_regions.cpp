// Kernels with barriers as a sequence of barrier regions, each a loop nest over the work-items
// (see work_item_loops.h).
#include <algorithm>
#include <vector>

#include "context_access.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/Transforms/Utils/ValueMapper.h"
#include "uniform_values.h"
#include "work_item_builtins.h"
#include "work_item_loops.h"

namespace loom::compiler::cpu {

namespace {

constexpr uint32_t kExit = 0;  // what a work-item that returned asks for next: nothing
constexpr uint64_t kMinimumFrameAlignment = 16;
constexpr unsigned kGlobalAddressSpace = 1, kConstantAddressSpace = 2, kLocalAddressSpace = 3;

struct Barrier {
  llvm::BasicBlock* block;   // holds only the barrier call
  llvm::BasicBlock* resume;  // where the region after it starts
  uint32_t id;
};

// Memory of the group's frames: one array over the work-items per variable, so that
// consecutive work-items read consecutive elements; a uniform value keeps only element 0.
struct Slot {
  llvm::AllocaInst* variable;
  llvm::Type* type;
  uint64_t size;
  uint64_t alignment;
  bool uniform;
  llvm::Value* base = nullptr;  // element 0
};

struct Region {
  uint32_t id;
  llvm::BasicBlock* start;
  std::vector<llvm::BasicBlock*> blocks;  // clones of the blocks it runs
  llvm::BasicBlock* preheader = nullptr;
  llvm::BasicBlock* header = nullptr;  // of the innermost work-item loop
  llvm::BasicBlock* latch = nullptr;
  llvm::BasicBlock* after = nullptr;   // once every work-item ran the region
  llvm::PHINode* requested = nullptr;  // barrier the work-item reached, kExit when it returned
  llvm::Value* linearId = nullptr;     // i64
  LocalIds ids;
};

struct Machine {
  llvm::Value* sizes[3];
  llvm::Value* frameElements;  // i64: each frame array's, barrierFrameElements(the group's work-items)
  llvm::Value* frames;
  llvm::AllocaInst* next;  // the largest barrier id the region's work-items asked for
  llvm::BasicBlock* exit;
  std::vector<Barrier> barriers;
  std::vector<Slot> slots;
  std::vector<Region> regions;
  llvm::DenseMap<llvm::BasicBlock*, size_t> regionOf;
  std::vector<llvm::AllocaInst*> regionCopies;  // promoted to registers at the end
  int doneSlot = -1;
};

std::vector<llvm::CallInst*> barrierCalls(llvm::Function& function) {
  std::vector<llvm::CallInst*> calls;
  for (llvm::BasicBlock& block : function)
    for (llvm::Instruction& instruction : block)
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction))
        if (call->getCalledFunction() && isBarrier(call->getCalledFunction()->getName())) calls.push_back(call);
  return calls;
}

// Each barrier alone in a block; ids from 1, kExit being 0.
std::vector<Barrier> isolateBarriers(llvm::Function& function) {
  std::vector<Barrier> barriers;
  uint32_t id = 1;
  for (llvm::CallInst* call : barrierCalls(function)) {
    llvm::BasicBlock* resume = call->getParent()->splitBasicBlock(call->getNextNode(), "barrier.resume");
    llvm::BasicBlock* block = call->getParent()->splitBasicBlock(call, "barrier");
    barriers.push_back({block, resume, id++});
  }
  return barriers;
}

void eraseLifetimeMarkers(llvm::Function& function) {
  std::vector<llvm::Instruction*> markers;
  for (llvm::BasicBlock& block : function)
    for (llvm::Instruction& instruction : block)
      if (auto* intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction))
        if (intrinsic->isLifetimeStartOrEnd()) markers.push_back(intrinsic);
  for (llvm::Instruction* marker : markers) marker->eraseFromParent();
}

constexpr int kMaxRecomputedDepth = 6;

// Work-item ids and sizes, and cheap arithmetic on them (addresses too), kernel arguments and
// constants: such a value is computed again where a later region uses it rather than kept in the
// frames (where it would hide from the vectorizer that consecutive work-items have consecutive
// ids, or access consecutive elements).
bool isRecomputable(const llvm::Value* value, const llvm::BasicBlock& entry, int depth = 0) {
  auto* instruction = llvm::dyn_cast<llvm::Instruction>(value);
  if (!instruction) return llvm::isa<llvm::Constant>(value) || llvm::isa<llvm::Argument>(value);
  if (instruction->getParent() == &entry) return true;
  if (depth > kMaxRecomputedDepth) return false;
  if (auto* call = llvm::dyn_cast<llvm::CallInst>(instruction)) {
    const llvm::Function* callee = call->getCalledFunction();
    if (!callee || workItemQuery(callee->getName()) == WorkItemQuery::None) return false;
  } else if (!llvm::isa<llvm::BinaryOperator, llvm::CastInst, llvm::CmpInst, llvm::SelectInst, llvm::GetElementPtrInst>(instruction)) {
    return false;
  }
  return llvm::all_of(instruction->operands(), [&](const llvm::Use& operand) { return isRecomputable(operand.get(), entry, depth + 1); });
}

llvm::Value* recompute(llvm::Value* value, llvm::Instruction* position, const llvm::BasicBlock& entry) {
  auto* instruction = llvm::dyn_cast<llvm::Instruction>(value);
  if (!instruction || instruction->getParent() == &entry) return value;
  llvm::Instruction* copy = instruction->clone();
  for (llvm::Use& operand : copy->operands()) operand.set(recompute(operand.get(), position, entry));
  copy->insertBefore(position);
  return copy;
}

// With every barrier leading to a dispatcher that may start any region, the values used in a
// region other than their definition's are those whose definition no longer dominates a use:
// they move to memory (stores after the definition, loads before each use). Returns the
// variables that hold a uniform value.
llvm::SmallPtrSet<llvm::AllocaInst*, 8> demoteValuesCrossingBarriers(const WorkGroupBody& wg, const std::vector<Barrier>& barriers,
                                                                      const llvm::DenseSet<const llvm::Instruction*>& uniform) {
  llvm::LLVMContext& context = wg.function->getContext();
  auto* dispatch = llvm::BasicBlock::Create(context, "wg.dispatch", wg.function);
  auto* choice = llvm::SwitchInst::Create(llvm::UndefValue::get(llvm::Type::getInt32Ty(context)), wg.tail, 0, dispatch);
  choice->addCase(llvm::ConstantInt::get(llvm::Type::getInt32Ty(context), 0), wg.body);
  for (const Barrier& barrier : barriers) {
    choice->addCase(llvm::ConstantInt::get(llvm::Type::getInt32Ty(context), barrier.id), barrier.resume);
    barrier.block->getTerminator()->setSuccessor(0, dispatch);
  }
  wg.entry->getTerminator()->setSuccessor(0, dispatch);

  llvm::DominatorTree dominators(*wg.function);
  std::vector<llvm::Instruction*> crossing;
  for (llvm::BasicBlock& block : *wg.function) {
    if (!dominators.isReachableFromEntry(&block)) continue;
    for (llvm::Instruction& instruction : block) {
      if (llvm::isa<llvm::AllocaInst>(instruction)) continue;
      const bool dominatesUses = llvm::all_of(instruction.uses(), [&](llvm::Use& use) { return dominators.dominates(&instruction, use); });
      if (!dominatesUses) crossing.push_back(&instruction);
    }
  }
  llvm::SmallPtrSet<llvm::AllocaInst*, 8> uniformVariables;
  for (llvm::Instruction* instruction : crossing) {
    if (isRecomputable(instruction, *wg.entry)) {
      for (llvm::Use& use : llvm::make_early_inc_range(instruction->uses())) {
        if (dominators.dominates(instruction, use)) continue;
        auto* user = llvm::cast<llvm::Instruction>(use.getUser());
        auto* phi = llvm::dyn_cast<llvm::PHINode>(user);
        use.set(recompute(instruction, phi ? phi->getIncomingBlock(use)->getTerminator() : user, *wg.entry));
      }
      continue;
    }
    const bool isUniform = uniform.contains(instruction);
    llvm::AllocaInst* variable = llvm::DemoteRegToStack(*instruction);
    if (isUniform) uniformVariables.insert(variable);
  }
  return uniformVariables;
}

// Every variable of the entry block (the demoted values and the work-item's private variables),
// by decreasing alignment, so that each array, at the frames plus the sizes before it times the
// work-item count, stays aligned.
std::vector<Slot> collectSlots(const WorkGroupBody& wg, const llvm::SmallPtrSet<llvm::AllocaInst*, 8>& uniformVariables) {
  const llvm::DataLayout& layout = wg.function->getParent()->getDataLayout();
  std::vector<Slot> slots;
  for (llvm::Instruction& instruction : *wg.entry) {
    auto* variable = llvm::dyn_cast<llvm::AllocaInst>(&instruction);
    if (!variable) continue;
    auto bits = variable->getAllocationSizeInBits(layout);
    if (!bits) continue;  // no variable-length arrays in OpenCL C; such an alloca stays on the stack
    const uint64_t alignment = variable->getAlign().value();
    slots.push_back({variable, variable->getAllocatedType(), llvm::alignTo(bits->getFixedSize() / 8, alignment), alignment,
                     uniformVariables.contains(variable)});
  }
  std::stable_sort(slots.begin(), slots.end(), [](const Slot& a, const Slot& b) { return a.alignment > b.alignment; });
  return slots;
}

// Lays the slots out from the frames, each an array of barrierFrameElements(work-items); returns
// the bytes per element.
uint64_t placeSlots(llvm::IRBuilder<>& builder, Machine& machine) {
  uint64_t offset = 0, alignment = kMinimumFrameAlignment;
  for (Slot& slot : machine.slots) {
    llvm::Value* start = builder.CreateMul(builder.getInt64(offset), machine.frameElements);
    llvm::Value* address = builder.CreateInBoundsGEP(builder.getInt8Ty(), machine.frames, start);
    slot.base = builder.CreateBitCast(address, slot.type->getPointerTo());
    offset += slot.size;
    alignment = std::max(alignment, slot.alignment);
  }
  return llvm::alignTo(offset, alignment);
}

// The blocks reached from `start` up to the barriers and returns (`stops`), following from each
// block the successors `taken` gives.
template <typename Taken>
std::vector<llvm::BasicBlock*> reachableUntil(llvm::BasicBlock* start, const llvm::SmallPtrSet<llvm::BasicBlock*, 8>& stops, Taken taken) {
  std::vector<llvm::BasicBlock*> blocks{start};
  llvm::SmallPtrSet<llvm::BasicBlock*, 16> seen{start};
  for (size_t i = 0; i < blocks.size(); ++i) {
    if (stops.contains(blocks[i])) continue;
    for (llvm::BasicBlock* successor : taken(blocks[i]))
      if (seen.insert(successor).second) blocks.push_back(successor);
  }
  return blocks;
}

llvm::SmallVector<llvm::BasicBlock*, 2> allSuccessors(llvm::BasicBlock* block) {
  return llvm::SmallVector<llvm::BasicBlock*, 2>(llvm::successors(block));
}

// The blocks a region runs: from its start up to the barriers and returns it reaches.
std::vector<llvm::BasicBlock*> reachableUntilBarriers(llvm::BasicBlock* start, const llvm::SmallPtrSet<llvm::BasicBlock*, 8>& stops) {
  return reachableUntil(start, stops, allSuccessors);
}

bool branchesUniformly(const llvm::BasicBlock& block, const llvm::DenseSet<const llvm::Instruction*>& uniform) {
  const llvm::Instruction* terminator = block.getTerminator();
  if (terminator->getNumSuccessors() < 2) return true;
  const llvm::Value* condition = nullptr;
  if (auto* branch = llvm::dyn_cast<llvm::BranchInst>(terminator)) condition = branch->getCondition();
  if (auto* choice = llvm::dyn_cast<llvm::SwitchInst>(terminator)) condition = choice->getCondition();
  if (!condition) return false;
  if (llvm::isa<llvm::Constant>(condition)) return true;
  auto* instruction = llvm::dyn_cast<llvm::Instruction>(condition);
  return instruction && uniform.contains(instruction);
}

constexpr int kMaxInvariantDepth = 6;
constexpr size_t kMaxDecidedConditions = 5;

// Whether `value` is the same wherever and whenever the group's work-items compute it: arithmetic
// on constants, arguments and the entry block's values (the kernel's arguments), without phis
// (a loop's condition changes from iteration to iteration).
bool isGroupInvariant(const llvm::Value* value, const llvm::BasicBlock& entry, int depth = 0) {
  auto* instruction = llvm::dyn_cast<llvm::Instruction>(value);
  if (!instruction) return llvm::isa<llvm::Constant>(value) || llvm::isa<llvm::Argument>(value);
  if (instruction->getParent() == &entry) return true;
  if (depth > kMaxInvariantDepth || !llvm::isa<llvm::BinaryOperator, llvm::CastInst, llvm::CmpInst, llvm::SelectInst>(instruction))
    return false;
  return llvm::all_of(instruction->operands(), [&](const llvm::Use& operand) { return isGroupInvariant(operand.get(), entry, depth + 1); });
}

// Whether two group-invariant values are the same computation on the same inputs.
bool sameComputation(const llvm::Value* a, const llvm::Value* b) {
  if (a == b) return true;
  auto* x = llvm::dyn_cast<llvm::Instruction>(a);
  auto* y = llvm::dyn_cast<llvm::Instruction>(b);
  if (!x || !y || !x->isSameOperationAs(y)) return false;
  for (unsigned i = 0; i < x->getNumOperands(); ++i)
    if (!sameComputation(x->getOperand(i), y->getOperand(i))) return false;
  return true;
}

llvm::BranchInst* branchOnGroupInvariant(llvm::BasicBlock* block, const llvm::BasicBlock& entry) {
  auto* branch = llvm::dyn_cast<llvm::BranchInst>(block->getTerminator());
  if (!branch || !branch->isConditional() || !isGroupInvariant(branch->getCondition(), entry)) return nullptr;
  return branch;
}

// What work-items may do from a block on, with every branch taken either way: return, wait at a
// barrier, or both (bit 0 and bit 1).
unsigned endingsFrom(llvm::BasicBlock* block, const WorkGroupBody& wg, const llvm::SmallPtrSet<llvm::BasicBlock*, 8>& stops) {
  unsigned endings = 0;
  for (llvm::BasicBlock* reached : reachableUntilBarriers(block, stops)) {
    if (reached == wg.tail) endings |= 1;
    else if (stops.contains(reached)) endings |= 2;
  }
  return endings;
}

// The group-invariant conditions among `blocks`' branches that decide between returning and
// waiting (their successors end differently), one per computation.
std::vector<const llvm::Value*> decisiveConditions(const std::vector<llvm::BasicBlock*>& blocks, const WorkGroupBody& wg,
                                                   const llvm::SmallPtrSet<llvm::BasicBlock*, 8>& stops) {
  std::vector<const llvm::Value*> conditions;
  for (llvm::BasicBlock* block : blocks) {
    const llvm::BranchInst* branch = stops.contains(block) ? nullptr : branchOnGroupInvariant(block, *wg.entry);
    if (!branch || endingsFrom(branch->getSuccessor(0), wg, stops) == endingsFrom(branch->getSuccessor(1), wg, stops)) continue;
    const bool known = llvm::any_of(conditions, [&](const llvm::Value* c) { return sameComputation(c, branch->getCondition()); });
    if (!known) conditions.push_back(branch->getCondition());
  }
  return conditions;
}

bool returnsWhileOthersWait(const std::vector<llvm::BasicBlock*>& reached, const WorkGroupBody& wg,
                            const llvm::SmallPtrSet<llvm::BasicBlock*, 8>& stops) {
  const bool returns = llvm::is_contained(reached, wg.tail);
  const bool waits = llvm::any_of(reached, [&](llvm::BasicBlock* b) { return b != wg.tail && stops.contains(b); });
  return returns && waits;
}

// Whether work-items that part at the divergent branch of `divergent` may end up some returning,
// some waiting at a barrier. Branches on group-invariant conditions go the same way for all of
// them: each choice of the values of those that decide between returning and waiting is followed
// separately (CLBlast's GEMM tests `kSizeK >= WGD` on both sides of a divergent branch, and either
// side then waits or returns).
bool mayPartIntoReturnAndWait(llvm::BasicBlock* divergent, const WorkGroupBody& wg, const llvm::SmallPtrSet<llvm::BasicBlock*, 8>& stops) {
  const std::vector<llvm::BasicBlock*> reached = reachableUntilBarriers(divergent, stops);
  if (!returnsWhileOthersWait(reached, wg, stops)) return false;
  const std::vector<const llvm::Value*> conditions = decisiveConditions(reached, wg, stops);
  if (conditions.empty() || conditions.size() > kMaxDecidedConditions) return true;
  auto indexOf = [&](const llvm::Value* condition) -> int {
    for (size_t i = 0; i < conditions.size(); ++i)
      if (sameComputation(conditions[i], condition)) return static_cast<int>(i);
    return -1;
  };
  for (unsigned values = 0; values < (1u << conditions.size()); ++values) {
    auto taken = [&](llvm::BasicBlock* block) {
      llvm::BranchInst* branch = block == divergent ? nullptr : branchOnGroupInvariant(block, *wg.entry);
      const int index = branch ? indexOf(branch->getCondition()) : -1;
      if (index < 0) return allSuccessors(block);
      return llvm::SmallVector<llvm::BasicBlock*, 2>{branch->getSuccessor((values >> index & 1) ? 0 : 1)};
    };
    if (returnsWhileOthersWait(reachableUntil(divergent, stops, taken), wg, stops)) return true;
  }
  return false;
}

// Work-items that returned while others went on to a barrier sit out the later regions (undefined
// behaviour in OpenCL, but common code): possible where a region branches divergently to paths
// of which one returns and another reaches a barrier.
bool mayReturnEarly(const std::vector<std::vector<llvm::BasicBlock*>>& regions, const WorkGroupBody& wg,
                    const llvm::SmallPtrSet<llvm::BasicBlock*, 8>& stops, const llvm::DenseSet<const llvm::Instruction*>& uniform) {
  for (const auto& blocks : regions)
    for (llvm::BasicBlock* block : blocks) {
      if (stops.contains(block) || branchesUniformly(*block, uniform)) continue;
      if (mayPartIntoReturnAndWait(block, wg, stops)) return true;
    }
  return false;
}

llvm::Value* slotAddress(llvm::IRBuilder<>& builder, const Slot& slot, llvm::Value* linearId) {
  return builder.CreateInBoundsGEP(slot.type, slot.base, linearId);
}

// The region's loop nest (x innermost) around clones of its blocks; barriers and returns end a
// work-item's run of it at the latch, where the group's next region is the largest barrier id
// asked for (all work-items reach the same barrier, or returned).
void buildRegionLoop(const WorkGroupBody& wg, Machine& machine, Region& region, const std::vector<llvm::BasicBlock*>& original,
                     const llvm::DenseMap<llvm::BasicBlock*, uint32_t>& barrierIds) {
  llvm::LLVMContext& context = wg.function->getContext();
  const std::string name = "r" + std::to_string(region.id);
  region.preheader = llvm::BasicBlock::Create(context, name + ".pre", wg.function);
  region.after = llvm::BasicBlock::Create(context, name + ".after", wg.function);
  WorkItemLoop z = makeWorkItemLoop(wg.function, region.preheader, machine.sizes[2], region.after, (name + ".z").c_str());
  WorkItemLoop y = makeWorkItemLoop(wg.function, z.header, machine.sizes[1], z.latch, (name + ".y").c_str());
  WorkItemLoop x = makeWorkItemLoop(wg.function, y.header, machine.sizes[0], y.latch, (name + ".x").c_str());
  llvm::IRBuilder<> builder(region.preheader);
  builder.CreateStore(builder.getInt32(kExit), machine.next);
  builder.CreateBr(z.header);
  llvm::BranchInst::Create(y.header, z.header);
  llvm::BranchInst::Create(x.header, y.header);
  region.header = x.header;
  region.latch = x.latch;
  region.ids = {x.index, y.index, z.index};

  builder.SetInsertPoint(x.header);
  auto wide = [&](llvm::Value* v) { return builder.CreateZExt(v, builder.getInt64Ty()); };
  llvm::Value* row = builder.CreateNUWMul(builder.CreateNUWAdd(builder.CreateNUWMul(wide(z.index), wide(machine.sizes[1])), wide(y.index)),
                                          wide(machine.sizes[0]));
  region.linearId = builder.CreateNUWAdd(row, wide(x.index), "wg.linear");

  builder.SetInsertPoint(x.latch, x.latch->getFirstInsertionPt());
  region.requested = builder.CreatePHI(builder.getInt32Ty(), 4, "wg.requested");
  llvm::Value* largest = builder.CreateBinaryIntrinsic(llvm::Intrinsic::umax, builder.CreateLoad(builder.getInt32Ty(), machine.next),
                                                      region.requested);
  builder.CreateStore(largest, machine.next);

  llvm::ValueToValueMapTy map;
  for (llvm::BasicBlock* block : original) {
    llvm::BasicBlock* clone = llvm::CloneBasicBlock(block, map, "." + name, wg.function);
    map[block] = clone;
    region.blocks.push_back(clone);
  }
  llvm::SmallVector<llvm::BasicBlock*, 16> clones(region.blocks.begin(), region.blocks.end());
  llvm::remapInstructionsInBlocks(clones, map);
  llvm::SmallPtrSet<llvm::BasicBlock*, 16> inRegion(clones.begin(), clones.end());
  for (llvm::BasicBlock* clone : clones)
    for (llvm::PHINode& phi : clone->phis())
      for (unsigned i = phi.getNumIncomingValues(); i-- > 0;)
        if (!inRegion.contains(phi.getIncomingBlock(i))) phi.removeIncomingValue(i, false);

  for (llvm::BasicBlock* block : original) {
    auto* clone = llvm::cast<llvm::BasicBlock>(map[block]);
    machine.regionOf[clone] = region.id;
    uint32_t requested = kExit;
    if (auto found = barrierIds.find(block); found != barrierIds.end())
      requested = found->second;
    else if (block != wg.tail)
      continue;
    while (!clone->empty()) clone->back().eraseFromParent();
    builder.SetInsertPoint(clone);
    if (block == wg.tail && machine.doneSlot >= 0)
      builder.CreateStore(builder.getInt8(1), slotAddress(builder, machine.slots[machine.doneSlot], region.linearId));
    builder.CreateBr(x.latch);
    region.requested->addIncoming(builder.getInt32(requested), clone);
  }
  machine.regionOf[x.header] = region.id;
  machine.regionOf[x.latch] = region.id;

  builder.SetInsertPoint(x.header);
  auto* start = llvm::cast<llvm::BasicBlock>(map[region.start]);
  if (machine.doneSlot < 0) {
    builder.CreateBr(start);
  } else if (region.id == 0) {
    builder.CreateStore(builder.getInt8(0), slotAddress(builder, machine.slots[machine.doneSlot], region.linearId));
    builder.CreateBr(start);
  } else {
    const Slot& done = machine.slots[machine.doneSlot];
    llvm::Value* returned = builder.CreateLoad(done.type, slotAddress(builder, done, region.linearId));
    builder.CreateCondBr(builder.CreateICmpNE(returned, builder.getInt8(0)), x.latch, start);
    region.requested->addIncoming(builder.getInt32(kExit), x.header);
  }

  builder.SetInsertPoint(region.after);
  auto* next = builder.CreateSwitch(builder.CreateLoad(builder.getInt32Ty(), machine.next), machine.exit);
  for (llvm::BasicBlock* block : original)
    if (auto found = barrierIds.find(block); found != barrierIds.end()) next->addCase(builder.getInt32(found->second), block);
}

// The uses of each slot's variable in a region become its element of the frame array. A
// uniform value is read once before the loops and kept in a copy per region that mem2reg turns
// into registers; its stores also go to element 0, for the later regions.
void useFrames(Machine& machine) {
  for (Slot& slot : machine.slots) {
    std::vector<llvm::AllocaInst*> copies(machine.regions.size(), nullptr);
    std::vector<llvm::Value*> addresses(machine.regions.size(), nullptr);
    for (llvm::Use& use : llvm::make_early_inc_range(slot.variable->uses())) {
      auto* user = llvm::cast<llvm::Instruction>(use.getUser());
      auto found = machine.regionOf.find(user->getParent());
      if (found == machine.regionOf.end()) continue;  // an original block, deleted next
      Region& region = machine.regions[found->second];
      if (!slot.uniform) {
        if (!addresses[region.id]) {
          llvm::IRBuilder<> builder(region.header->getTerminator());
          addresses[region.id] = slotAddress(builder, slot, region.linearId);
        }
        use.set(addresses[region.id]);
        continue;
      }
      if (!copies[region.id]) {
        llvm::IRBuilder<> builder(slot.variable);
        copies[region.id] = builder.CreateAlloca(slot.type, nullptr, slot.variable->getName() + ".r" + std::to_string(region.id));
        machine.regionCopies.push_back(copies[region.id]);
        builder.SetInsertPoint(region.preheader->getTerminator());
        llvm::Value* before = builder.CreateLoad(slot.type, slot.base);
        builder.SetInsertPoint(region.header->getTerminator());
        builder.CreateStore(before, copies[region.id]);
      }
      if (auto* store = llvm::dyn_cast<llvm::StoreInst>(user)) llvm::IRBuilder<>(store).CreateStore(store->getValueOperand(), slot.base);
      use.set(copies[region.id]);
    }
  }
}

// The slot whose array `pointer` points into (through the GEPs and casts that address its
// elements), or null for a pointer that is not to the frames.
const Slot* slotOf(const llvm::Value* pointer, const llvm::DenseMap<const llvm::Value*, const Slot*>& slotByBase) {
  while (pointer) {
    if (auto found = slotByBase.find(pointer); found != slotByBase.end()) return found->second;
    auto* derived = llvm::dyn_cast<llvm::Operator>(pointer);
    if (!derived || !(llvm::isa<llvm::GEPOperator>(derived) || llvm::isa<llvm::BitCastOperator>(derived))) return nullptr;
    pointer = derived->getOperand(0);
  }
  return nullptr;
}

// The frames are the runtime's memory, which no pointer to global, constant or local memory
// reaches, and each slot's array is apart from the others: saying so lets the optimizer keep
// frame values in registers across other stores, and forward a value stored to one slot past
// stores to the others (which alias analysis cannot tell apart: their offsets scale with the
// work-item count, known only at run time).
void scopeFrameAccesses(llvm::Function& function, const std::vector<Slot>& slots) {
  llvm::LLVMContext& context = function.getContext();
  llvm::MDBuilder metadata(context);
  llvm::MDNode* domain = metadata.createAnonymousAliasScopeDomain("loom.frames");
  llvm::DenseMap<const llvm::Value*, const Slot*> slotByBase;
  llvm::DenseMap<const Slot*, llvm::MDNode*> scopeOf;
  llvm::SmallVector<llvm::Metadata*, 16> allScopes;
  for (const Slot& slot : slots) {
    llvm::MDNode* scope = metadata.createAnonymousAliasScope(domain, "slot");
    slotByBase[slot.base] = &slot;
    scopeOf[&slot] = scope;
    allScopes.push_back(scope);
  }
  llvm::MDNode* everySlot = llvm::MDNode::get(context, allScopes);
  llvm::DenseMap<const Slot*, llvm::MDNode*> othersOf;
  for (const Slot& slot : slots) {
    llvm::SmallVector<llvm::Metadata*, 16> others;
    for (llvm::Metadata* scope : allScopes)
      if (scope != scopeOf[&slot]) others.push_back(scope);
    othersOf[&slot] = llvm::MDNode::get(context, others);
  }
  for (llvm::BasicBlock& block : function)
    for (llvm::Instruction& instruction : block) {
      const llvm::Value* pointer = llvm::getLoadStorePointerOperand(&instruction);
      if (!pointer) continue;
      const unsigned space = pointer->getType()->getPointerAddressSpace();
      if (const Slot* slot = slotOf(pointer, slotByBase)) {
        instruction.setMetadata(llvm::LLVMContext::MD_alias_scope, llvm::MDNode::get(context, {scopeOf[slot]}));
        instruction.setMetadata(llvm::LLVMContext::MD_noalias, othersOf[slot]);
      } else if (space == kGlobalAddressSpace || space == kConstantAddressSpace || space == kLocalAddressSpace) {
        instruction.setMetadata(llvm::LLVMContext::MD_noalias, everySlot);
      }
    }
}

void eraseBlocks(const std::vector<llvm::BasicBlock*>& blocks) {
  for (llvm::BasicBlock* block : blocks) block->dropAllReferences();
  for (llvm::BasicBlock* block : blocks) block->eraseFromParent();
}

}  // namespace

BarrierRegions buildBarrierRegions(const WorkGroupBody& wg) {
  llvm::Function& function = *wg.function;
  llvm::LLVMContext& context = function.getContext();
  const llvm::DenseSet<const llvm::Instruction*> uniform = uniformValues(function, *wg.entry);
  Machine machine;
  machine.barriers = isolateBarriers(function);
  eraseLifetimeMarkers(function);
  const auto uniformVariables = demoteValuesCrossingBarriers(wg, machine.barriers, uniform);

  std::vector<llvm::BasicBlock*> originals;
  for (llvm::BasicBlock& block : function)
    if (&block != wg.entry) originals.push_back(&block);
  llvm::SmallPtrSet<llvm::BasicBlock*, 8> stops{wg.tail};
  llvm::DenseMap<llvm::BasicBlock*, uint32_t> barrierIds;
  for (const Barrier& barrier : machine.barriers) stops.insert(barrier.block), barrierIds[barrier.block] = barrier.id;
  std::vector<llvm::BasicBlock*> starts{wg.body};
  for (const Barrier& barrier : machine.barriers) starts.push_back(barrier.resume);
  std::vector<std::vector<llvm::BasicBlock*>> regionBlocks;
  for (llvm::BasicBlock* start : starts) regionBlocks.push_back(reachableUntilBarriers(start, stops));

  machine.slots = collectSlots(wg, uniformVariables);
  if (mayReturnEarly(regionBlocks, wg, stops, uniform)) {
    llvm::IRBuilder<> builder(&*wg.entry->getFirstInsertionPt());
    llvm::AllocaInst* done = builder.CreateAlloca(builder.getInt8Ty(), nullptr, "wg.returned");
    machine.slots.push_back({done, builder.getInt8Ty(), 1, 1, false});
    machine.doneSlot = static_cast<int>(machine.slots.size() - 1);
  }

  llvm::IRBuilder<> builder(wg.entry->getTerminator());
  for (unsigned d = 0; d < 3; ++d)
    machine.sizes[d] = loadContextField(builder, wg.context, LOOM_CONTEXT_FIELD(localSize) + 4 * d, builder.getInt32Ty());
  auto wide = [&](llvm::Value* v) { return builder.CreateZExt(v, builder.getInt64Ty()); };
  llvm::Value* workItems = builder.CreateNUWMul(builder.CreateNUWMul(wide(machine.sizes[0]), wide(machine.sizes[1])), wide(machine.sizes[2]));
  machine.frameElements = builder.CreateNUWAdd(workItems, builder.getInt64(kBarrierFramePaddingItems));
  machine.frames = loadContextField(builder, wg.context, LOOM_CONTEXT_FIELD(barrierFrame), builder.getInt8PtrTy());
  const uint64_t frameSize = placeSlots(builder, machine);
  builder.SetInsertPoint(&*wg.entry->getFirstInsertionPt());
  machine.next = builder.CreateAlloca(builder.getInt32Ty(), nullptr, "wg.next");
  machine.exit = llvm::BasicBlock::Create(context, "wg.exit", &function);
  llvm::ReturnInst::Create(context, machine.exit);

  for (size_t i = 0; i < starts.size(); ++i) machine.regions.push_back({static_cast<uint32_t>(i), starts[i]});
  for (size_t i = 0; i < starts.size(); ++i) buildRegionLoop(wg, machine, machine.regions[i], regionBlocks[i], barrierIds);
  // The regions' switches name original barrier blocks: each leads to the region after it.
  for (Region& region : machine.regions)
    for (auto branch : llvm::cast<llvm::SwitchInst>(region.after->getTerminator())->cases())
      branch.setSuccessor(machine.regions[branch.getCaseValue()->getZExtValue()].preheader);
  wg.entry->getTerminator()->setSuccessor(0, machine.regions[0].preheader);

  useFrames(machine);
  eraseBlocks(originals);
  scopeFrameAccesses(function, machine.slots);
  for (Slot& slot : machine.slots) slot.variable->eraseFromParent();
  llvm::DominatorTree dominators(function);
  llvm::PromoteMemToReg(machine.regionCopies, dominators);

  BarrierRegions result;
  result.frameSize = static_cast<uint32_t>(frameSize);
  for (const Region& region : machine.regions) {
    RegionLoop loop{region.latch, region.blocks};
    loop.blocks.push_back(region.header);
    loop.blocks.push_back(region.latch);
    for (llvm::BasicBlock* block : loop.blocks) result.ids[block] = region.ids;
    result.loops.push_back(std::move(loop));
  }
  return result;
}

}  // namespace loom::compiler::cpu
