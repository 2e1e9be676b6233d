#include "pointer_spaces.h"

#include <vector>

#include "builtin_library.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/ReplaceConstant.h"

namespace loom::compiler::nvptx {

namespace {

llvm::Value* answer(llvm::IRBuilder<>& builder, PointerSpace space) { return builder.getInt32(static_cast<uint32_t>(space)); }

// Global, shared, local and const windows asked in this order; an address in none of them is
// taken for global memory.
llvm::Value* pointerSpace(llvm::IRBuilder<>& builder, llvm::Value* pointer) {
  llvm::Value* generic = builder.CreatePointerCast(pointer, builder.getInt8PtrTy());
  auto in = [&](llvm::Intrinsic::ID window) { return builder.CreateIntrinsic(window, {}, {generic}); };
  llvm::Value* space = builder.CreateSelect(in(llvm::Intrinsic::nvvm_isspacep_const), answer(builder, PointerSpace::Constant),
                                            answer(builder, PointerSpace::Global));
  space = builder.CreateSelect(in(llvm::Intrinsic::nvvm_isspacep_local), answer(builder, PointerSpace::Private), space);
  space = builder.CreateSelect(in(llvm::Intrinsic::nvvm_isspacep_shared), answer(builder, PointerSpace::Local), space);
  return builder.CreateSelect(in(llvm::Intrinsic::nvvm_isspacep_global), answer(builder, PointerSpace::Global), space);
}

enum NvptxSpace : unsigned { Generic = 0, Global = 1, Shared = 3, Const = 4, Local = 5 };

// The intrinsic that converts a generic pointer into `space`; not_intrinsic for a space without one.
llvm::Intrinsic::ID conversionFromGeneric(unsigned space) {
  switch (space) {
    case Global: return llvm::Intrinsic::nvvm_ptr_gen_to_global;
    case Shared: return llvm::Intrinsic::nvvm_ptr_gen_to_shared;
    case Const: return llvm::Intrinsic::nvvm_ptr_gen_to_constant;
    case Local: return llvm::Intrinsic::nvvm_ptr_gen_to_local;
    default: return llvm::Intrinsic::not_intrinsic;
  }
}

bool isNamedSpace(unsigned space) { return conversionFromGeneric(space) != llvm::Intrinsic::not_intrinsic; }

bool castsBetweenNamedSpaces(const llvm::Operator* cast) {
  if (!cast || cast->getOpcode() != llvm::Instruction::AddrSpaceCast) return false;
  const unsigned from = cast->getOperand(0)->getType()->getPointerAddressSpace();
  const unsigned to = cast->getType()->getPointerAddressSpace();
  return from != to && isNamedSpace(from) && isNamedSpace(to);
}

// The casts that `wanted` accepts inside the constant expressions `value` is or holds.
void collectConstantCasts(llvm::Value* value, llvm::function_ref<bool(llvm::ConstantExpr*)> wanted,
                          std::vector<llvm::ConstantExpr*>& casts) {
  auto* expression = llvm::dyn_cast<llvm::ConstantExpr>(value);
  if (!expression) return;
  if (wanted(expression)) casts.push_back(expression);
  for (llvm::Value* operand : expression->operands()) collectConstantCasts(operand, wanted, casts);
}

// Instructions in place of the constant expressions that hold casts between named spaces, so that
// the casts become instructions too.
void expandConstantCasts(llvm::Function& function) {
  std::vector<std::pair<llvm::Instruction*, llvm::ConstantExpr*>> found;
  for (llvm::Instruction& instruction : llvm::instructions(function)) {
    std::vector<llvm::ConstantExpr*> casts;
    for (llvm::Value* operand : instruction.operands())
      collectConstantCasts(
          operand, [](llvm::ConstantExpr* cast) { return castsBetweenNamedSpaces(llvm::cast<llvm::Operator>(cast)); }, casts);
    for (llvm::ConstantExpr* cast : casts) found.emplace_back(&instruction, cast);
  }
  for (auto [instruction, cast] : found) llvm::convertConstantExprsToInstructions(instruction, cast);
}

void routeThroughGeneric(llvm::AddrSpaceCastInst* cast) {
  llvm::IRBuilder<> builder(cast);
  llvm::Type* source = cast->getSrcTy();
  llvm::Type* generic = llvm::PointerType::getWithSamePointeeType(llvm::cast<llvm::PointerType>(source), Generic);
  llvm::Value* widened = builder.CreateAddrSpaceCast(cast->getPointerOperand(), generic);
  llvm::Value* converted = builder.CreateIntrinsic(conversionFromGeneric(cast->getDestAddressSpace()), {cast->getDestTy(), generic}, {widened});
  cast->replaceAllUsesWith(converted);
  cast->eraseFromParent();
}

// A cast between generic and a named space, or between two named ones: a cvta (or two) on NVPTX.
bool convertsSpaces(const llvm::Operator* cast) {
  if (!cast || cast->getOpcode() != llvm::Instruction::AddrSpaceCast) return false;
  const unsigned from = cast->getOperand(0)->getType()->getPointerAddressSpace();
  const unsigned to = cast->getType()->getPointerAddressSpace();
  auto genericOrNamed = [](unsigned space) { return space == Generic || isNamedSpace(space); };
  return from != to && genericOrNamed(from) && genericOrNamed(to);
}

// Constant casts of null become the null of their space; constant users fold (a comparison of
// two nulls becomes true).
void foldNullCasts(llvm::Function& function) {
  auto castsNull = [](llvm::ConstantExpr* cast) {
    return convertsSpaces(llvm::cast<llvm::Operator>(cast)) && cast->getOperand(0)->isNullValue();
  };
  std::vector<llvm::ConstantExpr*> casts;
  for (llvm::Instruction& instruction : llvm::instructions(function))
    for (llvm::Value* operand : instruction.operands()) collectConstantCasts(operand, castsNull, casts);
  for (llvm::ConstantExpr* cast : casts)  // a cast found twice has no uses left the second time
    cast->replaceAllUsesWith(llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(cast->getType())));
}

// `cast` of a pointer that may be null: null stays null, anything else converts as before.
void preserveNull(llvm::AddrSpaceCastInst* cast) {
  llvm::Value* pointer = cast->getPointerOperand();
  auto* null = llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(cast->getType()));
  if (llvm::isa<llvm::ConstantPointerNull>(pointer)) {
    cast->replaceAllUsesWith(null);
    cast->eraseFromParent();
    return;
  }
  llvm::IRBuilder<> builder(cast->getNextNode());
  llvm::Value* isNull = builder.CreateIsNull(pointer);
  llvm::Value* converted = builder.CreateSelect(isNull, null, llvm::PoisonValue::get(cast->getType()));
  cast->replaceAllUsesWith(converted);
  llvm::cast<llvm::SelectInst>(converted)->setOperand(2, cast);
}

}  // namespace

