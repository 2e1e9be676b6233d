#include "memory_ordering.h"

#include <optional>
#include <string>

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

#include "atomic_ordering.h"

namespace loom::compiler::nvptx {

namespace {

constexpr unsigned kGenericSpace = 0;
constexpr unsigned kGlobalSpace = 1;

// How PTX names a value of this type in an atomic, and the register class inline assembly binds
// it to. `Bits` serves exch, and, or, xor and cas, `Signed` min and max.
enum class Kind { Unsigned, Signed, Bits, Float };
struct PtxValue {
  std::string suffix;
  const char* constraint;
};
std::optional<PtxValue> ptxValue(llvm::Type* type, Kind kind) {
  const unsigned bits = type->getPrimitiveSizeInBits();
  const bool floating = type->isFloatingPointTy();
  if ((bits != 32 && bits != 64) || (!floating && !type->isIntegerTy())) return std::nullopt;
  // Floats take float operations and bit moves; integers anything but float operations.
  if (floating ? kind != Kind::Float && kind != Kind::Bits : kind == Kind::Float) return std::nullopt;
  const char* constraint = floating ? (bits == 32 ? "f" : "d") : (bits == 32 ? "r" : "l");
  const char* prefix = kind == Kind::Unsigned ? "u" : kind == Kind::Signed ? "s" : kind == Kind::Bits ? "b" : "f";
  return PtxValue{std::string(".") + prefix + std::to_string(bits), constraint};
}

struct PtxOperation {
  const char* name;
  Kind kind;
};
std::optional<PtxOperation> ptxOperation(llvm::AtomicRMWInst::BinOp operation) {
  using Op = llvm::AtomicRMWInst;
  switch (operation) {
    case Op::Add:
    case Op::Sub: return PtxOperation{"add", Kind::Unsigned};  // sub adds the negated value
    case Op::FAdd: return PtxOperation{"add", Kind::Float};
    case Op::Xchg: return PtxOperation{"exch", Kind::Bits};
    case Op::And: return PtxOperation{"and", Kind::Bits};
    case Op::Or: return PtxOperation{"or", Kind::Bits};
    case Op::Xor: return PtxOperation{"xor", Kind::Bits};
    case Op::Max: return PtxOperation{"max", Kind::Signed};
    case Op::Min: return PtxOperation{"min", Kind::Signed};
    case Op::UMax: return PtxOperation{"max", Kind::Unsigned};
    case Op::UMin: return PtxOperation{"min", Kind::Unsigned};
    default: return std::nullopt;  // nand, fsub: the backend's own form
  }
}

std::optional<std::string> stateSpace(const llvm::Value* pointer) {
  const unsigned space = pointer->getType()->getPointerAddressSpace();
  if (space == kGlobalSpace) return std::string(".global");
  if (space == kGenericSpace) return std::string();
  return std::nullopt;  // shared memory is one block's: the backend's .gpu form is wide enough
}

// `atom<space>.sys.<operation><type> $0, [$1], $2[, $3];`, which returns the old value, or where
// nothing reads it `red<space>.sys.<operation><type> [$0], $1;`, which the memory system does
// without a round trip to the thread.
llvm::Value* systemAtomic(llvm::IRBuilder<>& builder, bool returnsOld, const std::string& space, const std::string& operation,
                          const PtxValue& value, llvm::Value* pointer, std::vector<llvm::Value*> operands) {
  std::string text = std::string(returnsOld ? "atom" : "red") + space + ".sys." + operation + value.suffix;
  std::string constraints = returnsOld ? std::string("=") + value.constraint + "," : std::string();
  const unsigned first = returnsOld ? 1 : 0;
  text += returnsOld ? " $0, [$1]" : " [$0]";
  constraints += "l";
  for (std::size_t i = 0; i < operands.size(); ++i) {
    text += ", $" + std::to_string(first + 1 + i);
    constraints += std::string(",") + value.constraint;
  }
  text += ";";
  constraints += ",~{memory}";
  std::vector<llvm::Type*> parameters{pointer->getType()};
  for (llvm::Value* operand : operands) parameters.push_back(operand->getType());
  llvm::Type* result = returnsOld ? operands.front()->getType() : builder.getVoidTy();
  auto* type = llvm::FunctionType::get(result, parameters, false);
  operands.insert(operands.begin(), pointer);
  return builder.CreateCall(llvm::InlineAsm::get(type, text, constraints, /*hasSideEffects=*/true), operands);
}

// A work-group's fence orders for the block (membar.cta), all SVM devices' for the host and every
// GPU (membar.sys); any other for the device: its GPU (membar.gl), or every GPU it spans.
llvm::Intrinsic::ID membarOf(const llvm::FenceInst& fence, bool spansGpus) {
  llvm::SmallVector<llvm::StringRef, 8> names;
  fence.getContext().getSyncScopeNames(names);
  const llvm::StringRef name = fence.getSyncScopeID() < names.size() ? names[fence.getSyncScopeID()] : "";
  if (name == kWorkGroupSyncScope) return llvm::Intrinsic::nvvm_membar_cta;
  if (name == kAllSvmDevicesSyncScope || spansGpus) return llvm::Intrinsic::nvvm_membar_sys;
  return llvm::Intrinsic::nvvm_membar_gl;
}

bool widen(llvm::AtomicRMWInst& atomic) {
  const auto space = stateSpace(atomic.getPointerOperand());
  const auto operation = ptxOperation(atomic.getOperation());
  if (!space || !operation) return false;
  const auto value = ptxValue(atomic.getType(), operation->kind);
  if (!value) return false;
  llvm::IRBuilder<> builder(&atomic);
  llvm::Value* operand = atomic.getValOperand();
  if (atomic.getOperation() == llvm::AtomicRMWInst::Sub) operand = builder.CreateNeg(operand);
  // PTX's red has no exchange.
  const bool returnsOld = !atomic.use_empty() || atomic.getOperation() == llvm::AtomicRMWInst::Xchg;
  llvm::Value* old = systemAtomic(builder, returnsOld, *space, operation->name, *value, atomic.getPointerOperand(), {operand});
  if (returnsOld) atomic.replaceAllUsesWith(old);
  return true;
}

bool widen(llvm::AtomicCmpXchgInst& exchange) {
  const auto space = stateSpace(exchange.getPointerOperand());
  const auto value = ptxValue(exchange.getCompareOperand()->getType(), Kind::Bits);
  if (!space || !value || !exchange.getCompareOperand()->getType()->isIntegerTy()) return false;
  llvm::IRBuilder<> builder(&exchange);
  llvm::Value* old = systemAtomic(builder, /*returnsOld=*/true, *space, "cas", *value, exchange.getPointerOperand(),
                                  {exchange.getCompareOperand(), exchange.getNewValOperand()});
  llvm::Value* result = builder.CreateInsertValue(llvm::UndefValue::get(exchange.getType()), old, 0);
  result = builder.CreateInsertValue(result, builder.CreateICmpEQ(old, exchange.getCompareOperand()), 1);
  exchange.replaceAllUsesWith(result);
  return true;
}

}  // namespace

void lowerFences(llvm::Module& module, bool spansGpus) {
  std::vector<llvm::FenceInst*> fences;
  for (llvm::Function& function : module)
    for (llvm::Instruction& instruction : llvm::instructions(function))
      if (auto* fence = llvm::dyn_cast<llvm::FenceInst>(&instruction)) fences.push_back(fence);
  for (llvm::FenceInst* fence : fences) {
    if (fence->getSyncScopeID() != llvm::SyncScope::SingleThread)
      llvm::IRBuilder<>(fence).CreateIntrinsic(membarOf(*fence, spansGpus), {}, {});
    fence->eraseFromParent();
  }
}

void widenAtomicsToSystemScope(llvm::Module& module) {
  std::vector<llvm::Instruction*> atomics;
  for (llvm::Function& function : module)
    for (llvm::Instruction& instruction : llvm::instructions(function))
      if (llvm::isa<llvm::AtomicRMWInst>(instruction) || llvm::isa<llvm::AtomicCmpXchgInst>(instruction))
        atomics.push_back(&instruction);
  for (llvm::Instruction* atomic : atomics) {
    const bool widened = llvm::isa<llvm::AtomicRMWInst>(atomic) ? widen(*llvm::cast<llvm::AtomicRMWInst>(atomic))
                                                                : widen(*llvm::cast<llvm::AtomicCmpXchgInst>(atomic));
    if (widened) atomic->eraseFromParent();
  }
}

}  // namespace loom::compiler::nvptx
