// Devices of tiles through OpenCL: partitioning a root by affinity domain into its tiles, the
// sub-devices' queries and reference counts, kernels in a context of a sub-device, and the
// devices ZE_FLAT_DEVICE_HIERARCHY and ZE_AFFINITY_MASK expose. The tests run as their own CTest
// entries with LOOM_CpuSubDevices and those variables set (see CMakeLists.txt).
#include <cstdlib>
#include <cstring>

#include "cl_test_helpers.h"

namespace loom::test {
namespace {

bool requested(const char* variable, const char* value) {
  const char* set = std::getenv(variable);
  return set && std::strcmp(set, value) == 0;
}

// LOOM_CpuSubDevices, 0 when unset.
cl_uint tiles() {
  const char* set = std::getenv("LOOM_CpuSubDevices");
  return set ? cl_uint(std::atoi(set)) : 0;
}

bool flat() { return requested("ZE_FLAT_DEVICE_HIERARCHY", "FLAT") || requested("ZE_FLAT_DEVICE_HIERARCHY", "COMBINED"); }

// The position of a CPU tile, which its UUID's last byte holds (tile + 1; 0 for the whole CPU).
uint32_t cpuTileOfUuid(cl_device_id device) {
  uint8_t uuid[CL_UUID_SIZE_KHR] = {};
  EXPECT_CL_OK(clGetDeviceInfo(device, CL_DEVICE_UUID_KHR, sizeof(uuid), uuid, nullptr));
  return uuid[CL_UUID_SIZE_KHR - 1];
}

template <typename T>
T infoOf(cl_device_id device, cl_device_info name) {
  return infoScalar<T>([&](size_t s, void* v, size_t* r) { return clGetDeviceInfo(device, name, s, v, r); });
}

std::vector<cl_device_partition_property> partitionList(cl_device_id device, cl_device_info name) {
  size_t size = 0;
  EXPECT_CL_OK(clGetDeviceInfo(device, name, 0, nullptr, &size));
  std::vector<cl_device_partition_property> list(size / sizeof(cl_device_partition_property));
  EXPECT_CL_OK(clGetDeviceInfo(device, name, size, list.data(), nullptr));
  return list;
}

using Properties = std::vector<cl_device_partition_property>;

class SubDeviceTest : public ClTest {
 protected:
  void SetUp() override {
    if (tiles() < 2 || flat() || std::getenv("ZE_AFFINITY_MASK")) GTEST_SKIP() << "run with LOOM_CpuSubDevices, not FLAT";
    ClTest::SetUp();
    if (HasFatalFailure() || IsSkipped()) return;
  }

