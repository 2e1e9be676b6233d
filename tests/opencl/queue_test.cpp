// Command queues: in-order and out-of-order, profiling, clCreateCommandQueueWithProperties and
// CL_QUEUE_PROPERTIES_ARRAY, queries, reference counts and bad properties.
#include "cl_test_helpers.h"

#include <thread>

namespace loom::test {
namespace {

using QueueTest = ClTest;

cl_command_queue_properties queueProperties(cl_command_queue q) {
  cl_command_queue_properties properties = 0;
  EXPECT_CL_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof(properties), &properties, nullptr));
  return properties;
}

TEST_F(QueueTest, ReportsContextDeviceAndProperties) {
  EXPECT_EQ(infoScalar<cl_context>([&](size_t s, void* v, size_t* r) { return clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, s, v, r); }), context);
  EXPECT_EQ(infoScalar<cl_device_id>([&](size_t s, void* v, size_t* r) { return clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, s, v, r); }), device);
  EXPECT_EQ(queueProperties(queue), 0u);
  EXPECT_EQ(infoScalar<cl_command_queue>([&](size_t s, void* v, size_t* r) { return clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE_DEFAULT, s, v, r); }),
            nullptr);
  expectReferenceCounting(queue, clGetCommandQueueInfo, CL_QUEUE_REFERENCE_COUNT, clRetainCommandQueue, clReleaseCommandQueue);
  // CL_QUEUE_SIZE is for device queues: "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid
  // command-queue for param_name".
  cl_uint size = 0;
  EXPECT_CL(CL_INVALID_COMMAND_QUEUE, clGetCommandQueueInfo(queue, CL_QUEUE_SIZE, sizeof(size), &size, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clGetCommandQueueInfo(queue, 0x7fff, 0, nullptr, nullptr));
  EXPECT_CL_OK(clFlush(queue));
  EXPECT_CL_OK(clFinish(queue));
}

TEST_F(QueueTest, PropertiesArrayRoundTrips) {
  const cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES,
                                            CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE, 0};
  cl_int error = CL_SUCCESS;
  cl_command_queue q = clCreateCommandQueueWithProperties(context, device, properties, &error);
  ASSERT_CL_OK(error);
  queues.push_back(q);
  EXPECT_EQ(queueProperties(q), cl_command_queue_properties(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE));
  const auto returned = infoArray<cl_queue_properties>(
      [&](size_t s, void* v, size_t* r) { return clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, s, v, r); });
  EXPECT_EQ(returned, std::vector<cl_queue_properties>(std::begin(properties), std::end(properties)));
  // Without properties the array is empty.
  cl_command_queue plain = clCreateCommandQueueWithProperties(context, device, nullptr, &error);
  ASSERT_CL_OK(error);
  queues.push_back(plain);
  size_t size = 99;
  ASSERT_CL_OK(clGetCommandQueueInfo(plain, CL_QUEUE_PROPERTIES_ARRAY, 0, nullptr, &size));
  EXPECT_EQ(size, 0u);
  EXPECT_EQ(queueProperties(plain), 0u);
}

TEST_F(QueueTest, DeprecatedCreateCommandQueueTakesTheBitfield) {
  cl_int error = CL_SUCCESS;
  cl_command_queue q = clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &error);
  ASSERT_CL_OK(error);
  queues.push_back(q);
  EXPECT_EQ(queueProperties(q), cl_command_queue_properties(CL_QUEUE_PROFILING_ENABLE));
  EXPECT_EQ(clCreateCommandQueue(context, device, cl_command_queue_properties(1) << 20, &error), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, error);
}

// Out-of-order queues: commands ordered only by their wait lists still produce the right data.
TEST_F(QueueTest, OutOfOrderQueueHonoursWaitLists) {
  cl_command_queue q = createQueue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  ASSERT_NE(q, nullptr);
  cl_kernel k = buildKernel("kernel void twice(global int* d) { size_t i = get_global_id(0); d[i] = 2 * d[i] + 1; }", "twice");
  ASSERT_NE(k, nullptr);
  const size_t n = 1024;
  std::vector<int> input(n);
  for (size_t i = 0; i < n; ++i) input[i] = int(i);
  cl_mem m = buffer(CL_MEM_READ_WRITE, n * sizeof(int));
  setArgs(k, m);
  cl_event written = nullptr, first = nullptr, second = nullptr;
  ASSERT_CL_OK(clEnqueueWriteBuffer(q, m, CL_FALSE, 0, n * sizeof(int), input.data(), 0, nullptr, &written));
  track(written);
  ASSERT_CL_OK(clEnqueueNDRangeKernel(q, k, 1, nullptr, &n, nullptr, 1, &written, &first));
  track(first);
  ASSERT_CL_OK(clEnqueueNDRangeKernel(q, k, 1, nullptr, &n, nullptr, 1, &first, &second));
  track(second);
  std::vector<int> output(n, -1);
  ASSERT_CL_OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, n * sizeof(int), output.data(), 1, &second, nullptr));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(output[i], 4 * int(i) + 3) << i;
  // A barrier without a wait list orders everything enqueued before it.
  ASSERT_CL_OK(clEnqueueNDRangeKernel(q, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
  ASSERT_CL_OK(clEnqueueBarrierWithWaitList(q, 0, nullptr, nullptr));
  ASSERT_CL_OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, n * sizeof(int), output.data(), 0, nullptr, nullptr));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(output[i], 8 * int(i) + 7) << i;
}

