#include "loom/core/ipc_handle.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>

namespace loom::core {
namespace {

IpcFileReference someFile() {
  IpcFileReference file;
  file.pid = 4242;
  file.fd = 17;
  for (size_t i = 0; i < file.identity.bytes.size(); ++i) file.identity.bytes[i] = uint8_t(0xa0 + i);
  file.device = 0x1234;
  file.inode = 0x98765;
  return file;
}

IpcMemoryHandle someMemoryHandle() {
  return {.file = someFile(), .kind = IpcMemoryKind::MemoryFile, .type = MemoryType::Device, .size = 8192, .offset = 100};
}

IpcEventPoolHandle someEventPoolHandle() { return {.file = someFile(), .count = 8, .flags = 0x3}; }

void expectSameFile(const IpcFileReference& a, const IpcFileReference& b) {
  EXPECT_EQ(a.pid, b.pid);
  EXPECT_EQ(a.fd, b.fd);
  EXPECT_EQ(a.identity, b.identity);
  EXPECT_EQ(a.device, b.device);
  EXPECT_EQ(a.inode, b.inode);
}

std::optional<IpcMemoryHandle> decodeMemory(const IpcHandleBytes& bytes) {
  std::string why;
  auto handle = decodeIpcMemoryHandle(bytes.data(), bytes.size(), why);
  EXPECT_EQ(handle.has_value(), why.empty()) << "a rejection says why, and only a rejection";
  return handle;
}

std::optional<IpcEventPoolHandle> decodeEventPool(const IpcHandleBytes& bytes) {
  std::string why;
  auto handle = decodeIpcEventPoolHandle(bytes.data(), bytes.size(), why);
  EXPECT_EQ(handle.has_value(), why.empty()) << "a rejection says why, and only a rejection";
  return handle;
}

TEST(IpcHandle, MemoryHandlesOfEveryKindAndTypeComeBackAsTheyWent) {
  for (IpcMemoryKind kind : {IpcMemoryKind::MemoryFile, IpcMemoryKind::DriverHandle})
    for (MemoryType type : {MemoryType::Host, MemoryType::Device, MemoryType::Shared}) {
      IpcMemoryHandle handle = someMemoryHandle();
      handle.kind = kind;
      handle.type = type;
      const std::optional<IpcMemoryHandle> decoded = decodeMemory(encodeIpcHandle(handle));
      ASSERT_TRUE(decoded);
      expectSameFile(decoded->file, handle.file);
      EXPECT_EQ(decoded->kind, kind);
      EXPECT_EQ(decoded->type, type);
      EXPECT_EQ(decoded->size, 8192u);
      EXPECT_EQ(decoded->offset, 100u);
    }
}

TEST(IpcHandle, EventPoolHandlesComeBackAsTheyWent) {
  const std::optional<IpcEventPoolHandle> decoded = decodeEventPool(encodeIpcHandle(someEventPoolHandle()));
  ASSERT_TRUE(decoded);
  expectSameFile(decoded->file, someFile());
  EXPECT_EQ(decoded->count, 8u);
  EXPECT_EQ(decoded->flags, 0x3u);
}

TEST(IpcHandle, AHandleOfOneKindIsNotTakenForTheOther) {
  EXPECT_FALSE(decodeEventPool(encodeIpcHandle(someMemoryHandle())));
  EXPECT_FALSE(decodeMemory(encodeIpcHandle(someEventPoolHandle())));
}

TEST(IpcHandle, ShortAndEmptyInputsAreRejected) {
  const IpcHandleBytes bytes = encodeIpcHandle(someMemoryHandle());
  std::string why;
  EXPECT_FALSE(decodeIpcMemoryHandle(bytes.data(), bytes.size() - 1, why));
  EXPECT_FALSE(decodeIpcEventPoolHandle(bytes.data(), 0, why));
  EXPECT_FALSE(decodeMemory(IpcHandleBytes{}));
  IpcHandleBytes ones;
  ones.fill(0xff);
  EXPECT_FALSE(decodeMemory(ones));
  EXPECT_FALSE(decodeEventPool(ones));
}

// Each field of the header that can be wrong on its own, at the offsets ipc_handle.cpp documents.
TEST(IpcHandle, EveryMalformedHeaderFieldIsRejected) {
  struct Damage {
    const char* what;
    size_t at;
    std::vector<uint8_t> bytes;
  };
  const Damage damages[] = {
      {"magic", 0, {'X'}},
      {"version", 4, {2}},
      {"kind", 5, {9}},
      {"memory type", 6, {3}},
      {"reserved byte", 7, {1}},
      {"pid 0", 8, {0, 0, 0, 0}},
      {"negative pid", 8, {0xff, 0xff, 0xff, 0xff}},
      {"negative fd", 12, {0xff, 0xff, 0xff, 0xff}},
      {"no identity", 16, std::vector<uint8_t>(16, 0)},
  };
  for (const Damage& damage : damages) {
    IpcHandleBytes bytes = encodeIpcHandle(someMemoryHandle());
    std::memcpy(bytes.data() + damage.at, damage.bytes.data(), damage.bytes.size());
    EXPECT_FALSE(decodeMemory(bytes)) << damage.what;
  }
}

TEST(IpcHandle, TheExportedPointerMustLieInsideItsAllocation) {
  IpcMemoryHandle handle = someMemoryHandle();
  handle.offset = handle.size - 1;
  EXPECT_TRUE(decodeMemory(encodeIpcHandle(handle)));
  handle.offset = handle.size;
  EXPECT_FALSE(decodeMemory(encodeIpcHandle(handle)));
  handle.offset = ~0ull;
  EXPECT_FALSE(decodeMemory(encodeIpcHandle(handle)));
  handle.size = 0;
  handle.offset = 0;
  EXPECT_TRUE(decodeMemory(encodeIpcHandle(handle))) << "an empty allocation has its base";
}

TEST(IpcHandle, AnEventPoolHandleHasEventsAndNothingInItsUnusedBytes) {
  IpcEventPoolHandle handle = someEventPoolHandle();
  handle.count = 0;
  EXPECT_FALSE(decodeEventPool(encodeIpcHandle(handle)));
  IpcHandleBytes bytes = encodeIpcHandle(someEventPoolHandle());
  bytes[60] = 1;
  EXPECT_FALSE(decodeEventPool(bytes));
  bytes = encodeIpcHandle(someEventPoolHandle());
  bytes[6] = 1;
  EXPECT_FALSE(decodeEventPool(bytes));
}

TEST(IpcHandle, IdentitiesAreRandomAndNameTheirFile) {
  std::set<std::string> names;
  for (int i = 0; i < 100; ++i) {
    const std::optional<FileIdentity> identity = FileIdentity::random();
    ASSERT_TRUE(identity);
    EXPECT_FALSE(identity->empty());
    names.insert(memoryFileName(*identity));
  }
  EXPECT_EQ(names.size(), 100u);
  const std::string name = memoryFileName(someFile().identity);
  EXPECT_EQ(name, "loom-allocation-a0a1a2a3a4a5a6a7a8a9aaabacadaeaf");
  EXPECT_EQ(memoryFileLink(someFile().identity), "/memfd:" + name + " (deleted)");
}

// What the importer sees of the file it opened must be the very file the handle names.
class OpenedFileCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    genuine.regular = true;
    genuine.device = reference.device;
    genuine.inode = reference.inode;
    genuine.size = 8192;
    genuine.cannotShrink = true;
    genuine.link = memoryFileLink(reference.identity);
  }
  bool accepted(const OpenedFileFacts& facts, uint64_t minimumSize = 8192) {
    return checkOpenedFile(reference, facts, minimumSize).empty();
  }

