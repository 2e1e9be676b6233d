#include "rotates.h"

#include <vector>

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

namespace loom::compiler::nvptx {

namespace {

bool isWideRotate(const llvm::IntrinsicInst& call) {
  const llvm::Intrinsic::ID id = call.getIntrinsicID();
  return (id == llvm::Intrinsic::fshl || id == llvm::Intrinsic::fshr) && call.getArgOperand(0) == call.getArgOperand(1) &&
         call.getType()->getScalarType()->isIntegerTy(64);
}

// One element: `value` rotated left by `amount` modulo 64. Halves swap for 32 and more; each new
// half is then a 32-bit funnel shift of the two by the amount modulo 32.
llvm::Value* rotateLeft(llvm::IRBuilder<>& builder, llvm::Value* value, llvm::Value* amount) {
  llvm::Type* half = builder.getInt32Ty();
  llvm::Value* low = builder.CreateTrunc(value, half);
  llvm::Value* high = builder.CreateTrunc(builder.CreateLShr(value, 32), half);
  llvm::Value* swap = builder.CreateICmpNE(builder.CreateAnd(amount, 32), builder.getInt64(0));
  llvm::Value* first = builder.CreateSelect(swap, high, low);   // the half that ends up low, shifted
  llvm::Value* second = builder.CreateSelect(swap, low, high);  // the half that ends up high, shifted
  llvm::Value* within = builder.CreateTrunc(builder.CreateAnd(amount, 31), half);
  llvm::Value* newLow = builder.CreateIntrinsic(llvm::Intrinsic::fshl, {half}, {first, second, within});
  llvm::Value* newHigh = builder.CreateIntrinsic(llvm::Intrinsic::fshl, {half}, {second, first, within});
  llvm::Type* wide = builder.getInt64Ty();
  return builder.CreateOr(builder.CreateShl(builder.CreateZExt(newHigh, wide), 32), builder.CreateZExt(newLow, wide));
}

void lower(llvm::IntrinsicInst* call) {
  const bool left = call->getIntrinsicID() == llvm::Intrinsic::fshl;
  llvm::IRBuilder<> builder(call);
  llvm::Value* value = call->getArgOperand(0);
  llvm::Value* amount = call->getArgOperand(2);
  if (!left) amount = builder.CreateNeg(amount);  // right by n is left by 64 - n, modulo 64
  llvm::Value* result = nullptr;
  if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(call->getType())) {
    result = llvm::PoisonValue::get(vector);
    for (unsigned i = 0; i < vector->getNumElements(); ++i) {
      llvm::Value* element = rotateLeft(builder, builder.CreateExtractElement(value, i), builder.CreateExtractElement(amount, i));
      result = builder.CreateInsertElement(result, element, i);
    }
  } else {
    result = rotateLeft(builder, value, amount);
  }
  call->replaceAllUsesWith(result);
  call->eraseFromParent();
}

}  // namespace

void lowerWideRotates(llvm::Module& module) {
  std::vector<llvm::IntrinsicInst*> rotates;
  for (llvm::Function& function : module)
    for (llvm::BasicBlock& block : function)
      for (llvm::Instruction& instruction : block)
        if (auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction); call && isWideRotate(*call)) rotates.push_back(call);
  for (llvm::IntrinsicInst* call : rotates) lower(call);
}

}  // namespace loom::compiler::nvptx
