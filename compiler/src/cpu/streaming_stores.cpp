#include "streaming_stores.h"

#include <optional>
#include <set>
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
// private variables come from elsewhere and stay cached. A buffer is known by the offset of its
// slot in the argument buffer (the optimizer may load one slot more than once).
std::optional<int64_t> bufferSlot(const llvm::Value* pointer, const llvm::Function& function) {
  auto* load = llvm::dyn_cast<llvm::LoadInst>(llvm::getUnderlyingObject(pointer, 0));
  if (!load) return std::nullopt;
  const llvm::DataLayout& layout = function.getParent()->getDataLayout();
  llvm::APInt offset(layout.getIndexTypeSizeInBits(load->getPointerOperandType()), 0);
  if (load->getPointerOperand()->stripAndAccumulateConstantOffsets(layout, offset, true) != function.getArg(kArgumentBuffer))
    return std::nullopt;
  return offset.getSExtValue();
}

// The slots of the buffers the function reads.
std::set<int64_t> slotsRead(const llvm::Function& function) {
  std::set<int64_t> slots;
  for (const llvm::Instruction& instruction : llvm::instructions(function))
    if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&instruction))
      if (auto slot = bufferSlot(load->getPointerOperand(), function)) slots.insert(*slot);
  return slots;
}

// A store to a buffer the kernel also reads (y of an AXPY) finds its line in the cache already:
// streaming it would only evict the line, and such kernels run several times slower that way.
bool isStreamable(const llvm::Instruction& instruction, const std::set<int64_t>& buffersRead) {
  auto* store = llvm::dyn_cast<llvm::StoreInst>(&instruction);
  if (!store || !streamableBytes(*store)) return false;
  const std::optional<int64_t> slot = bufferSlot(store->getPointerOperand(), *store->getFunction());
  return slot && !buffersRead.count(*slot);
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
  const std::set<int64_t> buffersRead = slotsRead(function);
  for (const llvm::Instruction& instruction : llvm::instructions(function))
    if (isStreamable(instruction, buffersRead)) return true;
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
  const std::set<int64_t> buffersRead = slotsRead(*variant);
  std::vector<llvm::StoreInst*> stores;
  for (llvm::Instruction& instruction : llvm::instructions(*variant))
    if (isStreamable(instruction, buffersRead)) stores.push_back(llvm::cast<llvm::StoreInst>(&instruction));
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
