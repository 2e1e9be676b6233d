#include "work_item_loops.h"

#include "context_access.h"
#include "llvm/IR/IRBuilder.h"

namespace loom::compiler::cpu {

WorkItemLoop makeWorkItemLoop(llvm::Function* function, llvm::BasicBlock* preheader, llvm::Value* bound, llvm::BasicBlock* exit,
                              const char* name) {
  llvm::LLVMContext& context = function->getContext();
  auto* header = llvm::BasicBlock::Create(context, std::string(name) + ".header", function);
  auto* latch = llvm::BasicBlock::Create(context, std::string(name) + ".latch", function);
  llvm::IRBuilder<> builder(header);
  llvm::PHINode* index = builder.CreatePHI(builder.getInt32Ty(), 2, name);
  index->addIncoming(builder.getInt32(0), preheader);
  builder.SetInsertPoint(latch);
  llvm::Value* next = builder.CreateNUWAdd(index, builder.getInt32(1));
  index->addIncoming(next, latch);
  builder.CreateCondBr(builder.CreateICmpULT(next, bound), header, exit);
  return {header, latch, index};
}

namespace {
llvm::Value* loadGroupRun(llvm::IRBuilder<>& builder, llvm::Value* context) {
  return loadContextField(builder, context, LOOM_CONTEXT_FIELD(groupRun), builder.getInt32Ty());
}
}  // namespace

LocalIds buildWorkItemLoops(const WorkGroupBody& wg, bool acrossGroupRun) {
  llvm::LLVMContext& context = wg.function->getContext();
  llvm::IRBuilder<> builder(wg.entry->getTerminator());
  llvm::Value* sizes[3];
  for (unsigned d = 0; d < 3; ++d)
    sizes[d] = loadContextField(builder, wg.context, LOOM_CONTEXT_FIELD(localSize) + 4 * d, builder.getInt32Ty());
  // The runtime keeps a run's work-items countable in 32 bits.
  if (acrossGroupRun) sizes[0] = builder.CreateNUWMul(sizes[0], loadGroupRun(builder, wg.context));
  auto* exit = llvm::BasicBlock::Create(context, "wg.exit", wg.function);
  llvm::ReturnInst::Create(context, exit);

  WorkItemLoop z = makeWorkItemLoop(wg.function, wg.entry, sizes[2], exit, "lz");
  WorkItemLoop y = makeWorkItemLoop(wg.function, z.header, sizes[1], z.latch, "ly");
  WorkItemLoop x = makeWorkItemLoop(wg.function, y.header, sizes[0], y.latch, "lx");
  wg.entry->getTerminator()->setSuccessor(0, z.header);
  llvm::BranchInst::Create(y.header, z.header);
  llvm::BranchInst::Create(x.header, y.header);
  llvm::BranchInst::Create(wg.body, x.header);
  wg.tail->getTerminator()->eraseFromParent();
  llvm::BranchInst::Create(x.latch, wg.tail);
  return {x.index, y.index, z.index};
}

llvm::Value* addGroupRunLoop(const WorkGroupBody& wg) {
  llvm::LLVMContext& context = wg.function->getContext();
  std::vector<llvm::ReturnInst*> returns;
  for (llvm::BasicBlock& block : *wg.function)
    if (auto* ret = llvm::dyn_cast<llvm::ReturnInst>(block.getTerminator())) returns.push_back(ret);
  llvm::BasicBlock* group = wg.entry->splitBasicBlock(wg.entry->getTerminator(), "group");
  auto* exit = llvm::BasicBlock::Create(context, "run.exit", wg.function);
  llvm::ReturnInst::Create(context, exit);
  llvm::IRBuilder<> builder(wg.entry->getTerminator());
  WorkItemLoop run = makeWorkItemLoop(wg.function, wg.entry, loadGroupRun(builder, wg.context), exit, "run");
  // The loop's header is the group's first block: move the index there and drop the empty header.
  run.index->moveBefore(&group->front());
  run.header->replaceAllUsesWith(group);
  run.header->eraseFromParent();
  for (llvm::ReturnInst* ret : returns) {
    llvm::BranchInst::Create(run.latch, ret->getParent());
    ret->eraseFromParent();
  }
  return run.index;
}

}  // namespace loom::compiler::cpu
