#include "backends/cuda/cuda_address_space.h"

#include <algorithm>

#include "loom/core/log.h"

namespace loom::backends::cuda {

namespace {

using core::MemoryAccess;
using core::VirtualMemoryStatus;

CUmemAllocationProp pinnedOn(CUdevice device) {
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location = {CU_MEM_LOCATION_TYPE_DEVICE, device};
  return prop;
}

CUdeviceptr address(const void* pointer) { return reinterpret_cast<CUdeviceptr>(pointer); }

// One allocation per page (see cuda_address_space.h), released when this goes: pages still mapped
// stay until they are unmapped.
class CudaPhysicalMemory final : public core::PhysicalMemory {
 public:
  CudaPhysicalMemory(core::AddressSpace& space, const Driver& driver, size_t gpu, std::vector<CUmemGenericAllocationHandle> pages,
                     size_t pageSize)
      : PhysicalMemory(space, pages.size() * pageSize), driver_(driver), gpu_(gpu), pages_(std::move(pages)) {}
  ~CudaPhysicalMemory() override {
    for (CUmemGenericAllocationHandle page : pages_) driver_.cuMemRelease(page);
  }
  size_t gpu() const { return gpu_; }
  CUmemGenericAllocationHandle page(size_t index) const { return pages_.at(index); }

