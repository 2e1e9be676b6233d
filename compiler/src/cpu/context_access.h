#pragma once
// Reads of WorkGroupContext fields from generated code, by the field offsets of the C++ struct.
#include <cstddef>

#include "llvm/IR/IRBuilder.h"
#include "loom/compiler/work_group_context.h"

namespace loom::compiler::cpu {

#define LOOM_CONTEXT_FIELD(field) offsetof(::loom::compiler::WorkGroupContext, field)

// context->field (scalar).
llvm::Value* loadContextField(llvm::IRBuilder<>& builder, llvm::Value* context, size_t offset, llvm::Type* type);
// context->field[dimension] for an array of 3; `outOfRange` when dimension > 2 (OpenCL's rule).
llvm::Value* loadContextElement(llvm::IRBuilder<>& builder, llvm::Value* context, size_t offset, llvm::Type* type,
                                llvm::Value* dimension, uint64_t outOfRange);

}  // namespace loom::compiler::cpu
