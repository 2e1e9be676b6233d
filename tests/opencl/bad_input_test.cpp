// Bad input across the entry points, through the ICD loader: null handles, and live handles of
// the wrong type (a cl_context passed where a cl_command_queue belongs, for instance) return the
// CL_INVALID_* code the specification gives, and nothing crashes. Unsupported features fail
// with their documented codes.
#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>

#include "cl_test_helpers.h"

namespace loom::test {
namespace {

class BadInputTest : public ClTest {
 protected:
  void SetUp() override {
    ClTest::SetUp();
    if (HasFatalFailure() || IsSkipped()) return;
    program = build("kernel void k(global int* o, int v) { o[get_global_id(0)] = v; }");
    ASSERT_NE(program, nullptr);
    k = kernel(program, "k");
    memory = buffer(CL_MEM_READ_WRITE, 64);
    setArgs(k, memory, 1);  // a launch could run: only the input under test is bad
    e = userEvent();
    ASSERT_CL_OK(clSetUserEventStatus(e, CL_COMPLETE));
  }

  struct Case {
    const char* call;
    cl_int expected;
    std::function<cl_int()> invoke;
  };
  static void check(const std::vector<Case>& cases) {
    for (const Case& c : cases) EXPECT_PRED_FORMAT2(clCodesEqual, c.expected, c.invoke()) << c.call;
  }
  // For entry points that return an object and report through errcode_ret: the object must be null.
  template <typename Handle>
  static cl_int viaErrcode(const std::function<Handle(cl_int*)>& create) {
    cl_int error = CL_SUCCESS;
    Handle created = create(&error);
    EXPECT_EQ(created, nullptr);
    return error;
  }

