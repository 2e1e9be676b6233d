#pragma once
// The measurements of gpu_benchmark, one function per way of reaching the GPU. Each returns
// negative figures for what it could not measure (a platform or the CUDA driver missing) and
// says why on stderr; `correct` is false when a result it computed was wrong.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace loom::benchmarks {

struct Sizes {
  size_t triadFloats;
  uint32_t sgemmSize;
  uint32_t launches;
  size_t copyBytes;
};

// What gpu_benchmark measures through a stream of commands: Loom's Level Zero and native CUDA.
struct StreamFigures {
  double triadGBs = -1, launchUs = -1, roundTripUs = -1;
  double copyGBs[3] = {-1, -1, -1};  // host to device, device to host, device to device
  double gatherGBs[2] = {-1, -1};    // the gather run without and with the table reserved in L2
  bool correct = true;
};
StreamFigures measureLevelZero(const Sizes& sizes);  // Loom's first GPU
StreamFigures measureCuda(const Sizes& sizes);       // CUDA device 0, nvcc-built kernels

struct OpenClFigures {
  double triadGBs = -1, sgemmGflops = -1;
  bool correct = true;
};
OpenClFigures measureOpenCl(const std::string& platformName, const Sizes& sizes);  // its first GPU

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

// Fills `host` with triad input b, then c, handing each to `upload(destination, host)`, which
// must be done reading `host` when it returns.
template <typename Upload>
void uploadTriadInputs(std::vector<float>& host, void* b, void* c, Upload&& upload) {
  for (size_t i = 0; i < host.size(); ++i) host[i] = triadB(i);
  upload(b, host.data());
  for (size_t i = 0; i < host.size(); ++i) host[i] = triadC(i);
  upload(c, host.data());
}

// The triad reads two arrays and writes one.
inline double triadGBs(size_t arrayBytes, double seconds) { return 3.0 * arrayBytes / seconds / 1e9; }

// Launch latency from `launch(count)`, which launches an empty kernel `count` times and waits:
// back to back (`launches` of them), and one at a time, each waited for.
template <typename Launch>
void measureLaunchLatency(Launch&& launch, uint32_t launches, StreamFigures& figures) {
  figures.launchUs = secondsPerOperation(launch, launches) * 1e6;
  const auto oneAtATime = [&](uint32_t count) {
    for (uint32_t i = 0; i < count; ++i) launch(1);
  };
  figures.roundTripUs = secondsPerOperation(oneAtATime, 1000) * 1e6;
}

// Copy bandwidth host to device, device to host and device to device over `bytes` of pinned
// `host` memory and two device buffers; `copy(to, from, count)` copies `count` times and waits.
template <typename Copy>
void measureCopyBandwidth(void* host, void* device, void* other, size_t bytes, Copy&& copy, StreamFigures& figures) {
  std::memset(host, 0x5a, bytes);
  const std::pair<void*, const void*> directions[3] = {{device, host}, {host, device}, {other, device}};
  for (int kind = 0; kind < 3; ++kind) {
    const auto [to, from] = directions[kind];
    const double seconds = secondsPerOperation([&](uint32_t count) { copy(to, from, count); }, 10);
    figures.copyGBs[kind] = bytes / seconds / 1e9;
  }
}

// The cache reservation run (gather_stream of kernel_suite.cl and native_kernels.cu): a 32 MiB table,
// under the persisting L2 of an H100 or H200 (37.5 MiB), gathered twice by each of 8M work-items
// while each streams 12 float4s, so that 96 MB of stream pass between two visits of a table line;
// once as it is, once with the table in the reserved part of the L2 (Level Zero's cache
// reservation; the access-policy window in CUDA).
struct GatherRun {
  static constexpr uint32_t kTableFloats = 8u << 20;
  static constexpr uint32_t kItems = 8u << 20;
  static constexpr uint32_t kVectors = 12;
  static constexpr size_t tableBytes() { return size_t(kTableFloats) * sizeof(float); }
  static constexpr size_t streamBytes() { return size_t(kItems) * kVectors * 16; }
  static float tableValue(size_t j) { return float(j % 1024); }
  static constexpr float kStreamValue = 0.25f;  // every stream component: 12 * 4 of them add 12
  // Bytes a launch moves: the stream, the output and the gathered floats.
  static double gigabytesPerSecond(double seconds) { return (streamBytes() + kItems * 12.0) / seconds / 1e9; }
};
bool gatherIsCorrect(const float* out, const char* who);

// SGEMM inputs and the check of a few entries of C = A * B against a double-precision sum.
float sgemmA(size_t i);
float sgemmB(size_t i);
bool sgemmIsCorrect(const float* c, uint32_t n, const char* who);

// Opens a session of a stream API and takes its measurements. Each API's file defines, beside its
// `Session`: openSession, closeSession, measureTriad, measureLaunches, measureCopies and measureGather.
template <typename Session>
StreamFigures measureStreamApi(const Sizes& sizes) {
  StreamFigures figures;
  Session session;
  if (openSession(session)) {
    measureTriad(session, sizes, figures);
    measureLaunches(session, sizes, figures);
    measureCopies(session, sizes, figures);
    measureGather(session, figures);
  }
  closeSession(session);
  return figures;
}

}  // namespace loom::benchmarks
