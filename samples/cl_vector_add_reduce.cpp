// A small OpenCL program: the same vector add and work-group reduction as the Level Zero
// sample, built from OpenCL C source on the Loom platform's default device (its first GPU where
// Loom lists NVIDIA GPUs, else the CPU) through the ICD loader, with buffers, events and
// profiling; every result checked on the host. LOOM_SAMPLE_DEVICE_TYPE=cpu or gpu runs it on the
// platform's first device of that type instead; LOOM_SAMPLE_SOURCE=FILE reads the OpenCL C from FILE
// instead of the source folder or the copy beside the installed sample (the relocatable bundle,
// scripts/bundle.sh, sets it).
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include "cl_check.h"
#include "sample_data.h"
#include "sample_options.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

struct Session {
  cl_platform_id platform;
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
};

// The Loom platform among those the ICD loader lists (OCL_ICD_VENDORS points it at loom.icd).
Session open() {
  const SampleDevice wanted = sampleDevice();
  const cl_device_type type = wanted == SampleDevice::Gpu   ? CL_DEVICE_TYPE_GPU
                              : wanted == SampleDevice::Cpu ? CL_DEVICE_TYPE_CPU
                                                            : CL_DEVICE_TYPE_DEFAULT;
  cl_uint count = 0;
  CL_CHECK(clGetPlatformIDs(0, nullptr, &count));
  std::vector<cl_platform_id> platforms(count);
  CL_CHECK(clGetPlatformIDs(count, platforms.data(), nullptr));
  for (cl_platform_id platform : platforms) {
    char name[64] = {}, version[128] = {};
    CL_CHECK(clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof(name), name, nullptr));
    if (std::strcmp(name, "Loom") != 0) continue;
    CL_CHECK(clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof(version), version, nullptr));
    Session s{platform, nullptr, nullptr, nullptr};
    CL_CHECK(clGetDeviceIDs(platform, type, 1, &s.device, nullptr));
    char device[256] = {};
    CL_CHECK(clGetDeviceInfo(s.device, CL_DEVICE_NAME, sizeof(device), device, nullptr));
    cl_device_type found = 0;
    CL_CHECK(clGetDeviceInfo(s.device, CL_DEVICE_TYPE, sizeof(found), &found, nullptr));
    std::printf("platform: %s (%s)\ndevice: %s (%s)\n", name, version, device, found & CL_DEVICE_TYPE_GPU ? "GPU" : "CPU");
    cl_int error;
    s.context = clCreateContext(nullptr, 1, &s.device, nullptr, nullptr, &error);
    CL_CHECK(error);
    const cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    s.queue = clCreateCommandQueueWithProperties(s.context, s.device, properties, &error);
    CL_CHECK(error);
    return s;
  }
  std::fprintf(stderr, "no Loom platform: run with OCL_ICD_VENDORS=<build>/icd\n");
  std::exit(1);
}

cl_program build(const Session& s) {
  const std::string path = sampleFilePath("LOOM_SAMPLE_SOURCE", LOOM_SAMPLE_SOURCE);
  std::ifstream file(path);
  const std::string source((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (source.empty()) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    std::exit(1);
  }
  std::printf("kernels: %s\n", path.c_str());
  const char* text = source.c_str();
  cl_int error;
  cl_program program = clCreateProgramWithSource(s.context, 1, &text, nullptr, &error);
  CL_CHECK(error);
  if (clBuildProgram(program, 1, &s.device, "-cl-std=CL3.0", nullptr, nullptr) != CL_SUCCESS) {
    char log[4096] = {};
    clGetProgramBuildInfo(program, s.device, CL_PROGRAM_BUILD_LOG, sizeof(log), log, nullptr);
    std::fprintf(stderr, "build failed:\n%s\n", log);
    std::exit(1);
  }
  return program;
}

cl_mem buffer(const Session& s, cl_mem_flags flags, size_t size, void* data) {
  cl_int error;
  cl_mem memory = clCreateBuffer(s.context, flags, size, data, &error);
  CL_CHECK(error);
  return memory;
}

double elapsedMicroseconds(cl_event event) {
  cl_ulong start = 0, end = 0;
  CL_CHECK(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof(start), &start, nullptr));
  CL_CHECK(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof(end), &end, nullptr));
  return double(end - start) / 1000.0;
}

