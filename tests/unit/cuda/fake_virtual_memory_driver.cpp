#include "fake_virtual_memory_driver.h"

namespace loom::backends::cuda::testing {

namespace {

// Records the call; CUDA_ERROR_OUT_OF_MEMORY when it is the one the test makes fail.
CUresult record(const std::string& call, const std::string& details) {
  FakeVirtualMemoryState& state = fakeVirtualMemory();
  state.calls.push_back(details.empty() ? call : call + " " + details);
  const int count = ++state.counts[call];
  return call == state.failing && count == state.failingAt ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_SUCCESS;
}

CUresult errorName(CUresult, const char** name) {
  *name = "CUDA_ERROR_FAKE";
  return CUDA_SUCCESS;
}
CUresult errorString(CUresult, const char** text) {
  *text = "made to fail by the test";
  return CUDA_SUCCESS;
}
CUresult retain(CUcontext* context, CUdevice device) {
  ++fakeVirtualMemory().retainedContexts;
  *context = reinterpret_cast<CUcontext>(uintptr_t(0x1000 + device));
  return CUDA_SUCCESS;
}
CUresult release(CUdevice) {
  --fakeVirtualMemory().retainedContexts;
  return CUDA_SUCCESS;
}
CUresult push(CUcontext) { return CUDA_SUCCESS; }
CUresult pop(CUcontext* context) {
  if (context) *context = nullptr;
  return CUDA_SUCCESS;
}

CUresult addressReserve(CUdeviceptr* address, size_t size, size_t alignment, CUdeviceptr, unsigned long long) {
  if (CUresult result = record("cuMemAddressReserve", "size=" + std::to_string(size) + " alignment=" + std::to_string(alignment)))
    return result;
  FakeVirtualMemoryState& state = fakeVirtualMemory();
  *address = state.nextAddress;
  state.nextAddress += size;
  state.reserved[*address] = size;
  return CUDA_SUCCESS;
}
CUresult addressFree(CUdeviceptr address, size_t size) {
  record("cuMemAddressFree", "size=" + std::to_string(size));
  return fakeVirtualMemory().reserved.erase(address) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
CUresult create(CUmemGenericAllocationHandle* handle, size_t size, const CUmemAllocationProp* prop, unsigned long long) {
  const bool onDevice = prop->location.type == CU_MEM_LOCATION_TYPE_DEVICE && prop->type == CU_MEM_ALLOCATION_TYPE_PINNED;
  if (CUresult result = record("cuMemCreate", "device=" + std::to_string(prop->location.id) + " size=" + std::to_string(size) +
                                                  (onDevice ? "" : " not-pinned-on-a-device")))
    return result;
  FakeVirtualMemoryState& state = fakeVirtualMemory();
  *handle = state.nextHandle++;
  state.created[*handle] = prop->location.id;
  return CUDA_SUCCESS;
}
CUresult releaseHandle(CUmemGenericAllocationHandle handle) {
  record("cuMemRelease", "handle=" + std::to_string(handle));
  return fakeVirtualMemory().created.erase(handle) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
CUresult map(CUdeviceptr address, size_t size, size_t offset, CUmemGenericAllocationHandle handle, unsigned long long) {
  FakeVirtualMemoryState& state = fakeVirtualMemory();
  if (CUresult result = record("cuMemMap", "offset=" + std::to_string(address - state.reserved.begin()->first) +
                                               " size=" + std::to_string(size) + " handle=" + std::to_string(handle)))
    return result;
  if (offset != 0 || !state.created.count(handle)) return CUDA_ERROR_INVALID_VALUE;
  state.mapped[address] = handle;
  return CUDA_SUCCESS;
}
CUresult unmap(CUdeviceptr address, size_t size) {
  record("cuMemUnmap", "size=" + std::to_string(size));
  return fakeVirtualMemory().mapped.erase(address) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
CUresult setAccess(CUdeviceptr, size_t size, const CUmemAccessDesc* desc, size_t count) {
  if (CUresult result = record("cuMemSetAccess", "size=" + std::to_string(size))) return result;
  fakeVirtualMemory().grants.emplace_back(desc, desc + count);
  return CUDA_SUCCESS;
}

}  // namespace

FakeVirtualMemoryState& fakeVirtualMemory() {
  static FakeVirtualMemoryState state;
  return state;
}

std::shared_ptr<const Driver> makeFakeVirtualMemoryDriver() {
  fakeVirtualMemory() = FakeVirtualMemoryState{};
  std::shared_ptr<Driver> driver = Driver::withoutLibrary();
  driver->cuGetErrorName = errorName;
  driver->cuGetErrorString = errorString;
  driver->cuDevicePrimaryCtxRetain = retain;
  driver->cuDevicePrimaryCtxRelease = release;
  driver->cuCtxPushCurrent = push;
  driver->cuCtxPopCurrent = pop;
  driver->cuMemAddressReserve = addressReserve;
  driver->cuMemAddressFree = addressFree;
  driver->cuMemCreate = create;
  driver->cuMemRelease = releaseHandle;
  driver->cuMemMap = map;
  driver->cuMemUnmap = unmap;
  driver->cuMemSetAccess = setAccess;
  return driver;
}

std::shared_ptr<const PrimaryContext> fakeVirtualMemoryContext(const std::shared_ptr<const Driver>& driver, CUdevice device) {
  std::string error;
  return PrimaryContext::retain(driver, device, error);
}

}  // namespace loom::backends::cuda::testing
