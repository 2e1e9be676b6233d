// Streaming variants at the IR level (compiler/src/cpu/streaming_stores.h): which work-group
// functions get one, and that the variant's vector stores to kernel buffers are non-temporal where
// aligned, plain elsewhere, and fenced before it returns. Each test feeds optimized work-group
// functions in LLVM assembly to addStreamingVariants.
#include <gtest/gtest.h>

#include "cpu/streaming_stores.h"
#include "ir_test_helpers.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Verifier.h"

namespace loom::compiler::test {
namespace {

// Work-group functions as the optimizer leaves them: arguments read from the argument buffer
// (parameter 0). @fill stores a vector to its buffer and one to a private variable; @scalar
// stores scalars only; @counted also adds atomically; @helper is no work-group function.
const char* const kFunctions = R"(
define void @__loom_wg_fill(i8* noalias nocapture readonly %arguments, i8* noalias nocapture readonly %context) #0 {
entry:
  %slot = bitcast i8* %arguments to <8 x float> addrspace(1)**
  %out = load <8 x float> addrspace(1)*, <8 x float> addrspace(1)** %slot, align 8
  store <8 x float> <float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0>, <8 x float> addrspace(1)* %out, align 4
  %private = alloca <4 x float>, align 16
  store <4 x float> zeroinitializer, <4 x float>* %private, align 16
  ret void
}

define void @__loom_wg_scalar(i8* noalias nocapture readonly %arguments, i8* noalias nocapture readonly %context) #0 {
entry:
  %slot = bitcast i8* %arguments to float addrspace(1)**
  %out = load float addrspace(1)*, float addrspace(1)** %slot, align 8
  store float 1.0, float addrspace(1)* %out, align 4
  ret void
}

define void @__loom_wg_counted(i8* noalias nocapture readonly %arguments, i8* noalias nocapture readonly %context) #0 {
entry:
  %slot = bitcast i8* %arguments to <4 x float> addrspace(1)**
  %out = load <4 x float> addrspace(1)*, <4 x float> addrspace(1)** %slot, align 8
  store <4 x float> zeroinitializer, <4 x float> addrspace(1)* %out, align 16
  %counter = bitcast <4 x float> addrspace(1)* %out to i32 addrspace(1)*
  %old = atomicrmw add i32 addrspace(1)* %counter, i32 1 seq_cst
  ret void
}

define void @helper(i8* %arguments, i8* %context) {
entry:
  %slot = bitcast i8* %arguments to <4 x float> addrspace(1)**
  %out = load <4 x float> addrspace(1)*, <4 x float> addrspace(1)** %slot, align 8
  store <4 x float> zeroinitializer, <4 x float> addrspace(1)* %out, align 16
  ret void
}

attributes #0 = { nounwind "loom-work-group-function" }
)";

class StreamingStoresIr : public testing::Test {
 protected:
  void SetUp() override {
    module = parseModule(context, kFunctions);
    ASSERT_NE(module, nullptr);
    cpu::addStreamingVariants(*module);
    std::string problems;
    llvm::raw_string_ostream stream(problems);
    ASSERT_FALSE(llvm::verifyModule(*module, &stream)) << problems;
    fillVariant = variantOf("__loom_wg_fill");
    ASSERT_NE(fillVariant, nullptr) << "@__loom_wg_fill stores a vector to a buffer";
  }

  const llvm::Function* variantOf(const char* name) const { return module->getFunction(cpu::streamingVariantName(name)); }
  llvm::Type* floats(unsigned count) { return llvm::FixedVectorType::get(llvm::Type::getFloatTy(context), count); }

  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module;
  const llvm::Function* fillVariant = nullptr;
};

bool isNonTemporal(const llvm::StoreInst& store) { return store.getMetadata(llvm::LLVMContext::MD_nontemporal) != nullptr; }

std::vector<const llvm::StoreInst*> storesOfType(const llvm::Function& function, const llvm::Type* type) {
  std::vector<const llvm::StoreInst*> stores;
  for (const llvm::Instruction& instruction : llvm::instructions(function))
    if (auto* store = llvm::dyn_cast<llvm::StoreInst>(&instruction); store && store->getValueOperand()->getType() == type)
      stores.push_back(store);
  return stores;
}

TEST_F(StreamingStoresIr, AVectorStoreToABufferStreamsWhereAligned) {
  int streaming = 0, plain = 0;
  for (const llvm::StoreInst* store : storesOfType(*fillVariant, floats(8))) {
    if (!isNonTemporal(*store)) {
      ++plain;
      continue;
    }
    ++streaming;
    EXPECT_GE(store->getAlign().value(), 32u) << "a non-temporal store must be aligned to its size";
  }
  EXPECT_EQ(streaming, 1) << "the aligned path streams";
  EXPECT_EQ(plain, 1) << "an unaligned address keeps the plain store";
}

TEST_F(StreamingStoresIr, TheVariantFencesItsStoresBeforeReturning) {
  for (const llvm::BasicBlock& block : *fillVariant) {
    if (!llvm::isa<llvm::ReturnInst>(block.getTerminator())) continue;
    const auto* fence = llvm::dyn_cast_or_null<llvm::CallInst>(block.getTerminator()->getPrevNode());
    ASSERT_NE(fence, nullptr) << "no call right before the return";
    ASSERT_NE(fence->getCalledFunction(), nullptr);
    EXPECT_EQ(fence->getCalledFunction()->getName(), "llvm.x86.sse.sfence");
  }
}

TEST_F(StreamingStoresIr, PrivateVariablesAndThePlainFunctionStayCached) {
  for (const llvm::StoreInst* store : storesOfType(*fillVariant, floats(4))) EXPECT_FALSE(isNonTemporal(*store));
  const llvm::Function* plain = module->getFunction("__loom_wg_fill");
  for (const llvm::Instruction& instruction : llvm::instructions(*plain)) {
    if (auto* store = llvm::dyn_cast<llvm::StoreInst>(&instruction)) {
      EXPECT_FALSE(isNonTemporal(*store));
    }
  }
  EXPECT_FALSE(calls(*plain, "llvm.x86.sse.sfence"));
}

TEST_F(StreamingStoresIr, OnlyWorkGroupFunctionsWithVectorStoresAndNoOrderedWritesGetAVariant) {
  EXPECT_EQ(variantOf("__loom_wg_scalar"), nullptr) << "scalar stores do not fill a line";
  EXPECT_EQ(variantOf("__loom_wg_counted"), nullptr) << "atomics do not order non-temporal stores";
  EXPECT_EQ(variantOf("helper"), nullptr) << "not a work-group function";
}

}  // namespace
}  // namespace loom::compiler::test
