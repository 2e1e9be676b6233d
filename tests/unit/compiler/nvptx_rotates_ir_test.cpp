// nvptx::lowerWideRotates (compiler/src/nvptx/rotates.h): 64-bit rotates rewritten as funnel
// shifts of 32-bit halves, run on the host (the rewrite is target-independent IR) against the
// definition, for every amount below 256 (64 and more wrap) and scalar and vector forms.
#include <gtest/gtest.h>

#include <cstdint>

#include "llvm/AsmParser/Parser.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "nvptx/rotates.h"

namespace loom::compiler::test {
namespace {

// nounwind: no .eh_frame for the JIT to register, which under the sanitizer's slow unwinding on
// malloc would wait for the unwinder's own lock.
constexpr const char* kRotates = R"(
declare i64 @llvm.fshl.i64(i64, i64, i64)
declare i64 @llvm.fshr.i64(i64, i64, i64)
declare <2 x i64> @llvm.fshl.v2i64(<2 x i64>, <2 x i64>, <2 x i64>)
define i64 @left(i64 %x, i64 %n) nounwind {
  %r = call i64 @llvm.fshl.i64(i64 %x, i64 %x, i64 %n)
  ret i64 %r
}
define i64 @right(i64 %x, i64 %n) nounwind {
  %r = call i64 @llvm.fshr.i64(i64 %x, i64 %x, i64 %n)
  ret i64 %r
}
define void @left2(<2 x i64>* %x, <2 x i64>* %n) nounwind {
  %v = load <2 x i64>, <2 x i64>* %x
  %a = load <2 x i64>, <2 x i64>* %n
  %r = call <2 x i64> @llvm.fshl.v2i64(<2 x i64> %v, <2 x i64> %v, <2 x i64> %a)
  store <2 x i64> %r, <2 x i64>* %x
  ret void
}
define i64 @funnel(i64 %x, i64 %y, i64 %n) nounwind {
  %r = call i64 @llvm.fshl.i64(i64 %x, i64 %y, i64 %n)
  ret i64 %r
}
)";

uint64_t rotateLeft(uint64_t x, uint64_t n) {
  n %= 64;
  return n == 0 ? x : (x << n) | (x >> (64 - n));
}

size_t rotateCalls(const llvm::Module& module) {
  size_t count = 0;
  for (const llvm::Function& function : module)
    for (const llvm::BasicBlock& block : function)
      for (const llvm::Instruction& instruction : block)
        if (const auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction))
          count += call->getType()->getScalarType()->isIntegerTy(64) &&
                   (call->getIntrinsicID() == llvm::Intrinsic::fshl || call->getIntrinsicID() == llvm::Intrinsic::fshr);
  return count;
}

TEST(NvptxRotates, WideRotatesBecomeHalvesThatRotateByEveryAmount) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto context = std::make_unique<llvm::LLVMContext>();
  context->setOpaquePointers(false);
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module = llvm::parseAssemblyString(kRotates, error, *context);
  ASSERT_NE(module, nullptr) << error.getMessage().str();
  nvptx::lowerWideRotates(*module);
  EXPECT_FALSE(llvm::verifyModule(*module, &llvm::errs()));
  EXPECT_EQ(rotateCalls(*module), 1u) << "only the funnel shift of two values stays";
  auto jit = llvm::orc::LLJITBuilder().create();
  ASSERT_TRUE(bool(jit)) << llvm::toString(jit.takeError());
  module->setDataLayout((*jit)->getDataLayout());
  ASSERT_FALSE(bool((*jit)->addIRModule(llvm::orc::ThreadSafeModule(std::move(module), std::move(context)))));
  const auto address = [&](const char* name) {
    auto symbol = (*jit)->lookup(name);
    EXPECT_TRUE(bool(symbol));
    return symbol ? symbol->getValue() : 0;
  };
  auto left = reinterpret_cast<uint64_t (*)(uint64_t, uint64_t)>(address("left"));
  auto right = reinterpret_cast<uint64_t (*)(uint64_t, uint64_t)>(address("right"));
  auto left2 = reinterpret_cast<void (*)(uint64_t*, uint64_t*)>(address("left2"));
  ASSERT_TRUE(left && right && left2);
  for (uint64_t x : {0x0123456789abcdefull, 0x8000000000000001ull, 0x5c7dba3b151666d7ull}) {
    for (uint64_t n = 0; n < 256; ++n) {
      ASSERT_EQ(left(x, n), rotateLeft(x, n)) << std::hex << x << " by " << std::dec << n;
      ASSERT_EQ(right(x, n), rotateLeft(x, 64 - n % 64)) << std::hex << x << " by " << std::dec << n;
      alignas(16) uint64_t values[2] = {x, ~x}, amounts[2] = {n, n + 0xddd990fdc06cb900ull};
      left2(values, amounts);
      ASSERT_EQ(values[0], rotateLeft(x, n)) << n;
      ASSERT_EQ(values[1], rotateLeft(~x, amounts[1])) << n;
    }
  }
}

}  // namespace
}  // namespace loom::compiler::test
