#include "backends/cuda/cuda_colored_memory.h"

#include <unistd.h>

#include <cstdint>

#include "loom/core/log.h"

namespace loom::backends::cuda {

namespace {
size_t roundUp(size_t value, size_t multiple) { return (value + multiple - 1) / multiple * multiple; }
}  // namespace

std::unique_ptr<CudaColoredMemory> CudaColoredMemory::create(std::vector<std::shared_ptr<const PrimaryContext>> gpus,
                                                             const std::vector<core::MemoryChunk>& chunks, size_t size,
                                                             size_t granularity) {
  return build(std::move(gpus), chunks, size, granularity, nullptr);
}

std::unique_ptr<CudaColoredMemory> CudaColoredMemory::import(std::vector<std::shared_ptr<const PrimaryContext>> gpus,
                                                             const std::vector<core::MemoryChunk>& chunks, size_t size,
                                                             size_t granularity, const std::vector<int>& descriptors) {
  if (descriptors.size() != chunks.size()) {
    core::debugMessage("colored memory: %zu descriptors for %zu chunks", descriptors.size(), chunks.size());
    return nullptr;
  }
  return build(std::move(gpus), chunks, size, granularity, &descriptors);
}

std::unique_ptr<CudaColoredMemory> CudaColoredMemory::build(std::vector<std::shared_ptr<const PrimaryContext>> gpus,
                                                            const std::vector<core::MemoryChunk>& chunks, size_t size,
                                                            size_t granularity, const std::vector<int>* descriptors) {
  if (gpus.empty() || chunks.empty() || size == 0 || granularity == 0) return nullptr;
  std::unique_ptr<CudaColoredMemory> memory(new CudaColoredMemory(std::move(gpus)));
  if (!descriptors) memory->shareable_ = memory->everyGpuSharesDescriptors();
  if (!memory->reserve(size, granularity)) return nullptr;
  for (size_t index = 0; index < chunks.size(); ++index) {
    const core::MemoryChunk& chunk = chunks[index];
    if (chunk.tile >= memory->gpus_.size() || chunk.offset % granularity != 0) {
      core::debugMessage("colored memory: chunk at %zu of tile %u is not one this root can make", chunk.offset, chunk.tile);
      return nullptr;
    }
    memory->chunks_.push_back({memory->start_ + chunk.offset, roundUp(chunk.size, granularity), chunk.tile});
    Chunk& made = memory->chunks_.back();
    if (!(descriptors ? memory->importAndMap(made, (*descriptors)[index]) : memory->createAndMap(made))) return nullptr;
  }
  if (!memory->grantEveryGpu()) return nullptr;
  return memory;
}

CudaColoredMemory::~CudaColoredMemory() {
  for (const Chunk& chunk : chunks_) {
    auto scope = gpus_[chunk.gpu]->makeCurrent();
    if (chunk.mapped) succeeded(driver().cuMemUnmap(chunk.address, chunk.size), "cuMemUnmap");
    if (chunk.handle) succeeded(driver().cuMemRelease(chunk.handle), "cuMemRelease");
  }
  if (!start_) return;
  auto scope = gpus_.front()->makeCurrent();
  succeeded(driver().cuMemAddressFree(start_, reserved_), "cuMemAddressFree");
}

bool CudaColoredMemory::succeeded(CUresult result, const char* call) const {
  if (result == CUDA_SUCCESS) return true;
  core::debugMessage("colored memory: %s", driver().describe(call, result).c_str());
  return false;
}

bool CudaColoredMemory::reserve(size_t size, size_t granularity) {
  auto scope = gpus_.front()->makeCurrent();
  const size_t rounded = roundUp(size, granularity);
  if (!succeeded(driver().cuMemAddressReserve(&start_, rounded, granularity, 0, 0), "cuMemAddressReserve")) return false;
  reserved_ = rounded;
  return true;
}

bool CudaColoredMemory::everyGpuSharesDescriptors() const {
  for (const auto& gpu : gpus_) {
    int supported = 0;
    if (driver().cuDeviceGetAttribute(&supported, DeviceAttribute::HandleTypePosixFileDescriptorSupported, gpu->device()) !=
            CUDA_SUCCESS ||
        !supported)
      return false;
  }
  return true;
}

bool CudaColoredMemory::createAndMap(Chunk& chunk) {
  auto scope = gpus_[chunk.gpu]->makeCurrent();
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.requestedHandleTypes = shareable_ ? CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR : 0;
  prop.location = {CU_MEM_LOCATION_TYPE_DEVICE, gpus_[chunk.gpu]->device()};
  if (!succeeded(driver().cuMemCreate(&chunk.handle, chunk.size, &prop, 0), "cuMemCreate")) {
    chunk.handle = 0;
    return false;
  }
  return map(chunk);
}

bool CudaColoredMemory::importAndMap(Chunk& chunk, int descriptor) {
  auto scope = gpus_[chunk.gpu]->makeCurrent();
  void* shareable = reinterpret_cast<void*>(static_cast<uintptr_t>(descriptor));
  if (!succeeded(driver().cuMemImportFromShareableHandle(&chunk.handle, shareable, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR),
                 "cuMemImportFromShareableHandle")) {
    chunk.handle = 0;
    return false;
  }
  return map(chunk);
}

bool CudaColoredMemory::map(Chunk& chunk) {
  chunk.mapped = succeeded(driver().cuMemMap(chunk.address, chunk.size, 0, chunk.handle, 0), "cuMemMap");
  return chunk.mapped;
}

std::vector<int> CudaColoredMemory::exportChunks() const {
  if (!shareable_) {
    core::debugMessage("colored memory: its chunks are not shareable (imported, or a GPU lacks POSIX descriptor handles)");
    return {};
  }
  std::vector<int> descriptors;
  for (const Chunk& chunk : chunks_) {
    auto scope = gpus_[chunk.gpu]->makeCurrent();
    int descriptor = -1;
    if (!succeeded(driver().cuMemExportToShareableHandle(&descriptor, chunk.handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
                   "cuMemExportToShareableHandle")) {
      for (int exported : descriptors) ::close(exported);
      return {};
    }
    descriptors.push_back(descriptor);
  }
  return descriptors;
}

bool CudaColoredMemory::grantEveryGpu() {
  std::vector<CUmemAccessDesc> grants;
  for (const auto& gpu : gpus_) grants.push_back({{CU_MEM_LOCATION_TYPE_DEVICE, gpu->device()}, CU_MEM_ACCESS_FLAGS_PROT_READWRITE});
  auto scope = gpus_.front()->makeCurrent();
  return succeeded(driver().cuMemSetAccess(start_, reserved_, grants.data(), grants.size()), "cuMemSetAccess");
}

}  // namespace loom::backends::cuda
