#pragma once
// A fake CUDA driver for unit tests of the backend's virtual memory calls (colored memory): a
// Driver whose entry points record each call in order, hand out made-up addresses and handles, keep the books of
// what is reserved, created and mapped (so a test sees leaks), and fail the call a test names.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backends/cuda/cuda_context.h"
#include "backends/cuda/cuda_driver.h"

namespace loom::backends::cuda::testing {

struct FakeVirtualMemoryState {
  std::vector<std::string> calls;  // "cuMemCreate device=1 size=2097152", ... in order
  std::string failing;             // the call that fails ("cuMemMap"), on its `failingAt`th time
  int failingAt = 1;
  std::map<std::string, int> counts;
  std::map<CUdeviceptr, size_t> reserved;
  std::map<CUmemGenericAllocationHandle, CUdevice> created;  // not yet released
  std::map<CUdeviceptr, CUmemGenericAllocationHandle> mapped;
  std::vector<std::vector<CUmemAccessDesc>> grants;  // of each cuMemSetAccess
  CUdeviceptr nextAddress = 0x7f0000000000;
  CUmemGenericAllocationHandle nextHandle = 1;
  int retainedContexts = 0;
};

// The state of the fake driver (one per test process: entry points are plain functions).
FakeVirtualMemoryState& fakeVirtualMemory();
// A fresh fake driver, its state cleared.
std::shared_ptr<const Driver> makeFakeVirtualMemoryDriver();
// The primary context of GPU `device` of the fake driver.
std::shared_ptr<const PrimaryContext> fakeVirtualMemoryContext(const std::shared_ptr<const Driver>& driver, CUdevice device);

}  // namespace loom::backends::cuda::testing
