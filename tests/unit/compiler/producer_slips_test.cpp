// Slips of real SPIR-V producers that the compiler tolerates (compiler/src/spirv_producer_slips.h),
// with hand-assembled modules (kernels/capability_*.spvasm): each builds with a warning in its log
// and runs; damage besides a slip still fails.
#include <gtest/gtest.h>

#include "kernel_runner.h"

namespace loom::compiler::test {
namespace {

// Builds `module`, expects the build log to contain `warning`, and runs `kernel` over `data`.
template <typename T>
void expectBuildsWarnsAndRuns(const std::string& module, const std::string& warning, const std::string& kernel, T* data) {
  const BuildResult built = compile(readSpirv(module));
  ASSERT_EQ(built.status, Status::Success) << built.log;
  EXPECT_NE(built.log.find(warning), std::string::npos) << built.log;
  std::unique_ptr<CpuExecutable> executable = loadBuilt(built);
  ASSERT_NE(executable, nullptr);
  std::string log;
  WorkGroupFunction function = executable->kernel(kernel, log);
  ASSERT_NE(function, nullptr) << log;
  Arguments(*built.program->info.findKernel(kernel)).set(0, data).run(function, range1d(1, 1));
}

TEST(ProducerSlips, ACapabilityNothingUsesIsIgnoredWithoutItsExtension) {
  uint32_t out = 0;
  expectBuildsWarnsAndRuns("capability_unused_slip",
                           "without its extension SPV_INTEL_arbitrary_precision_integers", "store_five", &out);
  expectBuildsWarnsAndRuns("capability_unused_slip", "nothing uses it, so it is ignored", "store_five", &out);
  EXPECT_EQ(out, 5u);
}

TEST(ProducerSlips, AUsedCapabilityWithoutItsExtensionReadsAsIfDeclared) {
  float out = 1.0f;
  expectBuildsWarnsAndRuns("capability_used_slip", "read as if it declared the extension", "add_one_and_a_half", &out);
  EXPECT_EQ(out, 2.5f);
}

TEST(ProducerSlips, ASlipDoesNotHideOtherDamage) {
  const BuildResult built = compile(readSpirv("capability_slip_and_damage"));
  EXPECT_EQ(built.status, Status::BuildFailure);
  EXPECT_NE(built.log.find("(OpStore)"), std::string::npos) << built.log;
  EXPECT_EQ(built.log.find("requires one of these extensions"), std::string::npos) << built.log;
}

// llvm-spirv 15 declares OpTypeSampler twice in a module with a sampler literal and a sampler
// argument (image_kernels.cl has both): the module builds, with one sampler type, and says so.
TEST(ProducerSlips, TwoSamplerTypesAreReadAsOne) {
  const BuildResult built = compileKernels("image_kernels");
  ASSERT_EQ(built.status, Status::Success) << built.log;
  EXPECT_NE(built.log.find("declares OpTypeSampler 2 times"), std::string::npos) << built.log;
  const KernelDescriptor* sampleAt = built.program->info.findKernel("sample_at");
  ASSERT_NE(sampleAt, nullptr);
  ASSERT_EQ(sampleAt->arguments.size(), 4u);
  EXPECT_EQ(sampleAt->arguments[1].kind, ArgumentKind::Sampler);
  EXPECT_NE(built.program->info.findKernel("copy_first_pixel"), nullptr);
}

// A module that is valid as it is gets no warning.
TEST(ProducerSlips, AValidModuleBuildsWithoutWarnings) {
  const BuildResult built = compileKernels("work_items");
  ASSERT_EQ(built.status, Status::Success) << built.log;
  EXPECT_EQ(built.log, "");
}

}  // namespace
}  // namespace loom::compiler::test
