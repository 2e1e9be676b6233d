// CLBlast's SGEMM, SGEMV and SAXPY on the first device of the OpenCL platform named on the command
// line (then, optionally, the GEMM's order: 512 unless given): the first call (which builds
// CLBlast's kernels) and the best of several timed calls, as GFLOPS (GEMM, GEMV) and GB/s (AXPY). Checks one element of each result against the host.
#include <CL/cl.h>
#include <clblast.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Device {
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
};

Device open(const std::string& platformName) {
  cl_uint count = 0;
  clGetPlatformIDs(0, nullptr, &count);
  std::vector<cl_platform_id> platforms(count);
  clGetPlatformIDs(count, platforms.data(), nullptr);
  for (cl_platform_id platform : platforms) {
    char name[256] = {};
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof(name), name, nullptr);
    if (std::string(name).find(platformName) == std::string::npos) continue;
    cl_device_id device = nullptr;
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr);
    Device opened;
    opened.context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, nullptr);
    opened.queue = clCreateCommandQueue(opened.context, device, 0, nullptr);
    std::printf("CLBlast on %s\n", name);
    return opened;
  }
  std::fprintf(stderr, "no OpenCL platform named %s\n", platformName.c_str());
  std::exit(2);
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

// Seconds of the first call and the best of `repeats` later calls of `call`, each waited for.
template <typename Call>
std::pair<double, double> time(int repeats, Call call) {
  double first = 0, best = 1e30;
  for (int i = 0; i <= repeats; ++i) {
    const auto start = std::chrono::steady_clock::now();
    cl_event event = nullptr;
    if (call(&event) != clblast::StatusCode::kSuccess) return {-1, -1};
    clWaitForEvents(1, &event);
    clReleaseEvent(event);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (i == 0) first = seconds;
    else best = std::min(best, seconds);
  }
  return {first, best};
}

bool near(float value, float expected) { return std::fabs(value - expected) <= 1e-3f * std::fabs(expected) + 1e-3f; }

void print(const char* routine, std::pair<double, double> seconds, double work, const char* unit, bool correct) {
  std::printf("%-24s first call %8.3f s   %9.2f %s   %s\n", routine, seconds.first, work / seconds.second * 1e-9, unit,
              correct ? "correct" : "WRONG");
}

}  // namespace

int main(int argc, char** argv) {
  Device device = open(argc > 1 ? argv[1] : "Loom");
  const size_t n = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 512;
  std::vector<float> a(n * n), b(n * n), c(n * n, 0.0f);
  for (size_t i = 0; i < n * n; ++i) a[i] = float(i % 7) * 0.25f, b[i] = float(i % 5) * 0.5f;
  cl_mem da = bufferWith(device, a), db = bufferWith(device, b), dc = bufferWith(device, c);
  auto gemm = time(5, [&](cl_event* event) {
    return clblast::Gemm(clblast::Layout::kRowMajor, clblast::Transpose::kNo, clblast::Transpose::kNo, n, n, n, 1.0f, da, 0, n,
                         db, 0, n, 0.0f, dc, 0, n, &device.queue, event);
  });
  float expected = 0;
  for (size_t k = 0; k < n; ++k) expected += a[3 * n + k] * b[k * n + 5];
  const std::string gemmName = "SGEMM " + std::to_string(n) + "^3";
  print(gemmName.c_str(), gemm, 2.0 * n * n * n, "GFLOPS", near(readOne(device, dc, 3 * n + 5), expected));

  const size_t m = 4096;
  std::vector<float> matrix(m * m), x(m), y(m, 0.0f);
  for (size_t i = 0; i < m * m; ++i) matrix[i] = float(i % 11) * 0.125f;
  for (size_t i = 0; i < m; ++i) x[i] = float(i % 3);
  cl_mem dm = bufferWith(device, matrix), dx = bufferWith(device, x), dy = bufferWith(device, y);
  auto gemv = time(5, [&](cl_event* event) {
    return clblast::Gemv(clblast::Layout::kRowMajor, clblast::Transpose::kNo, m, m, 1.0f, dm, 0, m, dx, 0, 1, 0.0f, dy, 0, 1,
                         &device.queue, event);
  });
  expected = 0;
  for (size_t k = 0; k < m; ++k) expected += matrix[9 * m + k] * x[k];
  print("SGEMV 4096x4096", gemv, 2.0 * m * m, "GFLOPS", near(readOne(device, dy, 9), expected));

  const size_t length = 1 << 24;
  std::vector<float> u(length, 1.5f), v(length, 2.0f);
  cl_mem du = bufferWith(device, u), dv = bufferWith(device, v);
  auto axpy = time(5, [&](cl_event* event) {
    return clblast::Axpy(length, 0.5f, du, 0, 1, dv, 0, 1, &device.queue, event);
  });
  // Each call adds 0.75 to v: the first and 5 timed calls.
  print("SAXPY 16M", axpy, 3.0 * length * sizeof(float), "GB/s", near(readOne(device, dv, 12345), 2.0f + 6 * 0.75f));
  return 0;
}
