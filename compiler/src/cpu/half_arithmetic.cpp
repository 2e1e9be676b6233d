#include "half_arithmetic.h"

#include <vector>

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

namespace loom::compiler::cpu {

namespace {

bool isHalf(const llvm::Type* type) { return type->getScalarType()->isHalfTy(); }

// The float type of a half type's shape (scalar or vector).
llvm::Type* floatOf(llvm::Type* type) {
  llvm::Type* single = llvm::Type::getFloatTy(type->getContext());
  if (auto* vector = llvm::dyn_cast<llvm::VectorType>(type)) return llvm::VectorType::get(single, vector->getElementCount());
  return single;
}

llvm::Value* widen(llvm::IRBuilder<>& builder, llvm::Value* value) {
  return isHalf(value->getType()) ? builder.CreateFPExt(value, floatOf(value->getType())) : value;
}

llvm::Value* narrow(llvm::IRBuilder<>& builder, llvm::Value* value, llvm::Type* halfType) {
  return builder.CreateFPTrunc(value, halfType);
}

// Intrinsics whose float result, rounded to half, is the half result.
bool promotable(llvm::Intrinsic::ID intrinsic) {
  switch (intrinsic) {
    case llvm::Intrinsic::minnum:
    case llvm::Intrinsic::maxnum:
    case llvm::Intrinsic::minimum:
    case llvm::Intrinsic::maximum:
    case llvm::Intrinsic::fabs:
    case llvm::Intrinsic::copysign:
    case llvm::Intrinsic::floor:
    case llvm::Intrinsic::ceil:
    case llvm::Intrinsic::trunc:
    case llvm::Intrinsic::rint:
    case llvm::Intrinsic::nearbyint:
    case llvm::Intrinsic::round:
    case llvm::Intrinsic::roundeven:
    case llvm::Intrinsic::sqrt: return true;
    default: return false;
  }
}

bool operatesOnHalf(const llvm::Instruction& instruction) {
  if (auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction))
    return isHalf(call->getType()) &&
           (promotable(call->getIntrinsicID()) || call->getIntrinsicID() == llvm::Intrinsic::fmuladd);
  switch (instruction.getOpcode()) {
    case llvm::Instruction::FAdd:
    case llvm::Instruction::FSub:
    case llvm::Instruction::FMul:
    case llvm::Instruction::FDiv:
    case llvm::Instruction::FRem:
    case llvm::Instruction::FNeg:
    case llvm::Instruction::SIToFP:
    case llvm::Instruction::UIToFP: return isHalf(instruction.getType());
    case llvm::Instruction::FCmp:
    case llvm::Instruction::FPToSI:
    case llvm::Instruction::FPToUI: return isHalf(instruction.getOperand(0)->getType());
    default: return false;
  }
}

// The instruction in float: operands widened, the result (where it is half) rounded back.
llvm::Value* inFloat(llvm::Instruction& instruction) {
  llvm::IRBuilder<> builder(&instruction);
  if (auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction)) {
    if (llvm::isa<llvm::FPMathOperator>(call)) builder.setFastMathFlags(call->getFastMathFlags());
    std::vector<llvm::Value*> arguments;
    for (llvm::Value* argument : call->args()) arguments.push_back(widen(builder, argument));
    llvm::Type* halfType = call->getType();
    if (call->getIntrinsicID() == llvm::Intrinsic::fmuladd) {
      llvm::Value* product = narrow(builder, builder.CreateFMul(arguments[0], arguments[1]), halfType);
      return narrow(builder, builder.CreateFAdd(widen(builder, product), arguments[2]), halfType);
    }
    return narrow(builder, builder.CreateIntrinsic(call->getIntrinsicID(), {floatOf(halfType)}, arguments), halfType);
  }
  if (llvm::isa<llvm::CastInst>(instruction)) {
    llvm::Value* source = widen(builder, instruction.getOperand(0));
    llvm::Type* type = instruction.getType();
    const auto opcode = static_cast<llvm::Instruction::CastOps>(instruction.getOpcode());
    if (!isHalf(type)) return builder.CreateCast(opcode, source, type);
    // An integer from 65520 on is infinity in half; below that it is exact in float.
    return narrow(builder, builder.CreateCast(opcode, source, floatOf(type)), type);
  }
  llvm::Instruction* wide = instruction.clone();
  for (unsigned i = 0; i < wide->getNumOperands(); ++i) wide->setOperand(i, widen(builder, wide->getOperand(i)));
  builder.Insert(wide);
  if (!isHalf(instruction.getType())) return wide;
  wide->mutateType(floatOf(instruction.getType()));
  return narrow(builder, wide, instruction.getType());
}

}  // namespace

void computeHalfInFloat(llvm::Module& module) {
  std::vector<llvm::Instruction*> halves;
  for (llvm::Function& function : module)
    for (llvm::Instruction& instruction : llvm::instructions(function))
      if (operatesOnHalf(instruction)) halves.push_back(&instruction);
  for (llvm::Instruction* instruction : halves) {
    llvm::Value* replacement = inFloat(*instruction);
    if (llvm::isa<llvm::Instruction>(replacement)) replacement->takeName(instruction);  // constants folded have no name
    instruction->replaceAllUsesWith(replacement);
    instruction->eraseFromParent();
  }
}

}  // namespace loom::compiler::cpu
