// OpCompositeConstruct of values that are not constants (tests/kernels/composite_constructs.spvasm),
// which Debian's SPIR-V translator 15 would crash on: the compiler rewrites such instructions
// (compiler/src/composite_constructs.h) before the translator reads the module.
#include <gtest/gtest.h>

#include <algorithm>

#include <unistd.h>

#include <sstream>

#include "composite_constructs.h"
#include "kernel_runner.h"
#include "spirv_words.h"
#include "translator_guard.h"

namespace loom::compiler::test {
namespace {

std::vector<uint32_t> opcodes(const std::vector<uint32_t>& words) {
  std::vector<uint32_t> result;
  for (size_t at = spirv::kHeaderWords; at < words.size() && (words[at] >> 16) != 0; at += words[at] >> 16)
    result.push_back(words[at] & 0xffff);
  return result;
}

size_t countOf(const std::vector<uint32_t>& opcodes, uint32_t opcode) { return std::count(opcodes.begin(), opcodes.end(), opcode); }

std::vector<uint32_t> moduleWords() {
  const std::vector<uint8_t> bytes = readSpirv("composite_constructs");
  return spirv::words(bytes.data(), bytes.size());
}

TEST(CompositeConstructs, ThoseOfValuesThatAreNotConstantsBecomeInsertChains) {
  const std::vector<uint32_t> original = moduleWords();
  const std::vector<uint32_t> rewritten = withCompositeConstructsExpanded(original);
  const std::vector<uint32_t> before = opcodes(original);
  const std::vector<uint32_t> after = opcodes(rewritten);
  ASSERT_EQ(countOf(before, spirv::OpCompositeConstruct), 7u);
  EXPECT_EQ(countOf(after, spirv::OpCompositeConstruct), 1u);  // %kept: scalar constants
  EXPECT_EQ(countOf(after, spirv::OpUndef), 6u);
  // One insert per part: 2 + 4 + 2 + 2 + 4 + 4; the vectors inside vectors are read component by
  // component (%ab, %sevens twice, %kept).
  EXPECT_EQ(countOf(after, spirv::OpCompositeInsert), 18u);
  EXPECT_EQ(countOf(after, spirv::OpCompositeExtract), countOf(before, spirv::OpCompositeExtract) + 8u);
  // Every new instruction draws a fresh id (the last of each chain then takes the original's).
  EXPECT_EQ(rewritten[3], original[3] + 6 + 18 + 8);
}

TEST(CompositeConstructs, DamagedModulesStayAsTheyAre) {
  std::vector<uint32_t> original = moduleWords();
  original.back() = 5u << 16 | original.back();  // OpFunctionEnd claims words past the end: the parser rejects it
  EXPECT_EQ(withCompositeConstructsExpanded(original), original);
  EXPECT_TRUE(withCompositeConstructsExpanded({}).empty());
}

TEST(CompositeConstructs, AKernelBuildingCompositesOfValuesThatAreNotConstantsRuns) {
  const BuildResult built = compile(readSpirv("composite_constructs"));
  ASSERT_EQ(built.status, Status::Success) << built.log;
  std::unique_ptr<CpuExecutable> executable = loadBuilt(built);
  ASSERT_NE(executable, nullptr);
  std::string log;
  WorkGroupFunction function = executable->kernel("composites", log);
  ASSERT_NE(function, nullptr) << log;
  std::vector<uint32_t> out(12);
  Arguments(*built.program->info.findKernel("composites")).set(0, out.data()).run(function, range1d(1, 1));
  EXPECT_EQ(out, (std::vector<uint32_t>{3, 4, 4, 7, 4, 3, 7, 7, 3, 4, 7, 7}));
}

// The module as written, not rewritten, makes the translator follow a null pointer: the guard
// turns that into a failed read. In a child process, in case the guard fails.
TEST(CompositeConstructs, TheTranslatorsCrashOnTheModuleAsWrittenIsAFailedRead) {
  EXPECT_EXIT(
      {
        const std::vector<uint8_t> bytes = readSpirv("composite_constructs");
        std::istringstream stream(std::string(bytes.begin(), bytes.end()));
        llvm::LLVMContext context;
        context.setOpaquePointers(false);
        SPIRV::TranslatorOpts options(SPIRV::VersionNumber::MaximumVersion);
        llvm::Module* module = nullptr;
        std::string message;
        bool aborted = false;
        const bool read = readSpirvGuarded(context, options, stream, module, message, aborted);
        _exit(!read && aborted && module == nullptr ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace loom::compiler::test
