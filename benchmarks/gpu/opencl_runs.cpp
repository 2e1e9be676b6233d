// gpu_benchmark through OpenCL: the first GPU of a platform named as asked (Loom, or NVIDIA's
// "NVIDIA CUDA"), through the ICD loader, with the kernels built from the same OpenCL C source.
#include <CL/cl.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "embedded_files.h"
#include "gpu/gpu_peers.h"

namespace loom::benchmarks {
namespace {

struct Session {
  std::string label;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_program program = nullptr;
};

bool ok(const Session& s, cl_int status, const char* what) {
  if (status == CL_SUCCESS) return true;
  std::fprintf(stderr, "%s: %s failed: %d\n", s.label.c_str(), what, status);
  return false;
}

cl_device_id findGpu(const std::string& platformName) {
  cl_uint count = 0;
  clGetPlatformIDs(0, nullptr, &count);
  std::vector<cl_platform_id> platforms(count);
  if (count) clGetPlatformIDs(count, platforms.data(), nullptr);
  for (cl_platform_id platform : platforms) {
    char name[256] = {};
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof(name), name, nullptr);
    cl_device_id device = nullptr;
    if (platformName == name && clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, nullptr) == CL_SUCCESS) return device;
  }
  return nullptr;
}

bool openSession(Session& s, const std::string& platformName) {
  cl_device_id device = findGpu(platformName);
  if (!device) {
    std::fprintf(stderr, "%s: no OpenCL platform of that name with a GPU (OCL_ICD_VENDORS?)\n", s.label.c_str());
    return false;
  }
  char name[256] = {};
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof(name), name, nullptr);
  std::printf("%s: %s\n", s.label.c_str(), name);
  cl_int error = CL_SUCCESS;
  s.context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &error);
  if (!ok(s, error, "clCreateContext")) return false;
  s.queue = clCreateCommandQueueWithProperties(s.context, device, nullptr, &error);
  if (!ok(s, error, "clCreateCommandQueueWithProperties")) return false;
  const std::string source = test::embeddedText("kernel_suite.cl");
  const char* text = source.c_str();
  s.program = clCreateProgramWithSource(s.context, 1, &text, nullptr, &error);
  if (!ok(s, error, "clCreateProgramWithSource")) return false;
  return ok(s, clBuildProgram(s.program, 1, &device, "-cl-std=CL1.2", nullptr, nullptr), "clBuildProgram kernel_suite.cl");
}

void closeSession(Session& s) {
  if (s.program) clReleaseProgram(s.program);
  if (s.queue) clReleaseCommandQueue(s.queue);
  if (s.context) clReleaseContext(s.context);
}

cl_mem buffer(const Session& s, size_t bytes, const void* initial) {
  cl_int error = CL_SUCCESS;
  const cl_mem_flags flags = initial ? CL_MEM_COPY_HOST_PTR : 0;
  cl_mem memory = clCreateBuffer(s.context, CL_MEM_READ_WRITE | flags, bytes, const_cast<void*>(initial), &error);
  return ok(s, error, "clCreateBuffer") ? memory : nullptr;
}

// Runs `kernel` `count` times over `global` work-items in groups of `local`, then waits.
double secondsPerLaunch(const Session& s, cl_kernel kernel, cl_uint dimensions, const size_t* global, const size_t* local,
                        uint32_t count) {
  return secondsPerOperation(
      [&](uint32_t n) {
        for (uint32_t i = 0; i < n; ++i) clEnqueueNDRangeKernel(s.queue, kernel, dimensions, nullptr, global, local, 0, nullptr, nullptr);
        clFinish(s.queue);
      },
      count);
}

void measureTriad(const Session& s, const Sizes& sizes, OpenClFigures& figures) {
  const size_t n = sizes.triadFloats, bytes = n * sizeof(float);
  std::vector<float> host(n);
  // a, b, c in this order, as the Level Zero and CUDA runs allocate them: where the three arrays
  // lie relative to each other moves the triad by 1 % on an H200 (docs/performance.md).
  cl_mem a = buffer(s, bytes, nullptr);
  for (size_t i = 0; i < n; ++i) host[i] = triadB(i);
  cl_mem b = buffer(s, bytes, host.data());
  for (size_t i = 0; i < n; ++i) host[i] = triadC(i);
  cl_mem c = buffer(s, bytes, host.data());
  cl_int error = CL_SUCCESS;
  cl_kernel triad = clCreateKernel(s.program, "triad", &error);
  if (a && b && c && ok(s, error, "clCreateKernel triad")) {
    clSetKernelArg(triad, 0, sizeof(a), &a);
    clSetKernelArg(triad, 1, sizeof(b), &b);
    clSetKernelArg(triad, 2, sizeof(c), &c);
    clSetKernelArg(triad, 3, sizeof(kTriadScale), &kTriadScale);
    const size_t global = n, local = 256;
    figures.triadGBs = 3.0 * bytes / secondsPerLaunch(s, triad, 1, &global, &local, 20) / 1e9;
    ok(s, clEnqueueReadBuffer(s.queue, a, CL_TRUE, 0, bytes, host.data(), 0, nullptr, nullptr), "clEnqueueReadBuffer");
    figures.correct = triadIsCorrect(host.data(), n, s.label.c_str()) && figures.correct;
    clReleaseKernel(triad);
  }
  for (cl_mem m : {a, b, c})
    if (m) clReleaseMemObject(m);
}

void measureSgemm(const Session& s, const Sizes& sizes, OpenClFigures& figures) {
  const cl_int n = cl_int(sizes.sgemmSize);
  const size_t elements = size_t(n) * n, bytes = elements * sizeof(float);
  std::vector<float> host(elements);
  for (size_t i = 0; i < elements; ++i) host[i] = sgemmA(i);
  cl_mem a = buffer(s, bytes, host.data());
  for (size_t i = 0; i < elements; ++i) host[i] = sgemmB(i);
  cl_mem b = buffer(s, bytes, host.data());
  cl_mem c = buffer(s, bytes, nullptr);
  cl_int error = CL_SUCCESS;
  cl_kernel sgemm = clCreateKernel(s.program, "sgemm", &error);
  if (a && b && c && ok(s, error, "clCreateKernel sgemm")) {
    clSetKernelArg(sgemm, 0, sizeof(a), &a);
    clSetKernelArg(sgemm, 1, sizeof(b), &b);
    clSetKernelArg(sgemm, 2, sizeof(c), &c);
    clSetKernelArg(sgemm, 3, sizeof(n), &n);
    const size_t global[2] = {size_t(n), size_t(n)}, local[2] = {16, 16};
    const double seconds = secondsPerLaunch(s, sgemm, 2, global, local, 5);
    figures.sgemmGflops = 2.0 * n * n * n / seconds / 1e9;
    ok(s, clEnqueueReadBuffer(s.queue, c, CL_TRUE, 0, bytes, host.data(), 0, nullptr, nullptr), "clEnqueueReadBuffer");
    figures.correct = sgemmIsCorrect(host.data(), n, s.label.c_str()) && figures.correct;
    clReleaseKernel(sgemm);
  }
  for (cl_mem m : {a, b, c})
    if (m) clReleaseMemObject(m);
}

}  // namespace

OpenClFigures measureOpenCl(const std::string& platformName, const Sizes& sizes) {
  OpenClFigures figures;
  Session session{platformName == "Loom" ? "Loom-OpenCL" : "NVIDIA-OpenCL"};
  if (openSession(session, platformName)) {
    measureTriad(session, sizes, figures);
    measureSgemm(session, sizes, figures);
  }
  closeSession(session);
  return figures;
}

}  // namespace loom::benchmarks
