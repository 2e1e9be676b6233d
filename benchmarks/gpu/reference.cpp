// The inputs and host checks every measurement of gpu_benchmark shares.
#include <cmath>
#include <cstdio>

#include "gpu/gpu_peers.h"

namespace loom::benchmarks {

bool gatherIsCorrect(const float* out, const char* who) {
  constexpr uint32_t mask = GatherRun::kTableFloats - 1;
  for (uint32_t i = 0; i < GatherRun::kItems; ++i) {
    const float expected = GatherRun::tableValue((i * 2654435761u) & mask) +
                           GatherRun::tableValue(((i ^ 0x5bd1e995u) * 2246822519u) & mask) + 4 * GatherRun::kVectors * GatherRun::kStreamValue;
    if (out[i] == expected) continue;
    std::fprintf(stderr, "%s: gather_stream[%u] = %g, expected %g\n", who, i, out[i], expected);
    return false;
  }
  return true;
}

bool triadIsCorrect(const float* a, size_t n, const char* who) {
  for (size_t i = 0; i < n; ++i) {
    const float expected = triadB(i) + kTriadScale * triadC(i);
    if (a[i] == expected) continue;
    std::fprintf(stderr, "%s: triad wrong at %zu: %g, expected %g\n", who, i, a[i], expected);
    return false;
  }
  return true;
}

float sgemmA(size_t i) { return float(int(i % 17) - 8) / 8.0f; }
float sgemmB(size_t i) { return float(int(i % 13) - 6) / 4.0f; }

bool sgemmIsCorrect(const float* c, uint32_t n, const char* who) {
  for (uint32_t sample = 0; sample < 64; ++sample) {
    const uint32_t row = (sample * 977) % n, column = (sample * 331 + 5) % n;
    double expected = 0;
    for (uint32_t k = 0; k < n; ++k) expected += double(sgemmA(size_t(row) * n + k)) * sgemmB(size_t(k) * n + column);
    const float got = c[size_t(row) * n + column];
    if (std::fabs(got - expected) <= 1e-3 * (1 + std::fabs(expected))) continue;
    std::fprintf(stderr, "%s: SGEMM wrong at (%u, %u): %g, expected %g\n", who, row, column, got, expected);
    return false;
  }
  return true;
}

}  // namespace loom::benchmarks