void preserveNullInCasts(llvm::Module& module) {
  for (llvm::Function& function : module) {
    if (function.isDeclaration()) continue;
    foldNullCasts(function);
    const llvm::DataLayout& layout = module.getDataLayout();
    std::vector<llvm::AddrSpaceCastInst*> casts;
    for (llvm::Instruction& instruction : llvm::instructions(function))
      if (auto* cast = llvm::dyn_cast<llvm::AddrSpaceCastInst>(&instruction);
          cast && convertsSpaces(llvm::cast<llvm::Operator>(cast)) && !llvm::isKnownNonZero(cast->getPointerOperand(), layout))
        casts.push_back(cast);
    for (llvm::AddrSpaceCastInst* cast : casts) preserveNull(cast);
  }
}

void routeCastsThroughGeneric(llvm::Module& module) {
  for (llvm::Function& function : module) {
    if (function.isDeclaration()) continue;
    expandConstantCasts(function);
    std::vector<llvm::AddrSpaceCastInst*> casts;
    for (llvm::Instruction& instruction : llvm::instructions(function))
      if (auto* cast = llvm::dyn_cast<llvm::AddrSpaceCastInst>(&instruction); cast && castsBetweenNamedSpaces(llvm::cast<llvm::Operator>(cast)))
        casts.push_back(cast);
    for (llvm::AddrSpaceCastInst* cast : casts) routeThroughGeneric(cast);
  }
}

void lowerPointerSpaces(llvm::Module& module) {
  llvm::Function* builtin = module.getFunction(kPointerSpaceFunction);
  if (!builtin) return;
  std::vector<llvm::CallInst*> calls;
  for (llvm::User* user : builtin->users())
    if (auto* call = llvm::dyn_cast<llvm::CallInst>(user)) calls.push_back(call);
  for (llvm::CallInst* call : calls) {
    llvm::IRBuilder<> builder(call);
    call->replaceAllUsesWith(builder.CreateZExtOrTrunc(pointerSpace(builder, call->getArgOperand(0)), call->getType()));
    call->eraseFromParent();
  }
  if (builtin->use_empty()) builtin->eraseFromParent();
}

}  // namespace loom::compiler::nvptx
