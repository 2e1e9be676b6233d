#include "ir_test_helpers.h"

#include <gtest/gtest.h>

#include "builtin_library.h"
#include "cpu/cpu_code_generator.h"
#include "cpu/work_group_function_builder.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace loom::compiler::test {

namespace {

std::string describe(const llvm::SMDiagnostic& error) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  error.print("test module", stream);
  return text;
}

// Whether `user` is `value` or a constant expression built on it.
bool refersTo(const llvm::Value* user, const llvm::Value* value) {
  if (user == value) return true;
  auto* expression = llvm::dyn_cast<llvm::ConstantExpr>(user);
  if (!expression) return false;
  for (const llvm::Value* operand : expression->operands())
    if (refersTo(operand, value)) return true;
  return false;
}

}  // namespace

std::unique_ptr<llvm::Module> parseModule(llvm::LLVMContext& context, const char* assembly, bool withBuiltinLibrary) {
  context.setOpaquePointers(false);
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module = llvm::parseAssemblyString(assembly, error, context);
  if (!module) {
    ADD_FAILURE() << describe(error);
    return nullptr;
  }
  if (llvm::Error unlinked = withBuiltinLibrary ? linkBuiltinLibrary(*module) : llvm::Error::success()) {
    ADD_FAILURE() << llvm::toString(std::move(unlinked));
    return nullptr;
  }
  if (llvm::Error retargeted = cpu::retargetToHost(*module)) {
    ADD_FAILURE() << llvm::toString(std::move(retargeted));
    return nullptr;
  }
  return module;
}

KernelDescriptor pointerKernel(const char* name, const std::vector<ArgumentKind>& arguments) {
  KernelDescriptor kernel;
  kernel.name = name;
  for (ArgumentKind kind : arguments) {
    KernelArgument argument;
    argument.kind = kind;
    argument.offset = kernel.argumentBufferSize;
    argument.size = argument.alignment = 8;
    kernel.arguments.push_back(argument);
    kernel.argumentBufferSize += 8;
  }
  return kernel;
}

llvm::Function* buildWorkGroupFunction(llvm::Module& module, KernelDescriptor& kernel, bool uniformGroups) {
  std::vector<KernelDescriptor> kernels{kernel};
  if (llvm::Error error = cpu::buildWorkGroupFunctions(module, kernels, uniformGroups)) {
    ADD_FAILURE() << llvm::toString(std::move(error));
    return nullptr;
  }
  kernel = kernels[0];
  std::string problems;
  llvm::raw_string_ostream problemStream(problems);
  if (llvm::verifyModule(module, &problemStream)) {
    ADD_FAILURE() << "the module does not verify: " << problems;
    return nullptr;
  }
  llvm::Function* function = module.getFunction(cpu::workGroupFunctionName(kernel.name));
  if (!function) ADD_FAILURE() << "no work-group function for " << kernel.name;
  return function;
}

bool Loops::followsInOneIteration(const llvm::Instruction& first, const llvm::Instruction& second) const {
  const llvm::Loop* loop = innermost(first);
  if (!loop) return false;
  if (first.getParent() == second.getParent() && first.comesBefore(&second)) return true;
  std::vector<const llvm::BasicBlock*> work(llvm::succ_begin(first.getParent()), llvm::succ_end(first.getParent()));
  llvm::SmallPtrSet<const llvm::BasicBlock*, 16> seen;
  while (!work.empty()) {
    const llvm::BasicBlock* block = work.back();
    work.pop_back();
    if (block == loop->getHeader() || !loop->contains(block) || !seen.insert(block).second) continue;
    if (block == second.getParent()) return true;
    work.insert(work.end(), llvm::succ_begin(block), llvm::succ_end(block));
  }
  return false;
}

bool calls(const llvm::Function& function, llvm::StringRef callee) {
  for (const llvm::Instruction& instruction : llvm::instructions(function))
    if (auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction))
      if (call->getCalledFunction() && call->getCalledFunction()->getName() == callee) return true;
  return false;
}

std::vector<const llvm::StoreInst*> storesOf(const llvm::Function& function, int64_t value) {
  std::vector<const llvm::StoreInst*> stores;
  for (const llvm::Instruction& instruction : llvm::instructions(function))
    if (auto* store = llvm::dyn_cast<llvm::StoreInst>(&instruction))
      if (auto* constant = llvm::dyn_cast<llvm::ConstantInt>(store->getValueOperand()); constant && constant->getSExtValue() == value)
        stores.push_back(store);
  return stores;
}

std::vector<const llvm::Instruction*> accessesIn(const llvm::Function& function, unsigned addressSpace) {
  std::vector<const llvm::Instruction*> accesses;
  for (const llvm::Instruction& instruction : llvm::instructions(function)) {
    const llvm::Value* pointer = llvm::getLoadStorePointerOperand(&instruction);
    if (pointer && pointer->getType()->getPointerAddressSpace() == addressSpace) accesses.push_back(&instruction);
  }
  return accesses;
}

bool pointsIntoContextField(const llvm::Value* pointer, const llvm::Function& workGroupFunction, size_t fieldOffset) {
  const llvm::DataLayout& layout = workGroupFunction.getParent()->getDataLayout();
  llvm::SmallVector<const llvm::Value*, 4> objects;
  llvm::getUnderlyingObjects(pointer, objects, nullptr, 0);
  for (const llvm::Value* object : objects) {
    auto* load = llvm::dyn_cast<llvm::LoadInst>(object);
    if (!load) return false;
    llvm::APInt offset(64, 0);
    const llvm::Value* base = load->getPointerOperand()->stripAndAccumulateConstantOffsets(layout, offset, true);
    if (base != workGroupFunction.getArg(cpu::kContext) || offset != fieldOffset) return false;
  }
  return !objects.empty();
}

bool uses(const llvm::Function& function, const llvm::Value* value) {
  for (const llvm::Instruction& instruction : llvm::instructions(function))
    for (const llvm::Value* operand : instruction.operands())
      if (refersTo(operand, value)) return true;
  return false;
}

}  // namespace loom::compiler::test