  IpcFileReference reference = someFile();
  OpenedFileFacts genuine;
};

TEST_F(OpenedFileCheck, TheGenuineFileIsAccepted) {
  EXPECT_TRUE(accepted(genuine));
  EXPECT_TRUE(accepted(genuine, 1));
}

TEST_F(OpenedFileCheck, AnotherFileOfTheExporterIsRejected) {
  OpenedFileFacts facts = genuine;
  facts.link = "/home/user/secret.txt";
  EXPECT_FALSE(accepted(facts));
  FileIdentity other = reference.identity;
  other.bytes[15] ^= 1;
  facts.link = memoryFileLink(other);
  EXPECT_FALSE(accepted(facts)) << "another Loom allocation (a freed one's descriptor, reused)";
  facts.link = "/memfd:" + memoryFileName(reference.identity);
  EXPECT_FALSE(accepted(facts)) << "a link that only starts like it";
  facts = genuine;
  facts.regular = false;
  EXPECT_FALSE(accepted(facts));
}

TEST_F(OpenedFileCheck, AFileNamedLikeTheHandlesButAnotherInodeIsRejected) {
  OpenedFileFacts facts = genuine;
  facts.inode += 1;
  EXPECT_FALSE(accepted(facts));
  facts = genuine;
  facts.device += 1;
  EXPECT_FALSE(accepted(facts));
}

TEST_F(OpenedFileCheck, AFileThatMayShrinkOrIsTooSmallIsRejected) {
  OpenedFileFacts facts = genuine;
  facts.cannotShrink = false;
  EXPECT_FALSE(accepted(facts));
  EXPECT_FALSE(accepted(genuine, 8192 + 16));
  EXPECT_FALSE(accepted(genuine, 1ull << 40));
}

}  // namespace
}  // namespace loom::core
