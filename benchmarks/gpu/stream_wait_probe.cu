// Stream wait probe: can the CUDA driver block a copy, or a whole thread's calls, behind a stream
// that waits in a stream memory wait (cuStreamWaitValue32)? On Loom's four-GPU root,
// level-zero-tests' test_p2p concurrent tests hang with every command issued and the streams'
// event waits never satisfied, and test_cmdlist's chained immediate lists wait forever; both copy
// from or to pageable host memory while another queue's stream waits for an event. The probe
// issues those orders in plain CUDA and says which complete; a blocked one is released after a
// second or two by the host writing the word. It tests the driver, not Loom.
//  0. A stream of GPU 0 waits; the same thread loads a module, takes its function and launches it
//     on another stream (on two H200s, 2026-11-27: the load waited for the stream, lazy or eager
//     loading alike, which is why Loom waits in a stream only for signals already issued).
//  1. GPU 1's stream waits first; then GPU 0 copies (pageable or pinned, into either GPU's memory)
//     and writes the word (every order completed at once on two H200s).
//  2. One thread issues on a stream of GPU 0 a wait and then a copy into pageable memory, which
//     returns only once done; a second thread then issues, on another stream of GPU 0, the
//     launch and the write that open the wait (two of Loom's engines; issued at once on two H200s).
// Build and run on a machine with two GPUs or more (not part of the CMake build):
//   nvcc -O3 -arch=sm_90 -o stream_wait_probe benchmarks/gpu/stream_wait_probe.cu -lcuda && ./stream_wait_probe
#include <cuda.h>
#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "probe_check.h"

__global__ void addOne(int* word) { atomicAdd(word, 1); }

namespace {
constexpr size_t kBytes = 4096;

// A step that never returns is itself the answer: the watchdog names it and ends the probe.
std::atomic<const char*> currentStep{"start"};
std::atomic<int> stepCount{0};

void at(const char* step) {
  currentStep = step;
  ++stepCount;
}

void watch() {
  int seen = -1, still = 0;
  for (;;) {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    const int now = stepCount;
    still = now == seen ? still + 1 : 0;
    seen = now;
    if (still == 10) {
      std::printf("STUCK for 10 s in: %s\n", currentStep.load());
      std::fflush(stdout);
      std::_Exit(3);
    }
  }
}

struct Copy {
  const char* name;
  bool pageableSource;
  bool intoOtherGpu;  // A's copy lands in B's memory (else in A's own)
};

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

CUdeviceptr address(const volatile void* p) { return reinterpret_cast<CUdeviceptr>(p); }

// B's stream waits for `gate` first; then A's stream copies and writes the gate. Says whether A's
// copy and B's wait completed without the host's help.
void tryCopyBehindAWait(const Copy& copy, bool peerAccess, volatile unsigned* gate, std::vector<char>& pageable,
                             void* pinned, void* memoryA, void* memoryB, cudaStream_t streamA, cudaStream_t streamB) {
  *gate = 0;
  at("1: GPU 1 issues its wait and launch");
  CK(cudaSetDevice(1));
  CK(cuStreamWaitValue32(reinterpret_cast<CUstream>(streamB), address(gate), 1, CU_STREAM_WAIT_VALUE_GEQ));
  addOne<<<1, 1, 0, streamB>>>(static_cast<int*>(memoryB));
  CK(cudaSetDevice(0));
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    *gate = 1;
  });
  const auto start = std::chrono::steady_clock::now();
  void* destination = copy.intoOtherGpu ? memoryB : memoryA;
  const void* source = copy.pageableSource ? static_cast<const void*>(pageable.data()) : pinned;
  at(copy.name);
  CK(cudaMemcpyAsync(destination, source, kBytes, cudaMemcpyDefault, streamA));
  at("1: GPU 0 writes the word and synchronizes");
  CK(cuStreamWriteValue32(reinterpret_cast<CUstream>(streamA), address(gate), 1, 0));
  CK(cudaStreamSynchronize(streamA));
  at("1: GPU 1 synchronizes");
  CK(cudaSetDevice(1));
  CK(cudaStreamSynchronize(streamB));
  const double seconds = secondsSince(start);
  release.join();
  std::printf("%-58s peer access %-3s %s (%.3f s)\n", copy.name, peerAccess ? "on" : "off",
              seconds < 0.5 ? "completes" : "BLOCKED until the host wrote the word", seconds);
}
// A tiny module of the driver API, so that its loading can be timed apart from any launch.
const char* const kProbePtx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry probe_kernel(.param .u64 word)
{
  .reg .b64 %rd<3>;
  .reg .b32 %r<2>;
  ld.param.u64 %rd1, [word];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, 7;
  st.global.u32 [%rd2], %r1;
  ret;
}
)";

