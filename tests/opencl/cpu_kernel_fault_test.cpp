// Kernels that fault or never end on the CPU device: a fault fails the command (negative event
// status, CL_OUT_OF_RESOURCES from clFinish) and the process, its other queues and contexts go
// on; a kernel that never ends holds up only its own queue.
#include <sys/mman.h>

#include <cstdio>
#include <thread>

#include "../child_process.h"
#include "cl_test_helpers.h"

namespace loom::test {
namespace {

constexpr size_t kWorkItems = 4096;
constexpr cl_ulong kOneTebibyteOfInts = (cl_ulong(1) << 40) / sizeof(cl_int);

class CpuKernelFaultTest : public ClTest {
 protected:
  void SetUp() override {
    ClTest::SetUp();
    if (HasFatalFailure()) return;
    if (deviceInfo<cl_device_type>(CL_DEVICE_TYPE) != CL_DEVICE_TYPE_CPU) GTEST_SKIP() << "the CPU device's own behaviour";
  }

  template <typename T>
  T deviceInfo(cl_device_info name) {
    T value{};
    EXPECT_CL_OK(clGetDeviceInfo(device, name, sizeof(value), &value, nullptr));
    return value;
  }

  cl_kernel faultKernel(const char* name) {
    return buildKernel(readKernelSource("fault_kernels.cl"), name, "-cl-std=CL1.2");
  }

  // Enqueues `faulting` over kWorkItems and expects the failure everywhere the API reports it.
  void expectTheCommandToFail(cl_kernel faulting) {
    cl_event done = nullptr;
    ASSERT_CL_OK(clEnqueueNDRangeKernel(queue, faulting, 1, nullptr, &kWorkItems, nullptr, 0, nullptr, &done));
    track(done);
    EXPECT_CL(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, &done));
    EXPECT_EQ(eventStatus(done), CL_OUT_OF_RESOURCES);
    EXPECT_CL(CL_OUT_OF_RESOURCES, clFinish(queue));
  }

  // A kernel of a new program works on a new queue of the current context.
  void expectAKernelToWork() {
    queue = createQueue(0);
    cl_kernel square = buildKernel("kernel void square(global int* data) { size_t i = get_global_id(0); data[i] = i * i; }",
                                   "square");
    cl_mem data = buffer(CL_MEM_READ_WRITE, kWorkItems * sizeof(cl_int));
    setArgs(square, data);
    run1d(square, kWorkItems);
    const std::vector<cl_int> values = readBack<cl_int>(data, kWorkItems);
    for (size_t i = 0; i < kWorkItems; ++i) ASSERT_EQ(values[i], cl_int(i * i)) << i;
  }

  // Another queue of the same context works, and so does a new context.
  void expectTheProcessToGoOn() {
    expectAKernelToWork();
    context = createContext();
    expectAKernelToWork();
  }
};

TEST_F(CpuKernelFaultTest, AStoreFarOutOfBoundsFailsTheCommandAndTheProcessGoesOn) {
  EXPECT_PASSES_IN_A_CHILD_PROCESS({
    cl_kernel store = faultKernel("store_far");
    cl_mem data = buffer(CL_MEM_READ_WRITE, kWorkItems * sizeof(cl_int));
    setArgs(store, data, kOneTebibyteOfInts);
    expectTheCommandToFail(store);
    expectTheProcessToGoOn();
  });
}

// Traps and integer division by zero do not survive the compiler (SPIR-V drops llvm.trap, and
// division is made not to trap): tests/unit/core/cpu_backend_test.cpp raises SIGILL and SIGFPE
// through the backend. A store past the end of a mapped file raises SIGBUS.
TEST_F(CpuKernelFaultTest, AStorePastTheEndOfAMappedFileFailsTheCommandAndTheProcessGoesOn) {
  EXPECT_PASSES_IN_A_CHILD_PROCESS({
    FILE* file = std::tmpfile();
    void* mapped = mmap(nullptr, kWorkItems * sizeof(cl_int), PROT_READ | PROT_WRITE, MAP_SHARED, fileno(file), 0);
    ASSERT_NE(mapped, MAP_FAILED);
    cl_kernel store = faultKernel("store_far");
    // On the CPU every host address is shared virtual memory (system SVM).
    ASSERT_CL_OK(clSetKernelArgSVMPointer(store, 0, mapped));
    const cl_ulong noDistance = 0;
    ASSERT_CL_OK(clSetKernelArg(store, 1, sizeof(noDistance), &noDistance));
    expectTheCommandToFail(store);
    expectTheProcessToGoOn();
  });
}

// In a child process too: what the test leaves behind stays there, and so would a hang.
TEST_F(CpuKernelFaultTest, AKernelThatDoesNotEndHoldsUpOnlyItsOwnQueue) {
  EXPECT_PASSES_IN_A_CHILD_PROCESS({
    auto* flags = static_cast<cl_int*>(
        svmAlloc(CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, 2 * sizeof(cl_int)));
    ASSERT_NE(flags, nullptr);
    cl_int* release = flags;
    cl_int* done = flags + 1;
    *release = 0;
    *done = 0;
    cl_kernel spin = faultKernel("spin_until_set");
    ASSERT_CL_OK(clSetKernelArgSVMPointer(spin, 0, release));
    ASSERT_CL_OK(clSetKernelArgSVMPointer(spin, 1, done));
    // More groups than the device has threads: every worker may end up inside one.
    const size_t groups = 256, one = 1;
    cl_command_queue spinning = createQueue(0);
    cl_event spun = nullptr;
    ASSERT_CL_OK(clEnqueueNDRangeKernel(spinning, spin, 1, nullptr, &groups, &one, 0, nullptr, &spun));
    track(spun);
    // Releasing the queue waits for its kernel, but only on the thread that releases it.
    queues.pop_back();
    std::thread releasing([&] { EXPECT_CL_OK(clReleaseCommandQueue(spinning)); });
    // Another queue of this context, and one of another context, run their kernels meanwhile.
    expectTheProcessToGoOn();
    EXPECT_GT(eventStatus(spun), CL_COMPLETE);
    __atomic_store_n(release, 1, __ATOMIC_SEQ_CST);
    releasing.join();
    EXPECT_CL_OK(clWaitForEvents(1, &spun));
    EXPECT_EQ(__atomic_load_n(done, __ATOMIC_SEQ_CST), cl_int(groups));
  });
}

}  // namespace
}  // namespace loom::test
