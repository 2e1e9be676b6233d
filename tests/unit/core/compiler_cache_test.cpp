#include "loom/core/compiler_cache.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

namespace loom::core {
namespace {

class CompilerCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/loom-cache-test-XXXXXX";
    directory = mkdtemp(pattern);
    program.info.kernels.resize(1);
    program.info.kernels[0].name = "k";
    program.code = {8, 0, 0, 0, 0, 0, 0, 0, 0x7f, 'E', 'L', 'F', 1, 2, 3, 4};  // one object of 8 bytes
    request.spirv = {3, 2, 0x23, 7, 1, 0, 1, 0};
  }
  void TearDown() override { std::system(("rm -rf " + directory).c_str()); }

  std::string directory;
  compiler::CompiledProgram program;
  compiler::CompileRequest request;
};

TEST_F(CompilerCacheTest, StoredProgramsComeBackUnderTheSameKey) {
  CompilerCache cache(directory + "/nested/dir");
  const std::string key = CompilerCache::key(request);
  EXPECT_EQ(cache.load(key), nullptr);
  cache.store(key, program);
  auto loaded = cache.load(key);
  ASSERT_NE(loaded, nullptr);
  EXPECT_EQ(loaded->code, program.code);
  EXPECT_EQ(loaded->info.kernels[0].name, "k");
}

TEST_F(CompilerCacheTest, KeysDependOnEveryInput) {
  const std::string base = CompilerCache::key(request);
  EXPECT_EQ(base.size(), 32u);
  EXPECT_EQ(CompilerCache::key(request), base);
  auto changed = [&](auto change) {
    compiler::CompileRequest other = request;
    change(other);
    return CompilerCache::key(other) != base;
  };
  EXPECT_TRUE(changed([](auto& r) { r.options = "-cl-fast-relaxed-math"; }));
  EXPECT_TRUE(changed([](auto& r) { r.specializationConstants[3] = 1; }));
  EXPECT_TRUE(changed([](auto& r) { r.spirv.back() ^= 1; }));
  EXPECT_TRUE(changed([](auto& r) { r.target = compiler::Target::Nvptx; }));
}

TEST_F(CompilerCacheTest, CorruptedEntriesAreIgnored) {
  CompilerCache cache(directory);
  const std::string key = CompilerCache::key(request);
  cache.store(key, program);
  const std::string path = directory + "/" + key + ".bin";
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  file.seekp(70);
  file.put('\x42');
  file.close();
  EXPECT_EQ(cache.load(key), nullptr);
  truncate(path.c_str(), 10);
  EXPECT_EQ(cache.load(key), nullptr);
}

TEST_F(CompilerCacheTest, AnEmptyDirectoryDisablesTheCache) {
  CompilerCache cache("");
  const std::string key = CompilerCache::key(request);
  cache.store(key, program);
  EXPECT_EQ(cache.load(key), nullptr);
}

}  // namespace
}  // namespace loom::core
