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

// tests/kernels/block_order_slip.spvasm lists a loop's exit before the body that dominates it.
TEST(ProducerSlips, BlocksBeforeTheirDominatorsAreReadInDominanceOrder) {
  uint32_t out = 0;
  expectBuildsWarnsAndRuns("block_order_slip", "list blocks before their dominators", "sum_below_five", &out);
  EXPECT_EQ(out, 10u);
}

TEST(ProducerSlips, BlockOrderDoesNotHideOtherDamage) {
  const BuildResult built = compile(readSpirv("block_order_slip_and_damage"));
  EXPECT_EQ(built.status, Status::BuildFailure);
  EXPECT_NE(built.log.find("has not been defined"), std::string::npos) << built.log;
}

// kernels/weak_compare_exchange_slip.spvasm: OpAtomicCompareExchangeWeak in a SPIR-V 1.4 module reads
// as the strong exchange, which never fails spuriously, so the outcome is certain.
TEST(ProducerSlips, AWeakCompareExchangeOfSpirv14ReadsAsTheStrongOne) {
  uint32_t zero[2] = {0, 5};
  expectBuildsWarnsAndRuns("weak_compare_exchange_slip", "read as OpAtomicCompareExchange", "exchange_zero_for_seven", zero);
  EXPECT_EQ(zero[0], 7u);
  EXPECT_EQ(zero[1], 1u);
  uint32_t three[2] = {3, 5};
  expectBuildsWarnsAndRuns("weak_compare_exchange_slip", "read as OpAtomicCompareExchange", "exchange_zero_for_seven", three);
  EXPECT_EQ(three[0], 3u);
  EXPECT_EQ(three[1], 0u);
}

// Loom's own frontend writes the strong exchange where the translator would write the weak one
// into a SPIR-V 1.4 module (signed arithmetic's NoSignedWrap raises the version): the module is
// valid as written (no warning when read back as any producer's), and the weak exchange in a retry
// loop counts every work-item once.
TEST(ProducerSlips, LoomWritesAtomicCompareExchangeWeakAsValidSpirv) {
  const char* source = R"(
    kernel void count_with_weak_exchanges(global atomic_int* counter, int step) {
      int seen = atomic_load_explicit(counter, memory_order_relaxed);
      while (!atomic_compare_exchange_weak_explicit(counter, &seen, seen + step, memory_order_relaxed, memory_order_relaxed)) {
      }
    })";
  const SpirvResult spirv = compileOpenClSource({source, "-cl-std=CL3.0", {}});
  ASSERT_EQ(spirv.status, Status::Success) << spirv.log;
  const BuildResult built = compile(spirv.spirv);
  ASSERT_EQ(built.status, Status::Success) << built.log;
  EXPECT_EQ(built.log.find("OpAtomicCompareExchangeWeak"), std::string::npos) << built.log;
  std::unique_ptr<CpuExecutable> executable = loadBuilt(built);
  ASSERT_NE(executable, nullptr);
  std::string log;
  WorkGroupFunction function = executable->kernel("count_with_weak_exchanges", log);
  ASSERT_NE(function, nullptr) << log;
  int32_t counter = 0;
  Arguments(*built.program->info.findKernel("count_with_weak_exchanges"))
      .set(0, &counter)
      .set(1, int32_t{3})
      .run(function, range1d(64, 16));
  EXPECT_EQ(counter, 64 * 3);
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
