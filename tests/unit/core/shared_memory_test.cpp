#include "loom/core/shared_memory.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

namespace loom::core {
namespace {

std::string linkOf(int fd) { return std::filesystem::read_symlink("/proc/self/fd/" + std::to_string(fd)).string(); }

const MemoryFileContents kContents{MemoryFilePurpose::Allocation, uint32_t(MemoryType::Device), 8192};

// A block of two pages holding a message at its start.
class SharedMemoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    block = allocateSharedMemory(2 * pageSize(), 0, kContents);
    ASSERT_NE(block.address, nullptr);
    std::strcpy(static_cast<char*>(block.address), "the exporter's data");
  }
  void TearDown() override { freeSharedMemory(block); }

  // Maps `file`, expecting a refusal that says why.
  void expectRefused(const IpcFileReference& file, uint64_t minimumSize, const char* what) {
    std::string why;
    const SharedMemoryBlock mapped = mapForeignSharedMemory(file, minimumSize, why);
    EXPECT_EQ(mapped.address, nullptr) << what;
    EXPECT_FALSE(why.empty()) << what;
    if (mapped.address) freeSharedMemory(mapped);
  }

  // The block's reference with `fd` in place of its descriptor: refused as `what`, and refused
  // again, as `withItsInode`, once the reference also names that file's own device and inode.
  void expectForgeryRefused(int fd, const char* what, const char* withItsInode) {
    IpcFileReference forged = sharedMemoryReference(block);
    forged.fd = fd;
    expectRefused(forged, 1, what);
    struct stat status;
    ASSERT_EQ(fstat(fd, &status), 0);
    forged.device = status.st_dev;
    forged.inode = status.st_ino;
    expectRefused(forged, 1, withItsInode);
  }

  SharedMemoryBlock block;
};

