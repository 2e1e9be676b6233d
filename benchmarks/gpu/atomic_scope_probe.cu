// Atomic scope probe: what do system-scoped atomics (atom.sys, red.sys) cost against PTX's default
// .gpu scope on device memory and on managed memory? Loom makes every global and generic atomic of
// a kernel system-scoped (fine-grained SVM and composite roots share memory across GPUs and the
// host), so the probe times the same kernels in both scopes:
//  - contended: every thread adds to one of 256 counters (a histogram's merge);
//  - spread: every thread adds to its own counter;
//  - compare-and-swap: every thread increments one of 256 counters by a CAS loop (fewer times);
// each as atom (old value used) and red (old value unused), on cuMemAlloc and cuMemAllocManaged
// memory, and checks every count. It tests the hardware and driver, not Loom.
// Build and run on a GPU machine (not part of the CMake build):
//   nvcc -O3 -arch=sm_90 -o atomic_scope_probe benchmarks/gpu/atomic_scope_probe.cu -lcuda && ./atomic_scope_probe
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "probe_timing.h"

namespace {

constexpr int kRepeats = 64;     // atomics per thread
constexpr int kCasRepeats = 4;   // increments per thread by CAS, whose contended loops take longer

template <bool System>
__device__ unsigned atomAdd(unsigned* p, unsigned v) {
  unsigned old;
  if (System) asm volatile("atom.global.sys.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  else asm volatile("atom.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}

template <bool System>
__device__ void redAdd(unsigned* p, unsigned v) {
  if (System) asm volatile("red.global.sys.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  else asm volatile("red.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

template <bool System>
__device__ unsigned cas(unsigned* p, unsigned expected, unsigned desired) {
  unsigned old;
  if (System) asm volatile("atom.global.sys.cas.b32 %0, [%1], %2, %3;" : "=r"(old) : "l"(p), "r"(expected), "r"(desired) : "memory");
  else asm volatile("atom.global.cas.b32 %0, [%1], %2, %3;" : "=r"(old) : "l"(p), "r"(expected), "r"(desired) : "memory");
  return old;
}

// mode 0: atom (old value summed into sink), 1: red, 2: CAS loop. spread: own counter per thread.
template <bool System>
__global__ void hammer(unsigned* counters, unsigned* sink, int mode, bool spread, int repeats) {
  const unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned* counter = counters + (spread ? id : id % 256);
  unsigned sum = 0;
  for (int r = 0; r < repeats; ++r) {
    if (mode == 0) sum += atomAdd<System>(counter, 1);
    else if (mode == 1) redAdd<System>(counter, 1);
    else {
      unsigned seen = *static_cast<volatile unsigned*>(counter), old;
      while ((old = cas<System>(counter, seen, seen + 1)) != seen) seen = old;
    }
  }
  if (sum == 0xffffffffu) *sink = sum;  // keeps the atom's result alive
}

struct Case {
  const char* name;
  int mode;
  bool spread;
};

}  // namespace

int main() {
  char name[128];
  useFirstGpu(name);
  const unsigned blocks = 132 * 8, threads = 256, items = blocks * threads;
  std::printf("atomic_scope_probe on %s: %u threads x %d atomics (%d by CAS), ms per launch (median of 5)\n", name, items,
              kRepeats, kCasRepeats);
  const Case cases[] = {{"atom, 256 counters", 0, false}, {"red, 256 counters", 1, false},  {"CAS, 256 counters", 2, false},
                        {"atom, own counter", 0, true},   {"red, own counter", 1, true}};
  bool allCorrect = true;
  for (bool managed : {false, true}) {
    unsigned* counters = nullptr;
    unsigned* sink = nullptr;
    const size_t bytes = items * sizeof(unsigned);
    if (managed) CK(cudaMallocManaged(&counters, bytes));
    else CK(cudaMalloc(&counters, bytes));
    CK(cudaMalloc(&sink, sizeof(unsigned)));
    std::printf("%s memory\n%-22s %10s %10s\n", managed ? "managed" : "device", "case", ".gpu", ".sys");
    for (const Case& c : cases) {
      const int repeats = c.mode == 2 ? kCasRepeats : kRepeats;
      double ms[2];
      for (int system = 0; system < 2; ++system) {
        ms[system] = medianOfFiveMs([&] { CK(cudaMemset(counters, 0, bytes)); },
                                    [&] {
                                      if (system) hammer<true><<<blocks, threads>>>(counters, sink, c.mode, c.spread, repeats);
                                      else hammer<false><<<blocks, threads>>>(counters, sink, c.mode, c.spread, repeats);
                                    });
        std::vector<unsigned> host(c.spread ? items : 256);
        CK(cudaMemcpy(host.data(), counters, host.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
        const unsigned expected = c.spread ? repeats : repeats * (items / 256);
        for (unsigned v : host) allCorrect &= v == expected;
      }
      std::printf("%-22s %10.3f %10.3f\n", c.name, ms[0], ms[1]);
    }
    CK(cudaFree(counters));
    CK(cudaFree(sink));
  }
  std::printf("counts %s\n", allCorrect ? "all correct" : "WRONG");
  return allCorrect ? 0 : 1;
}
