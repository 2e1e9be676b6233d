#pragma once
// A CUDA driver inside the test process, for the backend's GPU paths on machines without a GPU.
// Every entry point records its call. Those of contexts, streams, events and launches behave as
// the driver documents them and note where a caller breaks the driver's rules (an event recorded
// on a stream of another context); every other entry point fails with CUDA_ERROR_NOT_SUPPORTED.
// One fake at a time: the entry points are plain functions that reach the live one.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backends/cuda/cuda_driver.h"
#include "loom/compiler/nvptx_launch_abi.h"

namespace loom::backends::cuda::testing {

struct FakeCudaCall {
  std::string name;
  CUcontext current = nullptr;  // the thread's current context at the call
  CUstream stream = nullptr;    // the stream the call names
  CUevent event = nullptr;      // the event the call names
  unsigned flags = 0;
  // Launches: the function, the grid and block, and the implicit parameters.
  CUfunction function = nullptr;
  unsigned grid[3] = {};
  unsigned block[3] = {};
  compiler::nvptx::ImplicitLaunchParameters implicit{};
};

class FakeCudaDriver {
 public:
  FakeCudaDriver();
  ~FakeCudaDriver();
  FakeCudaDriver(const FakeCudaDriver&) = delete;
  FakeCudaDriver& operator=(const FakeCudaDriver&) = delete;

  std::shared_ptr<const Driver> driver() const { return driver_; }
  // Device `device`'s primary context.
  static CUcontext contextOf(CUdevice device);
  // The calls named `name`, in order.
  std::vector<FakeCudaCall> callsNamed(const std::string& name) const;
  size_t count(const std::string& name) const { return callsNamed(name).size(); }

  std::vector<FakeCudaCall> calls;
  // Where a caller broke the driver's rules, said in words.
  std::vector<std::string> misuse;
  // Calls that fail with the given result instead.
  std::map<std::string, CUresult> failing;
  // Launches read their implicit parameters from kernelParams[implicitParameterIndex] (the
  // kernel's argument count).
  size_t implicitParameterIndex = 0;
  std::vector<CUcontext> contextStack;  // the test thread's; the top is current
  std::map<CUstream, CUcontext> streams;
  std::map<CUevent, CUcontext> events;
  std::map<CUevent, unsigned> eventFlags;

 private:
  std::shared_ptr<Driver> driver_;
};

}  // namespace loom::backends::cuda::testing
