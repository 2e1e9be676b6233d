// CLBlast's SGEMM, SGEMV and SAXPY on the first device of each OpenCL platform named on the
// command line, in one process: clblast_routines <platform>[,<platform>...] [gemm order] [rounds].
// The gemm order is 512 unless given. Each routine first runs once per platform (the first call,
// which builds CLBlast's kernels), then the platforms take turns for `rounds` rounds (1 unless
// given) of 5 calls each, the order of the platforms reversed every other round, so that a
// machine whose load or bandwidth drifts favours neither. Prints, per platform and routine, the
// first call, the best and the median call as GFLOPS (GEMM, GEMV) or GB/s (AXPY), the median
// per CPU-second of the process (the idle platform's threads sleep meanwhile), and checks one
// element of each result against the host.
#include <CL/cl.h>
#include <clblast.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "platform_device.h"

namespace {

constexpr int kCallsPerRound = 5;

struct Device {
  std::string name;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
};

Device open(const std::string& platformName) {
  Device opened;
  const cl_device_id device = firstDeviceOf(platformName, &opened.name);
  if (!device) {
    std::fprintf(stderr, "no OpenCL platform named %s\n", platformName.c_str());
    std::exit(2);
  }
  opened.context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, nullptr);
  opened.queue = clCreateCommandQueue(opened.context, device, 0, nullptr);
  std::printf("CLBlast on %s\n", opened.name.c_str());
  return opened;
}

cl_mem bufferWith(const Device& device, const std::vector<float>& values) {
  return clCreateBuffer(device.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, values.size() * sizeof(float),
                        const_cast<float*>(values.data()), nullptr);
}

float readOne(const Device& device, cl_mem buffer, size_t index) {
  float value = 0;
  clEnqueueReadBuffer(device.queue, buffer, CL_TRUE, index * sizeof(float), sizeof(float), &value, 0, nullptr, nullptr);
  return value;
}

double cpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + 1e-6 * double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

bool near(float value, float expected) { return std::fabs(value - expected) <= 1e-3f * std::fabs(expected) + 1e-3f; }

// One routine on one platform: its buffers, the call, and the times of its calls.
struct Routine {
  std::function<clblast::StatusCode(cl_event*)> call;
  std::function<bool()> correct;
  double first = -1;
  std::vector<double> wall, cpu;  // seconds of each timed call

  // Seconds of one call, waited for; false when CLBlast fails.
  bool timeOnce(double& wallSeconds, double& cpuSecondsUsed) {
    const double cpuStart = cpuSeconds();
    const auto start = std::chrono::steady_clock::now();
    cl_event event = nullptr;
    if (call(&event) != clblast::StatusCode::kSuccess) return false;
    clWaitForEvents(1, &event);
    clReleaseEvent(event);
    wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    cpuSecondsUsed = cpuSeconds() - cpuStart;
    return true;
  }
  void runFirst() {
    double cpuUsed = 0;
    if (!timeOnce(first, cpuUsed)) first = -1;
  }
  void runRound() {
    for (int i = 0; i < kCallsPerRound && first >= 0; ++i) {
      double wallSeconds = 0, cpuUsed = 0;
      if (!timeOnce(wallSeconds, cpuUsed)) return;
      wall.push_back(wallSeconds);
      cpu.push_back(cpuUsed);
    }
  }
};

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0 : values[values.size() / 2];
}

void print(const char* routine, const Routine& timed, double work, const char* unit) {
  if (timed.first < 0 || timed.wall.empty()) {
    std::printf("%-24s FAILED\n", routine);
    return;
  }
  const double best = *std::min_element(timed.wall.begin(), timed.wall.end());
  std::printf("%-24s first call %8.3f s   %9.2f %s   median %9.2f   per CPU-second %9.2f   %s\n", routine, timed.first,
              work / best * 1e-9, unit, work / median(timed.wall) * 1e-9, work / median(timed.cpu) * 1e-9,
              timed.correct() ? "correct" : "WRONG");
}

// The three routines on one platform, each with its own buffers.
struct Platform {
  Device device;
  Routine gemm, gemv, axpy;
  size_t order = 512;
};

constexpr size_t kGemvOrder = 4096;
constexpr size_t kAxpyLength = size_t(1) << 24;

