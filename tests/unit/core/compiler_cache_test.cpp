#include "loom/core/compiler_cache.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
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

  static mode_t modeOf(const std::string& path) {
    struct stat status {};
    EXPECT_EQ(lstat(path.c_str(), &status), 0) << path;
    return status.st_mode & 07777;
  }
  // A key of another program, to see whether a store writes anything.
  std::string otherKey() const {
    compiler::CompileRequest other = request;
    other.options = "-cl-mad-enable";
    return CompilerCache::key(other);
  }

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
  EXPECT_TRUE(changed([](auto& r) { r.exportFunctions = false; }));
  EXPECT_TRUE(changed([](auto& r) { r.spansGpus = true; }));
}

// A program built from the cache reports the warnings of its first build.
TEST_F(CompilerCacheTest, TheBuildLogComesBackWithTheProgram) {
  CompilerCache cache(directory);
  const std::string key = CompilerCache::key(request);
  cache.store(key, program, "warning: something to say\n");
  std::string log;
  ASSERT_NE(cache.load(key, &log), nullptr);
  EXPECT_EQ("warning: something to say\n", log);
  cache.store(key, program);
  ASSERT_NE(cache.load(key, &log), nullptr);
  EXPECT_EQ("", log);
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

TEST_F(CompilerCacheTest, FoldersAreMadeForTheUserAloneAndEntriesToo) {
  CompilerCache cache(directory + "/nested/dir");
  const std::string key = CompilerCache::key(request);
  cache.store(key, program);
  EXPECT_EQ(modeOf(directory + "/nested"), 0700u);
  EXPECT_EQ(modeOf(directory + "/nested/dir"), 0700u);
  EXPECT_EQ(modeOf(directory + "/nested/dir/" + key + ".bin"), 0600u);
}

// Whoever may write the folder can put code of their own under a key: such a folder is not used,
// for loading or storing, until it is private again.
TEST_F(CompilerCacheTest, AFolderOthersMayWriteIsNotUsed) {
  CompilerCache cache(directory);
  const std::string key = CompilerCache::key(request);
  cache.store(key, program);
  ASSERT_NE(cache.load(key), nullptr);
  for (mode_t mode : {0777, 0770, 0702}) {
    ASSERT_EQ(chmod(directory.c_str(), mode), 0);
    EXPECT_EQ(cache.load(key), nullptr) << std::oct << mode;
    cache.store(otherKey(), program);
    EXPECT_FALSE(std::filesystem::exists(directory + "/" + otherKey() + ".bin")) << std::oct << mode;
  }
  ASSERT_EQ(chmod(directory.c_str(), 0755), 0);
  EXPECT_NE(cache.load(key), nullptr) << "others may read it, not write it";
}

// As /tmp/loom-cache-<uid> would be when another user made it first.
TEST_F(CompilerCacheTest, AFolderOfAnotherUserIsNotUsed) {
  if (geteuid() != 0) GTEST_SKIP() << "only root can give a folder to another user";
  CompilerCache cache(directory);
  const std::string key = CompilerCache::key(request);
  cache.store(key, program);
  ASSERT_EQ(chown(directory.c_str(), 65534, 65534), 0);
  EXPECT_EQ(cache.load(key), nullptr);
  cache.store(otherKey(), program);
  EXPECT_FALSE(std::filesystem::exists(directory + "/" + otherKey() + ".bin"));
  ASSERT_EQ(chown(directory.c_str(), 0, 0), 0);
  EXPECT_NE(cache.load(key), nullptr);
}

// A symlink planted where the cache folder should be is not followed, even to a private folder.
TEST_F(CompilerCacheTest, ASymlinkAsTheFolderIsNotFollowed) {
  const std::string real = directory + "/real", link = directory + "/link";
  const std::string key = CompilerCache::key(request);
  CompilerCache(real).store(key, program);
  ASSERT_NE(CompilerCache(real).load(key), nullptr);
  ASSERT_EQ(symlink(real.c_str(), link.c_str()), 0);
  CompilerCache linked(link);
  EXPECT_EQ(linked.load(key), nullptr);
  linked.store(otherKey(), program);
  EXPECT_FALSE(std::filesystem::exists(real + "/" + otherKey() + ".bin"));
  EXPECT_TRUE(std::filesystem::is_symlink(link)) << "the symlink is left as it is";
}

TEST_F(CompilerCacheTest, EntriesOthersMayChangeAreIgnored) {
  CompilerCache cache(directory);
  const std::string key = CompilerCache::key(request);
  const std::string entry = directory + "/" + key + ".bin";
  cache.store(key, program);
  ASSERT_EQ(chmod(entry.c_str(), 0666), 0);
  EXPECT_EQ(cache.load(key), nullptr) << "writable by others";
  ASSERT_EQ(chmod(entry.c_str(), 0644), 0);
  EXPECT_NE(cache.load(key), nullptr);
  if (geteuid() == 0) {
    ASSERT_EQ(chown(entry.c_str(), 65534, 65534), 0);
    EXPECT_EQ(cache.load(key), nullptr) << "another user's";
  }
  // A symlink as the entry, to a good entry elsewhere, is not followed.
  const std::string elsewhere = directory + "/elsewhere";
  CompilerCache(elsewhere).store(key, program);
  ASSERT_EQ(std::remove(entry.c_str()), 0);
  ASSERT_EQ(symlink((elsewhere + "/" + key + ".bin").c_str(), entry.c_str()), 0);
  EXPECT_EQ(cache.load(key), nullptr);
}

}  // namespace
}  // namespace loom::core
