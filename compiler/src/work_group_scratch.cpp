#include "work_group_scratch.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "module_passes.h"

namespace loom::compiler {

namespace {

constexpr unsigned kLocalAddressSpace = 3;
constexpr const char* kScratchFunction = "__loom_work_group_scratch";

llvm::GlobalVariable* createScratch(llvm::Module& module, uint32_t slots) {
  auto* type = llvm::ArrayType::get(llvm::Type::getInt64Ty(module.getContext()), slots);
  return new llvm::GlobalVariable(module, type, false, llvm::GlobalValue::InternalLinkage, llvm::UndefValue::get(type),
                                  "__loom_work_group_scratch_area", nullptr, llvm::GlobalValue::NotThreadLocal,
                                  kLocalAddressSpace);
}

}  // namespace

void materializeWorkGroupScratch(llvm::Module& module, uint32_t slots) {
  llvm::Function* function = module.getFunction(kScratchFunction);
  if (!function || !function->isDeclaration()) return;
  const std::vector<llvm::CallInst*> calls = callsOf(*function);
  if (calls.empty()) return;
  llvm::GlobalVariable* scratch = createScratch(module, slots);
  for (llvm::CallInst* call : calls) {
    call->replaceAllUsesWith(llvm::ConstantExpr::getPointerCast(scratch, call->getType()));
    call->eraseFromParent();
  }
  if (function->use_empty()) function->eraseFromParent();
}

}  // namespace loom::compiler