// Experiment 0: a stream of GPU 0 waits for the word; meanwhile the same thread loads a module, takes its
// function and launches it on another stream. The host writes the word after 2 s: a step that took that
// long waited for the stream (a context synchronization), which deadlocks a runtime whose streams wait
// for events that only later commands or the host will signal.
void tryLoadingBesideAWait(volatile unsigned* gate, void* memory, cudaStream_t waiting, cudaStream_t other) {
  *gate = 0;
  CK(cudaSetDevice(0));
  CK(cuStreamWaitValue32(reinterpret_cast<CUstream>(waiting), address(gate), 1, CU_STREAM_WAIT_VALUE_GEQ));
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::seconds(2));
    *gate = 1;
  });
  auto report = [](const char* step, double seconds) {
    std::printf("  %-44s %s (%.3f s)\n", step, seconds < 1.0 ? "returns at once" : "WAITED for the stream", seconds);
  };
  auto start = std::chrono::steady_clock::now();
  at("0: cuModuleLoadData beside a waiting stream");
  CUmodule module{};
  CK(cuModuleLoadData(&module, kProbePtx));
  report("cuModuleLoadData", secondsSince(start));
  start = std::chrono::steady_clock::now();
  at("0: cuModuleGetFunction beside a waiting stream");
  CUfunction function{};
  CK(cuModuleGetFunction(&function, module, "probe_kernel"));
  report("cuModuleGetFunction", secondsSince(start));
  start = std::chrono::steady_clock::now();
  at("0: cuLaunchKernel beside a waiting stream");
  CUdeviceptr word = reinterpret_cast<CUdeviceptr>(memory);
  void* parameters[] = {&word};
  CK(cuLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, reinterpret_cast<CUstream>(other), parameters, nullptr));
  report("cuLaunchKernel (first launch)", secondsSince(start));
  release.join();
  at("0: synchronize");
  CK(cudaDeviceSynchronize());
  CK(cuModuleUnload(module));
}

