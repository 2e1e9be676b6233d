#pragma once
// Memory backed by an anonymous file (memfd), so that another process can map the same pages:
// the base of Level Zero IPC on the CPU and of IPC event pools. Each file is sealed at its size
// (it can never shrink under a mapping) and named by an identity of its own (ipc_handle.h), by
// which an importing process checks that it opened the very file a handle names.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "loom/core/ipc_handle.h"

namespace loom::core {

struct SharedMemoryBlock {
  void* address = nullptr;
  size_t mappedSize = 0;  // whole pages
  int fd = -1;
  bool deviceVisible = false;  // registered with a device's driver (MemoryManager::allocateDeviceVisible)
  FileIdentity identity;       // of the file, what it holds (both in its name), and its st_dev and st_ino
  MemoryFileContents contents;
  uint64_t device = 0;
  uint64_t inode = 0;
};

// Maps `size` bytes (rounded up to pages) at an address aligned to `alignment` (a power of two),
// of a file whose name says it holds `contents`. Returns a block with address == nullptr when out
// of memory.
SharedMemoryBlock allocateSharedMemory(size_t size, size_t alignment, const MemoryFileContents& contents);
void freeSharedMemory(const SharedMemoryBlock& block);

// What another process needs to find the block's file: this process's pid and the descriptor,
// the file's identity and inode.
IpcFileReference sharedMemoryReference(const SharedMemoryBlock& block);
// Maps the whole file that another process (or this one) exported, for IPC, once the descriptor
// opened here shows the very Loom memory file `file` names, at least `minimumSize` bytes long
// (checkOpenedFile). Anything else (a freed file, another file of the exporter, a file named like
// Loom's) is not opened, or not mapped: the block's address is nullptr and `why` says why.
// Where `file.fd` is a descriptor of this process that refers to that very file (same device and
// inode, same name: one received over a Unix socket, inherited through fork, or the exporter's
// own), the block maps a duplicate of it, and that descriptor stays its owner's; else the
// exporter's descriptor is opened through /proc/<pid>/fd.
SharedMemoryBlock mapForeignSharedMemory(const IpcFileReference& file, uint64_t minimumSize, std::string& why);

// The Loom memory file that descriptor `fd` of this process refers to, as a reference to it in
// this process; nullopt, with `why`, when it is no descriptor or not a Loom memory file.
std::optional<IpcFileReference> describeOwnDescriptor(int32_t fd, std::string& why);

size_t pageSize();

}  // namespace loom::core
