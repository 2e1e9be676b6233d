// The state machine of kernels with barriers (see work_item_loops.h).
#include <vector>

#include "context_access.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Utils/Local.h"
#include "work_item_builtins.h"
#include "work_item_loops.h"

namespace loom::compiler::cpu {

namespace {

constexpr int32_t kExitRegion = -1;
constexpr uint64_t kMinimumFrameAlignment = 16;

struct StateMachine {
  llvm::AllocaInst* workItem;  // linear local id being run
  llvm::AllocaInst* region;    // region all work-items run now
  llvm::AllocaInst* next;      // region the work-items that reached a barrier asked for
  llvm::AllocaInst* exited;    // per work-item (it moves to the frame): returned already
  llvm::BasicBlock* dispatch;
  llvm::BasicBlock* latch;
  llvm::SwitchInst* regionSwitch;
  llvm::Value* frameBase;
  llvm::Instruction* frameSizePlaceholder;  // replaced by the frame size once the frame is laid out
};

std::vector<llvm::CallInst*> barrierCalls(llvm::Function& function) {
  std::vector<llvm::CallInst*> calls;
  for (llvm::BasicBlock& block : function)
    for (llvm::Instruction& instruction : block)
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction))
        if (call->getCalledFunction() && isBarrier(call->getCalledFunction()->getName())) calls.push_back(call);
  return calls;
}

StateMachine buildSkeleton(const WorkGroupBody& wg, LocalIds& ids) {
  llvm::LLVMContext& context = wg.function->getContext();
  StateMachine machine;
  llvm::IRBuilder<> builder(&*wg.entry->getFirstInsertionPt());
  machine.workItem = builder.CreateAlloca(builder.getInt32Ty(), nullptr, "wg.workitem");
  machine.region = builder.CreateAlloca(builder.getInt32Ty(), nullptr, "wg.region");
  machine.next = builder.CreateAlloca(builder.getInt32Ty(), nullptr, "wg.next");
  machine.exited = builder.CreateAlloca(builder.getInt8Ty(), nullptr, "wg.exited");

  builder.SetInsertPoint(wg.entry->getTerminator());
  llvm::Value* sizeX = loadContextField(builder, wg.context, LOOM_CONTEXT_FIELD(localSize), builder.getInt32Ty());
  llvm::Value* sizeY = loadContextField(builder, wg.context, LOOM_CONTEXT_FIELD(localSize) + 4, builder.getInt32Ty());
  llvm::Value* sizeZ = loadContextField(builder, wg.context, LOOM_CONTEXT_FIELD(localSize) + 8, builder.getInt32Ty());
  llvm::Value* workItems = builder.CreateMul(builder.CreateMul(sizeX, sizeY), sizeZ);
  llvm::Value* frames = loadContextField(builder, wg.context, LOOM_CONTEXT_FIELD(barrierFrame), builder.getInt8PtrTy());
  builder.CreateStore(builder.getInt32(0), machine.workItem);
  builder.CreateStore(builder.getInt32(0), machine.region);
  builder.CreateStore(builder.getInt32(kExitRegion), machine.next);

  machine.dispatch = llvm::BasicBlock::Create(context, "wg.dispatch", wg.function);
  machine.latch = llvm::BasicBlock::Create(context, "wg.latch", wg.function);
  auto* advance = llvm::BasicBlock::Create(context, "wg.advance", wg.function);
  auto* checkExited = llvm::BasicBlock::Create(context, "wg.checkexited", wg.function);
  auto* select = llvm::BasicBlock::Create(context, "wg.select", wg.function);
  auto* exit = llvm::BasicBlock::Create(context, "wg.exit", wg.function);
  wg.entry->getTerminator()->setSuccessor(0, machine.dispatch);

  builder.SetInsertPoint(machine.dispatch);
  llvm::Value* item = builder.CreateLoad(builder.getInt32Ty(), machine.workItem);
  llvm::Value* row = builder.CreateUDiv(item, sizeX);
  ids = {builder.CreateURem(item, sizeX), builder.CreateURem(row, sizeY), builder.CreateUDiv(row, sizeY)};
  machine.frameSizePlaceholder = llvm::BinaryOperator::CreateAdd(builder.getInt64(0), builder.getInt64(0), "wg.framesize");
  builder.Insert(machine.frameSizePlaceholder);
  llvm::Value* frameOffset = builder.CreateMul(builder.CreateZExt(item, builder.getInt64Ty()), machine.frameSizePlaceholder);
  machine.frameBase = builder.CreateInBoundsGEP(builder.getInt8Ty(), frames, frameOffset, "wg.frame");
  llvm::Value* region = builder.CreateLoad(builder.getInt32Ty(), machine.region);
  // A work-item that returned before a barrier others reached sits out the later regions
  // (undefined behaviour in OpenCL, but common code; it must not end the group's run).
  builder.CreateCondBr(builder.CreateICmpEQ(region, builder.getInt32(0)), select, checkExited);
  builder.SetInsertPoint(checkExited);
  llvm::Value* hasExited = builder.CreateICmpNE(builder.CreateLoad(builder.getInt8Ty(), machine.exited), builder.getInt8(0));
  builder.CreateCondBr(hasExited, machine.latch, select);
  builder.SetInsertPoint(select);
  machine.regionSwitch = builder.CreateSwitch(region, wg.body);
  llvm::IRBuilder<>(&*wg.body->getFirstInsertionPt()).CreateStore(builder.getInt8(0), machine.exited);

  builder.SetInsertPoint(machine.latch);
  llvm::Value* nextItem = builder.CreateAdd(builder.CreateLoad(builder.getInt32Ty(), machine.workItem), builder.getInt32(1));
  builder.CreateStore(nextItem, machine.workItem);
  builder.CreateCondBr(builder.CreateICmpULT(nextItem, workItems), machine.dispatch, advance);

  builder.SetInsertPoint(advance);
  llvm::Value* nextRegion = builder.CreateLoad(builder.getInt32Ty(), machine.next);
  builder.CreateStore(nextRegion, machine.region);
  builder.CreateStore(builder.getInt32(kExitRegion), machine.next);
  builder.CreateStore(builder.getInt32(0), machine.workItem);
  builder.CreateCondBr(builder.CreateICmpEQ(nextRegion, builder.getInt32(kExitRegion)), exit, machine.dispatch);
  llvm::ReturnInst::Create(context, exit);

  wg.tail->getTerminator()->eraseFromParent();
  builder.SetInsertPoint(wg.tail);
  builder.CreateStore(builder.getInt8(1), machine.exited);
  builder.CreateBr(machine.latch);
  return machine;
}