 private:
  const Driver& driver_;
  size_t gpu_;
  std::vector<CUmemGenericAllocationHandle> pages_;
};

}  // namespace

std::vector<CUmemAccessDesc> accessGrants(const PeerMatrix& peers, const std::vector<CUdevice>& devices, size_t owner, int flags) {
  std::vector<CUmemAccessDesc> grants{{{CU_MEM_LOCATION_TYPE_DEVICE, devices[owner]}, flags}};
  for (size_t gpu = 0; gpu < devices.size(); ++gpu)
    if (gpu != owner && peers[gpu][owner].access) grants.push_back({{CU_MEM_LOCATION_TYPE_DEVICE, devices[gpu]}, flags});
  return grants;
}

std::shared_ptr<CudaAddressSpace> CudaAddressSpace::create(std::vector<std::shared_ptr<const PrimaryContext>> gpus, PeerMatrix peers,
                                                           std::string& error) {
  size_t pageSize = 0;
  for (const auto& gpu : gpus) {
    const Driver& driver = gpu->driver();
    int supported = 0;
    driver.cuDeviceGetAttribute(&supported, DeviceAttribute::VirtualMemoryManagementSupported, gpu->device());
    if (!supported) {
      error = "GPU " + std::to_string(gpu->device()) + " has no virtual memory management";
      return nullptr;
    }
    const CUmemAllocationProp prop = pinnedOn(gpu->device());
    size_t granularity = 0;
    if (CUresult result = driver.cuMemGetAllocationGranularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
        result != CUDA_SUCCESS) {
      error = driver.describe("cuMemGetAllocationGranularity", result);
      return nullptr;
    }
    pageSize = std::max(pageSize, granularity);
  }
  if (gpus.empty() || pageSize == 0) {
    error = "no GPU";
    return nullptr;
  }
  return std::shared_ptr<CudaAddressSpace>(new CudaAddressSpace(std::move(gpus), std::move(peers), pageSize));
}

bool CudaAddressSpace::succeeded(CUresult result, const char* call) const {
  if (result == CUDA_SUCCESS) return true;
  core::debugMessage("virtual memory: %s", driver().describe(call, result).c_str());
  return false;
}

void* CudaAddressSpace::reserve(void* hint, size_t size) {
  auto scope = gpus_.front()->makeCurrent();
  CUdeviceptr start = 0;
  if (!succeeded(driver().cuMemAddressReserve(&start, size, pageSize_, address(hint), 0), "cuMemAddressReserve")) return nullptr;
  return reinterpret_cast<void*>(start);
}

void CudaAddressSpace::release(void* start, size_t size) {
  auto scope = gpus_.front()->makeCurrent();
  succeeded(driver().cuMemAddressFree(address(start), size), "cuMemAddressFree");
}

std::unique_ptr<core::PhysicalMemory> CudaAddressSpace::createPhysicalMemory(size_t gpu, size_t size) {
  auto scope = gpus_.at(gpu)->makeCurrent();
  const CUmemAllocationProp prop = pinnedOn(gpus_[gpu]->device());
  std::vector<CUmemGenericAllocationHandle> pages;
  for (size_t made = 0; made < size; made += pageSize_) {
    CUmemGenericAllocationHandle page = 0;
    if (!succeeded(driver().cuMemCreate(&page, pageSize_, &prop, 0), "cuMemCreate")) {
      for (CUmemGenericAllocationHandle earlier : pages) driver().cuMemRelease(earlier);
      return nullptr;
    }
    pages.push_back(page);
  }
  return std::make_unique<CudaPhysicalMemory>(*this, driver(), gpu, std::move(pages), pageSize_);
}

core::VirtualMemoryStatus CudaAddressSpace::map(void* at, size_t size, const core::PhysicalMemory& memory, size_t offset,
                                                MemoryAccess access) {
  const auto& physical = static_cast<const CudaPhysicalMemory&>(memory);
  std::lock_guard lock(mutex_);
  auto scope = gpus_[physical.gpu()]->makeCurrent();
  const CUdeviceptr start = address(at);
  for (size_t done = 0; done < size; done += pageSize_) {
    if (!succeeded(driver().cuMemMap(start + done, pageSize_, 0, physical.page((offset + done) / pageSize_), 0), "cuMemMap")) {
      unmapPages(start, done);
      return VirtualMemoryStatus::OutOfMemory;
    }
    pages_[start + done] = {physical.gpu()};
  }
  const VirtualMemoryStatus status = setAccess(start, size, access);
  if (status != VirtualMemoryStatus::Success) unmapPages(start, size);
  return status;
}

void CudaAddressSpace::unmap(void* at, size_t size) {
  std::lock_guard lock(mutex_);
  unmapPages(address(at), size);
}

core::VirtualMemoryStatus CudaAddressSpace::protect(void* at, size_t size, MemoryAccess access) {
  std::lock_guard lock(mutex_);
  return setAccess(address(at), size, access);
}

core::VirtualMemoryStatus CudaAddressSpace::setAccess(CUdeviceptr start, size_t size, MemoryAccess access) {
  return access == MemoryAccess::None ? revoke(start, size) : grant(start, size, access);
}

void CudaAddressSpace::unmapPages(CUdeviceptr start, size_t size) {
  for (auto it = pages_.lower_bound(start); it != pages_.end() && it->first < start + size; it = pages_.erase(it)) {
    auto scope = gpus_[it->second.gpu]->makeCurrent();
    if (it->second.revoked)
      succeeded(driver().cuMemRelease(it->second.revoked), "cuMemRelease");
    else
      succeeded(driver().cuMemUnmap(it->first, pageSize_), "cuMemUnmap");
  }
}

core::VirtualMemoryStatus CudaAddressSpace::revoke(CUdeviceptr start, size_t size) {
  for (auto it = pages_.lower_bound(start); it != pages_.end() && it->first < start + size; ++it) {
    Page& page = it->second;
    if (page.revoked) continue;
    auto scope = gpus_[page.gpu]->makeCurrent();
    CUmemGenericAllocationHandle allocation = 0;
    if (!succeeded(driver().cuMemRetainAllocationHandle(&allocation, reinterpret_cast<void*>(it->first)),
                   "cuMemRetainAllocationHandle"))
      return VirtualMemoryStatus::Failed;
    if (!succeeded(driver().cuMemUnmap(it->first, pageSize_), "cuMemUnmap")) {
      driver().cuMemRelease(allocation);
      return VirtualMemoryStatus::Failed;
    }
    page.revoked = allocation;
  }
  return VirtualMemoryStatus::Success;
}

core::VirtualMemoryStatus CudaAddressSpace::grant(CUdeviceptr start, size_t size, MemoryAccess access) {
  std::vector<CUdevice> devices;
  for (const auto& gpu : gpus_) devices.push_back(gpu->device());
  const int flags = access == MemoryAccess::ReadOnly ? CU_MEM_ACCESS_FLAGS_PROT_READ : CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  auto it = pages_.lower_bound(start);
  while (it != pages_.end() && it->first < start + size) {
    // One cuMemSetAccess per run of pages of one GPU, after mapping revoked ones again.
    const size_t gpu = it->second.gpu;
    const CUdeviceptr run = it->first;
    auto scope = gpus_[gpu]->makeCurrent();
    for (; it != pages_.end() && it->first < start + size && it->second.gpu == gpu; ++it) {
      Page& page = it->second;
      if (!page.revoked) continue;
      if (!succeeded(driver().cuMemMap(it->first, pageSize_, 0, page.revoked, 0), "cuMemMap")) return VirtualMemoryStatus::Failed;
      driver().cuMemRelease(page.revoked);
      page.revoked = 0;
    }
    const CUdeviceptr end = it == pages_.end() || it->first >= start + size ? start + size : it->first;
    const std::vector<CUmemAccessDesc> grants = accessGrants(peers_, devices, gpu, flags);
    const CUresult result = driver().cuMemSetAccess(run, end - run, grants.data(), grants.size());
    if (result == CUDA_SUCCESS) continue;
    succeeded(result, "cuMemSetAccess");
    const bool refused = result == CUDA_ERROR_INVALID_VALUE || result == CUDA_ERROR_NOT_SUPPORTED;
    return access == MemoryAccess::ReadOnly && refused ? VirtualMemoryStatus::Unsupported : VirtualMemoryStatus::Failed;
  }
  return VirtualMemoryStatus::Success;
}

}  // namespace loom::backends::cuda
