#pragma once
// The measurements of gpu_benchmark, one function per way of reaching the GPU. Each returns
// negative figures for what it could not measure (a platform or the CUDA driver missing) and
// says why on stderr; `correct` is false when a result it computed was wrong.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

namespace loom::benchmarks {

struct Sizes {
  size_t triadFloats;
  uint32_t sgemmSize;
  uint32_t launches;
  size_t copyBytes;
};

struct LevelZeroFigures {
  double triadGBs = -1, launchUs = -1, roundTripUs = -1;
  double copyGBs[3] = {-1, -1, -1};  // host to device, device to host, device to device
  bool correct = true;
};
LevelZeroFigures measureLevelZero(const Sizes& sizes);  // Loom's first GPU

struct OpenClFigures {
  double triadGBs = -1, sgemmGflops = -1;
  bool correct = true;
};
OpenClFigures measureOpenCl(const std::string& platformName, const Sizes& sizes);  // its first GPU

struct CudaFigures {
  double triadGBs = -1, launchUs = -1, roundTripUs = -1;
  double copyGBs[3] = {-1, -1, -1};
  bool correct = true;
};
CudaFigures measureCuda(const Sizes& sizes);  // CUDA device 0, nvcc-built kernels

// The median, over a few repetitions after one warm-up, of the seconds `run(count)` takes per
// operation; `run` issues `count` operations and waits for all of them.
template <typename Run>
double secondsPerOperation(Run&& run, uint32_t count, int repetitions = 5) {
  run(count);
  double times[16];
  for (int r = 0; r < repetitions; ++r) {
    const auto start = std::chrono::steady_clock::now();
    run(count);
    times[r] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / count;
  }
  for (int i = 1; i < repetitions; ++i)
    for (int j = i; j > 0 && times[j] < times[j - 1]; --j) std::swap(times[j], times[j - 1]);
  return times[repetitions / 2];
}

// Triad inputs and the check of its output: a[i] = b[i] + s * c[i].
constexpr float kTriadScale = 3.0f;
inline float triadB(size_t i) { return float(i % 1000); }
inline float triadC(size_t i) { return float(i % 7) * 0.5f; }
bool triadIsCorrect(const float* a, size_t n, const char* who);

// SGEMM inputs and the check of a few entries of C = A * B against a double-precision sum.
float sgemmA(size_t i);
float sgemmB(size_t i);
bool sgemmIsCorrect(const float* c, uint32_t n, const char* who);

}  // namespace loom::benchmarks
