#include "loom/core/shared_memory.h"

#include <fcntl.h>
#include <linux/limits.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace loom::core {
namespace {

size_t roundUp(size_t value, size_t multiple) { return (value + multiple - 1) / multiple * multiple; }

// A memory file of `size` bytes under a new identity, sealed at that size, which `block` records;
// -1 when the kernel refuses.
int createMemoryFile(size_t size, const MemoryFileContents& contents, SharedMemoryBlock& block) {
  const std::optional<FileIdentity> identity = FileIdentity::random();
  if (!identity) return -1;
  const int fd = memfd_create(memoryFileName(*identity, contents).c_str(), MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return -1;
  struct stat status;
  if (ftruncate(fd, static_cast<off_t>(size)) != 0 || fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0 ||
      fstat(fd, &status) != 0) {
    close(fd);
    return -1;
  }
  block.identity = *identity;
  block.contents = contents;
  block.device = status.st_dev;
  block.inode = status.st_ino;
  return fd;
}

std::string readLink(const std::string& path) {
  char target[PATH_MAX];
  const ssize_t length = readlink(path.c_str(), target, sizeof(target));
  if (length <= 0 || size_t(length) >= sizeof(target)) return {};
  return std::string(target, size_t(length));
}

std::string descriptorPath(int32_t pid, int32_t fd) { return "/proc/" + std::to_string(pid) + "/fd/" + std::to_string(fd); }

// Opens the exporter's descriptor only when its link names the handle's file: opening anything
// else (a device, a FIFO) may have effects of its own. What was opened is checked again after.
int openForeignFile(const IpcFileReference& file, std::string& why) {
  const std::string path = descriptorPath(file.pid, file.fd);
  if (readLink(path) != memoryFileLink(file.identity, file.contents)) {
    why = "descriptor " + std::to_string(file.fd) + " of process " + std::to_string(file.pid) +
          " is not the Loom memory file the handle names (it was freed, the process ended, or the handle is forged)";
    return -1;
  }
  const int fd = open(path.c_str(), O_RDWR | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) why = "cannot open the exporting process's memory file: " + std::string(std::strerror(errno));
  return fd;
}

OpenedFileFacts factsOf(int fd) {
  OpenedFileFacts facts;
  struct stat status;
  if (fstat(fd, &status) != 0) return facts;
  facts.regular = S_ISREG(status.st_mode);
  facts.device = status.st_dev;
  facts.inode = status.st_ino;
  facts.size = status.st_size > 0 ? uint64_t(status.st_size) : 0;
  const int seals = fcntl(fd, F_GET_SEALS);
  facts.cannotShrink = seals >= 0 && (seals & F_SEAL_SHRINK);
  facts.link = readLink(descriptorPath(getpid(), fd));
  return facts;
}

// A duplicate of `file.fd` when that descriptor of this process is the very file `file` names
// (fstat and the link, which have no effects of their own); -1 when it is not.
int duplicateOwnDescriptor(const IpcFileReference& file) {
  const OpenedFileFacts facts = factsOf(file.fd);
  if (facts.link != memoryFileLink(file.identity, file.contents) || facts.device != file.device || facts.inode != file.inode)
    return -1;
  return fcntl(file.fd, F_DUPFD_CLOEXEC, 0);
}

}  // namespace

size_t pageSize() {
  static const size_t size = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

SharedMemoryBlock allocateSharedMemory(size_t size, size_t alignment, const MemoryFileContents& contents) {
  const size_t mappedSize = roundUp(size == 0 ? 1 : size, pageSize());
  if (alignment < pageSize()) alignment = pageSize();
  SharedMemoryBlock block;
  const int fd = createMemoryFile(mappedSize, contents, block);
  if (fd < 0) return {};
  // Reserve enough address space to place the mapping at the requested alignment.
  const size_t reserveSize = mappedSize + alignment - pageSize();
  void* reserved = mmap(nullptr, reserveSize, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (reserved == MAP_FAILED) {
    close(fd);
    return {};
  }
  const uintptr_t start = reinterpret_cast<uintptr_t>(reserved);
  const uintptr_t aligned = roundUp(start, alignment);
  if (aligned > start) munmap(reserved, aligned - start);
  const uintptr_t tail = aligned + mappedSize;
  const uintptr_t reserveEnd = start + reserveSize;
  if (reserveEnd > tail) munmap(reinterpret_cast<void*>(tail), reserveEnd - tail);
  void* address = mmap(reinterpret_cast<void*>(aligned), mappedSize, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
  if (address == MAP_FAILED) {
    munmap(reinterpret_cast<void*>(aligned), mappedSize);
    close(fd);
    return {};
  }
  block.address = address;
  block.mappedSize = mappedSize;
  block.fd = fd;
  return block;
}

void freeSharedMemory(const SharedMemoryBlock& block) {
  if (block.address) munmap(block.address, block.mappedSize);
  if (block.fd >= 0) close(block.fd);
}

IpcFileReference sharedMemoryReference(const SharedMemoryBlock& block) {
  return {static_cast<int32_t>(getpid()), block.fd, block.identity, block.contents, block.device, block.inode};
}

SharedMemoryBlock mapForeignSharedMemory(const IpcFileReference& file, uint64_t minimumSize, std::string& why) {
  int fd = duplicateOwnDescriptor(file);
  if (fd < 0) fd = openForeignFile(file, why);
  if (fd < 0) return {};
  const OpenedFileFacts facts = factsOf(fd);
  why = checkOpenedFile(file, facts, minimumSize);
  if (!why.empty()) {
    close(fd);
    return {};
  }
  void* address = mmap(nullptr, facts.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (address == MAP_FAILED) {
    why = "cannot map the memory file: " + std::string(std::strerror(errno));
    close(fd);
    return {};
  }
  return {address, facts.size, fd, false, file.identity, file.contents, file.device, file.inode};
}

std::optional<IpcFileReference> describeOwnDescriptor(int32_t fd, std::string& why) {
  const OpenedFileFacts facts = factsOf(fd);
  const std::optional<NamedMemoryFile> named = parseMemoryFileLink(facts.link);
  if (!facts.regular || !named) {
    why = "descriptor " + std::to_string(fd) + " is not open in this process, or not a Loom memory file";
    return std::nullopt;
  }
  return IpcFileReference{static_cast<int32_t>(getpid()), fd, named->identity, named->contents, facts.device, facts.inode};
}

}  // namespace loom::core
