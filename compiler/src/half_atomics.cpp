#include "half_atomics.h"

#include <functional>
#include <optional>
#include <vector>

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "module_passes.h"

namespace loom::compiler {

namespace {

enum class HalfAtomic { Load, Store, Exchange, Add, Sub, Min, Max };

// The operation a declaration of clang's opencl-c.h performs on an atomic_half, by its Itanium
// name (_Z<length><name>...) and a first parameter that points at a half.
std::optional<HalfAtomic> halfAtomicOf(const llvm::Function& function) {
  if (!function.isDeclaration() || function.arg_size() == 0) return std::nullopt;
  auto* pointer = llvm::dyn_cast<llvm::PointerType>(function.getArg(0)->getType());
  if (!pointer || pointer->isOpaque() || !pointer->getNonOpaquePointerElementType()->isHalfTy()) return std::nullopt;
  llvm::StringRef base = mangledBaseName(function.getName());
  base.consume_back("_explicit");
  return llvm::StringSwitch<std::optional<HalfAtomic>>(base)
      .Case("atomic_load", HalfAtomic::Load)
      .Case("atomic_store", HalfAtomic::Store)
      .Case("atomic_exchange", HalfAtomic::Exchange)
      .Case("atomic_fetch_add", HalfAtomic::Add)
      .Case("atomic_fetch_sub", HalfAtomic::Sub)
      .Case("atomic_fetch_min", HalfAtomic::Min)
      .Case("atomic_fetch_max", HalfAtomic::Max)
      .Default(std::nullopt);
}

// Where a half lives inside its aligned 32-bit word: the word, and the half's first bit in it
// (both targets are little-endian). A half is 2-byte aligned, so its offset in the word is 0 or 2.
struct HalfInWord {
  llvm::Value* word;
  llvm::Value* shift;
};

HalfInWord locate(llvm::IRBuilder<>& builder, llvm::Value* half) {
  const unsigned space = half->getType()->getPointerAddressSpace();
  llvm::Value* offset = builder.CreateAnd(builder.CreatePtrToInt(half, builder.getInt64Ty()), 3);
  llvm::Value* bytes = builder.CreateBitCast(half, builder.getInt8PtrTy(space));
  llvm::Value* wordBytes = builder.CreateGEP(builder.getInt8Ty(), bytes, builder.CreateNeg(offset));
  llvm::Value* word = builder.CreateBitCast(wordBytes, builder.getInt32Ty()->getPointerTo(space));
  return {word, builder.CreateShl(builder.CreateTrunc(offset, builder.getInt32Ty()), 3)};
}

llvm::Value* halfOf(llvm::IRBuilder<>& builder, llvm::Value* word, llvm::Value* shift) {
  llvm::Value* bits = builder.CreateTrunc(builder.CreateLShr(word, shift), builder.getInt16Ty());
  return builder.CreateBitCast(bits, builder.getHalfTy());
}

llvm::Value* withHalf(llvm::IRBuilder<>& builder, llvm::Value* word, llvm::Value* shift, llvm::Value* half) {
  llvm::Value* mask = builder.CreateShl(builder.getInt32(0xffff), shift);
  llvm::Value* bits = builder.CreateZExt(builder.CreateBitCast(half, builder.getInt16Ty()), builder.getInt32Ty());
  return builder.CreateOr(builder.CreateAnd(word, builder.CreateNot(mask)), builder.CreateShl(bits, shift));
}

// The new value of an update from the old one and the operand; min and max follow fmin and fmax,
// as cl_ext_float_atomics asks (a NaN operand loses).
llvm::Value* updated(llvm::IRBuilder<>& builder, HalfAtomic operation, llvm::Value* old, llvm::Value* operand) {
  switch (operation) {
    case HalfAtomic::Add: return builder.CreateFAdd(old, operand);
    case HalfAtomic::Sub: return builder.CreateFSub(old, operand);
    case HalfAtomic::Min:
    case HalfAtomic::Max: {
      llvm::Value* beats = operation == HalfAtomic::Min ? builder.CreateFCmpOLT(operand, old) : builder.CreateFCmpOGT(operand, old);
      llvm::Value* oldIsNan = builder.CreateFCmpUNO(old, old);
      return builder.CreateSelect(builder.CreateOr(beats, oldIsNan), operand, old);
    }
    default: return operand;  // store and exchange
  }
}

// Replaces the half of `slot` by what `update` makes of the old one, with a compare-and-swap loop
// on the word that begins where `call` was; returns the old half.
llvm::Value* compareAndSwap(llvm::CallInst* call, HalfInWord slot,
                            const std::function<llvm::Value*(llvm::IRBuilder<>&, llvm::Value*)>& update) {
  llvm::BasicBlock* before = call->getParent();
  llvm::BasicBlock* after = before->splitBasicBlock(call, "half.atomic.done");
  llvm::BasicBlock* retry = llvm::BasicBlock::Create(call->getContext(), "half.atomic.retry", before->getParent(), after);
  before->getTerminator()->eraseFromParent();
  llvm::IRBuilder<> builder(before);
  llvm::LoadInst* first = builder.CreateAlignedLoad(builder.getInt32Ty(), slot.word, llvm::Align(4));
  first->setAtomic(llvm::AtomicOrdering::Monotonic);
  builder.CreateBr(retry);
  builder.SetInsertPoint(retry);
  llvm::PHINode* expected = builder.CreatePHI(builder.getInt32Ty(), 2);
  expected->addIncoming(first, before);
  llvm::Value* old = halfOf(builder, expected, slot.shift);
  llvm::Value* desired = withHalf(builder, expected, slot.shift, update(builder, old));
  llvm::AtomicCmpXchgInst* exchange =
      builder.CreateAtomicCmpXchg(slot.word, expected, desired, llvm::MaybeAlign(4), llvm::AtomicOrdering::SequentiallyConsistent,
                                  llvm::AtomicOrdering::SequentiallyConsistent);
  expected->addIncoming(builder.CreateExtractValue(exchange, 0), retry);
  builder.CreateCondBr(builder.CreateExtractValue(exchange, 1), after, retry);
  return old;
}

void lower(llvm::CallInst* call, HalfAtomic operation) {
  llvm::IRBuilder<> builder(call);
  const HalfInWord slot = locate(builder, call->getArgOperand(0));
  llvm::Value* result = nullptr;
  if (operation == HalfAtomic::Load) {
    llvm::LoadInst* word = builder.CreateAlignedLoad(builder.getInt32Ty(), slot.word, llvm::Align(4));
    word->setAtomic(llvm::AtomicOrdering::SequentiallyConsistent);
    result = halfOf(builder, word, slot.shift);
  } else {
    llvm::Value* operand = call->getArgOperand(1);
    result = compareAndSwap(call, slot, [&](llvm::IRBuilder<>& at, llvm::Value* old) { return updated(at, operation, old, operand); });
  }
  if (!call->getType()->isVoidTy()) call->replaceAllUsesWith(result);
  call->eraseFromParent();
}

}  // namespace

void lowerHalfAtomics(llvm::Module& module) {
  std::vector<std::pair<llvm::Function*, HalfAtomic>> declarations;
  for (llvm::Function& function : module)
    if (const auto operation = halfAtomicOf(function)) declarations.emplace_back(&function, *operation);
  for (const auto& [function, operation] : declarations) {
    for (llvm::CallInst* call : callsOf(*function)) lower(call, operation);
    if (function->use_empty()) function->eraseFromParent();
  }
}

}  // namespace loom::compiler
