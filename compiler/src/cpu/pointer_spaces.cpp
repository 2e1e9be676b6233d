#include "pointer_spaces.h"

#include <vector>

#include "builtin_library.h"
#include "context_access.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"

namespace loom::compiler::cpu {

namespace {

llvm::Value* answer(llvm::IRBuilder<>& builder, PointerSpace space) { return builder.getInt32(static_cast<uint32_t>(space)); }

llvm::Value* within(llvm::IRBuilder<>& builder, llvm::Value* address, llvm::Value* begin, llvm::Value* end) {
  return builder.CreateAnd(builder.CreateICmpUGE(address, begin), builder.CreateICmpULT(address, end));
}

llvm::Value* addressOf(llvm::IRBuilder<>& builder, llvm::Value* pointer) { return builder.CreatePtrToInt(pointer, builder.getInt64Ty()); }

// The barrier frames' bytes: frameSize for each work-item of an enqueued group (the runtime's sizing).
llvm::Value* frameBytes(llvm::IRBuilder<>& builder, llvm::Value* context, uint32_t frameSize) {
  llvm::Value* bytes = builder.getInt64(frameSize);
  for (unsigned d = 0; d < 3; ++d) {
    llvm::Value* size = loadContextElement(builder, context, LOOM_CONTEXT_FIELD(enqueuedLocalSize), builder.getInt32Ty(),
                                           builder.getInt32(d), 1);
    bytes = builder.CreateMul(bytes, builder.CreateZExt(size, builder.getInt64Ty()));
  }
  return bytes;
}

llvm::Value* pointerSpace(llvm::IRBuilder<>& builder, llvm::Value* pointer, llvm::Value* context, uint32_t frameSize) {
  llvm::Module& module = *builder.GetInsertBlock()->getModule();
  llvm::Value* address = addressOf(builder, pointer);
  llvm::Value* localMemory = addressOf(builder, loadContextField(builder, context, LOOM_CONTEXT_FIELD(localMemory), builder.getInt8PtrTy()));
  llvm::Value* frames = addressOf(builder, loadContextField(builder, context, LOOM_CONTEXT_FIELD(barrierFrame), builder.getInt8PtrTy()));
  llvm::Value* local = within(builder, address, localMemory, frames);
  // The stack grows down: this function's variables lie between the stack pointer and its frame address.
  llvm::Function* stackSave = llvm::Intrinsic::getDeclaration(&module, llvm::Intrinsic::stacksave);
  llvm::Function* frameAddress = llvm::Intrinsic::getDeclaration(&module, llvm::Intrinsic::frameaddress, {builder.getInt8PtrTy()});
  llvm::Value* onStack = within(builder, address, addressOf(builder, builder.CreateCall(stackSave)),
                                addressOf(builder, builder.CreateCall(frameAddress, {builder.getInt32(0)})));
  llvm::Value* inFrames = within(builder, address, frames, builder.CreateAdd(frames, frameBytes(builder, context, frameSize)));
  llvm::Value* space = builder.CreateSelect(builder.CreateOr(onStack, inFrames), answer(builder, PointerSpace::Private),
                                            answer(builder, PointerSpace::Global));
  return builder.CreateSelect(local, answer(builder, PointerSpace::Local), space);
}

}  // namespace

bool asksPointerSpace(llvm::StringRef name) {
  return name == kPointerSpaceFunction || name == "__to_global" || name == "__to_local" || name == "__to_private" ||
         name.startswith("_Z9get_fence");
}

void lowerPointerSpaces(llvm::Function& function, llvm::Value* context, uint32_t frameSize) {
  // The builtin's own uses, not a walk over every instruction: most kernels never call it.
  llvm::Function* builtin = function.getParent()->getFunction(kPointerSpaceFunction);
  if (!builtin) return;
  std::vector<llvm::CallInst*> calls;
  for (llvm::User* user : builtin->users())
    if (auto* call = llvm::dyn_cast<llvm::CallInst>(user); call && call->getFunction() == &function) calls.push_back(call);
  if (calls.empty()) return;
  // Without a red zone the function's variables lie at or above the stack pointer that stacksave
  // reads: a function that calls nothing would otherwise keep them in the 128 bytes below it.
  function.addFnAttr(llvm::Attribute::NoRedZone);
  for (llvm::CallInst* call : calls) {
    llvm::IRBuilder<> builder(call);
    call->replaceAllUsesWith(builder.CreateZExtOrTrunc(pointerSpace(builder, call->getArgOperand(0), context, frameSize), call->getType()));
    call->eraseFromParent();
  }
}

}  // namespace loom::compiler::cpu
