#include "float_extensions.h"

#include <vector>

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

namespace loom::compiler::nvptx {

namespace {

bool extendsLoadedVector(const llvm::Instruction& instruction) {
  const auto* extension = llvm::dyn_cast<llvm::FPExtInst>(&instruction);
  return extension && extension->getType()->isVectorTy() && llvm::isa<llvm::LoadInst>(extension->getOperand(0));
}

void scalarize(llvm::FPExtInst* extension) {
  llvm::IRBuilder<> builder(extension);
  auto* type = llvm::cast<llvm::FixedVectorType>(extension->getType());
  llvm::Value* result = llvm::PoisonValue::get(type);
  for (unsigned lane = 0; lane < type->getNumElements(); ++lane) {
    llvm::Value* component = builder.CreateExtractElement(extension->getOperand(0), lane);
    result = builder.CreateInsertElement(result, builder.CreateFPExt(component, type->getElementType()), lane);
  }
  extension->replaceAllUsesWith(result);
  extension->eraseFromParent();
}

}  // namespace

void scalarizeLoadedFloatExtensions(llvm::Module& module) {
  std::vector<llvm::FPExtInst*> extensions;
  for (llvm::Function& function : module)
    for (llvm::Instruction& instruction : llvm::instructions(function))
      if (extendsLoadedVector(instruction)) extensions.push_back(llvm::cast<llvm::FPExtInst>(&instruction));
  for (llvm::FPExtInst* extension : extensions) scalarize(extension);
}

}  // namespace loom::compiler::nvptx
