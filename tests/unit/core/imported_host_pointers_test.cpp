// Imported host pointers (zexDriverImportExternalPointer): which ranges import, what overlapping
// ones answer, and that the GPUs' pinner registers each import once and unregisters it on release.
#include "loom/core/imported_host_pointers.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "fake_backend.h"

namespace loom::core {
namespace {

using Result = ImportedHostPointers::Result;

// A GPU's host allocator: records what it pins; refuses once `refuse` is set.
class Pinner final : public testing::FakeBackendBase {
 public:
  bool registerHostMemory(void* address, size_t size) override {
    if (refuse) return false;
    pinned.emplace_back(address, size);
    return true;
  }
  void unregisterHostMemory(void* address) override { unpinned.push_back(address); }
  bool refuse = false;
  std::vector<std::pair<void*, size_t>> pinned;
  std::vector<void*> unpinned;
};

class ImportedHostPointersTest : public ::testing::Test {
 protected:
  char* at(size_t offset) { return memory + offset; }
  char memory[4096] = {};
  Pinner pinner;
  ImportedHostPointers imports{&pinner};
};

TEST_F(ImportedHostPointersTest, AnImportIsPinnedOnceAndFoundFromAnyOfItsBytes) {
  ASSERT_EQ(imports.import(at(1024), 1024), Result::Imported);
  ASSERT_EQ(pinner.pinned.size(), 1u);
  EXPECT_EQ(pinner.pinned[0], std::make_pair(static_cast<void*>(at(1024)), size_t(1024)));
  EXPECT_EQ(imports.baseOf(at(1024)), at(1024));
  EXPECT_EQ(imports.baseOf(at(2047)), at(1024));
  EXPECT_EQ(imports.baseOf(at(2048)), nullptr);
  EXPECT_EQ(imports.baseOf(at(1023)), nullptr);
  EXPECT_EQ(imports.import(at(1100), 100), Result::AlreadyImported);
  EXPECT_EQ(pinner.pinned.size(), 1u) << "a range inside an import is not pinned again";
}

TEST_F(ImportedHostPointersTest, RangesThatOverlapImportsAreRefusedAsTheModelRuntimeDoes) {
  ASSERT_EQ(imports.import(at(1024), 1024), Result::Imported);
  ASSERT_EQ(imports.import(at(3072), 512), Result::Imported);
  EXPECT_EQ(imports.import(at(2000), 100), Result::StartsInAnother);
  EXPECT_EQ(imports.import(at(512), 1024), Result::EndsInAnother);
  EXPECT_EQ(imports.import(at(2000), 1100), Result::Overlaps) << "from one import into the next";
  EXPECT_EQ(imports.import(at(2560), 1536), Result::Overlaps) << "around an import";
  EXPECT_EQ(imports.import(at(2048), 1024), Result::Imported) << "between the two, touching both";
  EXPECT_EQ(pinner.pinned.size(), 3u);
}

TEST_F(ImportedHostPointersTest, ReleaseTakesTheStartAndUnpins) {
  ASSERT_EQ(imports.import(at(0), 512), Result::Imported);
  EXPECT_FALSE(imports.release(at(100))) << "not the start";
  EXPECT_TRUE(imports.release(at(0)));
  EXPECT_EQ(pinner.unpinned, std::vector<void*>{at(0)});
  EXPECT_EQ(imports.baseOf(at(0)), nullptr);
  EXPECT_FALSE(imports.release(at(0))) << "released already";
  EXPECT_EQ(imports.import(at(0), 512), Result::Imported) << "and importable again";
}

TEST_F(ImportedHostPointersTest, WhatTheGpusCannotPinIsNotImported) {
  pinner.refuse = true;
  EXPECT_EQ(imports.import(at(0), 512), Result::Refused);
  EXPECT_EQ(imports.baseOf(at(0)), nullptr);
}

TEST(ImportedHostPointersWithoutGpus, ImportsAreBookkeepingOnly) {
  char memory[64];
  ImportedHostPointers imports(nullptr);
  EXPECT_EQ(imports.import(memory, sizeof(memory)), Result::Imported);
  EXPECT_EQ(imports.baseOf(memory + 63), memory);
  EXPECT_TRUE(imports.release(memory));
}

}  // namespace
}  // namespace loom::core
