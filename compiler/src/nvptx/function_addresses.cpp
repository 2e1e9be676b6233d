#include "function_addresses.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "loom/compiler/nvptx_launch_abi.h"

namespace loom::compiler::nvptx {

namespace {
constexpr unsigned kGlobalAddressSpace = 1;
}  // namespace

void addFunctionAddresses(llvm::Module& module, const std::vector<std::string>& exported) {
  auto* address = llvm::Type::getInt8PtrTy(module.getContext());  // a generic address: `call` takes it
  for (const std::string& name : exported) {
    llvm::Function* function = module.getFunction(name);
    if (!function || function->isDeclaration()) continue;
    auto* variable = new llvm::GlobalVariable(module, address, true, llvm::GlobalValue::ExternalLinkage,
                                              llvm::ConstantExpr::getBitCast(function, address),
                                              kFunctionAddressPrefix + name, nullptr,
                                              llvm::GlobalValue::NotThreadLocal, kGlobalAddressSpace);
    variable->setAlignment(llvm::Align(sizeof(uint64_t)));
  }
}

}  // namespace loom::compiler::nvptx
