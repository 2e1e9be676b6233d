#include "half_atomics.h"

#include <algorithm>
#include <functional>
#include <string>
#include <optional>
#include <vector>

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "module_passes.h"
#include "spirv_words.h"

namespace loom::compiler {

namespace {

enum class HalfAtomic { Load, Store, Exchange, Add, Sub, Min, Max };

// An operation and where its operand is among the call's arguments: OpenCL C's functions take it
// after the pointer, the translator's __spirv_ ones after the pointer, the scope and the semantics.
struct HalfAtomicCall {
  HalfAtomic operation;
  unsigned operand;
};
struct HalfAtomicNamed {
  const char* name;
  HalfAtomicCall call;
};

// The functions on halves that become word atomics: clang's opencl-c.h functions on an atomic_half
// (also as _explicit), and the translator's SPIR-V friendly ones.
constexpr HalfAtomicNamed kHalfAtomics[] = {
    {"atomic_load", {HalfAtomic::Load, 0}},          {"atomic_store", {HalfAtomic::Store, 1}},
    {"atomic_exchange", {HalfAtomic::Exchange, 1}},  {"atomic_fetch_add", {HalfAtomic::Add, 1}},
    {"atomic_fetch_sub", {HalfAtomic::Sub, 1}},      {"atomic_fetch_min", {HalfAtomic::Min, 1}},
    {"atomic_fetch_max", {HalfAtomic::Max, 1}},      {"__spirv_AtomicLoad", {HalfAtomic::Load, 0}},
    {"__spirv_AtomicStore", {HalfAtomic::Store, 3}}, {"__spirv_AtomicExchange", {HalfAtomic::Exchange, 3}},
    {"__spirv_AtomicFAddEXT", {HalfAtomic::Add, 3}}, {"__spirv_AtomicFMinEXT", {HalfAtomic::Min, 3}},
    {"__spirv_AtomicFMaxEXT", {HalfAtomic::Max, 3}},
};

// The operation a declaration performs on a half, by its Itanium name (_Z<length><name>...) and a
// first parameter that points at a half.
std::optional<HalfAtomicCall> halfAtomicOf(const llvm::Function& function) {
  if (!function.isDeclaration() || function.arg_size() == 0) return std::nullopt;
  auto* pointer = llvm::dyn_cast<llvm::PointerType>(function.getArg(0)->getType());
  if (!pointer || pointer->isOpaque() || !pointer->getNonOpaquePointerElementType()->isHalfTy()) return std::nullopt;
  llvm::StringRef base = mangledBaseName(function.getName());
  base.consume_back("_explicit");
  for (const HalfAtomicNamed& named : kHalfAtomics)
    if (base == named.name) return named.call;
  return std::nullopt;
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
// on the word that begins where `call` was; returns the old half. The loop starts from a guess of
// 0 rather than an atomic load, which LLVM 15's NVPTX backend cannot select: a wrong guess fails
// the first compare-and-swap, which returns the word as it is.
llvm::Value* compareAndSwap(llvm::CallInst* call, HalfInWord slot,
                            const std::function<llvm::Value*(llvm::IRBuilder<>&, llvm::Value*)>& update) {
  llvm::BasicBlock* before = call->getParent();
  llvm::BasicBlock* after = before->splitBasicBlock(call, "half.atomic.done");
  llvm::BasicBlock* retry = llvm::BasicBlock::Create(call->getContext(), "half.atomic.retry", before->getParent(), after);
  before->getTerminator()->eraseFromParent();
  llvm::IRBuilder<> builder(before);
  builder.CreateBr(retry);
  builder.SetInsertPoint(retry);
  llvm::PHINode* expected = builder.CreatePHI(builder.getInt32Ty(), 2);
  expected->addIncoming(builder.getInt32(0), before);
  llvm::Value* old = halfOf(builder, expected, slot.shift);
  llvm::Value* desired = withHalf(builder, expected, slot.shift, update(builder, old));
  llvm::AtomicCmpXchgInst* exchange =
      builder.CreateAtomicCmpXchg(slot.word, expected, desired, llvm::MaybeAlign(4), llvm::AtomicOrdering::SequentiallyConsistent,
                                  llvm::AtomicOrdering::SequentiallyConsistent);
  expected->addIncoming(builder.CreateExtractValue(exchange, 0), retry);
  builder.CreateCondBr(builder.CreateExtractValue(exchange, 1), after, retry);
  return old;
}

void lower(llvm::CallInst* call, HalfAtomicCall atomic) {
  const HalfAtomic operation = atomic.operation;
  llvm::IRBuilder<> builder(call);
  const HalfInWord slot = locate(builder, call->getArgOperand(0));
  llvm::Value* result = nullptr;
  if (operation == HalfAtomic::Load) {
    // An atomic add of 0, as the translator lowers atomic loads: both backends select it.
    llvm::Value* word = builder.CreateAtomicRMW(llvm::AtomicRMWInst::Add, slot.word, builder.getInt32(0), llvm::MaybeAlign(4),
                                                llvm::AtomicOrdering::SequentiallyConsistent);
    result = halfOf(builder, word, slot.shift);
  } else {
    llvm::Value* operand = call->getArgOperand(atomic.operand);
    result = compareAndSwap(call, slot, [&](llvm::IRBuilder<>& at, llvm::Value* old) { return updated(at, operation, old, operand); });
  }
  if (!call->getType()->isVoidTy()) call->replaceAllUsesWith(result);
  call->eraseFromParent();
}

}  // namespace

void lowerHalfAtomics(llvm::Module& module) {
  std::vector<std::pair<llvm::Function*, HalfAtomicCall>> declarations;
  for (llvm::Function& function : module)
    if (const auto atomic = halfAtomicOf(function)) declarations.emplace_back(&function, *atomic);
  for (const auto& [function, atomic] : declarations) {
    for (llvm::CallInst* call : callsOf(*function)) lower(call, atomic);
    if (function->use_empty()) function->eraseFromParent();
  }
}

void declareHalfAtomicAddsAsFloatAdds(std::vector<uint32_t>& words) {
  constexpr uint32_t kAtomicFloat16AddEXT = 6095, kAtomicFloat32AddEXT = 6033;
  const std::string halfExtension = "SPV_EXT_shader_atomic_float16_add", floatExtension = "SPV_EXT_shader_atomic_float_add";
  const std::vector<uint32_t> halfLiteral = spirv::literalWords(halfExtension), floatLiteral = spirv::literalWords(floatExtension);
  if (words.size() < spirv::kHeaderWords) return;
  std::vector<uint32_t> result(words.begin(), words.begin() + spirv::kHeaderWords);
  bool declared = false;
  for (size_t at : spirv::instructionOffsets(words)) {
    const uint32_t opcode = words[at] & 0xffff, count = words[at] >> 16;
    const auto operands = words.begin() + static_cast<ptrdiff_t>(at + 1), end = operands + (count - 1);
    if (opcode == spirv::OpCapability && count == 2 && words[at + 1] == kAtomicFloat16AddEXT) {
      result.insert(result.end(), {words[at], kAtomicFloat32AddEXT});
      declared = true;
    } else if (opcode == spirv::OpExtension && std::equal(operands, end, halfLiteral.begin(), halfLiteral.end())) {
      result.push_back(static_cast<uint32_t>(floatLiteral.size() + 1) << 16 | spirv::OpExtension);
      result.insert(result.end(), floatLiteral.begin(), floatLiteral.end());
    } else {
      result.insert(result.end(), words.begin() + static_cast<ptrdiff_t>(at), end);
    }
  }
  if (declared) words = std::move(result);
}

}  // namespace loom::compiler
