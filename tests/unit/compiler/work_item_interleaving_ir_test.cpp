// Work-items of kernels that keep vectors wider than the vectorizer's (float16) run side by side
// where each is a long chain of dependent operations (compiler/src/cpu/work_item_interleaving.h):
// at the IR level, after the whole optimization, the chains of two work-items alternate in the
// region loop, and kernels the vectorizer widens across work-items are left to it.
#include <gtest/gtest.h>

#include <string>

#include "cpu/cpu_code_generator.h"
#include "cpu/work_item_interleaving.h"
#include "ir_test_helpers.h"
#include "llvm/IR/IntrinsicInst.h"

namespace loom::compiler::test {
namespace {

// clpeak's compute kernel in VECTOR (<16 x float> or <8 x float>): 1000 times, sixteen dependent
// mads (x = y * x + y; y = x * y + x); then out[gid] = y. A loop too long to unroll, with a
// floating-point accumulator: it runs as a region of implicit barriers, one iteration for all
// work-items at a time.
std::string madChain(const char* vector) {
  std::string body;
  std::string x = "%x", y = "%y";
  for (int i = 0; i < 8; ++i) {
    const std::string nextX = "%x" + std::to_string(i), nextY = "%y" + std::to_string(i);
    body += "  " + nextX + " = call VECTOR @llvm.fmuladd.VTYPE(VECTOR " + y + ", VECTOR " + x + ", VECTOR " + y + ")\n";
    body += "  " + nextY + " = call VECTOR @llvm.fmuladd.VTYPE(VECTOR " + nextX + ", VECTOR " + y + ", VECTOR " + nextX + ")\n";
    x = nextX, y = nextY;
  }
  std::string assembly = std::string(LOOM_SPIR_MODULE) + R"(
declare VECTOR @llvm.fmuladd.VTYPE(VECTOR, VECTOR, VECTOR)

define spir_kernel void @chain(VECTOR addrspace(1)* %out, float addrspace(1)* %a) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %lid = call spir_func i64 @_Z12get_local_idj(i32 0)
  %lidf = uitofp i64 %lid to float
  %one = insertelement VECTOR undef, float %lidf, i32 0
  %y.start = shufflevector VECTOR %one, VECTOR undef, MASK zeroinitializer
  %a0 = load float, float addrspace(1)* %a, align 4
  %two = insertelement VECTOR undef, float %a0, i32 0
  %x.start = shufflevector VECTOR %two, VECTOR undef, MASK zeroinitializer
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  %x = phi VECTOR [ %x.start, %entry ], [ %x7, %body ]
  %y = phi VECTOR [ %y.start, %entry ], [ %y7, %body ]
  %more = icmp slt i32 %i, 1000
  br i1 %more, label %body, label %done
body:
)" + body + R"(  %next = add i32 %i, 1
  br label %loop
done:
  %outs = getelementptr inbounds VECTOR, VECTOR addrspace(1)* %out, i64 %gid
  store VECTOR %y, VECTOR addrspace(1)* %outs, align 64
  ret void
}
)";
  const std::string lanes = std::string(vector).substr(1, std::string(vector).find(' ') - 1);
  const std::pair<const char*, std::string> names[] = {
      {"VECTOR", vector}, {"VTYPE", "v" + lanes + "f32"}, {"MASK", "<" + lanes + " x i32>"}};
  for (const auto& [name, value] : names)
    for (size_t at; (at = assembly.find(name)) != std::string::npos;) assembly.replace(at, std::string(name).size(), value);
  return assembly;
}

bool isMultiplyAdd(const llvm::Instruction& instruction) {
  auto* intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction);
  return intrinsic && intrinsic->getIntrinsicID() == llvm::Intrinsic::fmuladd;
}

// The multiply-adds of a block and how many of them use the one before them (a lone chain: all).
struct Chains {
  unsigned multiplyAdds = 0;
  unsigned usingTheOneBefore = 0;
};

Chains chainsIn(const llvm::BasicBlock& block) {
  Chains chains;
  const llvm::Instruction* previous = nullptr;
  for (const llvm::Instruction& instruction : block) {
    if (!isMultiplyAdd(instruction)) continue;
    ++chains.multiplyAdds;
    if (previous && llvm::is_contained(instruction.operands(), previous)) ++chains.usingTheOneBefore;
    previous = &instruction;
  }
  return chains;
}

// The work-group function of madChain(vector), optimized as the CPU target builds it.
struct Optimized {
  explicit Optimized(const char* vector) : built(madChain(vector), pointerKernel("chain", {ArgumentKind::GlobalPointer, ArgumentKind::GlobalPointer})) {
    if (!built.function) return;
    auto object = cpu::generateObject(*built.module, BuildOptions{}, /*dumpIr=*/false);
    if (!object) {
      ADD_FAILURE() << llvm::toString(object.takeError());
      return;
    }
    function = built.module->getFunction(built.function->getName());
  }
  Built built;
  llvm::Function* function = nullptr;
};

TEST(WorkItemInterleavingIr, TheMadChainsOfFloat16WorkItemsAlternate) {
  Optimized optimized("<16 x float>");
  ASSERT_NE(optimized.function, nullptr);
  ASSERT_GT(optimized.built.kernel.barrierFrameSize, 0u) << "the loop should run as a region";
  bool alternating = false;
  for (const llvm::BasicBlock& block : *optimized.function) {
    const Chains chains = chainsIn(block);
    if (chains.multiplyAdds >= 16 * 2 && chains.usingTheOneBefore == 0) alternating = true;
  }
  EXPECT_TRUE(alternating) << "no block runs the chains of several work-items side by side";
}

// A float8 kernel is scalarized and widened across work-items by the vectorizer: eight work-items
// per vector already, and its loop keeps LLVM's own unrolling.
TEST(WorkItemInterleavingIr, Float8KernelsAreLeftToTheVectorizer) {
  Optimized optimized("<8 x float>");
  ASSERT_NE(optimized.function, nullptr);
  for (const llvm::BasicBlock& block : *optimized.function)
    for (const llvm::Instruction& instruction : block) {
      const llvm::MDNode* loop = instruction.getMetadata(llvm::LLVMContext::MD_loop);
      if (!loop) continue;
      for (const llvm::MDOperand& property : loop->operands()) {
        auto* node = llvm::dyn_cast<llvm::MDNode>(property.get());
        auto* name = node && node->getNumOperands() ? llvm::dyn_cast<llvm::MDString>(node->getOperand(0)) : nullptr;
        EXPECT_FALSE(name && name->getString().startswith("loom.")) << "a loop of the float8 kernel is marked for interleaving";
      }
    }
}

}  // namespace
}  // namespace loom::compiler::test
