#include "fake_cuda_driver.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <iterator>
#include <mutex>
#include <thread>

namespace loom::backends::cuda::testing {

namespace {

// A stream with no GPU behind it: runs its copies, memory operations and event records in order on
// a thread of its own, so that a stream waiting for a value holds only itself, as on a GPU.
class FakeStream {
 public:
  FakeStream() : worker_([this] { run(); }) {}
  ~FakeStream() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    worker_.join();
  }

  void enqueue(std::function<void()> operation) {
    {
      std::lock_guard lock(mutex_);
      operations_.push_back(std::move(operation));
    }
    changed_.notify_all();
  }
  bool idle() {
    std::lock_guard lock(mutex_);
    return operations_.empty() && !running_;
  }
  void synchronize() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return operations_.empty() && !running_; });
  }

 private:
  void run() {
    std::unique_lock lock(mutex_);
    for (;;) {
      changed_.wait(lock, [&] { return stopping_ || !operations_.empty(); });
      if (operations_.empty()) return;
      std::function<void()> operation = std::move(operations_.front());
      operations_.pop_front();
      running_ = true;
      lock.unlock();
      operation();
      lock.lock();
      running_ = false;
      changed_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::function<void()>> operations_;
  bool running_ = false;
  bool stopping_ = false;
  std::thread worker_;  // last: it starts once the rest exists
};

// An event completes when its stream runs its record, at the host's time then.
struct FakeEvent {
  std::atomic<bool> completed{false};
  std::chrono::steady_clock::time_point time;
};

FakeCudaDriver* live = nullptr;
std::thread::id testThread;  // whose context stack is FakeCudaDriver::contextStack

// As the real driver's, the current context is each thread's own: the test thread's stack is the
// fake's, which tests read; other threads (engines, a root's issuers) keep theirs.
std::vector<CUcontext>& threadContextStack() {
  thread_local std::vector<CUcontext> otherThreads;
  return std::this_thread::get_id() == testThread ? live->contextStack : otherThreads;
}
CUresult record(FakeCudaCall call);
void expect(bool rule, const std::string& broken);
std::mutex callsMutex;  // the engine's thread calls the driver too
std::map<CUstream, std::unique_ptr<FakeStream>> runningStreams;
std::map<CUevent, std::unique_ptr<FakeEvent>> eventStates;

void* pointer(CUdeviceptr address) { return reinterpret_cast<void*>(address); }

// Records the call on `stream` and, unless it fails, runs `operation` there in turn.
CUresult enqueue(const char* name, CUstream stream, std::function<void()> operation) {
  FakeCudaCall call{name};
  call.stream = stream;
  const CUresult result = record(std::move(call));
  if (result != CUDA_SUCCESS) return result;
  expect(runningStreams.count(stream) == 1, std::string(name) + " on an unknown stream");
  if (runningStreams.count(stream)) runningStreams[stream]->enqueue(std::move(operation));
  return result;
}
uintptr_t nextHandle = 0x10000;

template <typename Handle>
Handle newHandle() {
  return reinterpret_cast<Handle>(nextHandle += 0x10);
}

CUcontext current() { return threadContextStack().empty() ? nullptr : threadContextStack().back(); }

// Records the call; its result: the failure the test asked for, else CUDA_SUCCESS.
CUresult record(FakeCudaCall call) {
  call.current = current();
  const std::string name = call.name;
  std::lock_guard lock(callsMutex);
  live->calls.push_back(std::move(call));
  const auto failure = live->failing.find(name);
  return failure == live->failing.end() ? CUDA_SUCCESS : failure->second;
}

CUresult record(const char* name) { return record(FakeCudaCall{name}); }

CUresult recordOnStream(const char* name, CUstream stream) {
  FakeCudaCall call{name};
  call.stream = stream;
  return record(std::move(call));
}

CUresult unexpected(const char* name) {
  record(name);
  return CUDA_ERROR_NOT_SUPPORTED;
}

void expect(bool rule, const std::string& broken) {
  std::lock_guard lock(callsMutex);
  if (!rule) live->misuse.push_back(broken);
}

CUresult launch(const char* name, CUfunction function, const unsigned grid[3], const unsigned block[3], CUstream stream,
                void** parameters) {
  FakeCudaCall call{name};
  call.function = function;
  call.stream = stream;
  std::memcpy(call.grid, grid, sizeof(call.grid));
  std::memcpy(call.block, block, sizeof(call.block));
  // Functions of modules loaded through the fake (the backend's own kernels) take no implicit parameters.
  if (!live->moduleFunctions.count(function))
    std::memcpy(&call.implicit, parameters[live->implicitParameterIndex], sizeof(call.implicit));
  expect(live->streams.count(stream) && live->streams[stream] == current(),
         std::string(name) + " on a stream of a context that is not current");
  return record(std::move(call));
}

// The entry points the backend's contexts, queues and launches use.
void behave(Driver& driver) {
  driver.cuGetErrorName = [](CUresult, const char**) -> CUresult { return CUDA_ERROR_INVALID_VALUE; };
  driver.cuGetErrorString = [](CUresult, const char**) -> CUresult { return CUDA_ERROR_INVALID_VALUE; };
  driver.cuDevicePrimaryCtxRetain = [](CUcontext* context, CUdevice device) -> CUresult {
    *context = FakeCudaDriver::contextOf(device);
    ++live->retainedContexts;
    return record("cuDevicePrimaryCtxRetain");
  };
  driver.cuDevicePrimaryCtxRelease = [](CUdevice) -> CUresult {
    --live->retainedContexts;
    return record("cuDevicePrimaryCtxRelease");
  };
  driver.cuCtxPushCurrent = [](CUcontext context) -> CUresult {
    threadContextStack().push_back(context);
    return record("cuCtxPushCurrent");
  };
  driver.cuCtxPopCurrent = [](CUcontext* context) -> CUresult {
    expect(!threadContextStack().empty(), "cuCtxPopCurrent without a context pushed");
    if (!threadContextStack().empty()) {
      if (context) *context = threadContextStack().back();
      threadContextStack().pop_back();
    }
    return record("cuCtxPopCurrent");
  };
  driver.cuCtxSetCurrent = [](CUcontext context) -> CUresult {
    if (threadContextStack().empty())
      threadContextStack().push_back(context);
    else
      threadContextStack().back() = context;
    return record("cuCtxSetCurrent");
  };
  driver.cuStreamCreate = [](CUstream* stream, unsigned flags) -> CUresult {
    expect(current() != nullptr, "cuStreamCreate without a current context");
    *stream = newHandle<CUstream>();
    live->streams[*stream] = current();
    FakeCudaCall call{"cuStreamCreate"};
    call.stream = *stream;
    call.flags = flags;
    runningStreams[*stream] = std::make_unique<FakeStream>();
    return record(std::move(call));
  };
  driver.cuStreamDestroy = [](CUstream stream) {
    runningStreams.erase(stream);
    return recordOnStream("cuStreamDestroy", stream);
  };
  driver.cuStreamSynchronize = [](CUstream stream) {
    const CUresult result = recordOnStream("cuStreamSynchronize", stream);
    if (result == CUDA_SUCCESS && runningStreams.count(stream)) runningStreams[stream]->synchronize();
    return result;
  };
  driver.cuStreamQuery = [](CUstream stream) {
    const CUresult result = recordOnStream("cuStreamQuery", stream);
    if (result != CUDA_SUCCESS || !runningStreams.count(stream)) return result;
    return runningStreams[stream]->idle() ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
  };
  driver.cuMemcpyAsync = [](CUdeviceptr destination, CUdeviceptr source, size_t size, CUstream stream) {
    return enqueue("cuMemcpyAsync", stream, [=] { std::memmove(pointer(destination), pointer(source), size); });
  };
  driver.cuStreamWaitValue32 = [](CUstream stream, CUdeviceptr address, uint32_t value, unsigned) {
    return enqueue("cuStreamWaitValue32", stream, [=] {
      while (std::atomic_ref<uint32_t>(*static_cast<uint32_t*>(pointer(address))).load() < value)
        std::this_thread::sleep_for(std::chrono::microseconds(50));
    });
  };
  driver.cuStreamWriteValue32 = [](CUstream stream, CUdeviceptr address, uint32_t value, unsigned) {
    return enqueue("cuStreamWriteValue32", stream,
                   [=] { std::atomic_ref<uint32_t>(*static_cast<uint32_t*>(pointer(address))).store(value); });
  };
  driver.cuEventCreate = [](CUevent* event, unsigned flags) -> CUresult {
    expect(current() != nullptr, "cuEventCreate without a current context");
    FakeCudaCall call{"cuEventCreate"};
    call.flags = flags;
    const CUresult result = record(std::move(call));
    if (result != CUDA_SUCCESS) return result;
    *event = newHandle<CUevent>();
    live->events[*event] = current();
    live->eventFlags[*event] = flags;
    eventStates[*event] = std::make_unique<FakeEvent>();
    live->calls.back().event = *event;
    return result;
  };
  driver.cuEventRecord = [](CUevent event, CUstream stream) -> CUresult {
    expect(live->events.count(event) && live->streams.count(stream), "cuEventRecord of an unknown event or stream");
    expect(live->events[event] == live->streams[stream], "cuEventRecord of an event on a stream of another context");
    FakeCudaCall call{"cuEventRecord"};
    call.event = event;
    call.stream = stream;
    const CUresult result = record(std::move(call));
    if (result != CUDA_SUCCESS || !eventStates.count(event) || !runningStreams.count(stream)) return result;
    FakeEvent* state = eventStates[event].get();
    state->completed = false;
    runningStreams[stream]->enqueue([state] {
      state->time = std::chrono::steady_clock::now();
      state->completed = true;
    });
    return result;
  };
  driver.cuEventQuery = [](CUevent event) -> CUresult {
    FakeCudaCall call{"cuEventQuery"};
    call.event = event;
    const CUresult result = record(std::move(call));
    if (result != CUDA_SUCCESS || !eventStates.count(event)) return result;
    return eventStates[event]->completed ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
  };
  driver.cuEventElapsedTime = [](float* milliseconds, CUevent start, CUevent end) -> CUresult {
    const CUresult result = record("cuEventElapsedTime");
    if (result != CUDA_SUCCESS) return result;
    if (!eventStates.count(start) || !eventStates.count(end)) return CUDA_ERROR_INVALID_VALUE;
    const FakeEvent &from = *eventStates[start], &to = *eventStates[end];
    if (!from.completed || !to.completed) return CUDA_ERROR_NOT_READY;
    *milliseconds = std::chrono::duration<float, std::milli>(to.time - from.time).count();
    return CUDA_SUCCESS;
  };
  driver.cuStreamWaitEvent = [](CUstream stream, CUevent event, unsigned flags) -> CUresult {
    expect(live->events.count(event) && live->streams.count(stream), "cuStreamWaitEvent of an unknown event or stream");
    expect(flags == 0, "cuStreamWaitEvent with flags outside stream capture");
    FakeCudaCall call{"cuStreamWaitEvent"};
    call.event = event;
    call.stream = stream;
    call.flags = flags;
    return record(std::move(call));
  };
  driver.cuEventDestroy = [](CUevent event) -> CUresult {
    expect(live->events.erase(event) == 1, "cuEventDestroy of an unknown event");
    eventStates.erase(event);
    FakeCudaCall call{"cuEventDestroy"};
    call.event = event;
    return record(std::move(call));
  };
  driver.cuFuncSetAttribute = [](CUfunction, FunctionAttribute, int) -> CUresult { return record("cuFuncSetAttribute"); };
  driver.cuCtxSetLimit = [](int limit, size_t value) -> CUresult {
    if (CUresult result = record("cuCtxSetLimit")) return result;
    expect(current() != nullptr, "cuCtxSetLimit without a current context");
    live->contextLimits[limit] = value;
    return CUDA_SUCCESS;
  };
  driver.cuCtxResetPersistingL2Cache = []() -> CUresult { return record("cuCtxResetPersistingL2Cache"); };
  driver.cuStreamSetAttribute = [](CUstream stream, int attribute, const CUstreamAttrValue* value) -> CUresult {
    if (CUresult result = recordOnStream("cuStreamSetAttribute", stream)) return result;
    expect(attribute == CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, "cuStreamSetAttribute of an attribute other than the window");
    expect(live->streams.count(stream) && live->streams[stream] == current(),
           "cuStreamSetAttribute on a stream of a context that is not current");
    live->accessPolicyWindows[stream] = value->accessPolicyWindow;
    return CUDA_SUCCESS;
  };
  driver.cuLaunchKernel = [](CUfunction function, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                             unsigned, CUstream stream, void** parameters, void**) -> CUresult {
    const unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
    return launch("cuLaunchKernel", function, grid, block, stream, parameters);
  };
  driver.cuLaunchCooperativeKernel = [](CUfunction function, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                        unsigned bz, unsigned, CUstream stream, void** parameters) -> CUresult {
    const unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
    return launch("cuLaunchCooperativeKernel", function, grid, block, stream, parameters);
  };
}

// Records a virtual memory call with what it was asked; CUDA_ERROR_OUT_OF_MEMORY when it is the
// one the test makes fail.
CUresult recordVirtualMemory(const char* name, const std::string& details) {
  FakeVirtualMemory& books = live->virtualMemory;
  books.calls.push_back(details.empty() ? name : name + (" " + details));
  const int count = ++books.counts[name];
  if (name == books.failing && count == books.failingAt) return CUDA_ERROR_OUT_OF_MEMORY;
  return record(name);
}

// The handle whose memfd `descriptor` is ("fake-cuda-memory-<handle>"); 0 for any other file.
CUmemGenericAllocationHandle exportedHandleOf(int descriptor) {
  char link[256] = {};
  const std::string path = "/proc/self/fd/" + std::to_string(descriptor);
  if (readlink(path.c_str(), link, sizeof(link) - 1) <= 0) return 0;
  const std::string prefix = "/memfd:fake-cuda-memory-";
  const std::string target = link;
  if (target.rfind(prefix, 0) != 0) return 0;
  return std::strtoull(target.c_str() + prefix.size(), nullptr, 10);
}

// The entry points of colored memory: reservations, physical memory, mappings and access.
// Texture objects: handles from 1 on, kept with their descriptions until destroyed.
void behaveAsTextureObjects(Driver& driver) {
  driver.cuTexObjectCreate = [](CUtexObject* object, const CudaResourceDesc* resource, const CudaTextureDesc* texture,
                                const void*) -> CUresult {
    if (CUresult result = record("cuTexObjectCreate")) return result;
    if (live->textureObjects.size() >= live->textureObjectLimit) return CUDA_ERROR_OUT_OF_MEMORY;
    static CUtexObject next = 0;
    *object = ++next;
    live->textureObjects[*object] = {*resource, *texture};
    return CUDA_SUCCESS;
  };
  driver.cuTexObjectDestroy = [](CUtexObject object) -> CUresult {
    expect(live->textureObjects.erase(object) == 1, "cuTexObjectDestroy of an unknown texture object");
    return record("cuTexObjectDestroy");
  };
}

// CUDA arrays, surfaces over them, and modules of PTX whose functions are handles by name.
void behaveAsArraysAndModules(Driver& driver) {
  driver.cuArray3DCreate = [](CUarray* array, const CudaArray3dDescriptor* described) -> CUresult {
    if (CUresult result = record("cuArray3DCreate")) return result;
    *array = newHandle<CUarray>();
    live->arrays[*array] = *described;
    return CUDA_SUCCESS;
  };
  driver.cuArrayDestroy = [](CUarray array) -> CUresult {
    expect(live->arrays.erase(array) == 1, "cuArrayDestroy of an unknown array");
    return record("cuArrayDestroy");
  };
  driver.cuSurfObjectCreate = [](CUsurfObject* surface, const CudaResourceDesc* resource) -> CUresult {
    if (CUresult result = record("cuSurfObjectCreate")) return result;
    expect(resource->resType == CU_RESOURCE_TYPE_ARRAY && live->arrays.count(resource->res.array.hArray),
           "cuSurfObjectCreate over something else than a live array");
    static CUsurfObject next = 0;
    *surface = ++next;
    live->surfaces[*surface] = resource->res.array.hArray;
    return CUDA_SUCCESS;
  };
  driver.cuSurfObjectDestroy = [](CUsurfObject surface) -> CUresult {
    expect(live->surfaces.erase(surface) == 1, "cuSurfObjectDestroy of an unknown surface");
    return record("cuSurfObjectDestroy");
  };
  driver.cuModuleLoadDataEx = [](CUmodule* module, const void* image, unsigned, JitOption*, void**) -> CUresult {
    if (CUresult result = record("cuModuleLoadDataEx")) return result;
    *module = newHandle<CUmodule>();
    live->modules[*module] = static_cast<const char*>(image);
    return CUDA_SUCCESS;
  };
  driver.cuModuleGetFunction = [](CUfunction* function, CUmodule module, const char* name) -> CUresult {
    if (CUresult result = record("cuModuleGetFunction")) return result;
    if (!live->modules.count(module) || live->modules[module].find(name) == std::string::npos) return CUDA_ERROR_INVALID_VALUE;
    *function = newHandle<CUfunction>();
    live->moduleFunctions[*function] = name;
    return CUDA_SUCCESS;
  };
  driver.cuModuleUnload = [](CUmodule module) -> CUresult {
    expect(live->modules.erase(module) == 1, "cuModuleUnload of an unknown module");
    return record("cuModuleUnload");
  };
  driver.cuMemsetD32Async = [](CUdeviceptr destination, unsigned value, size_t count, CUstream stream) {
    return enqueue("cuMemsetD32Async", stream, [=] {
      auto* words = static_cast<uint32_t*>(pointer(destination));
      std::fill(words, words + count, value);
    });
  };
}

void behaveAsVirtualMemory(Driver& driver) {
  driver.cuMemAddressReserve = [](CUdeviceptr* address, size_t size, size_t alignment, CUdeviceptr,
                                  unsigned long long) -> CUresult {
    const std::string details = "size=" + std::to_string(size) + " alignment=" + std::to_string(alignment);
    if (CUresult result = recordVirtualMemory("cuMemAddressReserve", details)) return result;
    FakeVirtualMemory& books = live->virtualMemory;
    *address = books.nextAddress;
    books.nextAddress += size;
    books.reserved[*address] = size;
    return CUDA_SUCCESS;
  };
  driver.cuMemAddressFree = [](CUdeviceptr address, size_t size) -> CUresult {
    recordVirtualMemory("cuMemAddressFree", "size=" + std::to_string(size));
    return live->virtualMemory.reserved.erase(address) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
  };
  driver.cuMemCreate = [](CUmemGenericAllocationHandle* handle, size_t size, const CUmemAllocationProp* prop,
                          unsigned long long) -> CUresult {
    const bool onDevice = prop->location.type == CU_MEM_LOCATION_TYPE_DEVICE && prop->type == CU_MEM_ALLOCATION_TYPE_PINNED;
    const bool shareable = prop->requestedHandleTypes == CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    const std::string details = "device=" + std::to_string(prop->location.id) + " size=" + std::to_string(size) +
                                (onDevice ? "" : " not-pinned-on-a-device") + (shareable ? " shareable" : "");
    if (CUresult result = recordVirtualMemory("cuMemCreate", details)) return result;
    FakeVirtualMemory& books = live->virtualMemory;
    *handle = books.nextHandle++;
    books.created[*handle] = prop->location.id;
    return CUDA_SUCCESS;
  };
  driver.cuMemRelease = [](CUmemGenericAllocationHandle handle) -> CUresult {
    recordVirtualMemory("cuMemRelease", "handle=" + std::to_string(handle));
    return live->virtualMemory.created.erase(handle) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
  };
  driver.cuMemMap = [](CUdeviceptr address, size_t size, size_t offset, CUmemGenericAllocationHandle handle,
                       unsigned long long) -> CUresult {
    FakeVirtualMemory& books = live->virtualMemory;
    const auto reservation = std::prev(books.reserved.upper_bound(address));  // the one holding `address`
    const std::string details = "offset=" + std::to_string(address - reservation->first) +
                                " size=" + std::to_string(size) + " handle=" + std::to_string(handle);
    if (CUresult result = recordVirtualMemory("cuMemMap", details)) return result;
    if (offset != 0 || !books.created.count(handle)) return CUDA_ERROR_INVALID_VALUE;
    books.mapped[address] = handle;
    return CUDA_SUCCESS;
  };
  driver.cuMemUnmap = [](CUdeviceptr address, size_t size) -> CUresult {
    recordVirtualMemory("cuMemUnmap", "size=" + std::to_string(size));
    return live->virtualMemory.mapped.erase(address) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
  };
  driver.cuDeviceGetAttribute = [](int* value, DeviceAttribute attribute, CUdevice) -> CUresult {
    if (attribute != DeviceAttribute::HandleTypePosixFileDescriptorSupported) return unexpected("cuDeviceGetAttribute");
    *value = live->virtualMemory.posixDescriptors ? 1 : 0;
    return record("cuDeviceGetAttribute");
  };
  driver.cuMemExportToShareableHandle = [](void* shareable, CUmemGenericAllocationHandle handle, int type,
                                           unsigned long long) -> CUresult {
    if (CUresult result = recordVirtualMemory("cuMemExportToShareableHandle", "handle=" + std::to_string(handle))) return result;
    if (type != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR || !live->virtualMemory.created.count(handle)) return CUDA_ERROR_INVALID_VALUE;
    const int descriptor = memfd_create(("fake-cuda-memory-" + std::to_string(handle)).c_str(), MFD_CLOEXEC);
    if (descriptor < 0) return CUDA_ERROR_OUT_OF_MEMORY;
    std::memcpy(shareable, &descriptor, sizeof(descriptor));
    return CUDA_SUCCESS;
  };
  driver.cuMemImportFromShareableHandle = [](CUmemGenericAllocationHandle* handle, void* shareable, int type) -> CUresult {
    const auto exported = exportedHandleOf(static_cast<int>(reinterpret_cast<uintptr_t>(shareable)));
    if (CUresult result = recordVirtualMemory("cuMemImportFromShareableHandle", "of=" + std::to_string(exported))) return result;
    FakeVirtualMemory& books = live->virtualMemory;
    if (type != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR || !books.created.count(exported)) return CUDA_ERROR_INVALID_VALUE;
    *handle = books.nextHandle++;
    books.created[*handle] = books.created[exported];
    books.importedFrom[*handle] = exported;
    return CUDA_SUCCESS;
  };
  driver.cuMemSetAccess = [](CUdeviceptr, size_t size, const CUmemAccessDesc* desc, size_t count) -> CUresult {
    if (CUresult result = recordVirtualMemory("cuMemSetAccess", "size=" + std::to_string(size))) return result;
    live->virtualMemory.grants.emplace_back(desc, desc + count);
    return CUDA_SUCCESS;
  };
}

// What the fake's CUipcMemHandle holds.
struct FakeIpcHandle {
  pid_t exporter;
  CUdeviceptr address;
};
static_assert(sizeof(FakeIpcHandle) <= sizeof(CUipcMemHandle));

void behaveAsDeviceMemory(Driver& driver) {
  driver.cuMemAlloc = [](CUdeviceptr* address, size_t size) -> CUresult {
    if (CUresult result = record("cuMemAlloc")) return result;
    void* memory = std::calloc(1, size == 0 ? 1 : size);
    if (!memory) return CUDA_ERROR_OUT_OF_MEMORY;
    *address = reinterpret_cast<CUdeviceptr>(memory);
    live->deviceMemory.insert(*address);
    return CUDA_SUCCESS;
  };
  driver.cuMemFree = [](CUdeviceptr address) -> CUresult {
    if (CUresult result = record("cuMemFree")) return result;
    if (!live->deviceMemory.erase(address)) return CUDA_ERROR_INVALID_VALUE;
    std::free(pointer(address));
    return CUDA_SUCCESS;
  };
  driver.cuIpcGetMemHandle = [](CUipcMemHandle* handle, CUdeviceptr address) -> CUresult {
    if (CUresult result = record("cuIpcGetMemHandle")) return result;
    if (!live->deviceMemory.count(address)) return CUDA_ERROR_INVALID_VALUE;
    const FakeIpcHandle named{getpid(), address};
    *handle = {};
    std::memcpy(handle->reserved, &named, sizeof(named));
    return CUDA_SUCCESS;
  };
  driver.cuIpcOpenMemHandle = [](CUdeviceptr*, CUipcMemHandle handle, unsigned) -> CUresult {
    if (CUresult result = record("cuIpcOpenMemHandle")) return result;
    FakeIpcHandle named;
    std::memcpy(&named, handle.reserved, sizeof(named));
    expect(named.exporter != getpid(), "cuIpcOpenMemHandle of a handle that this process exported");
    return CUDA_ERROR_INVALID_VALUE;  // no other process shares memory with the fake
  };
  driver.cuIpcCloseMemHandle = [](CUdeviceptr) -> CUresult {
    record("cuIpcCloseMemHandle");
    return CUDA_ERROR_INVALID_VALUE;  // the fake opens none
  };
}

}  // namespace

