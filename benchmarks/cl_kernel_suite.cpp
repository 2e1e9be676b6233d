// The kernel suite of issue "CPU kernel compiler": the same OpenCL C kernels, built from source,
// on Loom and on PoCL in one run, through the OpenCL ICD loader. Prints the time per run of each
// kernel on both (the median of alternating rounds), PoCL's time over Loom's (above 1: Loom is
// faster), the geometric mean, and whether both computed the same results. Nothing here asserts
// on time.
#include <CL/cl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "embedded_files.h"

namespace {

void check(cl_int status, const char* what) {
  if (status == CL_SUCCESS) return;
  std::fprintf(stderr, "%s failed: %d\n", what, status);
  std::exit(1);
}

struct Platform {
  std::string label;
  cl_context context = nullptr;
  cl_device_id device = nullptr;
  cl_command_queue queue = nullptr;
  cl_program program = nullptr;
};

std::vector<Platform> openPlatforms(const std::string& source) {
  cl_uint count = 0;
  clGetPlatformIDs(0, nullptr, &count);
  std::vector<cl_platform_id> ids(count);
  if (count) clGetPlatformIDs(count, ids.data(), nullptr);
  std::vector<Platform> platforms;
  for (const char* wanted : {"Loom", "Portable Computing Language"}) {
    for (cl_platform_id id : ids) {
      char name[256] = {};
      clGetPlatformInfo(id, CL_PLATFORM_NAME, sizeof(name), name, nullptr);
      if (std::strcmp(name, wanted) != 0) continue;
      Platform p;
      p.label = std::strcmp(name, "Loom") == 0 ? "Loom" : "PoCL";
      check(clGetDeviceIDs(id, CL_DEVICE_TYPE_CPU, 1, &p.device, nullptr), "clGetDeviceIDs");
      cl_int error;
      p.context = clCreateContext(nullptr, 1, &p.device, nullptr, nullptr, &error);
      check(error, "clCreateContext");
      p.queue = clCreateCommandQueueWithProperties(p.context, p.device, nullptr, &error);
      check(error, "clCreateCommandQueueWithProperties");
      const char* text = source.c_str();
      p.program = clCreateProgramWithSource(p.context, 1, &text, nullptr, &error);
      check(error, "clCreateProgramWithSource");
      check(clBuildProgram(p.program, 1, &p.device, "-cl-std=CL1.2", nullptr, nullptr), "clBuildProgram");
      platforms.push_back(p);
    }
  }
  return platforms;
}

// One benchmark on one platform: buffers made from the same host data everywhere.
class Run {
 public:
  explicit Run(Platform& platform) : p_(platform) {}
  ~Run() {
    for (cl_mem buffer : buffers_) clReleaseMemObject(buffer);
    if (kernel_) clReleaseKernel(kernel_);
  }
  template <typename T>
  cl_mem buffer(const std::vector<T>& data) {
    cl_int error;
    cl_mem memory = clCreateBuffer(p_.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, data.size() * sizeof(T),
                                   const_cast<T*>(data.data()), &error);
    check(error, "clCreateBuffer");
    buffers_.push_back(memory);
    return memory;
  }
  void kernel(const char* name) {
    cl_int error;
    kernel_ = clCreateKernel(p_.program, name, &error);
    check(error, name);
  }
  template <typename T>
  void argument(cl_uint index, const T& value) {
    check(clSetKernelArg(kernel_, index, sizeof(T), &value), "clSetKernelArg");
  }
  void localArgument(cl_uint index, size_t size) { check(clSetKernelArg(kernel_, index, size, nullptr), "clSetKernelArg"); }
  // Seconds per launch over `repetitions` launches, after one warm-up launch.
  double time(cl_uint dimensions, const size_t* global, const size_t* local, int repetitions) {
    check(clEnqueueNDRangeKernel(p_.queue, kernel_, dimensions, nullptr, global, local, 0, nullptr, nullptr), "warm-up");
    check(clFinish(p_.queue), "clFinish");
    const auto start = std::chrono::steady_clock::now();
    for (int r = 0; r < repetitions; ++r)
      check(clEnqueueNDRangeKernel(p_.queue, kernel_, dimensions, nullptr, global, local, 0, nullptr, nullptr), "launch");
    check(clFinish(p_.queue), "clFinish");
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / repetitions;
  }
  // A checksum of a result buffer, to compare the platforms.
  template <typename T>
  double checksum(cl_mem buffer, size_t count) {
    std::vector<T> data(count);
    check(clEnqueueReadBuffer(p_.queue, buffer, CL_TRUE, 0, count * sizeof(T), data.data(), 0, nullptr, nullptr), "read");
    double sum = 0;
    for (size_t i = 0; i < count; ++i) sum += double(data[i]) * double(1 + i % 7);
    return sum;
  }

