#pragma once
// A CUDA driver inside the test process, for the backend's GPU paths on machines without a GPU.
// Every entry point records its call. Those of contexts, streams, events and launches behave as
// the driver documents them and note where a caller breaks the driver's rules (an event recorded
// on a stream of another context); every other entry point fails with CUDA_ERROR_NOT_SUPPORTED.
// Each stream runs its copies, 32-bit value waits and writes and event records in order on a
// thread of its own, over host memory (a stream waiting for a value holds only itself, as on a
// GPU); launches and waits for events are recorded, not run. Virtual memory calls keep the books
// of what is reserved, created and mapped (virtualMemory), so that a test sees leaks, and export
// and import physical memory as descriptors of memfds. Texture objects are kept with what they
// were created from (textureObjects) until destroyed, arrays, surfaces and modules likewise. Device memory is host memory, with IPC
// handles (deviceMemory). Context limits and streams' access-policy windows are kept as set.
// One fake at a time: the entry points are plain functions that reach the live one. Calls may come
// from several threads, one at a time: the context stack is shared.
#include <cstdint>
#include <map>
#include <memory>
#include <set>
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

// The books of the virtual memory entry points, and their calls with what they were asked.
struct FakeVirtualMemory {
  std::vector<std::string> calls;  // "cuMemCreate device=1 size=2097152", ... in order
  std::string failing;             // the call that fails ("cuMemMap"), on its `failingAt`th time
  int failingAt = 1;
  std::map<std::string, int> counts;
  std::map<CUdeviceptr, size_t> reserved;
  std::map<CUmemGenericAllocationHandle, CUdevice> created;  // not yet released
  std::map<CUdeviceptr, CUmemGenericAllocationHandle> mapped;
  std::vector<std::vector<CUmemAccessDesc>> grants;  // of each cuMemSetAccess
  // What cuDeviceGetAttribute reports of POSIX descriptor handles. Exported handles are memfds
  // named "fake-cuda-memory-<handle>"; importing one creates a new handle of the same device.
  bool posixDescriptors = false;
  std::map<CUmemGenericAllocationHandle, CUmemGenericAllocationHandle> importedFrom;  // new handle: exported one
  CUdeviceptr nextAddress = 0x7f0000000000;
  CUmemGenericAllocationHandle nextHandle = 1;
};

// The texture objects created and not yet destroyed, with what they were created from.
struct FakeTextureObject {
  CudaResourceDesc resource{};
  CudaTextureDesc texture{};
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
  std::vector<CUcontext> contextStack;  // the test thread's (other threads keep their own); the top is current
  std::map<CUstream, CUcontext> streams;
  std::map<CUevent, CUcontext> events;
  std::map<CUevent, unsigned> eventFlags;
  int retainedContexts = 0;  // primary contexts retained and not yet released
  FakeVirtualMemory virtualMemory;
  std::map<CUtexObject, FakeTextureObject> textureObjects;
  // cuTexObjectCreate fails with CUDA_ERROR_OUT_OF_MEMORY once this many objects live.
  size_t textureObjectLimit = SIZE_MAX;
  // CUDA arrays and the surfaces over them, not yet destroyed.
  std::map<CUarray, CudaArray3dDescriptor> arrays;
  std::map<CUsurfObject, CUarray> surfaces;
  // Modules (their PTX) not yet unloaded, and the functions got from them, by name. Launches of
  // these functions carry no implicit parameters.
  std::map<CUmodule, std::string> modules;
  std::map<CUfunction, std::string> moduleFunctions;
  // Device memory (cuMemAlloc) not yet freed: host memory, which a test may read. Its IPC handles
  // (cuIpcGetMemHandle) name the allocation and the exporting process; as the real driver,
  // cuIpcOpenMemHandle refuses a handle that this very process exported.
  std::set<CUdeviceptr> deviceMemory;
  // What cuCtxSetLimit set, by limit (one set for every context), and the access-policy window
  // cuStreamSetAttribute last gave each stream.
  std::map<int, size_t> contextLimits;
  std::map<CUstream, CUaccessPolicyWindow> accessPolicyWindows;

 private:
  std::shared_ptr<Driver> driver_;
};

}  // namespace loom::backends::cuda::testing