FakeCudaDriver::FakeCudaDriver() : driver_(Driver::withoutLibrary()) {
  live = this;
  testThread = std::this_thread::get_id();
#define LOOM_CUDA_FUNCTION(member, symbol, fallback, ...) \
  driver_->member = [](__VA_ARGS__) -> CUresult { return unexpected(symbol); };
#define LOOM_CUDA_OPTIONAL_FUNCTION(member, symbol, ...)
#include "backends/cuda/cuda_functions.inl"
#undef LOOM_CUDA_FUNCTION
#undef LOOM_CUDA_OPTIONAL_FUNCTION
  behave(*driver_);
  behaveAsVirtualMemory(*driver_);
  behaveAsTextureObjects(*driver_);
  behaveAsArraysAndModules(*driver_);
  behaveAsDeviceMemory(*driver_);
}

FakeCudaDriver::~FakeCudaDriver() {
  runningStreams.clear();  // joins their threads, which may still touch events
  eventStates.clear();
  live = nullptr;
}

CUcontext FakeCudaDriver::contextOf(CUdevice device) { return reinterpret_cast<CUcontext>(uintptr_t(0x100 + 0x10 * device)); }

std::vector<FakeCudaCall> FakeCudaDriver::callsNamed(const std::string& name) const {
  std::vector<FakeCudaCall> named;
  for (const FakeCudaCall& call : calls)
    if (call.name == name) named.push_back(call);
  return named;
}

}  // namespace loom::backends::cuda::testing
