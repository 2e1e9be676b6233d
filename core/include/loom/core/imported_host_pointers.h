#pragma once
// Ranges of an application's own memory imported into the driver (Intel's
// zexDriverImportExternalPointer, which MPI and collective libraries call on their buffers): made
// addressable by the devices at their own addresses, pinned and mapped for the GPUs as core's
// host memory is (Backend::registerHostMemory of the memory manager's host allocator), until
// released. On a process without GPUs an import is bookkeeping only: the CPU device reaches
// all of the process's memory.
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

namespace loom::core {

class Backend;

class ImportedHostPointers {
 public:
  enum class Result {
    Imported,
    AlreadyImported,  // the range lies inside one import: nothing to do
    StartsInAnother,  // it begins inside an import and runs past its end
    EndsInAnother,    // it begins outside every import and ends inside one
    Overlaps,         // it begins in one import and ends in another, or holds one
    Refused,          // the GPUs' driver would not pin it
  };
  // `pinner`: the backend that registers host memory for every GPU, or nullptr where none does.
  explicit ImportedHostPointers(Backend* pinner) : pinner_(pinner) {}
  ImportedHostPointers(const ImportedHostPointers&) = delete;
  ImportedHostPointers& operator=(const ImportedHostPointers&) = delete;

  // `address` must not be null nor `size` 0 (the caller checks).
  Result import(void* address, size_t size);
  // False when `address` is no import's start.
  bool release(void* address);
  // The start of the import holding `address`; nullptr when none does.
  void* baseOf(const void* address) const;

 private:
  // The import holding `address`, or end().
  std::map<uintptr_t, size_t>::const_iterator holding(uintptr_t address) const;

  Backend* pinner_;
  mutable std::mutex mutex_;
  std::map<uintptr_t, size_t> ranges_;  // start -> size
};

}  // namespace loom::core
