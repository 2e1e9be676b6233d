#pragma once
// The CUDA driver's unified address space, shared by all GPUs of one driver: reservations from
// cuMemAddressReserve, physical memory from cuMemCreate (pinned, on one GPU), mappings by cuMemMap
// and access by cuMemSetAccess, granted to the owning GPU and to every GPU with peer access to it.
// cuMemMap maps an allocation only whole and from its start, so physical memory is one allocation
// per page: any page-aligned part of it can then be mapped anywhere, and unmapped page by page.
// Pages whose access is None are unmapped, their allocation kept to map them again.
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backends/cuda/cuda_context.h"
#include "backends/cuda/cuda_peers.h"
#include "loom/core/address_space.h"

namespace loom::backends::cuda {

class CudaAddressSpace final : public core::AddressSpace {
 public:
  // Over `gpus` (`peers` as enablePeerAccess found them); nullptr and `error` when a GPU lacks
  // virtual memory management.
  static std::shared_ptr<CudaAddressSpace> create(std::vector<std::shared_ptr<const PrimaryContext>> gpus, PeerMatrix peers,
                                                  std::string& error);

  // The largest of the GPUs' minimum allocation granularities.
  size_t pageSize() const override { return pageSize_; }
  void* reserve(void* hint, size_t size) override;
  void release(void* address, size_t size) override;
  core::VirtualMemoryStatus map(void* address, size_t size, const core::PhysicalMemory& memory, size_t offset,
                                core::MemoryAccess access) override;
  void unmap(void* address, size_t size) override;
  core::VirtualMemoryStatus protect(void* address, size_t size, core::MemoryAccess access) override;

  // Physical memory on GPU `gpu` (its index in the list create had); nullptr when out of memory.
  std::unique_ptr<core::PhysicalMemory> createPhysicalMemory(size_t gpu, size_t size);

 private:
  struct Page {
    size_t gpu;                                // whose memory is mapped here
    CUmemGenericAllocationHandle revoked = 0;  // while access is None: the unmapped allocation
  };

  CudaAddressSpace(std::vector<std::shared_ptr<const PrimaryContext>> gpus, PeerMatrix peers, size_t pageSize)
      : gpus_(std::move(gpus)), peers_(std::move(peers)), pageSize_(pageSize) {}
  const Driver& driver() const { return gpus_.front()->driver(); }
  bool succeeded(CUresult result, const char* call) const;
  // The caller holds mutex_.
  void unmapPages(CUdeviceptr start, size_t size);
  core::VirtualMemoryStatus setAccess(CUdeviceptr start, size_t size, core::MemoryAccess access);
  core::VirtualMemoryStatus revoke(CUdeviceptr start, size_t size);
  core::VirtualMemoryStatus grant(CUdeviceptr start, size_t size, core::MemoryAccess access);

  std::vector<std::shared_ptr<const PrimaryContext>> gpus_;
  PeerMatrix peers_;
  size_t pageSize_;
  std::mutex mutex_;
  std::map<CUdeviceptr, Page> pages_;  // every mapped page of every reservation, by address
};

// Who may access memory of GPU `owner` and how (`flags`, CU_MEM_ACCESS_FLAGS_PROT_*): the owner
// first, then every GPU that `peers` says reaches it; `devices[i]` is GPU i's device ordinal.
std::vector<CUmemAccessDesc> accessGrants(const PeerMatrix& peers, const std::vector<CUdevice>& devices, size_t owner, int flags);

}  // namespace loom::backends::cuda
