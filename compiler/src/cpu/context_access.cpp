#include "context_access.h"

namespace loom::compiler::cpu {

namespace {
llvm::Value* fieldAddress(llvm::IRBuilder<>& builder, llvm::Value* context, size_t offset, llvm::Type* type) {
  llvm::Value* bytes = builder.CreateBitCast(context, builder.getInt8PtrTy());
  llvm::Value* field = builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), bytes, offset);
  return builder.CreateBitCast(field, type->getPointerTo());
}
}  // namespace

llvm::Value* loadContextField(llvm::IRBuilder<>& builder, llvm::Value* context, size_t offset, llvm::Type* type) {
  return builder.CreateLoad(type, fieldAddress(builder, context, offset, type));
}

llvm::Value* loadContextElement(llvm::IRBuilder<>& builder, llvm::Value* context, size_t offset, llvm::Type* type,
                                llvm::Value* dimension, uint64_t outOfRange) {
  llvm::Value* inRange = builder.CreateICmpULT(dimension, builder.getInt32(3));
  llvm::Value* index = builder.CreateSelect(inRange, dimension, builder.getInt32(0));
  llvm::Value* base = fieldAddress(builder, context, offset, type);
  llvm::Value* element = builder.CreateLoad(type, builder.CreateInBoundsGEP(type, base, index));
  return builder.CreateSelect(inRange, element, llvm::ConstantInt::get(type, outOfRange));
}

}  // namespace loom::compiler::cpu
