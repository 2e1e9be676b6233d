#pragma once
// RuntimeDyld's memory for one object file: all of its sections in one mapping. The CPU code
// generator uses the small code model, whose code reaches its constant pools and GOT through
// 32-bit PC-relative offsets; sections mapped one by one can land more than 2 GiB apart (the
// process's large reservations lie between them), and RuntimeDyld then truncates those offsets
// without a word, so that kernel code reads or calls whatever lies 4 GiB away.
#include <cstdint>

#include "llvm/ExecutionEngine/RTDyldMemoryManager.h"
#include "llvm/Support/Memory.h"

namespace loom::compiler::cpu {

class ContiguousMemoryManager final : public llvm::RTDyldMemoryManager {
 public:
  ContiguousMemoryManager() = default;
  ~ContiguousMemoryManager() override;
  ContiguousMemoryManager(const ContiguousMemoryManager&) = delete;
  ContiguousMemoryManager& operator=(const ContiguousMemoryManager&) = delete;

  bool needsToReserveAllocationSpace() override { return true; }
  void reserveAllocationSpace(uintptr_t codeSize, uint32_t codeAlign, uintptr_t readOnlySize, uint32_t readOnlyAlign,
                              uintptr_t readWriteSize, uint32_t readWriteAlign) override;
  uint8_t* allocateCodeSection(uintptr_t size, unsigned alignment, unsigned sectionId, llvm::StringRef name) override;
  uint8_t* allocateDataSection(uintptr_t size, unsigned alignment, unsigned sectionId, llvm::StringRef name,
                               bool readOnly) override;
  bool finalizeMemory(std::string* error) override;

 private:
  // A page-aligned part of the mapping with one protection, filled from its start.
  struct Part {
    uint8_t* start = nullptr;
    uintptr_t size = 0;
    uintptr_t used = 0;
  };
  // Null when `part` has no room left: RuntimeDyld then fails the load rather than placing a
  // section out of reach.
  static uint8_t* take(Part& part, uintptr_t size, unsigned alignment);

  llvm::sys::MemoryBlock mapping_;
  Part code_, readOnly_, readWrite_;
};

}  // namespace loom::compiler::cpu
