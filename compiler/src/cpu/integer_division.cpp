#include "integer_division.h"

#include <vector>

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

namespace loom::compiler::cpu {

namespace {

bool isDivision(const llvm::Instruction& instruction) {
  switch (instruction.getOpcode()) {
    case llvm::Instruction::UDiv:
    case llvm::Instruction::SDiv:
    case llvm::Instruction::URem:
    case llvm::Instruction::SRem: return true;
    default: return false;
  }
}

// The divisor, or 1 where dividing by it would trap.
void guard(llvm::BinaryOperator& division) {
  llvm::IRBuilder<> builder(&division);
  llvm::Value* dividend = division.getOperand(0);
  llvm::Value* divisor = division.getOperand(1);
  llvm::Type* type = divisor->getType();
  llvm::Value* traps = builder.CreateICmpEQ(divisor, llvm::Constant::getNullValue(type));
  if (division.getOpcode() == llvm::Instruction::SDiv || division.getOpcode() == llvm::Instruction::SRem) {
    const unsigned bits = type->getScalarSizeInBits();
    llvm::Value* overflows = builder.CreateAnd(
        builder.CreateICmpEQ(dividend, llvm::ConstantInt::get(type, llvm::APInt::getSignedMinValue(bits))),
        builder.CreateICmpEQ(divisor, llvm::Constant::getAllOnesValue(type)));
    traps = builder.CreateOr(traps, overflows);
  }
  division.setOperand(1, builder.CreateSelect(traps, llvm::ConstantInt::get(type, 1), divisor));
}

}  // namespace

void guardIntegerDivision(llvm::Module& module) {
  std::vector<llvm::BinaryOperator*> divisions;
  for (llvm::Function& function : module)
    for (llvm::Instruction& instruction : llvm::instructions(function))
      if (isDivision(instruction)) divisions.push_back(llvm::cast<llvm::BinaryOperator>(&instruction));
  for (llvm::BinaryOperator* division : divisions) guard(*division);
}

}  // namespace loom::compiler::cpu
