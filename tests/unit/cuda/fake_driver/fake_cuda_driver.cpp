// A fake CUDA driver (a libcuda.so.1 that Driver::load opens) with no GPU behind it: one device
// whose memory is the host's, and streams that run their copies, memory operations and event
// records in order on a thread of their own, so that a stream waiting for a value holds only
// itself, as on a GPU. Enough for the CUDA queue's ordering; kernels are not run.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "backends/cuda/cuda_api.h"

using namespace loom::backends::cuda;

#define LOOM_CUDA_FUNCTION(member, symbol, fallback, ...) extern "C" CUresult member(__VA_ARGS__) __asm__(symbol);
#define LOOM_CUDA_OPTIONAL_FUNCTION(member, symbol, ...)
#include "backends/cuda/cuda_functions.inl"
#undef LOOM_CUDA_FUNCTION
#undef LOOM_CUDA_OPTIONAL_FUNCTION

// The driver's handle types, which cuda_api.h declares in Loom's namespace.
namespace loom::backends::cuda {

struct CUctx_st {};

// An event completes when its stream runs its record, at the host's time then.
struct CUevent_st {
  std::atomic<bool> completed{false};
  std::chrono::steady_clock::time_point time;
};

struct CUstream_st {
  CUstream_st() : worker([this] { run(); }) {}
  ~CUstream_st() {
    {
      std::lock_guard lock(mutex);
      stopping = true;
    }
    changed.notify_all();
    worker.join();
  }

  void enqueue(std::function<void()> operation) {
    {
      std::lock_guard lock(mutex);
      operations.push_back(std::move(operation));
    }
    changed.notify_all();
  }
  bool idle() {
    std::lock_guard lock(mutex);
    return operations.empty() && !running;
  }
  void synchronize() {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return operations.empty() && !running; });
  }

 private:
  void run() {
    std::unique_lock lock(mutex);
    for (;;) {
      changed.wait(lock, [&] { return stopping || !operations.empty(); });
      if (operations.empty()) return;
      std::function<void()> operation = std::move(operations.front());
      operations.pop_front();
      running = true;
      lock.unlock();
      operation();
      lock.lock();
      running = false;
      changed.notify_all();
    }
  }

  std::mutex mutex;
  std::condition_variable changed;
  std::deque<std::function<void()>> operations;
  bool running = false;
  bool stopping = false;
  std::thread worker;  // last: it starts once the rest exists
};

}  // namespace loom::backends::cuda

namespace {
CUctx_st theContext;
void* pointer(CUdeviceptr address) { return reinterpret_cast<void*>(address); }
}  // namespace

CUresult cuDevicePrimaryCtxRetain(CUcontext* context, CUdevice) {
  *context = &theContext;
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRelease(CUdevice) { return CUDA_SUCCESS; }
CUresult cuCtxSetCurrent(CUcontext) { return CUDA_SUCCESS; }
CUresult cuCtxPushCurrent(CUcontext) { return CUDA_SUCCESS; }
CUresult cuCtxPopCurrent(CUcontext* context) {
  if (context) *context = &theContext;
  return CUDA_SUCCESS;
}

CUresult cuStreamCreate(CUstream* stream, unsigned int) {
  *stream = new CUstream_st;
  return CUDA_SUCCESS;
}
CUresult cuStreamDestroy(CUstream stream) {
  delete stream;
  return CUDA_SUCCESS;
}
CUresult cuStreamSynchronize(CUstream stream) {
  stream->synchronize();
  return CUDA_SUCCESS;
}
CUresult cuStreamQuery(CUstream stream) { return stream->idle() ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY; }

CUresult cuMemcpyAsync(CUdeviceptr destination, CUdeviceptr source, size_t size, CUstream stream) {
  stream->enqueue([=] { std::memmove(pointer(destination), pointer(source), size); });
  return CUDA_SUCCESS;
}

CUresult cuStreamWaitValue32(CUstream stream, CUdeviceptr address, uint32_t value, unsigned int) {
  stream->enqueue([=] {
    while (std::atomic_ref<uint32_t>(*static_cast<uint32_t*>(pointer(address))).load() < value)
      std::this_thread::sleep_for(std::chrono::microseconds(50));
  });
  return CUDA_SUCCESS;
}
CUresult cuStreamWriteValue32(CUstream stream, CUdeviceptr address, uint32_t value, unsigned int) {
  stream->enqueue([=] { std::atomic_ref<uint32_t>(*static_cast<uint32_t*>(pointer(address))).store(value); });
  return CUDA_SUCCESS;
}

CUresult cuEventCreate(CUevent* event, unsigned int) {
  *event = new CUevent_st;
  return CUDA_SUCCESS;
}
CUresult cuEventDestroy(CUevent event) {
  delete event;
  return CUDA_SUCCESS;
}
CUresult cuEventRecord(CUevent event, CUstream stream) {
  event->completed = false;
  stream->enqueue([event] {
    event->time = std::chrono::steady_clock::now();
    event->completed = true;
  });
  return CUDA_SUCCESS;
}
CUresult cuEventQuery(CUevent event) { return event->completed ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY; }
CUresult cuEventElapsedTime(float* milliseconds, CUevent start, CUevent end) {
  if (!start->completed || !end->completed) return CUDA_ERROR_NOT_READY;
  *milliseconds = std::chrono::duration<float, std::milli>(end->time - start->time).count();
  return CUDA_SUCCESS;
}
