// Split join probe: what it costs, in plain CUDA, to run the parts of one launch on every GPU and
// let the host see when all are done, by each way a root device's queue can join its tiles. It
// measures the hardware and driver, not Loom: docs/performance.md says what it showed.
// Build and run on a machine with several GPUs (not part of the CMake build):
//   nvcc -O3 -arch=sm_90 -o split_join_probe benchmarks/gpu/split_join_probe.cu -lcuda && ./split_join_probe
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "probe_check.h"

__global__ void empty(int* unused) {
  if (unused && threadIdx.x == 4096) *unused = 0;
}

namespace {
constexpr unsigned kGroups = 1024, kGroupSize = 32;

struct Gpu {
  cudaStream_t stream{};
  cudaEvent_t joinPoint{};
  unsigned* wordOnGpu0{};  // in GPU 0's memory, written by this GPU
};

int gpus = 0;
std::vector<Gpu> gpu;
volatile unsigned* hostWords;  // one per GPU, pinned and mapped
unsigned* gpu0Words;           // one per GPU, in GPU 0's memory
unsigned sequence = 0;

CUstream raw(int g) { return reinterpret_cast<CUstream>(gpu[g].stream); }
CUdeviceptr address(const volatile void* p) { return reinterpret_cast<CUdeviceptr>(p); }

void launchParts(int parts) {
  for (int g = 0; g < parts; ++g) {
    CK(cudaSetDevice(g));
    empty<<<kGroups / parts, kGroupSize, 0, gpu[g].stream>>>(nullptr);
  }
}

void spin(int word) {
  while (hostWords[word] < sequence) {
  }
}

void writeHost(int g, int word) { CK(cuStreamWriteValue32(raw(g), address(&hostWords[word]), sequence, 0)); }

void joinByEvents(bool queryFirst) {
  for (int g = 1; g < gpus; ++g) {
    CK(cudaSetDevice(g));
    if (queryFirst && cudaStreamQuery(gpu[g].stream) == cudaSuccess) continue;
    CK(cudaEventRecord(gpu[g].joinPoint, gpu[g].stream));
    CK(cudaSetDevice(0));
    CK(cudaStreamWaitEvent(gpu[0].stream, gpu[g].joinPoint, 0));
  }
  CK(cudaSetDevice(0));
}

// The other GPUs write their words at `words`; GPU 0 waits for them all and writes the host's
// word, in one batch.
void joinByWords(unsigned* words) {
  std::vector<CUstreamBatchMemOpParams> ops;
  for (int g = 1; g < gpus; ++g) {
    CK(cudaSetDevice(g));
    CK(cuStreamWriteValue32(raw(g), address(&words[g]), sequence, 0));
    CUstreamBatchMemOpParams wait{};
    wait.waitValue.operation = CU_STREAM_MEM_OP_WAIT_VALUE_32;
    wait.waitValue.address = address(&words[g]);
    wait.waitValue.value = sequence;
    wait.waitValue.flags = CU_STREAM_WAIT_VALUE_GEQ;
    ops.push_back(wait);
  }
  CUstreamBatchMemOpParams write{};
  write.writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
  write.writeValue.address = address(&hostWords[0]);
  write.writeValue.value = sequence;
  ops.push_back(write);
  CK(cudaSetDevice(0));
  CK(cuStreamBatchMemOp(raw(0), unsigned(ops.size()), ops.data(), 0));
}

// One thread per GPU after the first, spinning for work: the calling thread hands them their parts
// and launches GPU 0's itself, so that the GPUs' launches are issued at once.
struct Helpers {
  std::atomic<unsigned> go{0};
  std::atomic<bool> stop{false};
  std::vector<std::atomic<unsigned>> issued;
  std::vector<std::thread> threads;
  std::atomic<bool> writeOwnWord{false};