// Experiment 2: returns once both threads are done; says how long the second thread's calls took.
void tryIssueBesideABlockedCopy(bool pageableDestination, volatile unsigned* gate, std::vector<char>& pageable, void* pinned,
                                void* memory, cudaStream_t waiting, cudaStream_t opening) {
  *gate = 0;
  std::atomic<bool> waitIssued{false};
  std::thread blocked([&] {
    CK(cudaSetDevice(0));
    CK(cuStreamWaitValue32(reinterpret_cast<CUstream>(waiting), address(gate), 1, CU_STREAM_WAIT_VALUE_GEQ));
    waitIssued = true;
    void* destination = pageableDestination ? static_cast<void*>(pageable.data()) : pinned;
    CK(cudaMemcpyAsync(destination, memory, kBytes, cudaMemcpyDefault, waiting));
    CK(cudaStreamSynchronize(waiting));
  });
  while (!waitIssued) {
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the first thread is in its copy
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::seconds(2));
    *gate = 1;
  });
  const auto start = std::chrono::steady_clock::now();
  at("2: the second thread launches and writes the word");
  CK(cudaSetDevice(0));
  addOne<<<1, 1, 0, opening>>>(static_cast<int*>(memory));
  CK(cuStreamWriteValue32(reinterpret_cast<CUstream>(opening), address(gate), 1, 0));
  const double seconds = secondsSince(start);
  at("2: the first thread's copy finishes");
  blocked.join();
  release.join();
  std::printf("%-58s %s (%.3f s)\n", pageableDestination ? "another stream's launch and write beside a pageable copy" : "the same beside a pinned copy",
              seconds < 1.0 ? "issued at once" : "BLOCKED until the host wrote the word", seconds);
}
}  // namespace

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::thread(watch).detach();
  int gpus = 0;
  CK(cudaGetDeviceCount(&gpus));
  if (gpus < 2) {
    std::printf("stream_wait_probe needs two GPUs (found %d)\n", gpus);
    return 0;
  }
  void* words = nullptr;
  CK(cudaHostAlloc(&words, 64, cudaHostAllocMapped | cudaHostAllocPortable));
  auto* gate = static_cast<volatile unsigned*>(words);
  void* pinned = nullptr;
  CK(cudaHostAlloc(&pinned, kBytes, cudaHostAllocPortable));
  std::vector<char> pageable(kBytes, 1);
  void *memoryA = nullptr, *memoryB = nullptr;
  cudaStream_t streamA{}, streamB{}, streamA2{};
  CK(cudaSetDevice(0));
  CK(cudaMalloc(&memoryA, kBytes));
  CK(cudaStreamCreateWithFlags(&streamA, cudaStreamNonBlocking));
  CK(cudaStreamCreateWithFlags(&streamA2, cudaStreamNonBlocking));
  CK(cudaSetDevice(1));
  CK(cudaMalloc(&memoryB, kBytes));
  CK(cudaStreamCreateWithFlags(&streamB, cudaStreamNonBlocking));

  const char* loading = std::getenv("CUDA_MODULE_LOADING");
  std::printf("stream_wait_probe: loading a module while a stream of the same GPU waits (CUDA_MODULE_LOADING %s)\n",
              loading ? loading : "unset");
  tryLoadingBesideAWait(gate, memoryA, streamA, streamA2);
  // Later experiments must not measure the runtime's lazy loading of addOne: load it on both GPUs first.
  at("warming addOne up on both GPUs");
  for (int gpu : {0, 1}) {
    CK(cudaSetDevice(gpu));
    addOne<<<1, 1>>>(static_cast<int*>(gpu == 0 ? memoryA : memoryB));
    CK(cudaDeviceSynchronize());
  }
  const Copy copies[] = {
      {"pageable host -> other GPU's memory (test_p2p's first copy)", true, true},
      {"pinned host -> other GPU's memory", false, true},
      {"pageable host -> own memory", true, false},
      {"pinned host -> own memory", false, false},
  };
  const char* connections = std::getenv("CUDA_DEVICE_MAX_CONNECTIONS");
  std::printf("stream_wait_probe: GPU 1 waits in its stream, then GPU 0 copies and writes the word (CUDA_DEVICE_MAX_CONNECTIONS %s)\n",
              connections ? connections : "unset");
  for (bool peerAccess : {false, true}) {
    if (peerAccess) {
      CK(cudaSetDevice(0));
      CK(cudaDeviceEnablePeerAccess(1, 0));
      CK(cudaSetDevice(1));
      CK(cudaDeviceEnablePeerAccess(0, 0));
    }
    for (const Copy& copy : copies)
      tryCopyBehindAWait(copy, peerAccess, gate, pageable, pinned, memoryA, memoryB, streamA, streamB);
  }
  std::printf("stream_wait_probe: one thread's copy waits in a stream of GPU 0; another thread opens the wait from a second stream\n");
  for (bool pageableDestination : {true, false})
    tryIssueBesideABlockedCopy(pageableDestination, gate, pageable, pinned, memoryA, streamA, streamA2);
  return 0;
}
