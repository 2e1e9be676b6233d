#include "texture_reads.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "module_passes.h"

namespace loom::compiler {

namespace {

constexpr const char* kTextureUnitsFunction = "__loom_texture_units";
constexpr const char* kTextureRead2dFunction = "__loom_texture_read_2d";

// Replaces every call of `name` with what `replacement` makes of it, and drops the declaration.
template <typename Replacement>
void replaceCalls(llvm::Module& module, const char* name, Replacement replacement) {
  llvm::Function* function = module.getFunction(name);
  if (!function || !function->isDeclaration()) return;
  for (llvm::CallInst* call : callsOf(*function)) {
    call->replaceAllUsesWith(replacement(*call));
    call->eraseFromParent();
  }
  if (function->use_empty()) function->eraseFromParent();
}

// tex.2d.v4.f32.f32: the intrinsic's four floats made the library's float4. LLVM declares the
// intrinsic as writing memory, which would keep every load of a loop of reads inside the loop.
llvm::Value* textureRead2d(llvm::CallInst& call) {
  llvm::IRBuilder<> builder(&call);
  llvm::Function* intrinsic =
      llvm::Intrinsic::getDeclaration(call.getModule(), llvm::Intrinsic::nvvm_tex_unified_2d_v4f32_f32);
  llvm::CallInst* channels = builder.CreateCall(intrinsic, {call.getArgOperand(0), call.getArgOperand(1), call.getArgOperand(2)});
  channels->setDoesNotAccessMemory();
  channels->setDoesNotThrow();
  channels->addFnAttr(llvm::Attribute::WillReturn);
  llvm::Value* texel = llvm::PoisonValue::get(call.getType());
  for (unsigned channel = 0; channel < 4; ++channel)
    texel = builder.CreateInsertElement(texel, builder.CreateExtractValue(channels, channel), channel);
  return texel;
}

}  // namespace

void materializeTextureReads(llvm::Module& module, Target target) {
  const bool textureUnits = target == Target::Nvptx;
  replaceCalls(module, kTextureUnitsFunction, [&](llvm::CallInst& call) -> llvm::Value* {
    return llvm::ConstantInt::getBool(call.getType(), textureUnits);
  });
  replaceCalls(module, kTextureRead2dFunction, [&](llvm::CallInst& call) -> llvm::Value* {
    if (textureUnits) return textureRead2d(call);
    return llvm::Constant::getNullValue(call.getType());
  });
}

}  // namespace loom::compiler
