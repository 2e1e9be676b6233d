// A stress test: two threads create and release every kind of OpenCL object, in contexts of
// their own and in the shared one, while two others launch, copy and wait in the shared context.
// Bounded rounds; every result is checked.
#include <atomic>
#include <thread>

#include "cl_test_helpers.h"

namespace loom::test {
namespace {

using ThreadingTest = ClTest;

const char* kSource = R"(
  kernel void scaled(global const int* in, global int* out, int factor) {
    size_t i = get_global_id(0);
    out[i] = in[i] * factor;
  })";

// One round of creating, using and releasing a context's worth of objects; false on a wrong result.
bool churn(cl_context shared, cl_device_id device, int round) {
  cl_int error = CL_SUCCESS;
  cl_context own = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &error);
  if (error != CL_SUCCESS) return false;
  cl_context in = round % 2 ? own : shared;
  const cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES,
                                            round % 3 ? CL_QUEUE_PROFILING_ENABLE : CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(in, device, properties, &error);
  cl_program p = clCreateProgramWithSource(in, 1, &kSource, nullptr, &error);
  bool correct = clBuildProgram(p, 1, &device, "", nullptr, nullptr) == CL_SUCCESS;
  cl_kernel k = clCreateKernel(p, "scaled", &error);
  std::vector<int> data(256, round), result(256, 0);
  cl_mem input = clCreateBuffer(in, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, data.size() * sizeof(int), data.data(), &error);
  cl_mem output = clCreateBuffer(in, CL_MEM_READ_WRITE, 2 * data.size() * sizeof(int), nullptr, &error);
  const cl_buffer_region second{data.size() * sizeof(int), data.size() * sizeof(int)};
  cl_mem half = clCreateSubBuffer(output, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &second, &error);
  cl_event gate = clCreateUserEvent(in, &error);
  const int factor = 3;
  clSetKernelArg(k, 0, sizeof(cl_mem), &input);
  clSetKernelArg(k, 1, sizeof(cl_mem), &half);
  clSetKernelArg(k, 2, sizeof(factor), &factor);
  const size_t global = data.size();
  cl_event launched = nullptr, marker = nullptr;
  correct &= clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, nullptr, 1, &gate, &launched) == CL_SUCCESS;
  correct &= clEnqueueMarkerWithWaitList(q, 1, &launched, &marker) == CL_SUCCESS;
  // Released before the work they feed has run: the runtime keeps what the commands use.
  clReleaseKernel(k);
  clReleaseMemObject(input);
  clSetUserEventStatus(gate, CL_COMPLETE);
  correct &= clEnqueueReadBuffer(q, half, CL_TRUE, 0, result.size() * sizeof(int), result.data(), 1, &marker, nullptr) == CL_SUCCESS;
  correct &= result == std::vector<int>(256, round * factor);
  for (cl_event e : {gate, launched, marker}) clReleaseEvent(e);
  clReleaseMemObject(half);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseMemObject(output);
  clReleaseContext(own);
  return correct;
}

TEST_F(ThreadingTest, ObjectsComeAndGoWhileOtherThreadsLaunchCopyAndWait) {
  constexpr int kChurnRounds = 30, kLaunchRounds = 200;
  std::atomic<int> churned{0}, launched{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t)
    threads.emplace_back([&] {
      for (int round = 0; round < kChurnRounds; ++round) churned += churn(context, device, round);
    });
  cl_kernel shared = buildKernel(kSource, "scaled");
  ASSERT_NE(shared, nullptr);
  for (int t = 0; t < 2; ++t)
    threads.emplace_back([&, t] {
      cl_int error = CL_SUCCESS;
      cl_command_queue own = clCreateCommandQueueWithProperties(context, device, nullptr, &error);
      cl_kernel k = clCloneKernel(shared, &error);
      std::vector<int> data(1024), result(1024);
      cl_mem input = clCreateBuffer(context, CL_MEM_READ_WRITE, data.size() * sizeof(int), nullptr, &error);
      cl_mem output = clCreateBuffer(context, CL_MEM_READ_WRITE, data.size() * sizeof(int), nullptr, &error);
      clSetKernelArg(k, 0, sizeof(cl_mem), &input);
      clSetKernelArg(k, 1, sizeof(cl_mem), &output);
      const size_t global = data.size();
      for (int round = 0; round < kLaunchRounds; ++round) {
        for (size_t i = 0; i < data.size(); ++i) data[i] = int(i) + round;
        const int factor = t + 2;
        clSetKernelArg(k, 2, sizeof(factor), &factor);
        cl_event written = nullptr;
        clEnqueueWriteBuffer(own, input, CL_FALSE, 0, data.size() * sizeof(int), data.data(), 0, nullptr, &written);
        clEnqueueNDRangeKernel(own, k, 1, nullptr, &global, nullptr, 1, &written, nullptr);
        clEnqueueReadBuffer(own, output, CL_FALSE, 0, result.size() * sizeof(int), result.data(), 0, nullptr, nullptr);
        clWaitForEvents(1, &written);
        clReleaseEvent(written);
        clFinish(own);
        launched += result[0] == round * factor && result[1023] == (1023 + round) * factor;
      }
      clReleaseMemObject(input);
      clReleaseMemObject(output);
      clReleaseKernel(k);
      clReleaseCommandQueue(own);
    });
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(churned.load(), 2 * kChurnRounds);
  EXPECT_EQ(launched.load(), 2 * kLaunchRounds);
}

}  // namespace
}  // namespace loom::test
