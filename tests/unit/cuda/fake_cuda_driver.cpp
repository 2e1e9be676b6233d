#include "fake_cuda_driver.h"

#include <cstring>

namespace loom::backends::cuda::testing {

namespace {

FakeCudaDriver* live = nullptr;
uintptr_t nextHandle = 0x10000;

template <typename Handle>
Handle newHandle() {
  return reinterpret_cast<Handle>(nextHandle += 0x10);
}

CUcontext current() { return live->contextStack.empty() ? nullptr : live->contextStack.back(); }

// Records the call; its result: the failure the test asked for, else CUDA_SUCCESS.
CUresult record(FakeCudaCall call) {
  call.current = current();
  const std::string name = call.name;
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
  if (!rule) live->misuse.push_back(broken);
}

CUresult launch(const char* name, CUfunction function, const unsigned grid[3], const unsigned block[3], CUstream stream,
                void** parameters) {
  FakeCudaCall call{name};
  call.function = function;
  call.stream = stream;
  std::memcpy(call.grid, grid, sizeof(call.grid));
  std::memcpy(call.block, block, sizeof(call.block));
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
    return record("cuDevicePrimaryCtxRetain");
  };
  driver.cuDevicePrimaryCtxRelease = [](CUdevice) -> CUresult { return record("cuDevicePrimaryCtxRelease"); };
  driver.cuCtxPushCurrent = [](CUcontext context) -> CUresult {
    live->contextStack.push_back(context);
    return record("cuCtxPushCurrent");
  };
  driver.cuCtxPopCurrent = [](CUcontext* context) -> CUresult {
    expect(!live->contextStack.empty(), "cuCtxPopCurrent without a context pushed");
    if (!live->contextStack.empty()) {
      if (context) *context = live->contextStack.back();
      live->contextStack.pop_back();
    }
    return record("cuCtxPopCurrent");
  };
  driver.cuCtxSetCurrent = [](CUcontext context) -> CUresult {
    if (live->contextStack.empty())
      live->contextStack.push_back(context);
    else
      live->contextStack.back() = context;
    return record("cuCtxSetCurrent");
  };
  driver.cuStreamCreate = [](CUstream* stream, unsigned flags) -> CUresult {
    expect(current() != nullptr, "cuStreamCreate without a current context");
    *stream = newHandle<CUstream>();
    live->streams[*stream] = current();
    FakeCudaCall call{"cuStreamCreate"};
    call.stream = *stream;
    call.flags = flags;
    return record(std::move(call));
  };
  driver.cuStreamDestroy = [](CUstream stream) { return recordOnStream("cuStreamDestroy", stream); };
  driver.cuStreamSynchronize = [](CUstream stream) { return recordOnStream("cuStreamSynchronize", stream); };
  driver.cuStreamQuery = [](CUstream stream) { return recordOnStream("cuStreamQuery", stream); };
  driver.cuEventCreate = [](CUevent* event, unsigned flags) -> CUresult {
    expect(current() != nullptr, "cuEventCreate without a current context");
    FakeCudaCall call{"cuEventCreate"};
    call.flags = flags;
    const CUresult result = record(std::move(call));
    if (result != CUDA_SUCCESS) return result;
    *event = newHandle<CUevent>();
    live->events[*event] = current();
    live->eventFlags[*event] = flags;
    live->calls.back().event = *event;
    return result;
  };
  driver.cuEventRecord = [](CUevent event, CUstream stream) -> CUresult {
    expect(live->events.count(event) && live->streams.count(stream), "cuEventRecord of an unknown event or stream");
    expect(live->events[event] == live->streams[stream], "cuEventRecord of an event on a stream of another context");
    FakeCudaCall call{"cuEventRecord"};
    call.event = event;
    call.stream = stream;
    return record(std::move(call));
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
    FakeCudaCall call{"cuEventDestroy"};
    call.event = event;
    return record(std::move(call));
  };
  driver.cuFuncSetAttribute = [](CUfunction, FunctionAttribute, int) -> CUresult { return record("cuFuncSetAttribute"); };
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

}  // namespace

FakeCudaDriver::FakeCudaDriver() : driver_(Driver::withoutLibrary()) {
  live = this;
#define LOOM_CUDA_FUNCTION(member, symbol, fallback, ...) \
  driver_->member = [](__VA_ARGS__) -> CUresult { return unexpected(symbol); };
#define LOOM_CUDA_OPTIONAL_FUNCTION(member, symbol, ...)
#include "backends/cuda/cuda_functions.inl"
#undef LOOM_CUDA_FUNCTION
#undef LOOM_CUDA_OPTIONAL_FUNCTION
  behave(*driver_);
}

FakeCudaDriver::~FakeCudaDriver() { live = nullptr; }

CUcontext FakeCudaDriver::contextOf(CUdevice device) { return reinterpret_cast<CUcontext>(uintptr_t(0x100 + 0x10 * device)); }

std::vector<FakeCudaCall> FakeCudaDriver::callsNamed(const std::string& name) const {
  std::vector<FakeCudaCall> named;
  for (const FakeCudaCall& call : calls)
    if (call.name == name) named.push_back(call);
  return named;
}

}  // namespace loom::backends::cuda::testing
