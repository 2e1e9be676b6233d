// Whatever the input, the compiler answers with a status and a log; it never crashes.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace loom::compiler::test