// In-order queues: each command sees the result of the previous one without events.
TEST_F(QueueTest, InOrderQueueRunsCommandsInOrder) {
  cl_kernel k = buildKernel("kernel void inc(global int* d) { d[get_global_id(0)] += 1; }", "inc");
  ASSERT_NE(k, nullptr);
  const size_t n = 256;
  cl_mem m = buffer(CL_MEM_READ_WRITE, n * sizeof(int));
  const int zero = 0;
  ASSERT_CL_OK(clEnqueueFillBuffer(queue, m, &zero, sizeof(zero), 0, n * sizeof(int), 0, nullptr, nullptr));
  setArgs(k, m);
  for (int i = 0; i < 20; ++i) ASSERT_CL_OK(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
  for (int value : readBack<int>(m, n)) ASSERT_EQ(value, 20);
}

// An idle queue runs blocking commands on the calling thread; a queue with work left must not.
TEST_F(QueueTest, BlockingCommandsWaitForEarlierWorkAndCompleteTheirEvents) {
  cl_mem m = buffer(CL_MEM_READ_WRITE, sizeof(int));
  const int seven = 7;
  cl_event gate = userEvent();
  ASSERT_CL_OK(clEnqueueWriteBuffer(queue, m, CL_FALSE, 0, sizeof(int), &seven, 1, &gate, nullptr));
  std::thread opener([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_CL_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  });
  int value = 0;
  ASSERT_CL_OK(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof(int), &value, 0, nullptr, nullptr));
  opener.join();
  EXPECT_EQ(value, 7);

  cl_command_queue profiled = createQueue(CL_QUEUE_PROFILING_ENABLE);
  std::atomic<int> completions{0};
  auto completed = [](cl_event, cl_int status, void* count) {
    if (status == CL_COMPLETE) ++*static_cast<std::atomic<int>*>(count);
  };
  const int nine = 9;
  cl_event written = nullptr;
  ASSERT_CL_OK(clEnqueueWriteBuffer(profiled, m, CL_TRUE, 0, sizeof(int), &nine, 0, nullptr, &written));
  track(written);
  EXPECT_EQ(eventStatus(written), CL_COMPLETE);
  ASSERT_CL_OK(clSetEventCallback(written, CL_COMPLETE, completed, &completions));
  cl_ulong times[4] = {};
  const cl_profiling_info points[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT, CL_PROFILING_COMMAND_START,
                                       CL_PROFILING_COMMAND_END};
  for (int i = 0; i < 4; ++i) ASSERT_CL_OK(clGetEventProfilingInfo(written, points[i], sizeof(cl_ulong), &times[i], nullptr));
  EXPECT_TRUE(times[0] <= times[1] && times[1] <= times[2] && times[2] <= times[3]);
  EXPECT_TRUE(eventually([&] { return completions.load() == 1; }));
  EXPECT_EQ(readBack<int>(m, 1)[0], 9);
}

TEST_F(QueueTest, BadPropertiesAreRejected) {
  cl_int error = CL_SUCCESS;
  const cl_queue_properties unknownKey[] = {0x7777, 1, 0};
  EXPECT_EQ(clCreateCommandQueueWithProperties(context, device, unknownKey, &error), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, error);
  const cl_queue_properties unknownBit[] = {CL_QUEUE_PROPERTIES, cl_queue_properties(1) << 20, 0};
  EXPECT_EQ(clCreateCommandQueueWithProperties(context, device, unknownBit, &error), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, error);
  // Valid, but device-side queues are not supported (CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES is 0).
  ASSERT_EQ(deviceInfo<cl_command_queue_properties>(CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES), 0u);
  const cl_queue_properties onDevice[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  EXPECT_EQ(clCreateCommandQueueWithProperties(context, device, onDevice, &error), nullptr);
  EXPECT_CL(CL_INVALID_QUEUE_PROPERTIES, error);
  // A device that is not in the context, and a context that is not one.
  const cl_queue_properties none[] = {0};
  EXPECT_EQ(clCreateCommandQueueWithProperties(context, reinterpret_cast<cl_device_id>(queue), none, &error), nullptr);
  EXPECT_CL(CL_INVALID_DEVICE, error);
  EXPECT_EQ(clCreateCommandQueueWithProperties(reinterpret_cast<cl_context>(queue), device, none, &error), nullptr);
  EXPECT_CL(CL_INVALID_CONTEXT, error);
}

}  // namespace
}  // namespace loom::test
