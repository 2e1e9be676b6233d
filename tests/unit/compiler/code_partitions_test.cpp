// CPU code generated in partitions on several threads: one object per partition, and kernels in
// different partitions share the program's variables and exported functions.
#include <gtest/gtest.h>

#include <cstring>

#include "kernel_runner.h"

namespace loom::compiler::test {
namespace {

// The objects of CPU code, counted by the framing compiler.h describes: a uint64_t size, then
// an ELF object of that size; 0 when the framing is broken.
size_t objectCount(const std::vector<uint8_t>& code) {
  size_t count = 0;
  for (size_t at = 0; at < code.size(); ++count) {
    uint64_t size = 0;
    if (code.size() - at < sizeof(size)) return 0;
    std::memcpy(&size, code.data() + at, sizeof(size));
    at += sizeof(size);
    if (size > code.size() - at || std::memcmp(code.data() + at, "\x7f" "ELF", 4) != 0) return 0;
    at += size;
  }
  return count;
}

BuildResult compileInPartitions(unsigned threads) {
  CompileRequest request;
  request.spirv = readSpirv("partitions");
  request.codeGenerationThreads = threads;
  return compileSpirv(request);
}

int runOne(CpuExecutable& executable, const BuildResult& built, const char* name, std::vector<int>& out) {
  std::string log;
  WorkGroupFunction function = executable.kernel(name, log);
  EXPECT_NE(function, nullptr) << log;
  if (!function) return -1;
  Range range;
  range.globalSize[0] = range.localSize[0] = 1;
  Arguments(*built.program->info.findKernel(name)).set(0, out.data()).run(function, range);
  return out[0];
}

TEST(CodePartitions, EachPartitionIsAnObjectAndTheKernelsShareTheProgramsVariables) {
  const BuildResult built = compileInPartitions(4);
  ASSERT_EQ(built.status, Status::Success) << built.log;
  EXPECT_EQ(objectCount(built.program->code), 4u) << "one kernel per partition";
  auto executable = loadBuilt(built);
  ASSERT_NE(executable, nullptr);
  std::vector<int> out(2, 0);
  EXPECT_EQ(runOne(*executable, built, "bump", out), 1);
  EXPECT_EQ(runOne(*executable, built, "bump", out), 2);
  runOne(*executable, built, "read_counters", out);
  EXPECT_EQ(out, (std::vector<int>{2, 110})) << "bump's writes, seen from another partition";
  EXPECT_EQ(runOne(*executable, built, "look_up", out), 12);
  EXPECT_EQ(runOne(*executable, built, "look_up_last", out), 44);
  // The program's one variable, whichever partition defines it.
  int* counter = static_cast<int*>(executable->globalVariable("shared_counter"));
  ASSERT_NE(counter, nullptr);
  EXPECT_EQ(*counter, 2);
}

TEST(CodePartitions, PartitionedCodeRoundTripsThroughTheNativeBinary) {
  const BuildResult built = compileInPartitions(2);
  ASSERT_EQ(built.status, Status::Success) << built.log;
  EXPECT_EQ(objectCount(built.program->code), 2u);
  const std::vector<uint8_t> binary = writeNativeBinary(*built.program);
  const BuildResult read = readNativeBinary(binary.data(), binary.size());
  ASSERT_EQ(read.status, Status::Success) << read.log;
  auto executable = loadBuilt(read);
  ASSERT_NE(executable, nullptr);
  std::vector<int> out(2, 0);
  EXPECT_EQ(runOne(*executable, read, "look_up_last", out), 44);
}

TEST(CodePartitions, SmallModulesStayWholeUnlessAsked) {
  const BuildResult whole = compileInPartitions(0);
  ASSERT_EQ(whole.status, Status::Success) << whole.log;
  EXPECT_EQ(objectCount(whole.program->code), 1u);
  const BuildResult one = compileInPartitions(1);
  ASSERT_EQ(one.status, Status::Success) << one.log;
  EXPECT_EQ(objectCount(one.program->code), 1u);
}

}  // namespace
}  // namespace loom::compiler::test