// Each barrier ends its block's region: record which barrier, and resume after it next time.
void splitAtBarriers(llvm::Function& function, StateMachine& machine) {
  int32_t id = 1;
  for (llvm::CallInst* barrier : barrierCalls(function)) {
    llvm::BasicBlock* block = barrier->getParent();
    llvm::BasicBlock* resume = block->splitBasicBlock(barrier->getNextNode(), "barrier.resume");
    block->getTerminator()->eraseFromParent();
    llvm::IRBuilder<> builder(block);
    builder.CreateStore(builder.getInt32(id), machine.next);
    builder.CreateBr(machine.latch);
    barrier->eraseFromParent();
    machine.regionSwitch->addCase(builder.getInt32(id), resume);
    ++id;
  }
}

// Values whose definition no longer dominates a use crossed a barrier: keep them in memory.
void demoteValuesCrossingBarriers(llvm::Function& function) {
  llvm::DominatorTree dominators(function);
  std::vector<llvm::Instruction*> crossing;
  for (llvm::BasicBlock& block : function) {
    if (!dominators.isReachableFromEntry(&block)) continue;
    for (llvm::Instruction& instruction : block) {
      if (llvm::isa<llvm::AllocaInst>(instruction)) continue;
      for (llvm::Use& use : instruction.uses())
        if (!dominators.dominates(&instruction, use)) {
          crossing.push_back(&instruction);
          break;
        }
    }
  }
  // Stores after the definition, loads before each use (in the predecessor for phi uses).
  for (llvm::Instruction* instruction : crossing) llvm::DemoteRegToStack(*instruction);
}

void eraseLifetimeMarkers(llvm::Function& function) {
  std::vector<llvm::Instruction*> markers;
  for (llvm::BasicBlock& block : function)
    for (llvm::Instruction& instruction : block)
      if (auto* intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction))
        if (intrinsic->isLifetimeStartOrEnd()) markers.push_back(intrinsic);
  for (llvm::Instruction* marker : markers) marker->eraseFromParent();
}

// Every private variable of the work-item (all entry allocas but the machine's own, except its
// per-work-item `exited` flag) moves to its frame. The frame size is a multiple of the largest
// alignment in it, so every work-item's frame is as aligned as the runtime's frame array (128).
uint64_t moveAllocasToFrames(const WorkGroupBody& wg, const StateMachine& machine) {
  const llvm::DataLayout& layout = wg.function->getParent()->getDataLayout();
  std::vector<llvm::AllocaInst*> privates;
  for (llvm::Instruction& instruction : *wg.entry)
    if (auto* alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction))
      if (alloca != machine.workItem && alloca != machine.region && alloca != machine.next) privates.push_back(alloca);
  llvm::IRBuilder<> builder(machine.dispatch->getTerminator());
  builder.SetInsertPoint(llvm::cast<llvm::Instruction>(machine.frameBase)->getNextNode());
  uint64_t offset = 0, frameAlignment = kMinimumFrameAlignment;
  for (llvm::AllocaInst* alloca : privates) {
    auto bits = alloca->getAllocationSizeInBits(layout);
    if (!bits) continue;  // no variable-length arrays in OpenCL C; such an alloca stays on the stack
    const uint64_t size = bits->getFixedSize() / 8;
    frameAlignment = std::max<uint64_t>(frameAlignment, alloca->getAlign().value());
    offset = llvm::alignTo(offset, alloca->getAlign().value());
    llvm::Value* address = builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), machine.frameBase, offset);
    alloca->replaceAllUsesWith(builder.CreateBitCast(address, alloca->getType()));
    alloca->eraseFromParent();
    offset += size;
  }
  return llvm::alignTo(offset, frameAlignment);
}

}  // namespace

uint32_t buildBarrierStateMachine(const WorkGroupBody& wg, LocalIds& ids) {
  StateMachine machine = buildSkeleton(wg, ids);
  splitAtBarriers(*wg.function, machine);
  demoteValuesCrossingBarriers(*wg.function);
  eraseLifetimeMarkers(*wg.function);
  const uint64_t frameSize = moveAllocasToFrames(wg, machine);
  machine.frameSizePlaceholder->replaceAllUsesWith(llvm::ConstantInt::get(machine.frameSizePlaceholder->getType(), frameSize));
  machine.frameSizePlaceholder->eraseFromParent();
  return static_cast<uint32_t>(frameSize);
}

}  // namespace loom::compiler::cpu