TEST_F(SharedMemoryTest, AFileIsNamedByItsIdentityAndSealedAtItsSize) {
  EXPECT_FALSE(block.identity.empty());
  EXPECT_EQ(linkOf(block.fd), memoryFileLink(block.identity, block.contents));
  struct stat status;
  ASSERT_EQ(fstat(block.fd, &status), 0);
  EXPECT_EQ(uint64_t(status.st_ino), block.inode);
  EXPECT_EQ(uint64_t(status.st_dev), block.device);
  EXPECT_EQ(size_t(status.st_size), block.mappedSize);
  const int seals = fcntl(block.fd, F_GET_SEALS);
  EXPECT_EQ(seals & (F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL), F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
  EXPECT_NE(ftruncate(block.fd, 0), 0) << "no process can shrink it under another's mapping";
  SharedMemoryBlock other = allocateSharedMemory(100, 0, kContents);
  EXPECT_NE(other.identity, block.identity);
  freeSharedMemory(other);
}

TEST_F(SharedMemoryTest, TheNamedFileMapsWholeWithTheExportersData) {
  const IpcFileReference file = sharedMemoryReference(block);
  EXPECT_EQ(file.pid, getpid());
  EXPECT_EQ(file.fd, block.fd);
  std::string why;
  SharedMemoryBlock mapped = mapForeignSharedMemory(file, 100, why);
  ASSERT_NE(mapped.address, nullptr) << why;
  EXPECT_EQ(mapped.mappedSize, block.mappedSize) << "the size is the file's";
  EXPECT_STREQ(static_cast<char*>(mapped.address), "the exporter's data");
  EXPECT_EQ(mapped.identity, block.identity);
  static_cast<char*>(mapped.address)[block.mappedSize - 1] = 'z';
  EXPECT_EQ(static_cast<char*>(block.address)[block.mappedSize - 1], 'z');
  EXPECT_EQ(sharedMemoryReference(mapped).identity, block.identity) << "an imported block can be exported again";
  freeSharedMemory(mapped);
}

// The freed file's descriptor number goes to the next file: its handle must not map that one.
TEST_F(SharedMemoryTest, AFreedFilesReferenceMapsNothingEvenWhenItsDescriptorIsReused) {
  SharedMemoryBlock freed = allocateSharedMemory(pageSize(), 0, kContents);
  const IpcFileReference stale = sharedMemoryReference(freed);
  freeSharedMemory(freed);
  SharedMemoryBlock next = allocateSharedMemory(pageSize(), 0, kContents);
  ASSERT_EQ(next.fd, stale.fd) << "the descriptor is reused (the lowest free one)";
  expectRefused(stale, 1, "a freed file's reference");
  freeSharedMemory(next);
}

TEST_F(SharedMemoryTest, AnotherFileOfTheExporterIsNotOpened) {
  char path[] = "/tmp/loom-shared-memory-test-XXXXXX";
  const int regular = mkstemp(path);
  ASSERT_GE(regular, 0);
  ASSERT_EQ(ftruncate(regular, 1 << 20), 0);
  expectForgeryRefused(regular, "a regular file", "a regular file with its own inode in the handle");
  close(regular);
  unlink(path);
  IpcFileReference forged = sharedMemoryReference(block);
  forged.fd = 99999;
  expectRefused(forged, 1, "no such descriptor");
}

// An application can name a memory file as Loom does (the identity is in its handles); the inode
// tells them apart, and an unsealed file is refused even with its own inode in the handle.
TEST_F(SharedMemoryTest, AFileNamedLikeLoomsIsRefused) {
  const int impostor = memfd_create(memoryFileName(block.identity, block.contents).c_str(), MFD_CLOEXEC);
  ASSERT_GE(impostor, 0);
  ASSERT_EQ(ftruncate(impostor, off_t(block.mappedSize)), 0);
  ASSERT_EQ(linkOf(impostor), memoryFileLink(block.identity, block.contents));
  expectForgeryRefused(impostor, "another inode", "not sealed: it could shrink under the mapping");
  close(impostor);
}

TEST_F(SharedMemoryTest, AReferenceClaimingMoreThanTheFileIsRefused) {
  const IpcFileReference file = sharedMemoryReference(block);
  expectRefused(file, block.mappedSize + 16, "16 bytes more");
  expectRefused(file, 1ull << 40, "1 TiB");
  std::string why;
  SharedMemoryBlock mapped = mapForeignSharedMemory(file, block.mappedSize, why);
  EXPECT_NE(mapped.address, nullptr) << why;
  freeSharedMemory(mapped);
}

TEST_F(SharedMemoryTest, AnotherProcessMapsTheFileAndAnEndedOneIsRefused) {
  const IpcFileReference file = sharedMemoryReference(block);
  int toParent[2], toChild[2];
  ASSERT_EQ(pipe(toParent), 0);
  ASSERT_EQ(pipe(toChild), 0);
  const pid_t exporter = fork();
  if (exporter == 0) {
    // Exports a block of its own and waits until the parent has mapped it.
    SharedMemoryBlock own = allocateSharedMemory(pageSize(), 0, kContents);
    std::strcpy(static_cast<char*>(own.address), "the child's data");
    const IpcFileReference reference = sharedMemoryReference(own);
    (void)!write(toParent[1], &reference, sizeof(reference));
    char done;
    (void)!read(toChild[0], &done, 1);
    _exit(0);
  }
  ASSERT_GT(exporter, 0);
  IpcFileReference childs;
  ASSERT_EQ(read(toParent[0], &childs, sizeof(childs)), ssize_t(sizeof(childs)));
  std::string why;
  SharedMemoryBlock mapped = mapForeignSharedMemory(childs, 1, why);
  EXPECT_NE(mapped.address, nullptr) << why;
  if (mapped.address) {
    EXPECT_STREQ(static_cast<char*>(mapped.address), "the child's data");
  }
  freeSharedMemory(mapped);
  ASSERT_EQ(write(toChild[1], "x", 1), 1);
  int status = 0;
  ASSERT_EQ(waitpid(exporter, &status, 0), exporter);
  for (int fd : {toParent[0], toParent[1], toChild[0], toChild[1]}) close(fd);
  expectRefused(childs, 1, "the exporting process ended");
  EXPECT_NE(file.pid, childs.pid);
}

// A descriptor of this process that is the file (one received over a Unix socket) maps it even
// where the exporter's descriptor cannot be opened; the block maps a duplicate and leaves the
// received descriptor to its owner.
TEST_F(SharedMemoryTest, ADescriptorOfTheFileInThisProcessIsUsedAndLeftOpen) {
  IpcFileReference received = sharedMemoryReference(block);
  received.fd = fcntl(block.fd, F_DUPFD_CLOEXEC, 0);
  received.pid = 1;  // no exporter to open it from
  std::string why;
  SharedMemoryBlock mapped = mapForeignSharedMemory(received, 1, why);
  ASSERT_NE(mapped.address, nullptr) << why;
  EXPECT_NE(mapped.fd, received.fd);
  EXPECT_STREQ(static_cast<char*>(mapped.address), "the exporter's data");
  freeSharedMemory(mapped);
  EXPECT_GE(fcntl(received.fd, F_GETFD), 0) << "the received descriptor is still open";
  close(received.fd);
}

TEST_F(SharedMemoryTest, AnOwnDescriptorIsDescribedByWhatItRefersTo) {
  std::string why;
  const std::optional<IpcFileReference> described = describeOwnDescriptor(block.fd, why);
  ASSERT_TRUE(described) << why;
  const IpcFileReference exported = sharedMemoryReference(block);
  EXPECT_EQ(described->pid, exported.pid);
  EXPECT_EQ(described->fd, exported.fd);
  EXPECT_EQ(described->identity, exported.identity);
  EXPECT_EQ(described->contents, kContents);
  EXPECT_EQ(described->device, exported.device);
  EXPECT_EQ(described->inode, exported.inode);
  char path[] = "/tmp/loom-shared-memory-test-XXXXXX";
  const int regular = mkstemp(path);
  ASSERT_GE(regular, 0);
  unlink(path);
  for (int fd : {regular, -1, 99999, 0}) {
    why.clear();
    EXPECT_FALSE(describeOwnDescriptor(fd, why)) << fd;
    EXPECT_FALSE(why.empty());
  }
  close(regular);
}

// An unsealed file named like Loom's is described by its name, and still not mapped.
TEST_F(SharedMemoryTest, AnOwnDescriptorOfAnUnsealedFileIsNotMapped) {
  const int impostor = memfd_create(memoryFileName(block.identity, block.contents).c_str(), MFD_CLOEXEC);
  ASSERT_GE(impostor, 0);
  ASSERT_EQ(ftruncate(impostor, off_t(block.mappedSize)), 0);
  std::string why;
  const std::optional<IpcFileReference> described = describeOwnDescriptor(impostor, why);
  ASSERT_TRUE(described) << why;
  expectRefused(*described, 1, "not sealed");
  close(impostor);
}

}  // namespace
}  // namespace loom::core
