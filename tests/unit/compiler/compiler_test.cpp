#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "loom/compiler/compiler.h"
#include "loom/compiler/cpu_executable.h"

namespace loom::compiler {
namespace {

std::vector<uint8_t> apiKernels() {
  std::ifstream file(std::string(LOOM_TEST_KERNEL_DIR) + "/api_kernels.spv", std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

BuildResult compile(std::vector<uint8_t> spirv, std::string options = "") {
  CompileRequest request;
  request.spirv = std::move(spirv);
  request.options = std::move(options);
  return compileSpirv(request);
}

const BuildResult& compiledApiKernels() {
  static const BuildResult result = compile(apiKernels());
  return result;
}

TEST(Compiler, DescribesArgumentsInTheirBufferLayout) {
  const BuildResult& built = compiledApiKernels();
  ASSERT_EQ(built.status, Status::Success) << built.log;
  const KernelDescriptor* mixed = built.program->info.findKernel("mixed_arguments");
  ASSERT_NE(mixed, nullptr);
  ASSERT_EQ(mixed->arguments.size(), 8u);
  const struct {
    ArgumentKind kind;
    uint32_t offset, size;
  } expected[] = {{ArgumentKind::GlobalPointer, 0, 8}, {ArgumentKind::Value, 8, 24}, {ArgumentKind::Value, 32, 1},
                  {ArgumentKind::Value, 34, 2},        {ArgumentKind::Value, 40, 8}, {ArgumentKind::Value, 48, 4},
                  {ArgumentKind::Value, 56, 8},        {ArgumentKind::Value, 64, 1}};
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(mixed->arguments[i].kind, expected[i].kind) << i;
    EXPECT_EQ(mixed->arguments[i].offset, expected[i].offset) << i;
    EXPECT_EQ(mixed->arguments[i].size, expected[i].size) << i;
  }
  EXPECT_EQ(mixed->argumentBufferSize, 72u);
  EXPECT_EQ(mixed->arguments[0].typeName, "double*");
}

TEST(Compiler, DescribesAttributesBarriersAndLocalMemory) {
  const ProgramInfo& info = compiledApiKernels().program->info;
  const KernelDescriptor* fixed = info.findKernel("fixed_group");
  ASSERT_NE(fixed, nullptr);
  EXPECT_EQ(fixed->requiredWorkGroupSize, (std::array<uint32_t, 3>{8, 1, 1}));
  EXPECT_EQ(fixed->attributes, "reqd_work_group_size(8,1,1)");
  const KernelDescriptor* reduce = info.findKernel("reduce_in_groups");
  ASSERT_NE(reduce, nullptr);
  EXPECT_TRUE(reduce->hasBarriers);
  EXPECT_GT(reduce->barrierFrameSize, 0u);
  EXPECT_EQ(reduce->arguments[2].kind, ArgumentKind::LocalPointer);
  const KernelDescriptor* reverse = info.findKernel("reverse_in_groups");
  ASSERT_NE(reverse, nullptr);
  EXPECT_EQ(reverse->staticLocalMemorySize, 64 * sizeof(int));
  EXPECT_FALSE(info.findKernel("add_vectors")->hasBarriers);
  ASSERT_EQ(info.globals.size(), 1u);
  EXPECT_EQ(info.globals[0].name, "counter_global");
  EXPECT_NE(std::find(info.exportedFunctions.begin(), info.exportedFunctions.end(), "exported_helper"),
            info.exportedFunctions.end());
  EXPECT_EQ(std::find(info.exportedFunctions.begin(), info.exportedFunctions.end(), "exchange"), info.exportedFunctions.end())
      << "a function with a barrier cannot be called on its own";
}

TEST(Compiler, RunsAWorkGroupFunctionLoadedByTheJit) {
  std::string log;
  auto executable = CpuExecutable::load(compiledApiKernels().program, log);
  ASSERT_NE(executable, nullptr) << log;
  WorkGroupFunction add = executable->kernel("add_vectors", log);
  ASSERT_NE(add, nullptr) << log;
  float a[8], b[8], sum[8];
  for (int i = 0; i < 8; ++i) a[i] = float(i), b[i] = 10.0f, sum[i] = 0.0f;
  struct {
    float *a, *b, *sum;
  } arguments{a, b, sum};
  for (uint32_t group = 0; group < 2; ++group) {
    WorkGroupContext context{};
    context.groupId[0] = group;
    for (int d = 0; d < 3; ++d) {
      context.localSize[d] = context.enqueuedLocalSize[d] = d == 0 ? 4 : 1;
      context.numGroups[d] = d == 0 ? 2 : 1;
      context.globalSize[d] = d == 0 ? 8 : 1;
    }
    context.workDim = 1;
    add(&arguments, &context);
  }
  for (int i = 0; i < 8; ++i) EXPECT_EQ(sum[i], float(i) + 10.0f);
  EXPECT_EQ(executable->kernel("no_such_kernel", log), nullptr);
}

TEST(Compiler, MalformedSpirvAndUnknownOptionsFailWithALog) {
  for (const std::vector<uint8_t>& bad : {std::vector<uint8_t>{}, std::vector<uint8_t>(19, 0), std::vector<uint8_t>(64, 0xff)}) {
    const BuildResult result = compile(bad);
    EXPECT_EQ(result.status, Status::BuildFailure);
    EXPECT_FALSE(result.log.empty());
  }
  std::vector<uint8_t> truncated = apiKernels();
  truncated.resize(truncated.size() - 8);
  EXPECT_EQ(compile(truncated).status, Status::BuildFailure);
  const BuildResult unknown = compile(apiKernels(), "-cl-fast-relaxed-math -not-an-option");
  EXPECT_EQ(unknown.status, Status::InvalidOptions);
  EXPECT_NE(unknown.log.find("-not-an-option"), std::string::npos);
}

TEST(Compiler, NativeBinaryRoundTripsAndRejectsEveryTruncationAndFlip) {
  const CompiledProgram& program = *compiledApiKernels().program;
  const std::vector<uint8_t> binary = writeNativeBinary(program);
  const BuildResult read = readNativeBinary(binary.data(), binary.size());
  ASSERT_EQ(read.status, Status::Success) << read.log;
  EXPECT_EQ(read.program->code, program.code);
  EXPECT_EQ(read.program->info.kernels.size(), program.info.kernels.size());
  EXPECT_EQ(read.program->info.findKernel("mixed_arguments")->argumentBufferSize, 72u);
  for (size_t length = 0; length < binary.size(); length += 1 + length / 16)
    EXPECT_EQ(readNativeBinary(binary.data(), length).status, Status::InvalidBinary) << length;
  for (size_t at = 0; at < binary.size(); at += 97) {
    std::vector<uint8_t> flipped = binary;
    flipped[at] ^= 0x10;
    EXPECT_EQ(readNativeBinary(flipped.data(), flipped.size()).status, Status::InvalidBinary) << at;
  }
  EXPECT_EQ(readNativeBinary(nullptr, 0).status, Status::InvalidBinary);
}

}  // namespace
}  // namespace loom::compiler

namespace loom::compiler {
namespace {

// Damaged modules must fail cleanly (or, where the damage is harmless, build): never abort.
TEST(Compiler, RandomlyDamagedSpirvNeverCrashesTheCompiler) {
  const std::vector<uint8_t> original = apiKernels();
  uint64_t state = 0x9e3779b97f4a7c15ull;
  auto next = [&] { return state = state * 6364136223846793005ull + 1442695040888963407ull; };
  int failures = 0;
  for (int round = 0; round < 150; ++round) {
    std::vector<uint8_t> damaged = original;
    for (int flips = 0; flips < 1 + round % 4; ++flips) {
      const size_t at = 20 + (next() >> 33) % (damaged.size() - 20);
      damaged[at] ^= uint8_t(1u << ((next() >> 40) % 8));
    }
    const BuildResult result = compile(damaged);
    if (result.status != Status::Success) {
      ++failures;
      EXPECT_FALSE(result.log.empty());
    }
  }
  EXPECT_GT(failures, 0);
}

}  // namespace
}  // namespace loom::compiler
