#include "loom/core/host_address_space.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>

#include "loom/core/shared_memory.h"

namespace loom::core {

namespace {

int protection(MemoryAccess access) {
  switch (access) {
    case MemoryAccess::None: return PROT_NONE;
    case MemoryAccess::ReadOnly: return PROT_READ;
    case MemoryAccess::ReadWrite: return PROT_READ | PROT_WRITE;
  }
  return PROT_NONE;
}

// Pages of an anonymous file; its mappings keep them alive once the descriptor is closed.
class HostPhysicalMemory final : public PhysicalMemory {
 public:
  HostPhysicalMemory(AddressSpace& space, int fd, size_t size) : PhysicalMemory(space, size), fd_(fd) {}
  ~HostPhysicalMemory() override { close(fd_); }
  int fd() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

HostAddressSpace& HostAddressSpace::get() {
  static HostAddressSpace space;
  return space;
}

size_t HostAddressSpace::pageSize() const { return core::pageSize(); }

void* HostAddressSpace::reserve(void* hint, size_t size) {
  void* address = mmap(hint, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return address == MAP_FAILED ? nullptr : address;
}

void HostAddressSpace::release(void* address, size_t size) { munmap(address, size); }

VirtualMemoryStatus HostAddressSpace::map(void* address, size_t size, const PhysicalMemory& memory, size_t offset,
                                          MemoryAccess access) {
  const int fd = static_cast<const HostPhysicalMemory&>(memory).fd();
  void* mapped = mmap(address, size, protection(access), MAP_SHARED | MAP_FIXED, fd, static_cast<off_t>(offset));
  if (mapped != MAP_FAILED) return VirtualMemoryStatus::Success;
  return errno == ENOMEM ? VirtualMemoryStatus::OutOfMemory : VirtualMemoryStatus::Failed;
}

void HostAddressSpace::unmap(void* address, size_t size) {
  // Back to a reserved, inaccessible range, which no other mapping can take meanwhile.
  mmap(address, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
}

VirtualMemoryStatus HostAddressSpace::protect(void* address, size_t size, MemoryAccess access) {
  return mprotect(address, size, protection(access)) == 0 ? VirtualMemoryStatus::Success : VirtualMemoryStatus::Failed;
}

std::unique_ptr<PhysicalMemory> HostAddressSpace::createPhysicalMemory(size_t size) {
  const int fd = memfd_create("loom-physical-memory", MFD_CLOEXEC);
  if (fd < 0) return nullptr;
  if (ftruncate(fd, static_cast<off_t>(size)) != 0) {
    close(fd);
    return nullptr;
  }
  return std::make_unique<HostPhysicalMemory>(*this, fd, size);
}

}  // namespace loom::core
