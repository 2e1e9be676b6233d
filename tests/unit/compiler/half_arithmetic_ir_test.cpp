// Half precision at the IR level: on the CPU every half operation becomes the float one between
// conversions (compiler/src/cpu/half_arithmetic.h); on NVPTX, math that libdevice provides takes
// half through its float functions (compiler/src/nvptx/libdevice.h).
#include <gtest/gtest.h>

#include <filesystem>

#include "cpu/half_arithmetic.h"
#include "ir_test_helpers.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Verifier.h"
#include "nvptx/libdevice.h"

namespace loom::compiler::test {
namespace {

// What the optimizer leaves of half code: vector minimum (which LLVM 15's x86 backend cannot
// select for <8 x half>), arithmetic, a contractible multiply-add, a comparison and conversions.
const char* const kHalfCode = R"(
define <8 x half> @minimum(<8 x half> %a, <8 x half> %b) {
  %m = call <8 x half> @llvm.minnum.v8f16(<8 x half> %a, <8 x half> %b)
  ret <8 x half> %m
}
define half @arithmetic(half %a, half %b, half %c, i32 %n) {
  %sum = fadd half %a, %b
  %fused = call half @llvm.fmuladd.f16(half %sum, half %b, half %c)
  %less = fcmp olt half %fused, %a
  %count = sitofp i32 %n to half
  %picked = select i1 %less, half %fused, half %count
  ret half %picked
}
declare <8 x half> @llvm.minnum.v8f16(<8 x half>, <8 x half>)
declare half @llvm.fmuladd.f16(half, half, half)
)";

bool isHalf(const llvm::Type* type) { return type->getScalarType()->isHalfTy(); }

// Instructions that compute on half values: anything but conversions to and from float, selects
// and returns.
std::vector<const llvm::Instruction*> halfComputations(const llvm::Function& function) {
  std::vector<const llvm::Instruction*> found;
  for (const llvm::Instruction& instruction : llvm::instructions(function)) {
    if (llvm::isa<llvm::FPExtInst, llvm::FPTruncInst, llvm::SelectInst, llvm::ReturnInst>(instruction)) continue;
    bool touchesHalf = isHalf(instruction.getType());
    for (const llvm::Value* operand : instruction.operands()) touchesHalf |= isHalf(operand->getType());
    if (touchesHalf) found.push_back(&instruction);
  }
  return found;
}

size_t countOf(const llvm::Function& function, unsigned opcode) {
  size_t n = 0;
  for (const llvm::Instruction& instruction : llvm::instructions(function)) n += instruction.getOpcode() == opcode;
  return n;
}

TEST(HalfArithmeticIr, CpuComputesEveryHalfOperationInFloat) {
  llvm::LLVMContext context;
  auto module = parseModule(context, kHalfCode);
  ASSERT_NE(module, nullptr);
  cpu::computeHalfInFloat(*module);
  ASSERT_FALSE(llvm::verifyModule(*module, &llvm::errs()));
  for (const llvm::Function& function : *module) {
    if (function.isDeclaration()) continue;
    for (const llvm::Instruction* instruction : halfComputations(function))
      ADD_FAILURE() << "half operation left in @" << function.getName().str() << ": " << [&] {
        std::string text;
        llvm::raw_string_ostream out(text);
        instruction->print(out);
        return text;
      }();
  }
  const llvm::Function& arithmetic = *module->getFunction("arithmetic");
  // fmuladd: a multiplication rounded to half, then an addition, never a fused float operation.
  EXPECT_EQ(countOf(arithmetic, llvm::Instruction::FMul), 1u);
  EXPECT_EQ(countOf(arithmetic, llvm::Instruction::FAdd), 2u);
  EXPECT_EQ(countOf(arithmetic, llvm::Instruction::FPTrunc), 4u) << "sum, product, multiply-add and the integer";
  for (const llvm::Instruction& instruction : llvm::instructions(arithmetic))
    if (auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction)) ADD_FAILURE() << call->getCalledFunction()->getName().str();
}

TEST(HalfArithmeticIr, LibdeviceMathOfHalfCallsTheFloatFunction) {
  if (nvptx::findLibdevice().empty()) GTEST_SKIP() << "libdevice is not installed";
  llvm::LLVMContext context;
  auto module = parseModule(context, R"(
define <2 x half> @sine(<2 x half> %x, half %y) {
  %s = call <2 x half> @llvm.sin.v2f16(<2 x half> %x)
  %r = frem half %y, %y
  %v = insertelement <2 x half> %s, half %r, i32 0
  ret <2 x half> %v
}
declare <2 x half> @llvm.sin.v2f16(<2 x half>)
)");
  ASSERT_NE(module, nullptr);
  ASSERT_FALSE(bool(nvptx::linkLibdevice(*module)));
  ASSERT_FALSE(llvm::verifyModule(*module, &llvm::errs()));
  const llvm::Function& sine = *module->getFunction("sine");
  size_t sines = 0, remainders = 0;
  for (const llvm::Instruction& instruction : llvm::instructions(sine)) {
    auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction);
    if (!call || !call->getCalledFunction()) continue;
    const std::string name = call->getCalledFunction()->getName().str();
    sines += name == "__nv_sinf";
    remainders += name == "__nv_fmodf";
    EXPECT_TRUE(call->getType()->isFloatTy()) << name;
  }
  EXPECT_EQ(sines, 2u) << "one per lane";
  EXPECT_EQ(remainders, 1u);
  EXPECT_EQ(countOf(sine, llvm::Instruction::FPTrunc), 3u);
}

}  // namespace
}  // namespace loom::compiler::test
