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

LocalIds buildWorkItemLoops(const WorkGroupBody& wg) {
  llvm::LLVMContext& context = wg.function->getContext();
  llvm::IRBuilder<> builder(wg.entry->getTerminator());
  llvm::Value* sizes[3];
  for (unsigned d = 0; d < 3; ++d)
    sizes[d] = loadContextField(builder, wg.context, LOOM_CONTEXT_FIELD(localSize) + 4 * d, builder.getInt32Ty());
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

}  // namespace loom::compiler::cpu
