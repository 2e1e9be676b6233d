#include "loom/core/ipc_handle.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>

namespace loom::core {
namespace {

IpcFileReference someFile() {
  IpcFileReference file;
  file.contents = {MemoryFilePurpose::Allocation, uint32_t(MemoryType::Device), 8192};
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
      const MemoryFilePurpose purpose =
          kind == IpcMemoryKind::DriverHandle ? MemoryFilePurpose::DriverRecord : MemoryFilePurpose::Allocation;
      EXPECT_EQ(decoded->file.contents, (MemoryFileContents{purpose, uint32_t(type), 8192})) << "what the file's name says";
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
  EXPECT_EQ(decoded->file.contents, (MemoryFileContents{MemoryFilePurpose::EventPool, 0x3, 8}));
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
      {"magic", 12, {'X'}},
      {"version", 4, {1}},
      {"kind", 5, {9}},
      {"memory type", 6, {3}},
      {"reserved byte", 7, {1}},
      {"pid 0", 8, {0, 0, 0, 0}},
      {"negative pid", 8, {0xff, 0xff, 0xff, 0xff}},
      {"negative fd", 0, {0xff, 0xff, 0xff, 0xff}},
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
    names.insert(memoryFileName(*identity, {}));
  }
  EXPECT_EQ(names.size(), 100u);
  const MemoryFileContents contents{MemoryFilePurpose::Allocation, 1, 0x2000};
  const std::string name = memoryFileName(someFile().identity, contents);
  EXPECT_EQ(name, "loom-allocation-a0a1a2a3a4a5a6a7a8a9aaabacadaeaf-1-2000");
  EXPECT_EQ(memoryFileLink(someFile().identity, contents), "/memfd:" + name + " (deleted)");
}

TEST(IpcHandle, AFilesLinkSaysWhatItHolds) {
  const FileIdentity identity = someFile().identity;
  for (const MemoryFileContents& contents :
       {MemoryFileContents{MemoryFilePurpose::Allocation, 2, 0}, MemoryFileContents{MemoryFilePurpose::DriverRecord, 1, ~0ull},
        MemoryFileContents{MemoryFilePurpose::EventPool, 0xffffffff, 8}}) {
    const std::optional<NamedMemoryFile> named = parseMemoryFileLink(memoryFileLink(identity, contents));
    ASSERT_TRUE(named) << memoryFileLink(identity, contents);
    EXPECT_EQ(named->identity, identity);
    EXPECT_EQ(named->contents, contents);
  }
}

TEST(IpcHandle, OnlyTheExactLinkOfALoomFileIsRead) {
  const std::string hex = "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf";
  EXPECT_TRUE(parseMemoryFileLink("/memfd:loom-event-pool-" + hex + "-3-8 (deleted)"));
  for (const std::string& link : {
           "/memfd:loom-event-pool-" + hex + "-3-8",                        // not deleted: not a memfd
           "/memfd:loom-event-pool-" + hex + "-3-8 (deleted)x",             // something after it
           "/memfd:loom-event-pool-" + hex + "-03-8 (deleted)",             // another spelling of 3
           "/memfd:loom-event-pool-" + hex + "-3-A (deleted)",              // capitals
           "/memfd:loom-event-pool-" + hex + "-100000000-8 (deleted)",      // flags past 32 bits
           "/memfd:loom-event-pool-" + hex + "-3-10000000000000000 (deleted)",  // more than 64 bits
           "/memfd:loom-event-pool-" + hex.substr(1) + "-3-8 (deleted)",    // a short identity
           "/memfd:loom-events-" + hex + "-3-8 (deleted)",                  // another purpose
           "/memfd:loom-event-pool-" + hex + "-3 (deleted)",                // no amount
           "/tmp/loom-event-pool-" + hex + "-3-8 (deleted)",                // not a memory file
           std::string(),
       })
    EXPECT_FALSE(parseMemoryFileLink(link)) << link;
}

TEST(IpcHandle, AFileKnownByItsDescriptorAloneMakesAHandleOfItsWhole) {
  IpcFileReference file = someFile();
  std::string why;
  file.contents = {MemoryFilePurpose::DriverRecord, uint32_t(MemoryType::Device), 4096};
  std::optional<IpcMemoryHandle> memory = ipcMemoryHandleOfFile(file, why);
  ASSERT_TRUE(memory) << why;
  EXPECT_EQ(memory->kind, IpcMemoryKind::DriverHandle);
  EXPECT_EQ(memory->type, MemoryType::Device);
  EXPECT_EQ(memory->size, 4096u);
  EXPECT_EQ(memory->offset, 0u);
  EXPECT_FALSE(ipcEventPoolHandleOfFile(file, why)) << "a memory file is no event pool";
  file.contents = {MemoryFilePurpose::Allocation, 7, 4096};
  EXPECT_FALSE(ipcMemoryHandleOfFile(file, why)) << "no such memory type";
  file.contents = {MemoryFilePurpose::EventPool, 0x5, 3};
  std::optional<IpcEventPoolHandle> pool = ipcEventPoolHandleOfFile(file, why);
  ASSERT_TRUE(pool) << why;
  EXPECT_EQ(pool->count, 3u);
  EXPECT_EQ(pool->flags, 0x5u);
  EXPECT_FALSE(ipcMemoryHandleOfFile(file, why)) << "an event pool is no memory";
  file.contents.amount = 0;
  EXPECT_FALSE(ipcEventPoolHandleOfFile(file, why));
  file.contents.amount = uint64_t(1) << 32;
  EXPECT_FALSE(ipcEventPoolHandleOfFile(file, why));
}

TEST(IpcHandle, LoomsMarkIsFoundWhereverTheFirstBytesWereReplaced) {
  IpcHandleBytes bytes = encodeIpcHandle(someMemoryHandle());
  EXPECT_TRUE(isLoomIpcHandle(bytes.data(), bytes.size()));
  const int32_t received = 42;
  std::memcpy(bytes.data(), &received, sizeof(received));
  EXPECT_TRUE(isLoomIpcHandle(bytes.data(), bytes.size()));
  std::string why;
  const std::optional<IpcMemoryHandle> decoded = decodeIpcMemoryHandle(bytes.data(), bytes.size(), why);
  ASSERT_TRUE(decoded) << why;
  EXPECT_EQ(decoded->file.fd, 42);
  EXPECT_FALSE(isLoomIpcHandle(bytes.data(), bytes.size() - 1));
  EXPECT_FALSE(isLoomIpcHandle(IpcHandleBytes{}.data(), kIpcHandleSize));
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
    genuine.link = memoryFileLink(reference.identity, reference.contents);
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
  facts.link = memoryFileLink(other, reference.contents);
  EXPECT_FALSE(accepted(facts)) << "another Loom allocation (a freed one's descriptor, reused)";
  facts.link = "/memfd:" + memoryFileName(reference.identity, reference.contents);
  EXPECT_FALSE(accepted(facts)) << "a link that only starts like it";
  MemoryFileContents otherContents = reference.contents;
  otherContents.amount += 1;
  facts.link = memoryFileLink(reference.identity, otherContents);
  EXPECT_FALSE(accepted(facts)) << "the same identity holding something else";
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
