#include "local_memory_lowering.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"

namespace loom::compiler::cpu {

namespace {

constexpr unsigned kLocalAddressSpace = 3;

bool references(llvm::Constant* expression, llvm::Constant* target) {
  if (expression == target) return true;
  for (llvm::Value* operand : expression->operands())
    if (auto* constant = llvm::dyn_cast<llvm::Constant>(operand); constant && references(constant, target)) return true;
  return false;
}

// Replaces operand `index` of `user` (a constant expression over `target`) by an instruction.
void expandOperand(llvm::Instruction* user, unsigned index, llvm::Constant* target) {
  auto* expression = llvm::dyn_cast<llvm::ConstantExpr>(user->getOperand(index));
  if (!expression || !references(expression, target)) return;
  llvm::Instruction* insertBefore = user;
  if (auto* phi = llvm::dyn_cast<llvm::PHINode>(user)) insertBefore = phi->getIncomingBlock(index)->getTerminator();
  llvm::Instruction* materialized = expression->getAsInstruction(insertBefore);
  user->setOperand(index, materialized);
  for (unsigned operand = 0; operand < materialized->getNumOperands(); ++operand) expandOperand(materialized, operand, target);
}

// Whether an instruction of `function` uses `value`, directly or through constant expressions
// (the inliner folds the library's address computations into them).
bool usedIn(const llvm::Value* value, const llvm::Function& function) {
  for (const llvm::User* user : value->users()) {
    if (auto* instruction = llvm::dyn_cast<llvm::Instruction>(user); instruction && instruction->getFunction() == &function)
      return true;
    if (llvm::isa<llvm::ConstantExpr>(user) && usedIn(user, function)) return true;
  }
  return false;
}

llvm::SetVector<llvm::GlobalVariable*> localVariablesUsedBy(llvm::Function& function) {
  llvm::SetVector<llvm::GlobalVariable*> used;
  for (llvm::GlobalVariable& global : function.getParent()->globals())
    if (global.getAddressSpace() == kLocalAddressSpace && usedIn(&global, function)) used.insert(&global);
  return used;
}

}  // namespace

void expandConstantExpressionUses(llvm::Constant* constant, llvm::Function& function) {
  for (llvm::BasicBlock& block : function)
    for (llvm::Instruction& instruction : block)
      for (unsigned index = 0; index < instruction.getNumOperands(); ++index) expandOperand(&instruction, index, constant);
}

uint32_t lowerLocalVariables(llvm::Function& function, llvm::BasicBlock& entry, llvm::Value* localMemory) {
  const llvm::DataLayout& layout = function.getParent()->getDataLayout();
  llvm::IRBuilder<> builder(entry.getTerminator());
  uint64_t offset = 0;
  for (llvm::GlobalVariable* global : localVariablesUsedBy(function)) {
    expandConstantExpressionUses(global, function);
    const uint64_t alignment = std::max<uint64_t>(global->getAlign().valueOrOne().value(),
                                                  layout.getPrefTypeAlign(global->getValueType()).value());
    offset = llvm::alignTo(offset, alignment);
    llvm::Value* address = builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), localMemory, offset);
    address = builder.CreateAddrSpaceCast(address, builder.getInt8PtrTy(kLocalAddressSpace));
    address = builder.CreateBitCast(address, global->getType());
    global->replaceUsesWithIf(address, [&](llvm::Use& use) {
      auto* user = llvm::dyn_cast<llvm::Instruction>(use.getUser());
      return user && user->getFunction() == &function;
    });
    offset += layout.getTypeAllocSize(global->getValueType());
  }
  return static_cast<uint32_t>(offset);
}

}  // namespace loom::compiler::cpu
