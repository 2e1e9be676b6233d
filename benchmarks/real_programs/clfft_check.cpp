// clFFT (Debian's libclfft2) on the first device of the OpenCL platform named on the command line:
// complex-to-complex transforms, 1D of several lengths (powers of 2, 3, 5 and 7, as clFFT's
// kernel generator handles each radix), 2D, batched, single and double precision, each checked
// against a direct DFT in long double on the host, forward and backward. Prints one line per
// forward transform with the time of its first run (the plan bake, kernel builds included) and the
// median of nine more, and exits non-zero if any result is wrong.
#include <clFFT.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "platform_device.h"

namespace {

struct Transform {
  const char* name;
  std::vector<size_t> lengths;  // clFFT's order: x, then y
  size_t batch;
  bool doublePrecision;
};

// The direct DFT of each batch entry, in long double: out[k] = sum_j in[j] e^(sign 2 pi i jk/n),
// over both dimensions, unscaled forward, scaled by 1/n backward (clFFT's defaults).
std::vector<std::complex<long double>> directDft(const std::vector<std::complex<long double>>& in, const Transform& t,
                                                  int sign) {
  const size_t nx = t.lengths[0], ny = t.lengths.size() > 1 ? t.lengths[1] : 1, n = nx * ny;
  const auto twiddles = [sign](size_t length) {
    const long double pi = std::acos(-1.0L);
    std::vector<std::complex<long double>> roots(length);
    for (size_t j = 0; j < length; ++j) roots[j] = std::polar(1.0L, sign * 2 * pi * (long double)j / (long double)length);
    return roots;
  };
  const std::vector<std::complex<long double>> wx = twiddles(nx), wy = twiddles(ny);
  std::vector<std::complex<long double>> out(in.size());
  for (size_t b = 0; b < t.batch; ++b)
    for (size_t ky = 0; ky < ny; ++ky)
      for (size_t kx = 0; kx < nx; ++kx) {
        std::complex<long double> sum = 0;
        for (size_t y = 0; y < ny; ++y)
          for (size_t x = 0; x < nx; ++x) sum += in[b * n + y * nx + x] * wx[x * kx % nx] * wy[y * ky % ny];
        out[b * n + ky * nx + kx] = sign > 0 ? sum / (long double)n : sum;
      }
  return out;
}

template <typename Real>
bool runTransform(cl_context context, cl_command_queue queue, const Transform& t) {
  const size_t n = t.lengths[0] * (t.lengths.size() > 1 ? t.lengths[1] : 1), count = n * t.batch;
  std::mt19937 generator(11);
  std::uniform_real_distribution<double> values(-1.0, 1.0);
  std::vector<std::complex<long double>> input(count);
  std::vector<Real> host(2 * count);
  for (size_t i = 0; i < count; ++i) {
    input[i] = {values(generator), values(generator)};
    host[2 * i] = Real(input[i].real());
    host[2 * i + 1] = Real(input[i].imag());
    input[i] = {host[2 * i], host[2 * i + 1]};  // the values the device gets
  }
  cl_int error = CL_SUCCESS;
  cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, host.size() * sizeof(Real), nullptr, &error);
  clfftPlanHandle plan = 0;
  const clfftDim dimension = t.lengths.size() == 1 ? CLFFT_1D : CLFFT_2D;
  bool correct = error == CL_SUCCESS && clfftCreateDefaultPlan(&plan, context, dimension, t.lengths.data()) == CLFFT_SUCCESS &&
                 clfftSetPlanPrecision(plan, t.doublePrecision ? CLFFT_DOUBLE : CLFFT_SINGLE) == CLFFT_SUCCESS &&
                 clfftSetLayout(plan, CLFFT_COMPLEX_INTERLEAVED, CLFFT_COMPLEX_INTERLEAVED) == CLFFT_SUCCESS &&
                 clfftSetResultLocation(plan, CLFFT_INPLACE) == CLFFT_SUCCESS &&
                 clfftSetPlanBatchSize(plan, t.batch) == CLFFT_SUCCESS;
  if (t.batch > 1 && correct) {
    correct = clfftSetPlanDistance(plan, n, n) == CLFFT_SUCCESS;
  }
  double first = 0, repeated = 0;
  long double worst = 0;
  for (int direction = 0; correct && direction < 2; ++direction) {
    const clfftDirection sense = direction == 0 ? CLFFT_FORWARD : CLFFT_BACKWARD;
    const auto run = [&] {
      clEnqueueWriteBuffer(queue, buffer, CL_TRUE, 0, host.size() * sizeof(Real), host.data(), 0, nullptr, nullptr);
      const auto start = std::chrono::steady_clock::now();
      const bool ok = clfftEnqueueTransform(plan, sense, 1, &queue, 0, nullptr, nullptr, &buffer, nullptr, nullptr) == CLFFT_SUCCESS &&
                      clFinish(queue) == CL_SUCCESS;
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      return ok ? seconds : -1.0;
    };
    const double once = run();
    std::vector<double> again;
    for (int r = 0; r < 9; ++r) again.push_back(run());
    std::sort(again.begin(), again.end());
    correct = once >= 0 && again.front() >= 0;
    if (direction == 0) first = once, repeated = again[again.size() / 2];
    std::vector<Real> result(host.size());
    clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, result.size() * sizeof(Real), result.data(), 0, nullptr, nullptr);
    const std::vector<std::complex<long double>> expected = directDft(input, t, direction == 0 ? -1 : 1);
    long double scale = 0;
    for (const auto& value : expected) scale = std::max(scale, std::abs(value));
    for (size_t i = 0; i < count; ++i)
      worst = std::max(worst, std::abs(std::complex<long double>(result[2 * i], result[2 * i + 1]) - expected[i]) / scale);
  }
  // clFFT's own tests allow errors of this order relative to the largest output.
  const long double tolerance = t.doublePrecision ? 1e-12L : 1e-5L;
  correct = correct && worst <= tolerance;
  std::printf("%-22s %-8s max error %.2Le  first %8.3f ms  then %8.3f ms\n", t.name, correct ? "correct" : "WRONG", worst,
              first * 1e3, repeated * 1e3);
  if (plan) clfftDestroyPlan(&plan);
  if (buffer) clReleaseMemObject(buffer);
  return correct;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string platformName = argc > 1 ? argv[1] : "Loom";
  cl_device_id device = firstDeviceOf(platformName);
  if (!device) {
    std::fprintf(stderr, "no OpenCL platform named %s with a device\n", platformName.c_str());
    return 2;
  }
  char name[256] = {};
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof(name), name, nullptr);
  std::printf("clFFT on %s (%s)\n", platformName.c_str(), name);
  cl_int error = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &error);
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &error);
  clfftSetupData setup;
  if (error != CL_SUCCESS || clfftInitSetupData(&setup) != CLFFT_SUCCESS || clfftSetup(&setup) != CLFFT_SUCCESS) {
    std::fprintf(stderr, "clFFT could not start on this platform\n");
    return 2;
  }
  const Transform transforms[] = {
      {"1D 1024 x 16", {1024}, 16, false}, {"1D 4096", {4096}, 1, false},     {"1D 729 (3^6)", {729}, 4, false},
      {"1D 625 (5^4)", {625}, 4, false},   {"1D 343 (7^3)", {343}, 4, false}, {"1D 1000 x 8", {1000}, 8, false},
      {"2D 64 x 32", {64, 32}, 2, false},  {"1D 1024 double", {1024}, 4, true}, {"2D 32 x 16 double", {32, 16}, 1, true},
  };
  bool allCorrect = true;
  for (const Transform& t : transforms)
    allCorrect &= t.doublePrecision ? runTransform<double>(context, queue, t) : runTransform<float>(context, queue, t);
  clfftTeardown();
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return allCorrect ? 0 : 1;
}
