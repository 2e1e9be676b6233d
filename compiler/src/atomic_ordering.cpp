#include "atomic_ordering.h"

#include <optional>
#include <vector>

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "module_passes.h"

namespace loom::compiler {

namespace {

// SPIR-V's memory semantics bits that order (Acquire, Release, AcquireRelease, SequentiallyConsistent).
constexpr uint64_t kAcquire = 0x2, kRelease = 0x4, kAcquireRelease = 0x8, kSequentiallyConsistent = 0x10;
// SPIR-V's scopes, operand 1 of every atomic.
enum Scope : uint64_t { kCrossDevice = 0, kDevice = 1, kWorkgroup = 2, kSubgroup = 3, kInvocation = 4 };

enum class Access { Read, Write, ReadWrite };

struct AtomicShape {
  Access access;
  unsigned semanticsOperands;  // operands 2 .. 2 + n - 1 (two for compare-exchange)
};

// The atomic an Itanium name _Z<length>__spirv_Atomic<Operation>... calls.
std::optional<AtomicShape> shapeOf(const llvm::Function& function) {
  llvm::StringRef operation = mangledBaseName(function.getName());
  if (!function.isDeclaration() || !operation.consume_front("__spirv_Atomic")) return std::nullopt;
  return llvm::StringSwitch<std::optional<AtomicShape>>(operation)
      .Case("Load", AtomicShape{Access::Read, 1})
      .Cases("Store", "FlagClear", AtomicShape{Access::Write, 1})
      .Cases("CompareExchange", "CompareExchangeWeak", AtomicShape{Access::ReadWrite, 2})
      .Cases("Exchange", "IAdd", "ISub", "SMin", "UMin", "SMax", "UMax", AtomicShape{Access::ReadWrite, 1})
      .Cases("And", "Or", "Xor", "IIncrement", "IDecrement", "FlagTestAndSet", AtomicShape{Access::ReadWrite, 1})
      .Cases("FAddEXT", "FMinEXT", "FMaxEXT", AtomicShape{Access::ReadWrite, 1})
      .Default(std::nullopt);
}

// The ordering bits of the call's semantics; all of them where they are not a constant.
uint64_t orderingOf(const llvm::CallInst& call, const AtomicShape& shape) {
  uint64_t bits = 0;
  for (unsigned i = 0; i < shape.semanticsOperands; ++i) {
    const auto* semantics = llvm::dyn_cast<llvm::ConstantInt>(call.getArgOperand(2 + i));
    bits |= semantics ? semantics->getZExtValue() : kSequentiallyConsistent;
  }
  return bits & (kAcquire | kRelease | kAcquireRelease | kSequentiallyConsistent);
}

llvm::SyncScope::ID syncScopeOf(const llvm::CallInst& call) {
  const auto* scope = llvm::dyn_cast<llvm::ConstantInt>(call.getArgOperand(1));
  llvm::LLVMContext& context = call.getContext();
  switch (scope ? scope->getZExtValue() : kDevice) {
    case kWorkgroup:
    case kSubgroup: return context.getOrInsertSyncScopeID(kWorkGroupSyncScope);
    case kCrossDevice: return context.getOrInsertSyncScopeID(kAllSvmDevicesSyncScope);
    case kInvocation: return llvm::SyncScope::SingleThread;
    default: return llvm::SyncScope::System;
  }
}

void fence(llvm::CallInst& call, const AtomicShape& shape) {
  const uint64_t order = orderingOf(call, shape);
  const bool releases = order & (kRelease | kAcquireRelease | kSequentiallyConsistent);
  const bool acquires = order & (kAcquire | kAcquireRelease | kSequentiallyConsistent);
  llvm::LLVMContext& context = call.getContext();
  const llvm::SyncScope::ID scope = syncScopeOf(call);
  if (releases && shape.access != Access::Read) new llvm::FenceInst(context, llvm::AtomicOrdering::Release, scope, &call);
  if (acquires && shape.access != Access::Write)
    new llvm::FenceInst(context, llvm::AtomicOrdering::Acquire, scope, call.getNextNode());
}

}  // namespace

void fenceOrderedAtomics(llvm::Module& module) {
  for (llvm::Function& function : module) {
    const std::optional<AtomicShape> shape = shapeOf(function);
    if (!shape) continue;
    for (llvm::CallInst* call : callsOf(function)) fence(*call, *shape);
  }
}

}  // namespace loom::compiler