  Helpers() : issued(gpus) {
    for (int g = 1; g < gpus; ++g) threads.emplace_back([this, g] { serve(g); });
  }
  ~Helpers() {
    stop = true;
    for (std::thread& thread : threads) thread.join();
  }
  void serve(int g) {
    CK(cudaSetDevice(g));
    unsigned seen = 0;
    while (!stop) {
      const unsigned now = go.load(std::memory_order_acquire);
      if (now == seen) continue;
      seen = now;
      empty<<<kGroups / gpus, kGroupSize, 0, gpu[g].stream>>>(nullptr);
      if (writeOwnWord)
        writeHost(g, g);
      else
        CK(cudaEventRecord(gpu[g].joinPoint, gpu[g].stream));
      issued[g].store(now, std::memory_order_release);
    }
  }
  void launchAll() {
    go.store(sequence, std::memory_order_release);
    CK(cudaSetDevice(0));
    empty<<<kGroups / gpus, kGroupSize, 0, gpu[0].stream>>>(nullptr);
    for (int g = 1; g < gpus; ++g)
      while (issued[g].load(std::memory_order_acquire) != sequence) {
      }
  }
};

double microsecondsPerRoundTrip(const std::function<void()>& roundTrip) {
  std::vector<double> runs;
  for (int run = 0; run < 5; ++run) {
    constexpr int kTrips = 2000;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < kTrips; ++i) {
      ++sequence;
      roundTrip();
    }
    runs.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() / kTrips);
  }
  std::sort(runs.begin(), runs.end());
  return runs[2];
}
}  // namespace

int main() {
  CK(cudaGetDeviceCount(&gpus));
  if (gpus < 2) {
    std::printf("split_join_probe needs two GPUs or more (found %d)\n", gpus);
    return 0;
  }
  gpu.resize(gpus);
  for (int g = 0; g < gpus; ++g) {
    CK(cudaSetDevice(g));
    CK(cudaStreamCreateWithFlags(&gpu[g].stream, cudaStreamNonBlocking));
    CK(cudaEventCreateWithFlags(&gpu[g].joinPoint, cudaEventDisableTiming));
    if (g > 0) CK(cudaDeviceEnablePeerAccess(0, 0));
  }
  void* words = nullptr;
  CK(cudaHostAlloc(&words, 64 * sizeof(unsigned), cudaHostAllocMapped | cudaHostAllocPortable));
  std::fill_n(static_cast<unsigned*>(words), 64, 0u);
  hostWords = static_cast<volatile unsigned*>(words);
  CK(cudaSetDevice(0));
  CK(cudaMalloc(&gpu0Words, 64 * sizeof(unsigned)));
  CK(cudaMemset(gpu0Words, 0, 64 * sizeof(unsigned)));
  CK(cudaDeviceSynchronize());

  auto helpers = std::make_unique<Helpers>();
  struct Way {
    const char* name;
    std::function<void()> roundTrip;
  };
  const std::vector<Way> ways{
      {"one GPU: launch, write the host's word, spin", [] { launchParts(1); writeHost(0, 0); spin(0); }},
      {"all GPUs, joined by events into GPU 0 (Loom today, no queries)",
       [] { launchParts(gpus); joinByEvents(false); writeHost(0, 0); spin(0); }},
      {"all GPUs, joined by events after a stream query each",
       [] { launchParts(gpus); joinByEvents(true); writeHost(0, 0); spin(0); }},
      {"all GPUs, each writes its own host word, the host spins on all",
       [] {
         launchParts(gpus);
         for (int g = 0; g < gpus; ++g) { CK(cudaSetDevice(g)); writeHost(g, g); }
         for (int g = 0; g < gpus; ++g) spin(g);
       }},
      {"all GPUs, words in GPU 0's memory, GPU 0 waits for them in one batch",
       [] { launchParts(gpus); joinByWords(gpu0Words); spin(0); }},
      {"all GPUs, words in host memory, GPU 0 waits for them in one batch",
       [] { launchParts(gpus); joinByWords(const_cast<unsigned*>(hostWords) + 32); spin(0); }},
      {"all GPUs, launched from one thread each, joined by events into GPU 0",
       [&] {
         helpers->launchAll();
         for (int g = 1; g < gpus; ++g) CK(cudaStreamWaitEvent(gpu[0].stream, gpu[g].joinPoint, 0));
         writeHost(0, 0);
         spin(0);
       }},
      {"all GPUs, launched from one thread each, the host spins on every GPU's word",
       [&] {
         helpers->writeOwnWord = true;
         helpers->launchAll();
         writeHost(0, 0);
         for (int g = 0; g < gpus; ++g) spin(g);
         helpers->writeOwnWord = false;
       }},
      {"host cost only: the launches of all GPUs (no wait)",
       [] { launchParts(gpus); }},
  };
  std::printf("split_join_probe: %d GPUs, %u groups of %u, median of 5 x 2000 round trips\n", gpus, kGroups, kGroupSize);
  for (const Way& way : ways) {
    std::printf("%-72s %8.2f us\n", way.name, microsecondsPerRoundTrip(way.roundTrip));
    for (int g = 0; g < gpus; ++g) { CK(cudaSetDevice(g)); CK(cudaStreamSynchronize(gpu[g].stream)); }
  }
  return 0;
}
