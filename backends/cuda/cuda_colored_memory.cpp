#include "backends/cuda/cuda_colored_memory.h"

#include "loom/core/log.h"

namespace loom::backends::cuda {

namespace {
size_t roundUp(size_t value, size_t multiple) { return (value + multiple - 1) / multiple * multiple; }
}  // namespace

std::unique_ptr<CudaColoredMemory> CudaColoredMemory::create(std::vector<std::shared_ptr<const PrimaryContext>> gpus,
                                                             const std::vector<core::MemoryChunk>& chunks, size_t size,
                                                             size_t granularity) {
  if (gpus.empty() || chunks.empty() || size == 0 || granularity == 0) return nullptr;
  std::unique_ptr<CudaColoredMemory> memory(new CudaColoredMemory(std::move(gpus)));
  if (!memory->reserve(size, granularity)) return nullptr;
  for (const core::MemoryChunk& chunk : chunks) {
    if (chunk.tile >= memory->gpus_.size() || chunk.offset % granularity != 0) {
      core::debugMessage("colored memory: chunk at %zu of tile %u is not one this root can make", chunk.offset, chunk.tile);
      return nullptr;
    }
    memory->chunks_.push_back({memory->start_ + chunk.offset, roundUp(chunk.size, granularity), chunk.tile});
    if (!memory->createAndMap(memory->chunks_.back())) return nullptr;
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

bool CudaColoredMemory::createAndMap(Chunk& chunk) {
  auto scope = gpus_[chunk.gpu]->makeCurrent();
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location = {CU_MEM_LOCATION_TYPE_DEVICE, gpus_[chunk.gpu]->device()};
  if (!succeeded(driver().cuMemCreate(&chunk.handle, chunk.size, &prop, 0), "cuMemCreate")) {
    chunk.handle = 0;
    return false;
  }
  chunk.mapped = succeeded(driver().cuMemMap(chunk.address, chunk.size, 0, chunk.handle, 0), "cuMemMap");
  return chunk.mapped;
}

bool CudaColoredMemory::grantEveryGpu() {
  std::vector<CUmemAccessDesc> grants;
  for (const auto& gpu : gpus_) grants.push_back({{CU_MEM_LOCATION_TYPE_DEVICE, gpu->device()}, CU_MEM_ACCESS_FLAGS_PROT_READWRITE});
  auto scope = gpus_.front()->makeCurrent();
  return succeeded(driver().cuMemSetAccess(start_, reserved_, grants.data(), grants.size()), "cuMemSetAccess");
}

}  // namespace loom::backends::cuda