void prepareGemm(Platform& p, size_t n) {
  std::vector<float> a(n * n), b(n * n), c(n * n, 0.0f);
  for (size_t i = 0; i < n * n; ++i) a[i] = float(i % 7) * 0.25f, b[i] = float(i % 5) * 0.5f;
  cl_mem da = bufferWith(p.device, a), db = bufferWith(p.device, b), dc = bufferWith(p.device, c);
  cl_command_queue* queue = &p.device.queue;
  p.gemm.call = [=](cl_event* event) {
    return clblast::Gemm(clblast::Layout::kRowMajor, clblast::Transpose::kNo, clblast::Transpose::kNo, n, n, n, 1.0f, da, 0, n,
                         db, 0, n, 0.0f, dc, 0, n, queue, event);
  };
  float expected = 0;
  for (size_t k = 0; k < n; ++k) expected += a[3 * n + k] * b[k * n + 5];
  p.gemm.correct = [&p, dc, n, expected] { return near(readOne(p.device, dc, 3 * n + 5), expected); };
}

void prepareGemv(Platform& p) {
  const size_t m = kGemvOrder;
  std::vector<float> matrix(m * m), x(m), y(m, 0.0f);
  for (size_t i = 0; i < m * m; ++i) matrix[i] = float(i % 11) * 0.125f;
  for (size_t i = 0; i < m; ++i) x[i] = float(i % 3);
  cl_mem dm = bufferWith(p.device, matrix), dx = bufferWith(p.device, x), dy = bufferWith(p.device, y);
  cl_command_queue* queue = &p.device.queue;
  p.gemv.call = [=](cl_event* event) {
    return clblast::Gemv(clblast::Layout::kRowMajor, clblast::Transpose::kNo, m, m, 1.0f, dm, 0, m, dx, 0, 1, 0.0f, dy, 0, 1,
                         queue, event);
  };
  float expected = 0;
  for (size_t k = 0; k < m; ++k) expected += matrix[9 * m + k] * x[k];
  p.gemv.correct = [&p, dy, expected] { return near(readOne(p.device, dy, 9), expected); };
}

void prepareAxpy(Platform& p) {
  std::vector<float> u(kAxpyLength, 1.5f), v(kAxpyLength, 2.0f);
  cl_mem du = bufferWith(p.device, u), dv = bufferWith(p.device, v);
  cl_command_queue* queue = &p.device.queue;
  p.axpy.call = [=](cl_event* event) { return clblast::Axpy(kAxpyLength, 0.5f, du, 0, 1, dv, 0, 1, queue, event); };
  // Each call adds 0.75 to v.
  p.axpy.correct = [&p, dv] {
    const size_t calls = 1 + p.axpy.wall.size();
    return near(readOne(p.device, dv, 12345), 2.0f + float(calls) * 0.75f);
  };
}

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> names;
  std::stringstream stream(list);
  for (std::string name; std::getline(stream, name, ',');) names.push_back(name);
  return names;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> names = split(argc > 1 ? argv[1] : "Loom");
  const size_t n = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 512;
  const int rounds = argc > 3 ? std::max(1, std::atoi(argv[3])) : 1;
  std::vector<Platform> platforms(names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    platforms[i].device = open(names[i]);
    prepareGemm(platforms[i], n);
    prepareGemv(platforms[i]);
    prepareAxpy(platforms[i]);
  }
  Routine Platform::*routines[] = {&Platform::gemm, &Platform::gemv, &Platform::axpy};
  for (Routine Platform::*routine : routines)
    for (Platform& p : platforms) (p.*routine).runFirst();
  for (int round = 0; round < rounds; ++round)
    for (Routine Platform::*routine : routines)
      for (size_t i = 0; i < platforms.size(); ++i) {
        Platform& p = platforms[round % 2 ? platforms.size() - 1 - i : i];
        (p.*routine).runRound();
      }
  const std::string gemmName = "SGEMM " + std::to_string(n) + "^3";
  for (Platform& p : platforms) {
    if (platforms.size() > 1) std::printf("-- %s\n", p.device.name.c_str());
    print(gemmName.c_str(), p.gemm, 2.0 * n * n * n, "GFLOPS");
    print("SGEMV 4096x4096", p.gemv, 2.0 * kGemvOrder * kGemvOrder, "GFLOPS");
    print("SAXPY 16M", p.axpy, 3.0 * kAxpyLength * sizeof(float), "GB/s");
  }
  return 0;
}