  std::vector<cl_device_id> partition(cl_device_affinity_domain domain) {
    const cl_device_partition_property byDomain[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, cl_device_partition_property(domain), 0};
    cl_uint count = 0;
    EXPECT_CL_OK(clCreateSubDevices(device, byDomain, 0, nullptr, &count));
    std::vector<cl_device_id> subDevices(count);
    cl_uint created = 0;
    EXPECT_CL_OK(clCreateSubDevices(device, byDomain, count, subDevices.data(), &created));
    EXPECT_EQ(created, count);
    return subDevices;
  }
};

TEST_F(SubDeviceTest, TheCpuReportsItsPartitioning) {
  EXPECT_EQ(deviceInfo<cl_uint>(CL_DEVICE_PARTITION_MAX_SUB_DEVICES), tiles());
  EXPECT_EQ(partitionList(device, CL_DEVICE_PARTITION_PROPERTIES), (Properties{CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, 0}));
  EXPECT_EQ(deviceInfo<cl_device_affinity_domain>(CL_DEVICE_PARTITION_AFFINITY_DOMAIN),
            CL_DEVICE_AFFINITY_DOMAIN_NUMA | CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE);
  EXPECT_TRUE(partitionList(device, CL_DEVICE_PARTITION_TYPE).empty()) << "a root device was not partitioned";
  EXPECT_EQ(deviceInfo<cl_device_id>(CL_DEVICE_PARENT_DEVICE), nullptr);
}

TEST_F(SubDeviceTest, EachAffinityDomainGivesTheTiles) {
  for (cl_device_affinity_domain domain : {CL_DEVICE_AFFINITY_DOMAIN_NUMA, CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE}) {
    const std::vector<cl_device_id> subDevices = partition(domain);
    ASSERT_EQ(subDevices.size(), tiles());
    for (cl_uint i = 0; i < subDevices.size(); ++i) {
      cl_device_id sub = subDevices[i];
      EXPECT_NE(sub, device);
      EXPECT_EQ(infoOf<cl_device_id>(sub, CL_DEVICE_PARENT_DEVICE), device);
      EXPECT_EQ(infoOf<cl_device_type>(sub, CL_DEVICE_TYPE), cl_device_type(CL_DEVICE_TYPE_CPU));
      EXPECT_EQ(partitionList(sub, CL_DEVICE_PARTITION_TYPE),
                (Properties{CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, CL_DEVICE_AFFINITY_DOMAIN_NUMA, 0}))
          << "NEXT_PARTITIONABLE reports the domain it partitioned by";
      EXPECT_EQ(cpuTileOfUuid(sub), i + 1) << "sub-device " << i << " is tile " << i;
      EXPECT_EQ(infoOf<cl_uint>(sub, CL_DEVICE_PARTITION_MAX_SUB_DEVICES), 0u) << "tiles are not partitioned further";
      EXPECT_EQ(partitionList(sub, CL_DEVICE_PARTITION_PROPERTIES), (Properties{0}));
      EXPECT_EQ(infoOf<cl_device_affinity_domain>(sub, CL_DEVICE_PARTITION_AFFINITY_DOMAIN), 0u);
      EXPECT_CL_OK(clReleaseDevice(sub));
    }
  }
}

TEST_F(SubDeviceTest, SubDevicesAreReferenceCounted) {
  const std::vector<cl_device_id> subDevices = partition(CL_DEVICE_AFFINITY_DOMAIN_NUMA);
  ASSERT_FALSE(subDevices.empty());
  cl_device_id sub = subDevices[0];
  EXPECT_EQ(infoOf<cl_uint>(sub, CL_DEVICE_REFERENCE_COUNT), 1u);
  EXPECT_CL_OK(clRetainDevice(sub));
  EXPECT_EQ(infoOf<cl_uint>(sub, CL_DEVICE_REFERENCE_COUNT), 2u);
  // A context retains its devices: the sub-device outlives the application's last release.
  cl_int error = CL_SUCCESS;
  cl_context subContext = clCreateContext(nullptr, 1, &sub, nullptr, nullptr, &error);
  ASSERT_CL_OK(error);
  EXPECT_CL_OK(clReleaseDevice(sub));
  EXPECT_CL_OK(clReleaseDevice(sub));
  EXPECT_EQ(infoOf<cl_device_id>(sub, CL_DEVICE_PARENT_DEVICE), device) << "the context still holds it";
  EXPECT_CL_OK(clReleaseContext(subContext));
  EXPECT_CL(CL_INVALID_DEVICE, clRetainDevice(sub)) << "released by its last reference";
  for (size_t i = 1; i < subDevices.size(); ++i) EXPECT_CL_OK(clReleaseDevice(subDevices[i]));
}

TEST_F(SubDeviceTest, UnsupportedPartitionRequestsFail) {
  cl_uint count = 0;
  const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  EXPECT_CL(CL_INVALID_VALUE, clCreateSubDevices(device, equally, 0, nullptr, &count));
  const cl_device_partition_property l3[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, 0};
  EXPECT_CL(CL_INVALID_VALUE, clCreateSubDevices(device, l3, 0, nullptr, &count));
  const cl_device_partition_property unterminated[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, CL_DEVICE_AFFINITY_DOMAIN_NUMA,
                                                       CL_DEVICE_PARTITION_EQUALLY};
  EXPECT_CL(CL_INVALID_VALUE, clCreateSubDevices(device, unterminated, 0, nullptr, &count));
  const cl_device_partition_property numa[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, CL_DEVICE_AFFINITY_DOMAIN_NUMA, 0};
  cl_device_id tooFew[1] = {};
  EXPECT_CL(CL_INVALID_VALUE, clCreateSubDevices(device, numa, 1, tooFew, &count));
  EXPECT_EQ(tooFew[0], nullptr);
  cl_device_id sub = nullptr;
  ASSERT_CL_OK(clCreateSubDevices(device, numa, 0, nullptr, &count));
  std::vector<cl_device_id> subDevices(count);
  ASSERT_CL_OK(clCreateSubDevices(device, numa, count, subDevices.data(), nullptr));
  sub = subDevices[0];
  EXPECT_CL(CL_INVALID_VALUE, clCreateSubDevices(sub, numa, 0, nullptr, &count)) << "a tile has no tiles";
  for (cl_device_id created : subDevices) EXPECT_CL_OK(clReleaseDevice(created));
}

TEST_F(SubDeviceTest, AKernelRunsInAContextOfEachSubDevice) {
  const char* source = "kernel void add(global const int* a, global int* out, int value) {"
                       "  size_t i = get_global_id(0); out[i] = a[i] + value; }";
  const size_t n = 4096;
  std::vector<cl_int> input(n);
  for (size_t i = 0; i < n; ++i) input[i] = cl_int(i);
  const std::vector<cl_device_id> subDevices = partition(CL_DEVICE_AFFINITY_DOMAIN_NUMA);
  for (cl_uint tile = 0; tile < subDevices.size(); ++tile) {
    cl_device_id sub = subDevices[tile];
    cl_int error = CL_SUCCESS;
    cl_context subContext = clCreateContext(nullptr, 1, &sub, nullptr, nullptr, &error);
    ASSERT_CL_OK(error);
    cl_command_queue subQueue = clCreateCommandQueueWithProperties(subContext, sub, nullptr, &error);
    ASSERT_CL_OK(error);
    cl_program program = clCreateProgramWithSource(subContext, 1, &source, nullptr, &error);
    ASSERT_CL_OK(error);
    ASSERT_CL_OK(clBuildProgram(program, 1, &sub, "", nullptr, nullptr));
    cl_kernel add = clCreateKernel(program, "add", &error);
    ASSERT_CL_OK(error);
    cl_mem in = clCreateBuffer(subContext, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int), input.data(), &error);
    ASSERT_CL_OK(error);
    cl_mem out = clCreateBuffer(subContext, CL_MEM_WRITE_ONLY, n * sizeof(cl_int), nullptr, &error);
    ASSERT_CL_OK(error);
    const cl_int value = cl_int(tile + 1) * 1000;
    ASSERT_CL_OK(clSetKernelArg(add, 0, sizeof(in), &in));
    ASSERT_CL_OK(clSetKernelArg(add, 1, sizeof(out), &out));
    ASSERT_CL_OK(clSetKernelArg(add, 2, sizeof(value), &value));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(subQueue, add, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
    std::vector<cl_int> result(n);
    ASSERT_CL_OK(clEnqueueReadBuffer(subQueue, out, CL_TRUE, 0, n * sizeof(cl_int), result.data(), 0, nullptr, nullptr));
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(result[i], cl_int(i) + value) << "tile " << tile << " item " << i;
    EXPECT_CL_OK(clReleaseMemObject(in));
    EXPECT_CL_OK(clReleaseMemObject(out));
    EXPECT_CL_OK(clReleaseKernel(add));
    EXPECT_CL_OK(clReleaseProgram(program));
    EXPECT_CL_OK(clReleaseCommandQueue(subQueue));
    EXPECT_CL_OK(clReleaseContext(subContext));
    EXPECT_CL_OK(clReleaseDevice(sub));
  }
}

// A build for the parent builds for its sub-devices in the program's context too, and their queues
// run the program's kernels (OpenCL-CTS device_partition builds for the parent device only).
TEST_F(SubDeviceTest, ABuildForTheParentServesItsSubDevices) {
  const char* source = "kernel void fill(global int* out, int value) { out[get_global_id(0)] = value; }";
  std::vector<cl_device_id> devices = partition(CL_DEVICE_AFFINITY_DOMAIN_NUMA);
  devices.push_back(device);
  cl_int error = CL_SUCCESS;
  cl_context both = clCreateContext(nullptr, cl_uint(devices.size()), devices.data(), nullptr, nullptr, &error);
  ASSERT_CL_OK(error);
  cl_program program = clCreateProgramWithSource(both, 1, &source, nullptr, &error);
  ASSERT_CL_OK(error);
  ASSERT_CL_OK(clBuildProgram(program, 1, &device, "", nullptr, nullptr));
  for (cl_device_id each : devices) {
    cl_build_status status = CL_BUILD_NONE;
    ASSERT_CL_OK(clGetProgramBuildInfo(program, each, CL_PROGRAM_BUILD_STATUS, sizeof(status), &status, nullptr));
    EXPECT_EQ(status, CL_BUILD_SUCCESS);
  }
  cl_kernel fill = clCreateKernel(program, "fill", &error);
  ASSERT_CL_OK(error);
  const size_t n = 256;
  cl_mem out = clCreateBuffer(both, CL_MEM_WRITE_ONLY, n * sizeof(cl_int), nullptr, &error);
  ASSERT_CL_OK(error);
  for (size_t tile = 0; tile + 1 < devices.size(); ++tile) {
    cl_command_queue queue = clCreateCommandQueueWithProperties(both, devices[tile], nullptr, &error);
    ASSERT_CL_OK(error);
    const cl_int value = cl_int(tile) + 7;
    ASSERT_CL_OK(clSetKernelArg(fill, 0, sizeof(out), &out));
    ASSERT_CL_OK(clSetKernelArg(fill, 1, sizeof(value), &value));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(queue, fill, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
    std::vector<cl_int> result(n);
    ASSERT_CL_OK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, n * sizeof(cl_int), result.data(), 0, nullptr, nullptr));
    EXPECT_EQ(result.front(), value);
    EXPECT_EQ(result.back(), value);
    EXPECT_CL_OK(clReleaseCommandQueue(queue));
  }
  EXPECT_CL_OK(clReleaseMemObject(out));
  EXPECT_CL_OK(clReleaseKernel(fill));
  EXPECT_CL_OK(clReleaseProgram(program));
  EXPECT_CL_OK(clReleaseContext(both));
  for (size_t tile = 0; tile + 1 < devices.size(); ++tile) EXPECT_CL_OK(clReleaseDevice(devices[tile]));
}

// FLAT (and COMBINED): every tile is a device of the platform; ZE_AFFINITY_MASK counts them.
TEST(FlatHierarchyTest, EveryTileIsADeviceOfThePlatform) {
  if (tiles() < 2 || !flat()) GTEST_SKIP() << "run with LOOM_CpuSubDevices and ZE_FLAT_DEVICE_HIERARCHY=FLAT";
  cl_platform_id platform = loomPlatform();
  ASSERT_NE(platform, nullptr);
  cl_uint count = 0;
  ASSERT_CL_OK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count));
  std::vector<cl_device_id> devices(count);
  ASSERT_CL_OK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, devices.data(), nullptr));
  const bool maskOfSecond = requested("ZE_AFFINITY_MASK", "1");
  ASSERT_EQ(count, maskOfSecond ? 1u : tiles());
  for (cl_uint i = 0; i < count; ++i) {
    EXPECT_EQ(cpuTileOfUuid(devices[i]), maskOfSecond ? 2u : i + 1) << "device " << i;
    EXPECT_EQ(infoOf<cl_device_id>(devices[i], CL_DEVICE_PARENT_DEVICE), nullptr);
    EXPECT_EQ(infoOf<cl_uint>(devices[i], CL_DEVICE_PARTITION_MAX_SUB_DEVICES), 0u);
  }
}

}  // namespace
}  // namespace loom::test
