// Build options, the debug key that prints IR, and compiling from several threads at once.
#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>

#include "kernel_runner.h"
#include "loom/compiler/build_options.h"

namespace loom::compiler::test {
namespace {

TEST(BuildOptions, UnknownOptionsAreNamed) {
  const BuildResult unknown = compileKernels("work_items", "-cl-fast-relaxed-math -not-an-option");
  EXPECT_EQ(unknown.status, Status::InvalidOptions);
  EXPECT_NE(unknown.log.find("-not-an-option"), std::string::npos) << unknown.log;
}

TEST(BuildOptions, LevelZeroAndOpenClOptionsAreAccepted) {
  const char* accepted[] = {
      "-ze-opt-disable",
      "-ze-opt-level=2 -ze-opt-greater-than-4GB-buffer-required -ze-opt-large-register-file -g",
      "-cl-opt-disable -cl-std=CL2.0 -cl-kernel-arg-info -w -Werror -DNAME=1 -I/tmp",
      "-cl-fast-relaxed-math -cl-mad-enable -cl-no-signed-zeros -cl-unsafe-math-optimizations",
      "-cl-finite-math-only -cl-denorms-are-zero -cl-single-precision-constant",
  };
  for (const char* options : accepted) {
    const BuildResult built = compileKernels("work_items", options);
    EXPECT_EQ(built.status, Status::Success) << options << ": " << built.log;
  }
}

// What clang-based implementations accept from real programs' option strings.
TEST(BuildOptions, ParsesWhatRealProgramsPass) {
  std::string error;
  const auto parsed = parseBuildOptions(
      "-cl-std=cl2.0 -O3 -Wall -Wno-unused-variable -U NDEBUG -DA=\"x y\" -I /tmp -cl-mad-enable -cl-uniform-work-group-size", error);
  ASSERT_TRUE(parsed) << error;
  EXPECT_EQ(parsed->standard, "cl2.0");
  EXPECT_EQ(parsed->languageVersion(), 200u);
  EXPECT_TRUE(parsed->optimize);
  EXPECT_TRUE(parsed->uniformWorkGroupSize);
  EXPECT_FALSE(parsed->createLibrary);
  const std::vector<std::string> clang = {"-Wall", "-Wno-unused-variable", "-UNDEBUG", "-DA=x y", "-I/tmp", "-cl-mad-enable",
                                          "-cl-uniform-work-group-size"};
  EXPECT_EQ(parsed->clangArguments, clang);
  const std::pair<const char*, unsigned> versions[] = {{"", 120},          {"-cl-std=CL1.1", 110}, {"-cl-std=CL", 100},
                                                       {"-cl-std=CL3.0", 300}, {"-cl-std=CLC++", 200}, {"-cl-std=clc++2021", 300}};
  for (const auto& [options, version] : versions) {
    const auto standard = parseBuildOptions(options, error);
    ASSERT_TRUE(standard) << options << ": " << error;
    EXPECT_EQ(standard->languageVersion(), version) << options;
  }
  const auto unoptimized = parseBuildOptions("-O0 -create-library", error);
  ASSERT_TRUE(unoptimized) << error;
  EXPECT_FALSE(unoptimized->optimize);
  EXPECT_TRUE(unoptimized->createLibrary);
}

// Level Zero tools' profiling request (zet_api.h: "-zet-profile-flags <n>", n in hex): taken with
// its value, and, as by the model runtime, without one or with a malformed one; the build log says
// that no profiling information comes of it.
TEST(BuildOptions, ProfileFlagsAreTakenAndTheBuildLogSaysNothingIsProfiled) {
  std::string error;
  const std::pair<const char*, uint32_t> flags[] = {
      {"-zet-profile-flags 3", 3}, {"-zet-profile-flags 1 -cl-mad-enable", 1}, {"-zet-profile-flags", 0},
      {"-zet-profile-flags garbage", 0}, {"-zet-profile-flags -cl-mad-enable", 0}};
  for (const auto& [options, expected] : flags) {
    const auto parsed = parseBuildOptions(options, error);
    ASSERT_TRUE(parsed) << options << ": " << error;
    EXPECT_EQ(parsed->profileFlags, expected) << options;
  }
  const BuildResult built = compileKernels("work_items", "-zet-profile-flags 2");
  ASSERT_EQ(built.status, Status::Success) << built.log;
  EXPECT_NE(built.log.find("-zet-profile-flags 2: no profiling information"), std::string::npos) << built.log;
}

TEST(BuildOptions, BadOptionsAreNamed) {
  const std::pair<const char*, const char*> cases[] = {
      {"-O3 -fancy-nonsense", "unknown build option '-fancy-nonsense'"},
      {"-cl-std=CL9.9", "unsupported OpenCL C version in '-cl-std=CL9.9'"},
      {"-cl-std=", "unsupported OpenCL C version in '-cl-std='"},
      {"-DA=1 -I", "an argument is missing after '-I'"},
      {"-O7", "unknown build option '-O7'"},
  };
  for (const auto& [options, message] : cases) {
    std::string error;
    EXPECT_FALSE(parseBuildOptions(options, error)) << options;
    EXPECT_EQ(error, message) << options;
  }
}

// Unoptimized code must still be correct: the barrier state machine without the optimizer's help.
TEST(BuildOptions, UnoptimizedBarrierKernelsRun) {
  expectReversesOneGroup(compileKernels("barriers", "-ze-opt-disable"), 64);
}

TEST(DebugKeys, DumpKernelIrPrintsTheFinalIr) {
  setenv("LOOM_DumpKernelIr", "1", 1);
  testing::internal::CaptureStderr();
  const BuildResult built = compileKernels("exporter");
  const std::string printed = testing::internal::GetCapturedStderr();
  unsetenv("LOOM_DumpKernelIr");
  ASSERT_EQ(built.status, Status::Success) << built.log;
  EXPECT_NE(printed.find("define i32 @linked_helper"), std::string::npos) << printed;
}

// Builds the barrier kernels, loads them and reverses `data` in groups of 16; the log on failure.
std::string buildLoadAndReverse(std::vector<int>& data) {
  const BuildResult built = compileKernels("barriers");
  if (built.status != Status::Success) return built.log;
  std::string log;
  auto executable = CpuExecutable::load(built.program, log);
  if (!executable) return log;
  WorkGroupFunction reverse = executable->kernel("reverse_in_groups", log);
  if (!reverse) return log;
  Range range;
  range.globalSize[0] = data.size();
  range.localSize[0] = 16;
  Arguments(*built.program->info.findKernel("reverse_in_groups")).set(0, data.data()).run(reverse, range);
  return "";
}

// The runtime builds and loads modules from any thread (the JIT's set-up, the translator's
// abort guard and the target registry are process-wide).
TEST(Threads, CompileLoadAndRunConcurrently) {
  constexpr int kThreads = 4;
  std::vector<std::vector<int>> data(kThreads, std::vector<int>(64));
  std::vector<std::string> failures(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    for (int i = 0; i < 64; ++i) data[t][i] = i;
    threads.emplace_back([&, t] { failures[t] = buildLoadAndReverse(data[t]); });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(failures[t], "") << "thread " << t;
    for (int i = 0; i < 64; ++i) EXPECT_EQ(data[t][i], i / 16 * 16 + 15 - i % 16) << "thread " << t;
  }
}

}  // namespace
}  // namespace loom::compiler::test
