#include "contiguous_memory_manager.h"

#include <system_error>

#include "llvm/Support/Process.h"

namespace loom::compiler::cpu {

namespace {

uintptr_t roundUp(uintptr_t value, uintptr_t multiple) { return (value + multiple - 1) / multiple * multiple; }

// Room for `size` bytes at `alignment`, in whole pages so that each part gets its own protection,
// and a page more: RuntimeDyld allocates a byte for each empty section and adds its GOT to the
// read-write data after reserving. Pages never touched cost no memory.
uintptr_t partSize(uintptr_t size, uint32_t alignment, uintptr_t page) { return roundUp(size + alignment, page) + page; }

}  // namespace

ContiguousMemoryManager::~ContiguousMemoryManager() {
  if (mapping_.base()) llvm::sys::Memory::releaseMappedMemory(mapping_);
}

void ContiguousMemoryManager::reserveAllocationSpace(uintptr_t codeSize, uint32_t codeAlign, uintptr_t readOnlySize,
                                                     uint32_t readOnlyAlign, uintptr_t readWriteSize, uint32_t readWriteAlign) {
  const uintptr_t page = llvm::sys::Process::getPageSizeEstimate();
  code_.size = partSize(codeSize, codeAlign, page);
  readOnly_.size = partSize(readOnlySize, readOnlyAlign, page);
  readWrite_.size = partSize(readWriteSize, readWriteAlign, page);
  std::error_code error;
  mapping_ = llvm::sys::Memory::allocateMappedMemory(code_.size + readOnly_.size + readWrite_.size, nullptr,
                                                     llvm::sys::Memory::MF_READ | llvm::sys::Memory::MF_WRITE, error);
  if (error || !mapping_.base()) {
    mapping_ = {};
    code_ = readOnly_ = readWrite_ = {};
    return;
  }
  code_.start = static_cast<uint8_t*>(mapping_.base());
  readOnly_.start = code_.start + code_.size;
  readWrite_.start = readOnly_.start + readOnly_.size;
}

uint8_t* ContiguousMemoryManager::take(Part& part, uintptr_t size, unsigned alignment) {
  if (!part.start) return nullptr;
  const uintptr_t offset = roundUp(reinterpret_cast<uintptr_t>(part.start) + part.used, alignment == 0 ? 1 : alignment) -
                           reinterpret_cast<uintptr_t>(part.start);
  if (offset + size > part.size) return nullptr;
  part.used = offset + size;
  return part.start + offset;
}

uint8_t* ContiguousMemoryManager::allocateCodeSection(uintptr_t size, unsigned alignment, unsigned, llvm::StringRef) {
  return take(code_, size, alignment);
}

uint8_t* ContiguousMemoryManager::allocateDataSection(uintptr_t size, unsigned alignment, unsigned, llvm::StringRef,
                                                      bool readOnly) {
  return take(readOnly ? readOnly_ : readWrite_, size, alignment);
}

// RuntimeDyld's convention: true when it failed.
bool ContiguousMemoryManager::finalizeMemory(std::string* error) {
  auto protect = [&](const Part& part, unsigned flags) {
    if (!part.start) return true;
    const llvm::sys::MemoryBlock block(part.start, part.size);
    if (std::error_code code = llvm::sys::Memory::protectMappedMemory(block, flags)) {
      if (error) *error = code.message();
      return false;
    }
    return true;
  };
  if (!protect(code_, llvm::sys::Memory::MF_READ | llvm::sys::Memory::MF_EXEC)) return true;
  if (!protect(readOnly_, llvm::sys::Memory::MF_READ)) return true;
  if (code_.start) llvm::sys::Memory::InvalidateInstructionCache(code_.start, code_.size);
  return false;
}

}  // namespace loom::compiler::cpu
