// What core decides once for both APIs, seen through OpenCL: the local size chosen when the
// application gives none, and how large an allocation of a context may be.
#include <algorithm>
#include <vector>

#include "cl_test_helpers.h"

namespace loom::test {
namespace {

class DevicePoliciesTest : public ClTest {};

// 8160 = 32 * 255: 255 divides it, but a multiple of CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE
// divides it too, and is chosen.
TEST_F(DevicePoliciesTest, TheChosenLocalSizeIsAMultipleOfThePreferredMultiple) {
  constexpr size_t kGlobal = 8160;
  cl_kernel k = buildKernel("kernel void local_size(global uint* out) { out[get_global_id(0)] = get_local_size(0); }",
                            "local_size");
  ASSERT_NE(k, nullptr);
  size_t multiple = 0;
  ASSERT_CL_OK(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof(multiple), &multiple,
                                        nullptr));
  ASSERT_GT(multiple, 1u);
  cl_mem out = buffer(CL_MEM_READ_WRITE, kGlobal * sizeof(cl_uint));
  setArgs(k, out);
  run1d(k, kGlobal);
  const cl_uint local = readBack<cl_uint>(out, 1)[0];
  ASSERT_NE(local, 0u);
  EXPECT_EQ(kGlobal % local, 0u) << local;
  EXPECT_EQ(local % multiple, 0u) << local << " is no multiple of " << multiple;
}

using HostMemAlloc = void*(CL_API_CALL*)(cl_context, const cl_ulong*, size_t, cl_uint, cl_int*);

// A buffer, SVM, and USM of no device may be used by every device of the context: each must be
// able to hold it (CL_INVALID_BUFFER_SIZE against CL_DEVICE_MAX_MEM_ALLOC_SIZE of all of them).
TEST_F(DevicePoliciesTest, AnAllocationOfTheContextFitsEveryDevice) {
  cl_uint count = 0;
  ASSERT_CL_OK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count));
  std::vector<cl_device_id> devices(count);
  ASSERT_CL_OK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, devices.data(), nullptr));
  cl_ulong smallest = CL_ULONG_MAX;
  for (cl_device_id each : devices) {
    cl_ulong limit = 0;
    ASSERT_CL_OK(clGetDeviceInfo(each, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(limit), &limit, nullptr));
    smallest = std::min(smallest, limit);
  }
  cl_int error = CL_SUCCESS;
  cl_context all = clCreateContext(nullptr, count, devices.data(), nullptr, nullptr, &error);
  ASSERT_CL_OK(error);
  EXPECT_EQ(clCreateBuffer(all, CL_MEM_READ_WRITE, size_t(smallest) + 1, nullptr, &error), nullptr);
  EXPECT_CL(CL_INVALID_BUFFER_SIZE, error);
  EXPECT_EQ(clSVMAlloc(all, CL_MEM_READ_WRITE, size_t(smallest) + 1, 0), nullptr);
  auto hostMemAlloc = reinterpret_cast<HostMemAlloc>(clGetExtensionFunctionAddressForPlatform(platform, "clHostMemAllocINTEL"));
  ASSERT_NE(hostMemAlloc, nullptr);
  EXPECT_EQ(hostMemAlloc(all, nullptr, size_t(smallest) + 1, 0, &error), nullptr);
  EXPECT_CL(CL_INVALID_BUFFER_SIZE, error);
  EXPECT_CL_OK(clReleaseContext(all));
}

}  // namespace
}  // namespace loom::test