 private:
  Platform& p_;
  cl_kernel kernel_ = nullptr;
  std::vector<cl_mem> buffers_;
};

struct Result {
  double seconds;
  double checksum;
};

template <typename T>
std::vector<T> randomData(size_t count, T low, T high) {
  std::mt19937 generator(42);
  std::vector<T> data(count);
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<T> distribution{low, high};
    for (T& value : data) value = distribution(generator);
  } else {
    std::uniform_int_distribution<int> distribution{int(low), int(high)};
    for (T& value : data) value = T(distribution(generator));
  }
  return data;
}

Result triad(Platform& p) {
  const size_t n = size_t(1) << 24;
  Run run(p);
  auto b = randomData<float>(n, -1, 1), c = randomData<float>(n, -1, 1);
  cl_mem a = run.buffer(std::vector<float>(n)), bb = run.buffer(b), cb = run.buffer(c);
  run.kernel("triad");
  run.argument(0, a), run.argument(1, bb), run.argument(2, cb), run.argument(3, 3.0f);
  const size_t local = 256;
  return {run.time(1, &n, &local, 20), run.checksum<float>(a, n)};
}

Result sgemm(Platform& p) {
  const int n = 512;
  Run run(p);
  auto a = randomData<float>(size_t(n) * n, -1, 1), b = randomData<float>(size_t(n) * n, -1, 1);
  cl_mem ab = run.buffer(a), bb = run.buffer(b), c = run.buffer(std::vector<float>(size_t(n) * n));
  run.kernel("sgemm");
  run.argument(0, ab), run.argument(1, bb), run.argument(2, c), run.argument(3, n);
  const size_t global[2] = {size_t(n), size_t(n)}, local[2] = {16, 16};
  return {run.time(2, global, local, 5), run.checksum<float>(c, size_t(n) * n)};
}

Result nbody(Platform& p) {
  const int count = 4096;
  Run run(p);
  auto positions = randomData<float>(size_t(count) * 4, 0.1f, 1.0f);
  cl_mem pb = run.buffer(positions), ab = run.buffer(std::vector<float>(size_t(count) * 4));
  run.kernel("nbody");
  run.argument(0, pb), run.argument(1, ab), run.argument(2, count), run.argument(3, 0.01f);
  const size_t global = count, local = 64;
  return {run.time(1, &global, &local, 5), run.checksum<float>(ab, size_t(count) * 4)};
}

Result reduction(Platform& p) {
  const size_t n = size_t(1) << 24, local = 256;
  Run run(p);
  cl_mem values = run.buffer(randomData<float>(n, 0, 1)), partials = run.buffer(std::vector<float>(n / local));
  run.kernel("reduce");
  run.argument(0, values), run.argument(1, partials), run.localArgument(2, local * sizeof(float));
  return {run.time(1, &n, &local, 10), run.checksum<float>(partials, n / local)};
}

Result histogram(Platform& p) {
  const size_t bytes = size_t(1) << 26, perItem = 64, local = 128;
  Run run(p);
  cl_mem data = run.buffer(randomData<uint8_t>(bytes, 0, 255)), bins = run.buffer(std::vector<uint32_t>(256));
  run.kernel("histogram");
  run.argument(0, data), run.argument(1, bins), run.argument(2, cl_uint(perItem));
  const size_t global = bytes / perItem;
  return {run.time(1, &global, &local, 5), run.checksum<uint32_t>(bins, 256)};
}

Result convolution(Platform& p) {
  const int width = 2048, height = 2048;
  Run run(p);
  const std::vector<float> weights = {0.0625f, 0.125f, 0.0625f, 0.125f, 0.25f, 0.125f, 0.0625f, 0.125f, 0.0625f};
  cl_mem input = run.buffer(randomData<float>(size_t(width) * height, 0, 1));
  cl_mem output = run.buffer(std::vector<float>(size_t(width) * height)), w = run.buffer(weights);
  run.kernel("convolution3x3");
  run.argument(0, input), run.argument(1, output), run.argument(2, w), run.argument(3, width), run.argument(4, height);
  const size_t global[2] = {size_t(width), size_t(height)}, local[2] = {64, 4};
  return {run.time(2, global, local, 10), run.checksum<float>(output, size_t(width) * height)};
}

