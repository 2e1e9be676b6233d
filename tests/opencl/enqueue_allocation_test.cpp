// Heap allocations of clEnqueueNDRangeKernel, on the enqueueing thread
// (allocation/allocation_count.h): the launch description and the argument bytes go into the
// command's stream, whose storage the engine takes whole, so an enqueue allocates that storage
// and, now and then, room in the queue's list of commands in flight.
#include "allocation/allocation_count.h"
#include "cl_test_helpers.h"

namespace loom::test {
namespace {

constexpr cl_uint kWarmUpEnqueues = 8;
constexpr cl_uint kCountedEnqueues = 64;

class EnqueueAllocationTest : public ClTest {
 protected:
  // How many allocations `count` enqueues of `k` over one work-item make.
  size_t allocationsOfEnqueues(cl_kernel k, cl_uint count) {
    const size_t one = 1;
    cl_int result = CL_SUCCESS;
    AllocationCount allocations;
    for (cl_uint i = 0; i < count && result == CL_SUCCESS; ++i)
      result = clEnqueueNDRangeKernel(queue, k, 1, nullptr, &one, &one, 0, nullptr, nullptr);
    const size_t made = allocations.allocations();
    EXPECT_CL_OK(result);
    return made;
  }
};

// Fewer than one and a half allocations per enqueue, whether the kernel has arguments or not.
TEST_F(EnqueueAllocationTest, AKernelEnqueueAllocatesLittleMoreThanItsStream) {
  cl_program p = build(
      "kernel void empty_kernel() {}\n"
      "kernel void with_arguments(global int* out, int a, float b) { if (a == 12345) out[0] = (int)b; }");
  cl_mem out = buffer(CL_MEM_READ_WRITE, sizeof(cl_int));
  cl_kernel withArguments = kernel(p, "with_arguments");
  const cl_int a = 1;
  const cl_float b = 2;
  ASSERT_CL_OK(clSetKernelArg(withArguments, 0, sizeof(out), &out));
  ASSERT_CL_OK(clSetKernelArg(withArguments, 1, sizeof(a), &a));
  ASSERT_CL_OK(clSetKernelArg(withArguments, 2, sizeof(b), &b));
  for (cl_kernel k : {kernel(p, "empty_kernel"), withArguments}) {
    allocationsOfEnqueues(k, kWarmUpEnqueues);
    EXPECT_LE(allocationsOfEnqueues(k, kCountedEnqueues), kCountedEnqueues * 3 / 2);
    ASSERT_CL_OK(clFinish(queue));
  }
}

}  // namespace
}  // namespace loom::test
