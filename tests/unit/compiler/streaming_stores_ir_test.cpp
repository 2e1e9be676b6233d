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
// stores scalars only; @counted also adds atomically; @helper is no work-group function; @axpy
// writes the buffer it reads (its slot loaded twice, as the optimizer may leave it), @copy
// writes another buffer than the one it reads.
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

define void @__loom_wg_axpy(i8* noalias nocapture readonly %arguments, i8* noalias nocapture readonly %context) #0 {
entry:
  %xslot = bitcast i8* %arguments to <8 x float> addrspace(1)**
  %x = load <8 x float> addrspace(1)*, <8 x float> addrspace(1)** %xslot, align 8
  %yaddress = getelementptr inbounds i8, i8* %arguments, i64 8
  %yslot = bitcast i8* %yaddress to <8 x float> addrspace(1)**
  %y = load <8 x float> addrspace(1)*, <8 x float> addrspace(1)** %yslot, align 8
  %yagain = load <8 x float> addrspace(1)*, <8 x float> addrspace(1)** %yslot, align 8
  %xvalue = load <8 x float>, <8 x float> addrspace(1)* %x, align 4
  %yvalue = load <8 x float>, <8 x float> addrspace(1)* %y, align 4
  %sum = fadd <8 x float> %xvalue, %yvalue
  store <8 x float> %sum, <8 x float> addrspace(1)* %yagain, align 4
  ret void
}

define void @__loom_wg_copy(i8* noalias nocapture readonly %arguments, i8* noalias nocapture readonly %context) #0 {
entry:
  %inslot = bitcast i8* %arguments to <8 x float> addrspace(1)**
  %in = load <8 x float> addrspace(1)*, <8 x float> addrspace(1)** %inslot, align 8
  %outaddress = getelementptr inbounds i8, i8* %arguments, i64 8
  %outslot = bitcast i8* %outaddress to <8 x float> addrspace(1)**
  %out = load <8 x float> addrspace(1)*, <8 x float> addrspace(1)** %outslot, align 8
  %value = load <8 x float>, <8 x float> addrspace(1)* %in, align 4
  store <8 x float> %value, <8 x float> addrspace(1)* %out, align 4
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

TEST_F(StreamingStoresIr, StoresToABufferTheFunctionReadsStayCached) {
  EXPECT_EQ(variantOf("__loom_wg_axpy"), nullptr) << "its only vector store writes the buffer it reads";
  const llvm::Function* copy = variantOf("__loom_wg_copy");
  ASSERT_NE(copy, nullptr) << "it writes a buffer it does not read";
  int streaming = 0;
  for (const llvm::StoreInst* store : storesOfType(*copy, floats(8))) streaming += isNonTemporal(*store);
  EXPECT_EQ(streaming, 1);
}

}  // namespace
}  // namespace loom::compiler::test
