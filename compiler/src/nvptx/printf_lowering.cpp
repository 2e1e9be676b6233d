#include "printf_lowering.h"

#include <vector>

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "module_passes.h"

namespace loom::compiler::nvptx {

namespace {

// The argument as vprintf reads it: pointers (%s, %p) as generic pointers, the rest unchanged
// (C's promotions already made floats doubles).
llvm::Value* vprintfArgument(llvm::IRBuilder<>& builder, llvm::Value* argument) {
  if (!argument->getType()->isPointerTy()) return argument;
  return builder.CreatePointerBitCastOrAddrSpaceCast(argument, builder.getInt8PtrTy());
}

llvm::Error lowerCall(llvm::CallInst& call, llvm::FunctionCallee vprintf) {
  llvm::IRBuilder<> builder(&call);
  std::vector<llvm::Value*> arguments;
  for (unsigned i = 1; i < call.arg_size(); ++i) {
    llvm::Value* argument = call.getArgOperand(i);
    if (argument->getType()->isVectorTy())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "printf with vector arguments needs a constant format string with %%v conversions for them");
    arguments.push_back(vprintfArgument(builder, argument));
  }
  llvm::Value* buffer = llvm::ConstantPointerNull::get(builder.getInt8PtrTy());
  if (!arguments.empty()) {
    std::vector<llvm::Type*> fields;
    for (llvm::Value* argument : arguments) fields.push_back(argument->getType());
    // A plain struct aligns each field to its natural alignment, which is vprintf's layout.
    llvm::StructType* layout = llvm::StructType::get(call.getContext(), fields);
    llvm::IRBuilder<> entry(&*call.getFunction()->getEntryBlock().getFirstInsertionPt());
    llvm::AllocaInst* storage = entry.CreateAlloca(layout);
    for (unsigned i = 0; i < arguments.size(); ++i) builder.CreateStore(arguments[i], builder.CreateStructGEP(layout, storage, i));
    buffer = builder.CreatePointerBitCastOrAddrSpaceCast(storage, builder.getInt8PtrTy());
  }
  llvm::Value* format = builder.CreatePointerBitCastOrAddrSpaceCast(call.getArgOperand(0), builder.getInt8PtrTy());
  llvm::CallInst* replacement = builder.CreateCall(vprintf, {format, buffer});
  call.replaceAllUsesWith(replacement);
  call.eraseFromParent();
  return llvm::Error::success();
}

}  // namespace

llvm::Error lowerPrintf(llvm::Module& module) {
  llvm::Function* printf = module.getFunction("printf");
  if (!printf) return llvm::Error::success();
  llvm::LLVMContext& context = module.getContext();
  llvm::Type* bytePointer = llvm::Type::getInt8PtrTy(context);
  llvm::FunctionCallee vprintf = module.getOrInsertFunction(
      kVprintf, llvm::FunctionType::get(llvm::Type::getInt32Ty(context), {bytePointer, bytePointer}, false));
  for (llvm::CallInst* call : callsOf(*printf))
    if (llvm::Error error = lowerCall(*call, vprintf)) return error;
  if (printf->use_empty()) printf->eraseFromParent();
  return llvm::Error::success();
}

}  // namespace loom::compiler::nvptx