  cl_program program = nullptr;
  cl_kernel k = nullptr;
  cl_mem memory = nullptr;
  cl_event e = nullptr;
  // What the cases pass besides the argument under test.
  size_t size = 0;
  cl_uint count = 0;
  int value = 0;
  const size_t one = 1;
  const cl_queue_properties noProperties[1] = {0};
  const char* source = "kernel void k() {}";
};

#define CASE(expected, ...) Case{#__VA_ARGS__, expected, [&]() -> cl_int { return __VA_ARGS__; }}
#define CREATE(expected, Handle, ...) \
  Case{#__VA_ARGS__, expected, [&]() -> cl_int { return viaErrcode<Handle>([&](cl_int* errcode) { return __VA_ARGS__; }); }}

template <typename To, typename From>
To as(From handle) {
  return reinterpret_cast<To>(handle);
}

TEST_F(BadInputTest, NullHandles) {
  check({
      CASE(CL_INVALID_DEVICE, clGetDeviceInfo(nullptr, CL_DEVICE_NAME, 0, nullptr, &size)),
      CASE(CL_INVALID_CONTEXT, clGetContextInfo(nullptr, CL_CONTEXT_NUM_DEVICES, 0, nullptr, &size)),
      CASE(CL_INVALID_CONTEXT, clRetainContext(nullptr)),
      CASE(CL_INVALID_CONTEXT, clReleaseContext(nullptr)),
      CREATE(CL_INVALID_CONTEXT, cl_command_queue, clCreateCommandQueueWithProperties(nullptr, device, noProperties, errcode)),
      CREATE(CL_INVALID_DEVICE, cl_command_queue, clCreateCommandQueueWithProperties(context, nullptr, noProperties, errcode)),
      CASE(CL_INVALID_COMMAND_QUEUE, clGetCommandQueueInfo(nullptr, CL_QUEUE_CONTEXT, 0, nullptr, &size)),
      CASE(CL_INVALID_COMMAND_QUEUE, clFinish(nullptr)),
      CASE(CL_INVALID_COMMAND_QUEUE, clFlush(nullptr)),
      CASE(CL_INVALID_COMMAND_QUEUE, clRetainCommandQueue(nullptr)),
      CASE(CL_INVALID_COMMAND_QUEUE, clReleaseCommandQueue(nullptr)),
      CREATE(CL_INVALID_CONTEXT, cl_mem, clCreateBuffer(nullptr, CL_MEM_READ_WRITE, 64, nullptr, errcode)),
      CREATE(CL_INVALID_MEM_OBJECT, cl_mem, clCreateSubBuffer(nullptr, 0, CL_BUFFER_CREATE_TYPE_REGION, nullptr, errcode)),
      CASE(CL_INVALID_MEM_OBJECT, clGetMemObjectInfo(nullptr, CL_MEM_SIZE, 0, nullptr, &size)),
      CASE(CL_INVALID_MEM_OBJECT, clRetainMemObject(nullptr)),
      CASE(CL_INVALID_MEM_OBJECT, clReleaseMemObject(nullptr)),
      CASE(CL_INVALID_MEM_OBJECT, clEnqueueReadBuffer(queue, nullptr, CL_TRUE, 0, 4, &value, 0, nullptr, nullptr)),
      CASE(CL_INVALID_MEM_OBJECT, clEnqueueWriteBuffer(queue, nullptr, CL_TRUE, 0, 4, &value, 0, nullptr, nullptr)),
      CASE(CL_INVALID_MEM_OBJECT, clEnqueueCopyBuffer(queue, memory, nullptr, 0, 0, 4, 0, nullptr, nullptr)),
      CASE(CL_INVALID_MEM_OBJECT, clEnqueueFillBuffer(queue, nullptr, &value, 4, 0, 4, 0, nullptr, nullptr)),
      CASE(CL_INVALID_COMMAND_QUEUE, clEnqueueReadBuffer(nullptr, memory, CL_TRUE, 0, 4, &value, 0, nullptr, nullptr)),
      CASE(CL_INVALID_COMMAND_QUEUE, clEnqueueNDRangeKernel(nullptr, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr)),
      CASE(CL_INVALID_KERNEL, clEnqueueNDRangeKernel(queue, nullptr, 1, nullptr, &one, nullptr, 0, nullptr, nullptr)),
      CASE(CL_INVALID_KERNEL, clEnqueueTask(queue, nullptr, 0, nullptr, nullptr)),
      CASE(CL_INVALID_COMMAND_QUEUE, clEnqueueMarkerWithWaitList(nullptr, 0, nullptr, nullptr)),
      CASE(CL_INVALID_COMMAND_QUEUE, clEnqueueBarrierWithWaitList(nullptr, 0, nullptr, nullptr)),
      CREATE(CL_INVALID_CONTEXT, cl_program, clCreateProgramWithSource(nullptr, 1, &source, nullptr, errcode)),
      CASE(CL_INVALID_PROGRAM, clBuildProgram(nullptr, 0, nullptr, "", nullptr, nullptr)),
      CASE(CL_INVALID_PROGRAM, clGetProgramInfo(nullptr, CL_PROGRAM_NUM_DEVICES, 0, nullptr, &size)),
      CASE(CL_INVALID_PROGRAM, clGetProgramBuildInfo(nullptr, device, CL_PROGRAM_BUILD_STATUS, 0, nullptr, &size)),
      CASE(CL_INVALID_DEVICE, clGetProgramBuildInfo(program, nullptr, CL_PROGRAM_BUILD_STATUS, 0, nullptr, &size)),
      CASE(CL_INVALID_PROGRAM, clRetainProgram(nullptr)),
      CASE(CL_INVALID_PROGRAM, clReleaseProgram(nullptr)),
      CREATE(CL_INVALID_PROGRAM, cl_kernel, clCreateKernel(nullptr, "k", errcode)),
      CASE(CL_INVALID_PROGRAM, clCreateKernelsInProgram(nullptr, 0, nullptr, &count)),
      CASE(CL_INVALID_KERNEL, clSetKernelArg(nullptr, 0, sizeof(cl_mem), &memory)),
      CASE(CL_INVALID_KERNEL, clGetKernelInfo(nullptr, CL_KERNEL_NUM_ARGS, 0, nullptr, &size)),
      CASE(CL_INVALID_KERNEL, clGetKernelWorkGroupInfo(nullptr, device, CL_KERNEL_WORK_GROUP_SIZE, 0, nullptr, &size)),
      CASE(CL_INVALID_KERNEL, clRetainKernel(nullptr)),
      CASE(CL_INVALID_KERNEL, clReleaseKernel(nullptr)),
      CREATE(CL_INVALID_KERNEL, cl_kernel, clCloneKernel(nullptr, errcode)),
      CASE(CL_INVALID_EVENT, clGetEventInfo(nullptr, CL_EVENT_COMMAND_TYPE, 0, nullptr, &size)),
      CASE(CL_INVALID_EVENT, clGetEventProfilingInfo(nullptr, CL_PROFILING_COMMAND_START, 0, nullptr, &size)),
      CASE(CL_INVALID_EVENT, clRetainEvent(nullptr)),
      CASE(CL_INVALID_EVENT, clReleaseEvent(nullptr)),
      CASE(CL_INVALID_EVENT, clSetUserEventStatus(nullptr, CL_COMPLETE)),
      CREATE(CL_INVALID_CONTEXT, cl_event, clCreateUserEvent(nullptr, errcode)),
  });
}

// Handles of the wrong type: each has Loom's dispatch table, so the loader passes them on and
// Loom must recognise them for what they are.
TEST_F(BadInputTest, HandlesOfTheWrongType) {
  const cl_mem notMemory = as<cl_mem>(k);
  const cl_event notEvent = as<cl_event>(memory);
  check({
      CASE(CL_INVALID_DEVICE, clGetDeviceInfo(as<cl_device_id>(context), CL_DEVICE_NAME, 0, nullptr, &size)),
      CASE(CL_INVALID_PLATFORM, clGetPlatformInfo(as<cl_platform_id>(device), CL_PLATFORM_NAME, 0, nullptr, &size)),
      CASE(CL_INVALID_PLATFORM, clGetDeviceIDs(as<cl_platform_id>(context), CL_DEVICE_TYPE_ALL, 0, nullptr, &count)),
      CASE(CL_INVALID_CONTEXT, clGetContextInfo(as<cl_context>(queue), CL_CONTEXT_NUM_DEVICES, 0, nullptr, &size)),
      CASE(CL_INVALID_CONTEXT, clRetainContext(as<cl_context>(device))),
      CASE(CL_INVALID_CONTEXT, clReleaseContext(as<cl_context>(program))),
      CREATE(CL_INVALID_CONTEXT, cl_command_queue, clCreateCommandQueueWithProperties(as<cl_context>(queue), device, noProperties, errcode)),
      CREATE(CL_INVALID_DEVICE, cl_command_queue, clCreateCommandQueueWithProperties(context, as<cl_device_id>(memory), noProperties, errcode)),
      CASE(CL_INVALID_COMMAND_QUEUE, clGetCommandQueueInfo(as<cl_command_queue>(context), CL_QUEUE_CONTEXT, 0, nullptr, &size)),
      CASE(CL_INVALID_COMMAND_QUEUE, clFinish(as<cl_command_queue>(context))),
      CASE(CL_INVALID_COMMAND_QUEUE, clFlush(as<cl_command_queue>(k))),
      CASE(CL_INVALID_COMMAND_QUEUE, clRetainCommandQueue(as<cl_command_queue>(e))),
      CASE(CL_INVALID_COMMAND_QUEUE, clReleaseCommandQueue(as<cl_command_queue>(memory))),
      CASE(CL_INVALID_COMMAND_QUEUE, clEnqueueWriteBuffer(as<cl_command_queue>(context), memory, CL_TRUE, 0, 4, &value, 0, nullptr, nullptr)),
      CASE(CL_INVALID_COMMAND_QUEUE, clEnqueueNDRangeKernel(as<cl_command_queue>(context), k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr)),
      CASE(CL_INVALID_COMMAND_QUEUE, clEnqueueMarkerWithWaitList(as<cl_command_queue>(program), 0, nullptr, nullptr)),
      CREATE(CL_INVALID_CONTEXT, cl_mem, clCreateBuffer(as<cl_context>(queue), CL_MEM_READ_WRITE, 64, nullptr, errcode)),
      CASE(CL_INVALID_MEM_OBJECT, clGetMemObjectInfo(as<cl_mem>(e), CL_MEM_SIZE, 0, nullptr, &size)),
      CASE(CL_INVALID_MEM_OBJECT, clRetainMemObject(as<cl_mem>(context))),
      CASE(CL_INVALID_MEM_OBJECT, clReleaseMemObject(as<cl_mem>(queue))),
      CASE(CL_INVALID_MEM_OBJECT, clEnqueueReadBuffer(queue, notMemory, CL_TRUE, 0, 4, &value, 0, nullptr, nullptr)),
      CASE(CL_INVALID_MEM_OBJECT, clEnqueueCopyBuffer(queue, memory, notMemory, 0, 0, 4, 0, nullptr, nullptr)),
      CASE(CL_INVALID_MEM_OBJECT, clSetKernelArg(k, 0, sizeof(cl_mem), &notMemory)),
      CREATE(CL_INVALID_MEM_OBJECT, cl_mem, clCreateSubBuffer(as<cl_mem>(program), 0, CL_BUFFER_CREATE_TYPE_REGION, nullptr, errcode)),
      CREATE(CL_INVALID_CONTEXT, cl_program, clCreateProgramWithSource(as<cl_context>(device), 1, &source, nullptr, errcode)),
      CASE(CL_INVALID_PROGRAM, clBuildProgram(as<cl_program>(k), 0, nullptr, "", nullptr, nullptr)),
      CASE(CL_INVALID_PROGRAM, clGetProgramInfo(as<cl_program>(context), CL_PROGRAM_NUM_DEVICES, 0, nullptr, &size)),
      CASE(CL_INVALID_DEVICE, clGetProgramBuildInfo(program, as<cl_device_id>(context), CL_PROGRAM_BUILD_STATUS, 0, nullptr, &size)),
      CREATE(CL_INVALID_PROGRAM, cl_kernel, clCreateKernel(as<cl_program>(memory), "k", errcode)),
      CASE(CL_INVALID_KERNEL, clSetKernelArg(as<cl_kernel>(program), 0, sizeof(cl_mem), &memory)),
      CASE(CL_INVALID_KERNEL, clGetKernelInfo(as<cl_kernel>(queue), CL_KERNEL_NUM_ARGS, 0, nullptr, &size)),
      CASE(CL_INVALID_DEVICE, clGetKernelWorkGroupInfo(k, as<cl_device_id>(context), CL_KERNEL_WORK_GROUP_SIZE, 0, nullptr, &size)),
      CASE(CL_INVALID_KERNEL, clEnqueueNDRangeKernel(queue, as<cl_kernel>(program), 1, nullptr, &one, nullptr, 0, nullptr, nullptr)),
      CREATE(CL_INVALID_KERNEL, cl_kernel, clCloneKernel(as<cl_kernel>(memory), errcode)),
      CASE(CL_INVALID_EVENT, clGetEventInfo(as<cl_event>(queue), CL_EVENT_COMMAND_TYPE, 0, nullptr, &size)),
      CASE(CL_INVALID_EVENT, clWaitForEvents(1, &notEvent)),
      CASE(CL_INVALID_EVENT, clRetainEvent(notEvent)),
      CASE(CL_INVALID_EVENT, clSetUserEventStatus(as<cl_event>(context), CL_COMPLETE)),
      CASE(CL_INVALID_EVENT_WAIT_LIST, clEnqueueMarkerWithWaitList(queue, 1, &notEvent, nullptr)),
      CREATE(CL_INVALID_CONTEXT, cl_event, clCreateUserEvent(as<cl_context>(queue), errcode)),
  });
  // Everything still works afterwards.
  ASSERT_NO_FATAL_FAILURE(run1d(k, 16));
  EXPECT_EQ(readBack<int>(memory, 16), std::vector<int>(16, 1));
}

TEST_F(BadInputTest, NullOutputsAndBadSizes) {
  const char* nullStrings[] = {nullptr};
  check({
      CASE(CL_INVALID_VALUE, clGetPlatformIDs(0, nullptr, nullptr)),
      CASE(CL_INVALID_VALUE, clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, nullptr)),
      CASE(CL_INVALID_VALUE, clGetDeviceInfo(device, CL_DEVICE_NAME, 1, &count, nullptr)),
      CASE(CL_INVALID_VALUE, clGetContextInfo(context, CL_CONTEXT_DEVICES, 1, &count, nullptr)),
      CASE(CL_INVALID_VALUE, clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, 1, &count, nullptr)),
      CREATE(CL_INVALID_VALUE, cl_program, clCreateProgramWithSource(context, 0, nullptr, nullptr, errcode)),
      CREATE(CL_INVALID_VALUE, cl_program, clCreateProgramWithSource(context, 1, nullptr, nullptr, errcode)),
      CREATE(CL_INVALID_VALUE, cl_program, clCreateProgramWithSource(context, 1, nullStrings, nullptr, errcode)),
      CREATE(CL_INVALID_VALUE, cl_program, clCreateProgramWithBuiltInKernels(context, 1, &device, "nothing", errcode)),
      CASE(CL_INVALID_VALUE, clWaitForEvents(0, nullptr)),
  });
}

// Copies and fills are checked where Loom knows the allocation (core::MemoryManager::checkRange):
// a range past the end of an SVM allocation, a size that wraps around, or an address that is
// neither an allocation nor mapped host memory is CL_INVALID_VALUE. Each case runs in a child
// (a gtest death test), which then checks that the queue still copies.
TEST_F(BadInputTest, CopiesAndFillsOutsideAllocationsAreInvalidValues) {
  if (!(deviceInfo<cl_device_svm_capabilities>(CL_DEVICE_SVM_CAPABILITIES) & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER))
    GTEST_SKIP() << "the device reports no SVM";
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // a forked child cannot use its parent's CUDA context
  void* unreadable = mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(unreadable, MAP_FAILED);
  auto* svm = static_cast<char*>(svmAlloc(CL_MEM_READ_WRITE, 64));
  ASSERT_NE(svm, nullptr);
  char host[256] = {};
  const uint32_t pattern = 7;
  auto stillCopies = [&] {
    char byte = 42;
    return clEnqueueSVMMemcpy(queue, CL_TRUE, svm, &byte, 1, 0, nullptr, nullptr) == CL_SUCCESS && svm[0] == 42;
  };
  const std::vector<Case> cases = {
      CASE(CL_INVALID_VALUE, clEnqueueSVMMemcpy(queue, CL_TRUE, svm, unreadable, 64, 0, nullptr, nullptr)),
      CASE(CL_INVALID_VALUE, clEnqueueSVMMemcpy(queue, CL_TRUE, unreadable, svm, 64, 0, nullptr, nullptr)),
      CASE(CL_INVALID_VALUE, clEnqueueSVMMemcpy(queue, CL_TRUE, reinterpret_cast<void*>(uintptr_t{0xdeadbeef}), host, 4, 0,
                                                nullptr, nullptr)),
      CASE(CL_INVALID_VALUE, clEnqueueSVMMemcpy(queue, CL_TRUE, svm, host, 128, 0, nullptr, nullptr)),
      CASE(CL_INVALID_VALUE, clEnqueueSVMMemcpy(queue, CL_TRUE, host, svm + 32, 64, 0, nullptr, nullptr)),
      CASE(CL_INVALID_VALUE, clEnqueueSVMMemcpy(queue, CL_TRUE, host, svm, SIZE_MAX, 0, nullptr, nullptr)),
      CASE(CL_INVALID_VALUE, clEnqueueSVMMemFill(queue, svm, &pattern, 4, 128, 0, nullptr, nullptr)),
      CASE(CL_INVALID_VALUE, clEnqueueSVMMemFill(queue, unreadable, &pattern, 4, 64, 0, nullptr, nullptr)),
      CASE(CL_INVALID_VALUE, clEnqueueWriteBuffer(queue, memory, CL_TRUE, 0, 64, unreadable, 0, nullptr, nullptr)),
      CASE(CL_INVALID_VALUE, clEnqueueReadBuffer(queue, memory, CL_TRUE, 0, 64, unreadable, 0, nullptr, nullptr)),
      // Host memory that is no allocation stays allowed.
      CASE(CL_SUCCESS, clEnqueueSVMMemcpy(queue, CL_TRUE, host, svm, 64, 0, nullptr, nullptr)),
      CASE(CL_SUCCESS, clEnqueueSVMMemFill(queue, host, &pattern, 4, sizeof(host), 0, nullptr, nullptr)),
  };
  for (const Case& c : cases)
    EXPECT_EXIT(std::exit(c.invoke() == c.expected && stillCopies() ? 0 : 1), ::testing::ExitedWithCode(0), "") << c.call;
  EXPECT_TRUE(stillCopies());
  munmap(unreadable, 4096);
}

// Handles past the first argument reach Loom unread by the ICD loader: a random pointer, one into
// unmapped memory and a released object are refused, each case in a child process.
TEST_F(BadInputTest, GarbageAndReleasedHandlesAreInvalid) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // a forked child cannot use its parent's CUDA context
  void* unreadable = mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(unreadable, MAP_FAILED);
  int onStack[8] = {};
  const cl_mem garbage[] = {as<cl_mem>(uintptr_t{0xdeadbeef}), as<cl_mem>(unreadable), as<cl_mem>(&onStack[0]),
                            as<cl_mem>(uintptr_t{8})};
  cl_mem released = clCreateBuffer(context, CL_MEM_READ_WRITE, 64, nullptr, nullptr);
  ASSERT_CL_OK(clReleaseMemObject(released));
  char host[64] = {};
  const size_t one = 1;
  auto stillRuns = [&] {
    cl_mem good = memory;
    return clSetKernelArg(k, 0, sizeof(cl_mem), &good) == CL_SUCCESS &&
           clEnqueueNDRangeKernel(queue, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr) == CL_SUCCESS && clFinish(queue) == CL_SUCCESS;
  };
  std::vector<Case> cases;
  for (cl_mem bad : {garbage[0], garbage[1], garbage[2], garbage[3], released}) {
    cases.push_back({"clSetKernelArg", CL_INVALID_MEM_OBJECT, [=, this] { return clSetKernelArg(k, 0, sizeof(cl_mem), &bad); }});
    cases.push_back({"clEnqueueReadBuffer", CL_INVALID_MEM_OBJECT,
                     [=, this, &host] { return clEnqueueReadBuffer(queue, bad, CL_TRUE, 0, 4, host, 0, nullptr, nullptr); }});
    cases.push_back({"clEnqueueCopyBuffer", CL_INVALID_MEM_OBJECT,
                     [=, this] { return clEnqueueCopyBuffer(queue, memory, bad, 0, 0, 4, 0, nullptr, nullptr); }});
  }
  cases.push_back(CASE(CL_INVALID_EVENT_WAIT_LIST,
                       clEnqueueMarkerWithWaitList(queue, 1, reinterpret_cast<const cl_event*>(&garbage[1]), nullptr)));
  cases.push_back(CASE(CL_INVALID_KERNEL, clEnqueueNDRangeKernel(queue, as<cl_kernel>(unreadable), 1, nullptr, &one, nullptr,
                                                                 0, nullptr, nullptr)));
  for (const Case& c : cases)
    EXPECT_EXIT(std::exit(c.invoke() == c.expected && stillRuns() ? 0 : 1), ::testing::ExitedWithCode(0), "") << c.call;
  EXPECT_TRUE(stillRuns());
  munmap(unreadable, 4096);
}