bool vectorAdd(const Session& s, cl_program program) {
  const size_t n = 1 << 20;
  std::vector<float> a(n), b(n), sum(n, -1.0f);
  fillVectorAddInputs(a.data(), b.data(), n);
  cl_mem bufferA = buffer(s, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float), a.data());
  cl_mem bufferB = buffer(s, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float), b.data());
  cl_mem bufferSum = buffer(s, CL_MEM_WRITE_ONLY, n * sizeof(float), nullptr);
  cl_int error;
  cl_kernel add = clCreateKernel(program, "vector_add", &error);
  CL_CHECK(error);
  CL_CHECK(clSetKernelArg(add, 0, sizeof(cl_mem), &bufferA));
  CL_CHECK(clSetKernelArg(add, 1, sizeof(cl_mem), &bufferB));
  CL_CHECK(clSetKernelArg(add, 2, sizeof(cl_mem), &bufferSum));
  cl_event done;
  CL_CHECK(clEnqueueNDRangeKernel(s.queue, add, 1, nullptr, &n, nullptr, 0, nullptr, &done));
  CL_CHECK(clEnqueueReadBuffer(s.queue, bufferSum, CL_TRUE, 0, n * sizeof(float), sum.data(), 1, &done, nullptr));
  const bool right = vectorAddIsCorrect(sum.data(), n, elapsedMicroseconds(done));
  CL_CHECK(clReleaseEvent(done));
  CL_CHECK(clReleaseKernel(add));
  for (cl_mem memory : {bufferA, bufferB, bufferSum}) CL_CHECK(clReleaseMemObject(memory));
  return right;
}

bool reduction(const Session& s, cl_program program) {
  const size_t n = 1 << 16, groupSize = 128;
  std::vector<int> values(n);
  const long long expected = fillReductionInput(values.data(), n);
  cl_mem bufferValues = buffer(s, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, n * sizeof(int), values.data());
  cl_mem bufferResult = buffer(s, CL_MEM_READ_WRITE, sizeof(int), nullptr);
  const int zero = 0;
  CL_CHECK(clEnqueueFillBuffer(s.queue, bufferResult, &zero, sizeof(zero), 0, sizeof(int), 0, nullptr, nullptr));
  cl_int error;
  cl_kernel reduce = clCreateKernel(program, "reduce_sum", &error);
  CL_CHECK(error);
  CL_CHECK(clSetKernelArg(reduce, 0, sizeof(cl_mem), &bufferValues));
  CL_CHECK(clSetKernelArg(reduce, 1, sizeof(cl_mem), &bufferResult));
  CL_CHECK(clSetKernelArg(reduce, 2, groupSize * sizeof(int), nullptr));  // local memory by size
  CL_CHECK(clEnqueueNDRangeKernel(s.queue, reduce, 1, nullptr, &n, &groupSize, 0, nullptr, nullptr));
  auto* result = static_cast<int*>(
      clEnqueueMapBuffer(s.queue, bufferResult, CL_TRUE, CL_MAP_READ, 0, sizeof(int), 0, nullptr, nullptr, &error));
  CL_CHECK(error);
  const bool right = reductionIsCorrect(*result, expected, n, groupSize);
  CL_CHECK(clEnqueueUnmapMemObject(s.queue, bufferResult, result, 0, nullptr, nullptr));
  CL_CHECK(clFinish(s.queue));
  CL_CHECK(clReleaseKernel(reduce));
  CL_CHECK(clReleaseMemObject(bufferValues));
  CL_CHECK(clReleaseMemObject(bufferResult));
  return right;
}

}  // namespace

int main() {
  Session s = open();
  cl_program program = build(s);
  const bool passed = vectorAdd(s, program) & reduction(s, program);
  CL_CHECK(clReleaseProgram(program));
  CL_CHECK(clReleaseCommandQueue(s.queue));
  CL_CHECK(clReleaseContext(s.context));
  return sampleVerdict(passed);
}
