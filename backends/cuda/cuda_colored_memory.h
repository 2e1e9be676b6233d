#pragma once
// Implicit scaling's device memory over several GPUs: one range of the driver's unified address
// space whose chunks (core/memory_coloring.h) are physical memory of the GPU that owns each.
// cuMemAddressReserve once, cuMemCreate of each chunk on its owner (CU_MEM_LOCATION_TYPE_DEVICE),
// cuMemMap of each chunk whole, then one cuMemSetAccess granting every GPU of the root read and
// write on the whole range, so that a kernel on any GPU reaches any byte of it. Destroying it
// unmaps the chunks, releases them and frees the range; a failure midway undoes what was done.
// IPC: where every GPU supports it, each chunk is made shareable as a file descriptor
// (cuMemExportToShareableHandle), and another process maps the same layout from those
// descriptors (cuMemImportFromShareableHandle) with access for its own GPUs.
#include <memory>
#include <vector>

#include "backends/cuda/cuda_context.h"
#include "loom/core/memory_coloring.h"

namespace loom::backends::cuda {

class CudaColoredMemory {
 public:
  // `gpus[tile]` is the GPU of tile `tile`; `granularity` a multiple of every GPU's minimum
  // allocation granularity, which every chunk but the last is a whole number of (the last is
  // rounded up to it). nullptr when the driver refuses a step, which PrintDebugMessages says.
  static std::unique_ptr<CudaColoredMemory> create(std::vector<std::shared_ptr<const PrimaryContext>> gpus,
                                                   const std::vector<core::MemoryChunk>& chunks, size_t size, size_t granularity);
  // The same layout mapped from chunks another process exported: `descriptors[i]` is the
  // shareable handle of chunks[i] (the caller keeps and closes them).
  static std::unique_ptr<CudaColoredMemory> import(std::vector<std::shared_ptr<const PrimaryContext>> gpus,
                                                   const std::vector<core::MemoryChunk>& chunks, size_t size, size_t granularity,
                                                   const std::vector<int>& descriptors);
  ~CudaColoredMemory();
  CudaColoredMemory(const CudaColoredMemory&) = delete;
  CudaColoredMemory& operator=(const CudaColoredMemory&) = delete;

  void* address() const { return reinterpret_cast<void*>(start_); }
  // A new descriptor of each chunk's physical memory, in order, the caller's to close; empty
  // when the chunks are not shareable (the GPUs lack POSIX descriptors; imported memory) or the
  // driver refuses, which PrintDebugMessages says.
  std::vector<int> exportChunks() const;

 private:
  struct Chunk {
    CUdeviceptr address;
    size_t size;  // of its physical memory
    size_t gpu;
    CUmemGenericAllocationHandle handle = 0;
    bool mapped = false;
  };

  explicit CudaColoredMemory(std::vector<std::shared_ptr<const PrimaryContext>> gpus) : gpus_(std::move(gpus)) {}
  // create (no descriptors) or import.
  static std::unique_ptr<CudaColoredMemory> build(std::vector<std::shared_ptr<const PrimaryContext>> gpus,
                                                  const std::vector<core::MemoryChunk>& chunks, size_t size, size_t granularity,
                                                  const std::vector<int>* descriptors);
  const Driver& driver() const { return gpus_.front()->driver(); }
  bool succeeded(CUresult result, const char* call) const;
  bool everyGpuSharesDescriptors() const;
  bool reserve(size_t size, size_t granularity);
  bool createAndMap(Chunk& chunk);
  bool importAndMap(Chunk& chunk, int descriptor);
  bool map(Chunk& chunk);
  bool grantEveryGpu();

  std::vector<std::shared_ptr<const PrimaryContext>> gpus_;
  bool shareable_ = false;  // chunks made with a POSIX descriptor handle type
  CUdeviceptr start_ = 0;
  size_t reserved_ = 0;
  std::vector<Chunk> chunks_;
};

}  // namespace loom::backends::cuda
