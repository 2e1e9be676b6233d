// Atomic order probe: what does an ordered atomic cost in the form Loom's NVPTX code gives it
// (LLVM 15's NVPTX atomics carry no order, so Loom fences them: membar.gl before a release,
// after an acquire) against PTX's own ordered atomics (atom.release, atom.acquire, atom.acq_rel,
// which CUDA's cuda::atomic_ref emits, with fence.sc before a sequentially consistent one)?
// Every thread adds 1 kRepeats times, to one of 256 counters (contended) or to its own counter,
// all at system scope as Loom's global atomics are; every count is checked. It tests the
// hardware, not Loom.
// Build and run on a GPU machine (not part of the CMake build):
//   nvcc -O3 -arch=sm_90 -o atomic_order_probe benchmarks/gpu/atomic_order_probe.cu -lcuda && ./atomic_order_probe
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "probe_timing.h"

namespace {

constexpr int kRepeats = 64;

enum Form {
  kRelaxed,            // atom.sys: OpenCL 1.x atomics, relaxed ones
  kFencedRelease,      // Loom's release: membar.gl; atom.sys
  kPtxRelease,         // atom.release.sys
  kFencedAcqRel,       // Loom's acquire-release and sequentially consistent: membar.gl; atom.sys; membar.gl
  kPtxAcqRel,          // atom.acq_rel.sys
  kPtxSeqCst,          // fence.sc.sys; atom.acquire.sys (CUDA's sequentially consistent form)
  kFencedAcqRelSystem, // membar.sys; atom.sys; membar.sys
  kFencedAcqRelBlock   // membar.cta; atom.sys; membar.cta: Loom's work-group-scoped acquire-release
};

template <int F>
__device__ unsigned add(unsigned* p) {
  unsigned old;
  if (F == kRelaxed) asm volatile("atom.global.sys.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(p) : "memory");
  if (F == kFencedRelease) asm volatile("membar.gl;\n\tatom.global.sys.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(p) : "memory");
  if (F == kPtxRelease) asm volatile("atom.release.sys.global.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(p) : "memory");
  if (F == kFencedAcqRel)
    asm volatile("membar.gl;\n\tatom.global.sys.add.u32 %0, [%1], 1;\n\tmembar.gl;" : "=r"(old) : "l"(p) : "memory");
  if (F == kPtxAcqRel) asm volatile("atom.acq_rel.sys.global.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(p) : "memory");
  if (F == kPtxSeqCst) asm volatile("fence.sc.sys;\n\tatom.acquire.sys.global.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(p) : "memory");
  if (F == kFencedAcqRelSystem)
    asm volatile("membar.sys;\n\tatom.global.sys.add.u32 %0, [%1], 1;\n\tmembar.sys;" : "=r"(old) : "l"(p) : "memory");
  if (F == kFencedAcqRelBlock)
    asm volatile("membar.cta;\n\tatom.global.sys.add.u32 %0, [%1], 1;\n\tmembar.cta;" : "=r"(old) : "l"(p) : "memory");
  return old;
}

template <int F>
__global__ void hammer(unsigned* counters, unsigned* sink, bool spread) {
  const unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned* counter = counters + (spread ? id : id % 256);
  unsigned sum = 0;
  for (int r = 0; r < kRepeats; ++r) sum += add<F>(counter);
  if (sum == 0xffffffffu) *sink = sum;  // keeps the atom's result alive
}

template <int F>
void launch(unsigned blocks, unsigned threads, unsigned* counters, unsigned* sink, bool spread) {
  hammer<F><<<blocks, threads>>>(counters, sink, spread);
}

using Launch = void (*)(unsigned, unsigned, unsigned*, unsigned*, bool);

struct FormCase {
  const char* name;
  Launch run;
};

}  // namespace

int main() {
  char name[128];
  useFirstGpu(name);
  const unsigned blocks = 132 * 8, threads = 256, items = blocks * threads;
  std::printf("atomic_order_probe on %s: %u threads x %d atomic adds, ms per launch (median of 5)\n", name, items, kRepeats);
  const FormCase forms[] = {{"relaxed atom.sys", launch<kRelaxed>},
                            {"membar.gl; atom", launch<kFencedRelease>},
                            {"atom.release", launch<kPtxRelease>},
                            {"membar.gl; atom; membar.gl", launch<kFencedAcqRel>},
                            {"atom.acq_rel", launch<kPtxAcqRel>},
                            {"fence.sc.sys; atom.acquire", launch<kPtxSeqCst>},
                            {"membar.sys; atom; membar.sys", launch<kFencedAcqRelSystem>},
                            {"membar.cta; atom; membar.cta", launch<kFencedAcqRelBlock>}};
  unsigned* counters = nullptr;
  unsigned* sink = nullptr;
  const size_t bytes = items * sizeof(unsigned);
  CK(cudaMalloc(&counters, bytes));
  CK(cudaMalloc(&sink, sizeof(unsigned)));
  bool allCorrect = true;
  std::printf("%-30s %12s %12s\n", "form", "256 counters", "own counter");
  for (const FormCase& form : forms) {
    double ms[2];
    for (int spread = 0; spread < 2; ++spread) {
      ms[spread] = medianOfFiveMs([&] { CK(cudaMemset(counters, 0, bytes)); },
                                  [&] { form.run(blocks, threads, counters, sink, spread); });
      std::vector<unsigned> host(spread ? items : 256);
      CK(cudaMemcpy(host.data(), counters, host.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
      const unsigned expected = spread ? kRepeats : kRepeats * (items / 256);
      const bool correct = std::all_of(host.begin(), host.end(), [&](unsigned v) { return v == expected; });
      if (!correct) std::printf("WRONG counts for %s\n", form.name);
      allCorrect &= correct;
    }
    std::printf("%-30s %12.3f %12.3f\n", form.name, ms[0], ms[1]);
  }
  CK(cudaFree(counters));
  CK(cudaFree(sink));
  return allCorrect ? 0 : 1;
}