TEST_F(BadInputTest, UnsupportedFeaturesFailWithTheirCodes) {
  cl_int error = CL_SUCCESS;
  // Pipes (CL_DEVICE_PIPE_SUPPORT is false): "CL_INVALID_OPERATION if no devices in context support pipes".
  EXPECT_EQ(clCreatePipe(context, CL_MEM_READ_WRITE, 4, 16, nullptr, &error), nullptr);
  EXPECT_CL(CL_INVALID_OPERATION, error);
  // Device-side queues.
  EXPECT_CL(CL_INVALID_OPERATION, clSetDefaultDeviceCommandQueue(context, device, queue));
  // Images take no properties.
  cl_image_format format{CL_R, CL_FLOAT};
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE1D;
  desc.image_width = 16;
  const cl_mem_properties imageProperties[] = {CL_MEM_ALLOC_FLAGS_INTEL, 0, 0};
  EXPECT_EQ(clCreateImageWithProperties(context, imageProperties, CL_MEM_READ_WRITE, &format, &desc, nullptr, &error), nullptr);
  EXPECT_CL(CL_INVALID_PROPERTY, error);
  // Unknown extension functions.
  EXPECT_EQ(clGetExtensionFunctionAddressForPlatform(platform, "clNoSuchFunctionLOOM"), nullptr);
}

}  // namespace
}  // namespace loom::test
