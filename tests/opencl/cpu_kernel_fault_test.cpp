// Kernels that fault or never end on the CPU device: a fault fails the command (negative event
// status, CL_OUT_OF_RESOURCES from clFinish) and the process, its other queues and contexts go
// on; a kernel that never ends holds up only its own queue.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>

#include "../child_process.h"
#include "cl_test_helpers.h"

namespace loom::test {
namespace {

constexpr size_t kWorkItems = 4096;
constexpr cl_ulong kOneTebibyteOfInts = (cl_ulong(1) << 40) / sizeof(cl_int);
// A child that hangs fails (SIGALRM ends it) rather than stalling the suite.
constexpr unsigned kSecondsBeforeAHangFails = 60;

class CpuKernelFaultTest : public ClTest {
 protected:
  void SetUp() override {
    ClTest::SetUp();
    if (HasFatalFailure() || IsSkipped()) return;
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

  // spin_until_set over kSpinningGroups work-items, one per group: more groups than the device
  // has threads, so that every worker may end up inside one. It ends once *release is set.
  void enqueueSpinning(cl_command_queue on, cl_kernel spin, cl_event* event) {
    const size_t one = 1;
    ASSERT_CL_OK(clEnqueueNDRangeKernel(on, spin, 1, nullptr, &kSpinningGroups, &one, 0, nullptr, event));
    track(*event);
  }

  // Two ints, 0 and 0, in fine-grained SVM the host reads and writes while kernels run.
  cl_int* sharedFlags() {
    auto* flags = static_cast<cl_int*>(
        svmAlloc(CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, 2 * sizeof(cl_int)));
    if (flags) flags[0] = flags[1] = 0;
    return flags;
  }

  cl_uint contextReferences() {
    cl_uint count = 0;
    EXPECT_CL_OK(clGetContextInfo(context, CL_CONTEXT_REFERENCE_COUNT, sizeof(count), &count, nullptr));
    return count;
  }

  // Releases a queue the test made with createQueue, which TearDown then leaves alone.
  void releaseQueue(cl_command_queue released) {
    queues.erase(std::remove(queues.begin(), queues.end(), released), queues.end());
    EXPECT_CL_OK(clReleaseCommandQueue(released));
  }

  static constexpr size_t kSpinningGroups = 256;

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
    alarm(kSecondsBeforeAHangFails);
    cl_int* flags = sharedFlags();
    ASSERT_NE(flags, nullptr);
    cl_int* release = flags;
    cl_int* done = flags + 1;
    cl_kernel spin = faultKernel("spin_until_set");
    ASSERT_CL_OK(clSetKernelArgSVMPointer(spin, 0, release));
    ASSERT_CL_OK(clSetKernelArgSVMPointer(spin, 1, done));
    cl_event spun = nullptr;
    enqueueSpinning(createQueue(0), spin, &spun);
    // The queue goes once its commands have finished: the release returns at once.
    releaseQueue(queues.back());
    // Another queue of this context, and one of another context, run their kernels meanwhile.
    expectTheProcessToGoOn();
    EXPECT_GT(eventStatus(spun), CL_COMPLETE);
    __atomic_store_n(release, 1, __ATOMIC_SEQ_CST);
    EXPECT_CL_OK(clWaitForEvents(1, &spun));
    EXPECT_EQ(__atomic_load_n(done, __ATOMIC_SEQ_CST), cl_int(kSpinningGroups));
  });
}

// OpenCL deletes a released queue once its commands have finished: until then it keeps its
// context, and its events' callbacks run when they complete.
TEST_F(CpuKernelFaultTest, AReleasedQueueKeepsItsContextUntilItsKernelEnds) {
  EXPECT_PASSES_IN_A_CHILD_PROCESS({
    alarm(kSecondsBeforeAHangFails);
    cl_int* flags = sharedFlags();
    ASSERT_NE(flags, nullptr);
    cl_kernel spin = faultKernel("spin_until_set");
    ASSERT_CL_OK(clSetKernelArgSVMPointer(spin, 0, flags));
    ASSERT_CL_OK(clSetKernelArgSVMPointer(spin, 1, flags + 1));
    cl_command_queue spinning = createQueue(0);
    cl_event spun = nullptr;
    enqueueSpinning(spinning, spin, &spun);
    std::atomic<int> completions{0};
    auto count = [](cl_event, cl_int, void* counter) { ++*static_cast<std::atomic<int>*>(counter); };
    ASSERT_CL_OK(clSetEventCallback(spun, CL_COMPLETE, count, &completions));
    const cl_uint withTheQueue = contextReferences();
    releaseQueue(spinning);
    EXPECT_EQ(contextReferences(), withTheQueue) << "the released queue's kernel still runs";
    EXPECT_EQ(completions.load(), 0);
    __atomic_store_n(flags, 1, __ATOMIC_SEQ_CST);
    EXPECT_TRUE(eventually([&] { return contextReferences() == withTheQueue - 1; }));
    EXPECT_EQ(completions.load(), 1) << "the callbacks run before the queue goes";
    EXPECT_EQ(eventStatus(spun), CL_COMPLETE);
  });
}

// A kernel that never ends: releasing its queue and the context returns, the command behind the
// kernel never completes, other queues go on, the application releases everything (the kernel's
// program and memory with it) and the process exits normally.
TEST_F(CpuKernelFaultTest, ReleasingAQueueWhoseKernelNeverEndsReturnsAndTheProcessExits) {
  EXPECT_PASSES_IN_A_CHILD_PROCESS({
    alarm(kSecondsBeforeAHangFails);
    cl_mem flags = bufferWith(std::vector<cl_int>{0, 0});
    cl_kernel spin = faultKernel("spin_until_set");
    setArgs(spin, flags, flags);
    cl_command_queue spinning = createQueue(0);
    cl_event spun = nullptr, behind = nullptr;
    enqueueSpinning(spinning, spin, &spun);
    cl_int copied = 0;
    ASSERT_CL_OK(clEnqueueReadBuffer(spinning, flags, CL_FALSE, 0, sizeof(copied), &copied, 0, nullptr, &behind));
    track(behind);
    releaseQueue(spinning);
    expectTheProcessToGoOn();
    EXPECT_GT(eventStatus(spun), CL_COMPLETE);
    EXPECT_GT(eventStatus(behind), CL_COMPLETE);
    // Events, the kernel, its program, the buffer, the other queues and both contexts.
    TearDown();
    std::fflush(nullptr);
    std::exit(HasFailure() ? 1 : 0);
  });
}

}  // namespace
}  // namespace loom::test
