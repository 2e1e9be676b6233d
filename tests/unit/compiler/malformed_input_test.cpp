// Whatever the input, the compiler answers with a status and a log; it never crashes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "kernel_runner.h"

namespace loom::compiler::test {
namespace {

void expectBuildFailure(std::vector<uint8_t> spirv, const char* what) {
  const BuildResult result = compile(std::move(spirv));
  EXPECT_EQ(result.status, Status::BuildFailure) << what;
  EXPECT_FALSE(result.log.empty()) << what;
  EXPECT_EQ(result.program, nullptr) << what;
}

TEST(MalformedInput, EmptyWrongMagicTruncatedAndRandomBytesFail) {
  expectBuildFailure({}, "empty");
  std::vector<uint8_t> wrongMagic = readSpirv("work_items");
  ASSERT_GT(wrongMagic.size(), 20u);
  wrongMagic[0] ^= 0xff;
  expectBuildFailure(wrongMagic, "wrong magic");
  const std::vector<uint8_t> original = readSpirv("work_items");
  // (20 bytes, the header alone, is a valid empty module.)
  for (size_t cut : {size_t(3), size_t(19), size_t(21), original.size() / 2, original.size() - 8, original.size() - 1})
    expectBuildFailure(std::vector<uint8_t>(original.begin(), original.begin() + cut), "truncated");
  std::vector<uint8_t> random(4096);
  uint32_t state = 12345;
  for (uint8_t& byte : random) byte = uint8_t((state = state * 1103515245u + 12345u) >> 24);
  expectBuildFailure(random, "random bytes");
  std::vector<uint8_t> randomWithHeader = random;
  std::copy(original.begin(), original.begin() + 20, randomWithHeader.begin());
  expectBuildFailure(randomWithHeader, "random bytes after a valid header");
}

// Damaged modules must fail cleanly (or, where the damage is harmless, build): never abort.
TEST(MalformedInput, RandomlyDamagedSpirvNeverCrashesTheCompiler) {
  const std::vector<uint8_t> original = readSpirv("barriers");
  uint64_t state = 0x9e3779b97f4a7c15ull;
  auto next = [&] { return state = state * 6364136223846793005ull + 1442695040888963407ull; };
  int failures = 0;
  for (int round = 0; round < 100; ++round) {
    std::vector<uint8_t> damaged = original;
    for (int flips = 0; flips < 1 + round % 4; ++flips) {
      const size_t at = 20 + (next() >> 33) % (damaged.size() - 20);
      damaged[at] ^= uint8_t(1u << ((next() >> 40) % 8));
    }
    const BuildResult result = compile(damaged);
    if (result.status == Status::Success) continue;
    ++failures;
    EXPECT_FALSE(result.log.empty());
  }
  EXPECT_GT(failures, 0);
}

std::vector<uint8_t> bytesOf(const std::vector<uint32_t>& words) {
  std::vector<uint8_t> bytes(words.size() * 4);
  std::memcpy(bytes.data(), words.data(), bytes.size());
  return bytes;
}

std::vector<uint32_t> wordsOf(const std::vector<uint8_t>& bytes) {
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

// The validator ignores the header's reserved schema word; the translator crashed on it.
TEST(MalformedInput, NonzeroSchemaWordFails) {
  std::vector<uint32_t> words = wordsOf(readSpirv("work_items"));
  words[4] = 235;
  const BuildResult result = compile(bytesOf(words));
  EXPECT_EQ(result.status, Status::BuildFailure);
  EXPECT_NE(result.log.find("the header's schema word is not 0"), std::string::npos) << result.log;
}

// A module without kernels is valid SPIR-V (Intel's driver builds one without the Linkage
// capability too), but the validator's verdict on the rest of it still counts: a damaged
// addressing model once went on to the translator, which ended the process.
TEST(MalformedInput, ModulesWithoutKernelsAreValidatedToo) {
  constexpr uint32_t kOpCapability = 17, kOpMemoryModel = 14, kAddresses = 4, kKernel = 6, kPhysical64 = 2, kOpenCl = 2;
  const std::vector<uint32_t> empty = {0x07230203, 0x00010000, 0, 1, 0, (2u << 16) | kOpCapability, kAddresses,
                                       (2u << 16) | kOpCapability, kKernel, (3u << 16) | kOpMemoryModel, kPhysical64, kOpenCl};
  const BuildResult built = compile(bytesOf(empty));
  ASSERT_EQ(built.status, Status::Success) << built.log;
  EXPECT_TRUE(built.program->info.kernels.empty());
  std::vector<uint32_t> damaged = empty;
  damaged[10] = 131074;  // the addressing model
  const BuildResult result = compile(bytesOf(damaged));
  EXPECT_EQ(result.status, Status::BuildFailure);
  EXPECT_NE(result.log.find("Invalid addressing model operand: 131074"), std::string::npos) << result.log;
}

// The validator's message names the instruction it is about.
TEST(MalformedInput, ValidationErrorsNameTheInstruction) {
  constexpr uint32_t kOpEntryPoint = 15, kOpTypeVoid = 19;
  std::vector<uint32_t> words = wordsOf(readSpirv("work_items"));
  uint32_t voidType = 0;
  size_t entryPoint = 0;
  for (size_t at = 5; at < words.size(); at += words[at] >> 16) {
    if ((words[at] & 0xffff) == kOpTypeVoid) voidType = words[at + 1];
    if ((words[at] & 0xffff) == kOpEntryPoint && entryPoint == 0) entryPoint = at;
  }
  ASSERT_NE(voidType, 0u);
  ASSERT_NE(entryPoint, 0u);
  words[entryPoint + 2] = voidType;  // the entry point's function
  const BuildResult result = compile(bytesOf(words));
  EXPECT_EQ(result.status, Status::BuildFailure);
  EXPECT_NE(result.log.find("(OpEntryPoint): OpEntryPoint Entry Point <id>"), std::string::npos) << result.log;
  EXPECT_NE(result.log.find("is not a function"), std::string::npos) << result.log;
}

// SPIR-V allows LocalSize 8 0 1; no work-group has a zero dimension, so the kernel cannot run.
TEST(MalformedInput, RequiredWorkGroupSizeWithAZeroDimensionFailsNamingTheKernel) {
  std::vector<uint8_t> spirv = readSpirv("work_items");
  constexpr uint32_t kOpExecutionMode = 16, kLocalSize = 17;
  bool patched = false;
  for (size_t at = 20; at + 4 <= spirv.size();) {
    uint32_t words[6] = {};
    std::memcpy(words, &spirv[at], std::min<size_t>(sizeof(words), spirv.size() - at));
    if ((words[0] & 0xffff) == kOpExecutionMode && words[2] == kLocalSize && words[3] == 8) {
      std::memset(&spirv[at + 16], 0, 4);  // the y dimension
      patched = true;
    }
    at += (words[0] >> 16) * 4;
  }
  ASSERT_TRUE(patched);
  const BuildResult result = compile(spirv);
  EXPECT_EQ(result.status, Status::BuildFailure);
  EXPECT_NE(result.log.find("kernel 'fixed_group': reqd_work_group_size has a zero dimension"), std::string::npos) << result.log;
}

}  // namespace
}  // namespace loom::compiler::test
