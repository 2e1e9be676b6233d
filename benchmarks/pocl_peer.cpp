#include "pocl_peer.h"

#include <CL/cl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "embedded_files.h"

namespace {

cl_platform_id findPocl() {
  cl_uint count = 0;
  if (clGetPlatformIDs(0, nullptr, &count) != CL_SUCCESS || count == 0) return nullptr;
  std::vector<cl_platform_id> platforms(count);
  clGetPlatformIDs(count, platforms.data(), nullptr);
  for (cl_platform_id platform : platforms) {
    char name[256] = {};
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof(name), name, nullptr);
    if (std::string(name).find("Portable Computing Language") != std::string::npos) return platform;
  }
  return nullptr;
}

}  // namespace

double poclTriadSeconds(uint32_t n, int repetitions) {
  cl_platform_id platform = findPocl();
  cl_device_id device;
  if (!platform || clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, nullptr) != CL_SUCCESS) return -1;
  cl_int error = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &error);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &error);
  const std::string source = loom::test::embeddedText("benchmark_kernels.cl");
  const char* text = source.c_str();
  cl_program program = clCreateProgramWithSource(context, 1, &text, nullptr, &error);
  if (clBuildProgram(program, 1, &device, "", nullptr, nullptr) != CL_SUCCESS) return -1;
  cl_kernel kernel = clCreateKernel(program, "triad", &error);
  std::vector<float> initial(n);
  for (uint32_t i = 0; i < n; ++i) initial[i] = float(i % 1000);
  cl_mem buffers[3];
  for (cl_mem& buffer : buffers)
    buffer = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(float), initial.data(), &error);
  const float scalar = 3.0f;
  for (cl_uint i = 0; i < 3; ++i) clSetKernelArg(kernel, i, sizeof(cl_mem), &buffers[i]);
  clSetKernelArg(kernel, 3, sizeof(scalar), &scalar);
  const size_t global = n, local = 256;
  double best = 1e30;
  for (int i = 0; i <= repetitions; ++i) {  // the first run warms up
    const auto start = std::chrono::steady_clock::now();
    clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr);
    clFinish(queue);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (i > 0) best = std::min(best, seconds);
  }
  for (cl_mem buffer : buffers) clReleaseMemObject(buffer);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return best;
}
