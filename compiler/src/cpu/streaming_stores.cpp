#include "streaming_stores.h"

#include <vector>

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsX86.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "work_group_function_builder.h"

namespace loom::compiler::cpu {

namespace {

// Vector stores of 16, 32 or 64 bytes: what SSE, AVX and AVX-512 store with one instruction.
uint64_t streamableBytes(const llvm::StoreInst& store) {
  if (!store.isSimple() || !llvm::isa<llvm::FixedVectorType>(store.getValueOperand()->getType())) return 0;
  const uint64_t bytes = store.getModule()->getDataLayout().getTypeStoreSize(store.getValueOperand()->getType()).getFixedSize();
  return bytes == 16 || bytes == 32 || bytes == 64 ? bytes : 0;
}

// Kernel buffers are the pointers the function loads from its argument buffer; local memory and
// private variables come from elsewhere and stay cached.
bool storesToKernelBuffer(const llvm::StoreInst& store) {
  auto* pointer = llvm::dyn_cast<llvm::LoadInst>(llvm::getUnderlyingObject(store.getPointerOperand(), 0));
  const llvm::Function* function = store.getFunction();
  return pointer && llvm::getUnderlyingObject(pointer->getPointerOperand(), 0) == function->getArg(kArgumentBuffer);
}

bool isStreamable(const llvm::Instruction& instruction) {
  auto* store = llvm::dyn_cast<llvm::StoreInst>(&instruction);
  return store && streamableBytes(*store) && storesToKernelBuffer(*store);
}

bool hasOrderedWrites(const llvm::Function& function);

// A call of a function the module defines that writes with plain stores only (the code of a
// kernel with reqd_work_group_size for groups of other sizes) needs no ordering.
bool callsOnlyPlainWriters(const llvm::Instruction& instruction) {
  auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction);
  const llvm::Function* callee = call ? call->getCalledFunction() : nullptr;
  return callee && !callee->isDeclaration() && callee != call->getFunction() && !hasOrderedWrites(*callee);
}

// Whatever writes memory other than plain stores: atomics, fences, calls of other code.
bool hasOrderedWrites(const llvm::Function& function) {
  for (const llvm::Instruction& instruction : llvm::instructions(function)) {
    if (!instruction.mayWriteToMemory()) continue;
    if (auto* store = llvm::dyn_cast<llvm::StoreInst>(&instruction); store && store->isSimple()) continue;
    if (callsOnlyPlainWriters(instruction)) continue;
    auto* intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction);
    if (intrinsic && intrinsic->isAssumeLikeIntrinsic()) continue;
    return true;
  }
  return false;
}

bool wantsStreamingVariant(const llvm::Function& function) {
  if (function.isDeclaration() || !isWorkGroupFunction(function)) return false;
  if (hasOrderedWrites(function)) return false;
  for (const llvm::Instruction& instruction : llvm::instructions(function))
    if (isStreamable(instruction)) return true;
  return false;
}

// `if (address % bytes == 0) store non-temporal; else store as before`: the branch goes the same
// way on every iteration of a loop whose start is aligned.
void streamWhereAligned(llvm::StoreInst& store) {
  const uint64_t bytes = streamableBytes(store);
  llvm::IRBuilder<> builder(&store);
  llvm::Value* address = builder.CreatePtrToInt(store.getPointerOperand(), builder.getInt64Ty());
  llvm::Value* aligned = builder.CreateICmpEQ(builder.CreateAnd(address, bytes - 1), builder.getInt64(0));
  llvm::Instruction* streaming = nullptr;
  llvm::Instruction* plain = nullptr;
  llvm::SplitBlockAndInsertIfThenElse(aligned, &store, &streaming, &plain);
  auto* streamingStore = llvm::cast<llvm::StoreInst>(store.clone());
  streamingStore->setAlignment(llvm::Align(bytes));
  llvm::LLVMContext& context = store.getContext();
  llvm::Metadata* one = llvm::ConstantAsMetadata::get(builder.getInt32(1));
  streamingStore->setMetadata(llvm::LLVMContext::MD_nontemporal, llvm::MDNode::get(context, one));
  streamingStore->insertBefore(streaming);
  store.moveBefore(plain);
}

void fenceBeforeReturns(llvm::Function& function) {
  llvm::Function* sfence = llvm::Intrinsic::getDeclaration(function.getParent(), llvm::Intrinsic::x86_sse_sfence);
  for (llvm::BasicBlock& block : function)
    if (llvm::isa<llvm::ReturnInst>(block.getTerminator())) llvm::CallInst::Create(sfence, {}, "", block.getTerminator());
}

void addStreamingVariant(llvm::Function& function) {
  llvm::ValueToValueMapTy mapping;
  llvm::Function* variant = llvm::CloneFunction(&function, mapping);
  variant->setName(streamingVariantName(function.getName().str()));
  std::vector<llvm::StoreInst*> stores;
  for (llvm::Instruction& instruction : llvm::instructions(*variant))
    if (isStreamable(instruction)) stores.push_back(llvm::cast<llvm::StoreInst>(&instruction));
  for (llvm::StoreInst* store : stores) streamWhereAligned(*store);
  fenceBeforeReturns(*variant);
}

}  // namespace

std::string streamingVariantName(const std::string& workGroupFunction) { return workGroupFunction + ".streaming"; }

void addStreamingVariants(llvm::Module& module) {
  std::vector<llvm::Function*> candidates;
  for (llvm::Function& function : module)
    if (wantsStreamingVariant(function)) candidates.push_back(&function);
  for (llvm::Function* function : candidates) addStreamingVariant(*function);
}

}  // namespace loom::compiler::cpu