Result blackScholes(Platform& p) {
  const size_t n = size_t(1) << 22;
  Run run(p);
  cl_mem spot = run.buffer(randomData<float>(n, 5, 30)), strike = run.buffer(randomData<float>(n, 1, 100));
  cl_mem years = run.buffer(randomData<float>(n, 0.25f, 10)), call = run.buffer(std::vector<float>(n)),
         put = run.buffer(std::vector<float>(n));
  run.kernel("blackScholes");
  run.argument(0, spot), run.argument(1, strike), run.argument(2, years), run.argument(3, call), run.argument(4, put);
  run.argument(5, 0.02f), run.argument(6, 0.30f);
  const size_t local = 256;
  return {run.time(1, &n, &local, 10), run.checksum<float>(call, n)};
}

Result emptyLaunches(Platform& p) {
  Run run(p);
  cl_mem unused = run.buffer(std::vector<int>(1));
  run.kernel("empty");
  run.argument(0, unused);
  const size_t global = 1, local = 1;
  return {run.time(1, &global, &local, 1000), 0};
}

struct Benchmark {
  const char* name;
  std::function<Result(Platform&)> run;
};

// The platforms take turns, round after round, and each one's median time counts: memory
// bandwidth drifts from minute to minute, so a single round would say more about the order in
// which the platforms ran than about the runtimes.
constexpr int kRounds = 5;

std::vector<Result> medianOfAlternatingRounds(const Benchmark& benchmark, std::vector<Platform>& platforms) {
  std::vector<std::vector<Result>> rounds(platforms.size());
  for (int round = 0; round < kRounds; ++round)
    for (size_t p = 0; p < platforms.size(); ++p) rounds[p].push_back(benchmark.run(platforms[p]));
  std::vector<Result> medians;
  for (std::vector<Result>& results : rounds) {
    std::sort(results.begin(), results.end(), [](const Result& a, const Result& b) { return a.seconds < b.seconds; });
    medians.push_back(results[results.size() / 2]);
  }
  return medians;
}

}  // namespace

int main() {
  const std::string source = loom::test::embeddedText("kernel_suite.cl");
  std::vector<Platform> platforms = openPlatforms(source);
  if (platforms.empty()) {
    std::fprintf(stderr, "neither Loom nor PoCL found: point OCL_ICD_VENDORS at build/icd-peers\n");
    return 1;
  }
  const Benchmark benchmarks[] = {{"triad (16M floats)", triad},         {"sgemm 512 (local tiles)", sgemm},
                                  {"n-body 4096 (rsqrt)", nbody},        {"reduction 16M (barriers)", reduction},
                                  {"histogram 64 MiB (atomics)", histogram}, {"convolution 3x3 2048^2", convolution},
                                  {"Black-Scholes 4M", blackScholes},    {"empty kernel launch", emptyLaunches}};
  std::printf("%-28s", "kernel (time per run)");
  for (const Platform& p : platforms) std::printf("%14s", p.label.c_str());
  std::printf("%14s  %s\n", platforms.size() == 2 ? "PoCL/Loom" : "", "results");
  double logSum = 0;
  int compared = 0;
  for (const Benchmark& benchmark : benchmarks) {
    std::printf("%-28s", benchmark.name);
    const std::vector<Result> results = medianOfAlternatingRounds(benchmark, platforms);
    for (const Result& result : results) std::printf("%11.3f ms", result.seconds * 1e3);
    if (results.size() == 2) {
      const double ratio = results[1].seconds / results[0].seconds;
      logSum += std::log(ratio), ++compared;
      const double scale = std::max(std::fabs(results[0].checksum), 1.0);
      const bool agree = std::fabs(results[0].checksum - results[1].checksum) <= 1e-3 * scale;
      std::printf("%14.2f  %s", ratio, agree ? "agree" : "DIFFER");
    }
    std::printf("\n");
  }
  if (compared) std::printf("%-28s%42.2f\n", "geometric mean", std::exp(logSum / compared));
  return 0;
}
