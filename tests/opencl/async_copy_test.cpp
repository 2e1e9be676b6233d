// async_work_group_copy, async_work_group_strided_copy, wait_group_events and prefetch in groups
// of several work-items: global to local and local to global, contiguous and strided, scalars and
// vectors, with a copy count that does not divide among the group's work-items.
#include "cl_test_helpers.h"

namespace loom::test {
namespace {

// Each group copies its n elements of `in` into local memory, doubles them there and copies them
// to `out`; then gathers n elements `stride` apart from `strided_in`, adds 1 in local memory and
// scatters them `stride` apart into `strided_out` (its other elements stay as they were).
constexpr const char* kSource = R"(
#define COPIES(T)                                                                                           \
  kernel void copies_##T(global const T* in, global T* out, global const T* strided_in, global T* strided_out, \
                         local T* tile, local T* gathered, int stride) {                                     \
    const size_t n = 3 * get_local_size(0) + 1, base = get_group_id(0) * n;                                   \
    prefetch(in + base, n);                                                                                    \
    event_t loaded = async_work_group_copy(tile, in + base, n, 0);                                             \
    wait_group_events(1, &loaded);                                                                             \
    for (size_t j = get_local_id(0); j < n; j += get_local_size(0)) tile[j] *= (T)2;                         \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                              \
    event_t both[2];                                                                                           \
    both[0] = async_work_group_copy(out + base, tile, n, 0);                                                   \
    both[1] = async_work_group_strided_copy(gathered, strided_in + base * stride, n, stride, 0);              \
    wait_group_events(2, both);                                                                                \
    for (size_t j = get_local_id(0); j < n; j += get_local_size(0)) gathered[j] += (T)1;                     \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                              \
    event_t scattered = async_work_group_strided_copy(strided_out + base * stride, gathered, n, stride, 0);   \
    wait_group_events(1, &scattered);                                                                          \
  }
COPIES(int)
COPIES(int4)
)";

class AsyncCopyTest : public ClTest {
 protected:
  // Runs copies_<type> (of `components` ints per element) over `groups` groups of `groupSize`.
  void check(const char* type, size_t components, size_t groups, size_t groupSize, cl_int stride) {
    cl_kernel k = buildKernel(kSource, (std::string("copies_") + type).c_str());
    ASSERT_NE(k, nullptr);
    const size_t n = 3 * groupSize + 1, elements = groups * n, ints = elements * components;
    std::vector<cl_int> in(ints), stridedIn(ints * stride), stridedOut(ints * stride, -1);
    for (size_t i = 0; i < in.size(); ++i) in[i] = cl_int(i * 7 % 1009);
    for (size_t i = 0; i < stridedIn.size(); ++i) stridedIn[i] = cl_int(i * 13 % 997);
    cl_mem inBuffer = bufferWith(in), out = buffer(CL_MEM_READ_WRITE, ints * sizeof(cl_int));
    cl_mem stridedInBuffer = bufferWith(stridedIn), stridedOutBuffer = bufferWith(stridedOut);
    setArgs(k, inBuffer, out, stridedInBuffer, stridedOutBuffer);
    const size_t localBytes = n * components * sizeof(cl_int);
    ASSERT_CL_OK(clSetKernelArg(k, 4, localBytes, nullptr));
    ASSERT_CL_OK(clSetKernelArg(k, 5, localBytes, nullptr));
    ASSERT_CL_OK(clSetKernelArg(k, 6, sizeof(stride), &stride));
    ASSERT_NO_FATAL_FAILURE(run1d(k, groups * groupSize, &groupSize));
    const std::vector<cl_int> copied = readBack<cl_int>(out, ints);
    for (size_t i = 0; i < ints; ++i) ASSERT_EQ(copied[i], 2 * in[i]) << type << " element " << i / components;
    const std::vector<cl_int> scattered = readBack<cl_int>(stridedOutBuffer, stridedOut.size());
    for (size_t i = 0; i < scattered.size(); ++i) {
      const bool copiedElement = (i / components) % stride == 0;
      ASSERT_EQ(scattered[i], copiedElement ? stridedIn[i] + 1 : -1) << type << " element " << i / components;
    }
  }
};

TEST_F(AsyncCopyTest, ScalarsContiguousAndStrided) { check("int", 1, 5, 16, 3); }

TEST_F(AsyncCopyTest, VectorsContiguousAndStrided) { check("int4", 4, 3, 32, 2); }

TEST_F(AsyncCopyTest, AStrideOfOneIsAContiguousCopy) { check("int", 1, 2, 64, 1); }

}  // namespace
}  // namespace loom::test
