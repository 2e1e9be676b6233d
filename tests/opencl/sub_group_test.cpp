// Sub-groups (cl_khr_subgroups and the cl_khr_subgroup_* extensions, cl_intel_subgroups and its
// variants): the device queries, clGetKernelSubGroupInfo (and its KHR form) with its error codes,
// and kernels that use them. Expectations come from the sub-group size the device reports (1 on the CPU, 32
// on NVIDIA GPUs), so the suite holds on either.
#include <CL/cl_ext.h>

#include "cl_test_helpers.h"

namespace loom::test {
namespace {

using SubGroupTest = ClTest;

const char* const kSubGroupKernel = R"(
kernel void sub_groups(global const int* in, global int* out) {
  const size_t i = get_global_id(0);
  const uint id = get_sub_group_local_id(), size = get_sub_group_size();
  global int* record = out + i * 8;
  record[0] = get_max_sub_group_size();
  record[1] = get_num_sub_groups();
  record[2] = get_sub_group_id() * 1000 + id;
  record[3] = sub_group_reduce_add(in[i]);
  record[4] = sub_group_scan_exclusive_max(in[i]);
  record[5] = sub_group_broadcast(in[i], size - 1);
  record[6] = sub_group_shuffle(in[i], (id + 1) % size) + sub_group_shuffle_down(in[i], 0) * 0;
  record[7] = sub_group_all(in[i] > 0) * 10 + sub_group_any(in[i] > 100);
}
)";

class SubGroupInfoTest : public ClTest {
 protected:
  void SetUp() override {
    ClTest::SetUp();
    if (HasFatalFailure() || IsSkipped()) return;
    k = buildKernel(kSubGroupKernel, "sub_groups");
    ASSERT_NE(k, nullptr);
  }

  cl_int query(cl_kernel_sub_group_info name, const std::vector<size_t>& input, size_t* result) {
    return clGetKernelSubGroupInfo(k, device, name, input.size() * sizeof(size_t), input.data(), sizeof(size_t), result, nullptr);
  }
  size_t sizeFor(const std::vector<size_t>& local) {
    size_t size = 0;
    EXPECT_CL_OK(query(CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, local, &size));
    return size;
  }
  size_t countFor(const std::vector<size_t>& local) {
    size_t count = 0;
    EXPECT_CL_OK(query(CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, local, &count));
    return count;
  }
  // The device's sub-group size: what the largest work-group's sub-groups have.
  size_t deviceSubGroupSize() { return sizeFor({deviceInfo<size_t>(CL_DEVICE_MAX_WORK_GROUP_SIZE)}); }

  cl_kernel k = nullptr;
};

TEST_F(SubGroupTest, DeviceReportsSubGroupsAndTheirShuffles) {
  const std::set<std::string> extensions = splitWords(deviceString(CL_DEVICE_EXTENSIONS));
  for (const char* name : {"cl_khr_subgroup_shuffle", "cl_khr_subgroup_shuffle_relative",
                           "cl_khr_subgroup_extended_types", "cl_khr_subgroup_non_uniform_vote", "cl_khr_subgroup_ballot",
                           "cl_khr_subgroup_non_uniform_arithmetic", "cl_khr_subgroup_clustered_reduce", "cl_khr_subgroup_rotate",
                           "cl_intel_subgroups",
                           "cl_intel_subgroups_char", "cl_intel_subgroups_short", "cl_intel_subgroups_long",
                           "cl_intel_subgroup_local_block_io", "cl_intel_spirv_subgroups"})
    EXPECT_EQ(extensions.count(name), 1u) << name;
  const auto features = infoArray<cl_name_version>(
      [&](size_t s, void* v, size_t* r) { return clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, s, v, r); });
  bool subGroups = false;
  for (const cl_name_version& feature : features) subGroups = subGroups || std::string(feature.name) == "__opencl_c_subgroups";
  EXPECT_TRUE(subGroups);
  EXPECT_GE(deviceInfo<cl_uint>(CL_DEVICE_MAX_NUM_SUB_GROUPS), 1u);
  // A CPU runs a group's sub-groups (work-items) one after another; a GPU's warps progress independently.
  const bool cpu = deviceInfo<cl_device_type>(CL_DEVICE_TYPE) == CL_DEVICE_TYPE_CPU;
  EXPECT_EQ(deviceInfo<cl_bool>(CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS), cpu ? CL_FALSE : CL_TRUE);
  // cl_khr_subgroups requires independent forward progress (OpenCL 3.0, the query's entry).
  EXPECT_EQ(extensions.count("cl_khr_subgroups"), cpu ? 0u : 1u);
}

TEST_F(SubGroupInfoTest, AnswersEveryQueryFromTheSubGroupSize) {
  const size_t size = deviceSubGroupSize(), maxGroup = deviceInfo<size_t>(CL_DEVICE_MAX_WORK_GROUP_SIZE);
  ASSERT_GE(size, 1u);
  if (deviceInfo<cl_device_type>(CL_DEVICE_TYPE) == CL_DEVICE_TYPE_CPU) {
    EXPECT_EQ(size, 1u);
  }
  EXPECT_EQ(deviceInfo<cl_uint>(CL_DEVICE_MAX_NUM_SUB_GROUPS), (maxGroup + size - 1) / size);
  EXPECT_EQ(sizeFor({1}), 1u);
  EXPECT_EQ(sizeFor({8, 8}), std::min<size_t>(size, 64));
  EXPECT_EQ(countFor({8, 8}), (64 + size - 1) / size);
  EXPECT_EQ(countFor({5, 3, 2}), (30 + size - 1) / size);
  size_t maxCount = 0, compiled = ~size_t(0);
  EXPECT_CL_OK(clGetKernelSubGroupInfo(k, device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr, sizeof(maxCount), &maxCount, nullptr));
  EXPECT_EQ(maxCount, (maxGroup + size - 1) / size);
  EXPECT_CL_OK(clGetKernelSubGroupInfo(k, device, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, 0, nullptr, sizeof(compiled), &compiled, nullptr));
  EXPECT_EQ(compiled, 0u);

  // The local size for a number of sub-groups, in as many dimensions as param_value_size holds.
  const size_t two = 2;
  size_t local[3] = {9, 9, 9};
  EXPECT_CL_OK(clGetKernelSubGroupInfo(k, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof(two), &two, sizeof(local), local, nullptr));
  EXPECT_EQ(local[0], 2 * size);
  EXPECT_EQ(local[1], 1u);
  EXPECT_EQ(local[2], 1u);
  EXPECT_EQ(countFor({local[0], local[1], local[2]}), 2u);
  const size_t tooMany = maxCount + 1;
  size_t none[2] = {9, 9}, returned = 0;
  EXPECT_CL_OK(clGetKernelSubGroupInfo(k, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof(tooMany), &tooMany, sizeof(none), none,
                                       &returned));
  EXPECT_EQ(returned, sizeof(none));
  EXPECT_EQ(none[0], 0u);
  EXPECT_EQ(none[1], 0u);
}

TEST_F(SubGroupInfoTest, RejectsBadArguments) {
  const size_t local = 16;
  size_t value = 0;
  EXPECT_CL(CL_INVALID_KERNEL, clGetKernelSubGroupInfo(nullptr, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(local), &local,
                                                       sizeof(value), &value, nullptr));
  EXPECT_CL(CL_INVALID_DEVICE, clGetKernelSubGroupInfo(k, reinterpret_cast<cl_device_id>(context), CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                                       sizeof(local), &local, sizeof(value), &value, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clGetKernelSubGroupInfo(k, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(local), nullptr,
                                                      sizeof(value), &value, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clGetKernelSubGroupInfo(k, device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, 0, &local, sizeof(value), &value,
                                                      nullptr));
  const size_t fourDimensions[4] = {1, 1, 1, 1};
  EXPECT_CL(CL_INVALID_VALUE, clGetKernelSubGroupInfo(k, device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof(fourDimensions),
                                                      fourDimensions, sizeof(value), &value, nullptr));
  const size_t zero = 0;
  EXPECT_CL(CL_INVALID_VALUE, clGetKernelSubGroupInfo(k, device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof(zero), &zero,
                                                      sizeof(value), &value, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clGetKernelSubGroupInfo(k, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(local), &local, 1,
                                                      &value, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clGetKernelSubGroupInfo(k, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, 2 * sizeof(size_t),
                                                      fourDimensions, sizeof(value), &value, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clGetKernelSubGroupInfo(k, device, 0x7fff, 0, nullptr, sizeof(value), &value, nullptr));
  // cl_intel_required_subgroup_size is not reported, so neither is its query.
  EXPECT_CL(CL_INVALID_VALUE, clGetKernelSubGroupInfo(k, device, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 0, nullptr, sizeof(value),
                                                      &value, nullptr));
}

TEST_F(SubGroupInfoTest, KhrFormThroughTheExtensionFunctionAddress) {
  // The KHR function has the core one's signature (its own typedef is deprecated in the headers).
  auto khr = reinterpret_cast<decltype(&clGetKernelSubGroupInfo)>(
      clGetExtensionFunctionAddressForPlatform(platform, "clGetKernelSubGroupInfoKHR"));
  ASSERT_NE(khr, nullptr);
  const size_t local[2] = {8, 8};
  size_t count = 0;
  EXPECT_CL_OK(khr(k, device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof(local), local, sizeof(count), &count, nullptr));
  EXPECT_EQ(count, countFor({8, 8}));
  EXPECT_CL(CL_INVALID_KERNEL, khr(nullptr, device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof(local), local, sizeof(count), &count,
                                   nullptr));
}

// Two groups of 96 (three warps of 32 on a GPU, 96 sub-groups on the CPU), values known per work-item.
TEST_F(SubGroupInfoTest, KernelAgreesWithTheQueries) {
  constexpr size_t kItems = 192, kLocal = 96;
  std::vector<int> in(kItems), none(kItems * 8, -1);
  for (size_t i = 0; i < kItems; ++i) in[i] = i == 40 ? 0 : int(i * 37 % 101) + 1;
  cl_mem input = bufferWith(in), output = bufferWith(none);
  setArgs(k, input, output);
  run1d(k, kItems, &kLocal);
  const std::vector<int> out = readBack<int>(output, kItems * 8);
  const size_t size = sizeFor({kLocal}), count = countFor({kLocal});
  for (size_t i = 0; i < kItems; ++i) {
    SCOPED_TRACE(i);
    const size_t local = i % kLocal, first = i - local % size, members = std::min(size, kLocal - local / size * size);
    const int* record = &out[i * 8];
    EXPECT_EQ(size_t(record[0]), size);
    EXPECT_EQ(size_t(record[1]), count);
    EXPECT_EQ(record[2], int(local / size * 1000 + local % size));
    int sum = 0, before = INT_MIN;
    bool all = true, any = false;
    for (size_t j = first; j < first + members; ++j) {
      if (j < i) before = std::max(before, in[j]);
      sum += in[j], all = all && in[j] > 0, any = any || in[j] > 100;
    }
    EXPECT_EQ(record[3], sum);
    EXPECT_EQ(record[4], before);
    EXPECT_EQ(record[5], in[first + members - 1]);
    EXPECT_EQ(record[6], in[first + (i - first + 1) % members]);
    EXPECT_EQ(record[7], (all ? 10 : 0) + (any ? 1 : 0));
  }
}

// cl_khr_subgroup_rotate: each work-item gets the value `delta` places further round its
// sub-group (negative deltas go back), and round its cluster of 4. Groups of 64: whole sub-groups
// on every device.
TEST_F(SubGroupInfoTest, RotatesGoRoundTheSubGroupAndItsClusters) {
  const char* source = R"(
kernel void rotated(global const int* in, global int* out, int delta) {
  const size_t i = get_global_id(0);
  out[2 * i] = sub_group_rotate(in[i], delta);
  out[2 * i + 1] = sub_group_clustered_rotate(in[i], delta, 4);
})";
  cl_kernel rotated = buildKernel(source, "rotated", "-cl-std=CL3.0");
  ASSERT_NE(rotated, nullptr);
  constexpr size_t kItems = 128, kLocal = 64;
  std::vector<int> in(kItems);
  for (size_t i = 0; i < kItems; ++i) in[i] = int(i * 7 + 3);
  const size_t size = sizeFor({kLocal}), cluster = std::min<size_t>(4, size);
  for (int delta : {1, 5, -3, 33}) {
    SCOPED_TRACE(delta);
    cl_mem output = buffer(CL_MEM_READ_WRITE, 2 * kItems * sizeof(int));
    setArgs(rotated, bufferWith(in), output, cl_int(delta));
    ASSERT_NO_FATAL_FAILURE(run1d(rotated, kItems, &kLocal));
    const std::vector<int> out = readBack<int>(output, 2 * kItems);
    const auto ahead = [&](size_t id, size_t span) { return (id % span + size_t(delta % int(span) + int(span))) % span; };
    for (size_t i = 0; i < kItems; ++i) {
      const size_t first = i - i % size, firstOfCluster = i - i % cluster;
      ASSERT_EQ(out[2 * i], in[first + ahead(i, size)]) << i;
      ASSERT_EQ(out[2 * i + 1], in[firstOfCluster + ahead(i, cluster)]) << i;
    }
  }
}

// OpenCL C sees the extension macros of what the device reports.
TEST_F(SubGroupTest, OpenClCDefinesTheExtensionMacros) {
  const char* source = R"(
#if !defined(cl_khr_subgroup_ballot) || !defined(cl_khr_subgroup_non_uniform_vote) || \
    !defined(cl_khr_subgroup_non_uniform_arithmetic) || !defined(cl_khr_subgroup_clustered_reduce) || \
    !defined(cl_khr_subgroup_extended_types) || !defined(cl_intel_subgroups) || !defined(cl_intel_subgroups_short) || \
    !defined(cl_intel_subgroups_char) || !defined(cl_intel_subgroups_long) || !defined(cl_intel_subgroup_local_block_io)
#error a sub-group extension is missing
#endif
kernel void k(global int* out) { out[0] = 1; })";
  EXPECT_NE(buildKernel(source, "k", "-cl-std=CL3.0"), nullptr);
}

// Non-uniform functions among the work-items whose input is odd, in groups of 80 (two full warps
// and a partial one on a GPU).
TEST_F(SubGroupInfoTest, NonUniformFunctionsAmongTheActiveWorkItems) {
  const char* source = R"(
kernel void non_uniform(global const int* in, global int* out) {
  const size_t i = get_global_id(0);
  const int x = in[i];
  global int* record = out + i * 8;
  if (x % 2 == 0) return;
  record[0] = sub_group_elect();
  record[1] = sub_group_non_uniform_all(x > 3) * 10 + sub_group_non_uniform_any(x > 90);
  record[2] = sub_group_ballot(x > 50).x;
  record[3] = sub_group_non_uniform_broadcast(x, sub_group_ballot_find_lsb(sub_group_ballot(1)));
  record[4] = sub_group_non_uniform_reduce_max(x);
  record[5] = sub_group_non_uniform_scan_inclusive_add(x);
  record[6] = sub_group_non_uniform_scan_exclusive_logical_or(x > 60);
  record[7] = sub_group_clustered_reduce_min(x, 4);
})";
  cl_kernel kernel = buildKernel(source, "non_uniform", "-cl-std=CL3.0");
  ASSERT_NE(kernel, nullptr);
  constexpr size_t kItems = 160, kLocal = 80, kRecord = 8;
  std::vector<int> in(kItems), none(kItems * kRecord, -1);
  for (size_t i = 0; i < kItems; ++i) in[i] = int(i * 53 % 101);
  cl_mem input = bufferWith(in), output = bufferWith(none);
  setArgs(kernel, input, output);
  run1d(kernel, kItems, &kLocal);
  const std::vector<int> out = readBack<int>(output, kItems * kRecord);
  const size_t size = sizeFor({kLocal});
  for (size_t i = 0; i < kItems; ++i) {
    SCOPED_TRACE(i);
    const int* record = &out[i * kRecord];
    if (in[i] % 2 == 0) {
      for (size_t k = 0; k < kRecord; ++k) EXPECT_EQ(record[k], -1);
      continue;
    }
    const size_t local = i % kLocal, first = i - local % size, members = std::min(size, kLocal - local / size * size);
    std::vector<size_t> active;
    for (size_t j = first; j < first + members; ++j)
      if (in[j] % 2 != 0) active.push_back(j);
    bool all = true, any = false, orBefore = false;
    uint32_t ballot = 0;
    int high = INT_MIN, sum = 0, clusterLow = INT_MAX;
    for (size_t j : active) {
      all = all && in[j] > 3, any = any || in[j] > 90, high = std::max(high, in[j]);
      if (in[j] > 50) ballot |= 1u << (j - first);
      if (j <= i) sum += in[j];
      if (j < i) orBefore = orBefore || in[j] > 60;
      if ((j - first) / 4 == (i - first) / 4) clusterLow = std::min(clusterLow, in[j]);
    }
    EXPECT_EQ(record[0], active.front() == i ? 1 : 0);
    EXPECT_EQ(record[1], (all ? 10 : 0) + (any ? 1 : 0));
    EXPECT_EQ(uint32_t(record[2]), ballot);
    EXPECT_EQ(record[3], in[active.front()]);
    EXPECT_EQ(record[4], high);
    EXPECT_EQ(record[5], sum);
    EXPECT_EQ(record[6], orBefore ? 1 : 0);
    EXPECT_EQ(record[7], clusterLow);
  }
}

// Intel's block reads and writes from OpenCL C: each sub-group copies its blocks of ushort4 and
// reads uints through local memory; a block is one element per work-item, as wide as the sub-group.
TEST_F(SubGroupInfoTest, IntelBlockReadsAndWrites) {
  const char* source = R"(
kernel void blocks(global const ushort* in, global ushort* copy, global const uint* words, global uint* out, local uint* scratch) {
  const size_t first = get_group_id(0) * get_local_size(0) + get_sub_group_id() * get_max_sub_group_size();
  intel_sub_group_block_write_us4(copy + first * 4, intel_sub_group_block_read_us4(in + first * 4));
  local uint* block = scratch + get_sub_group_id() * get_max_sub_group_size();
  intel_sub_group_block_write_ui(block, intel_sub_group_block_read_ui(words + first));
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = intel_sub_group_block_read(block) + (uint)intel_sub_group_block_read_us2(in + first * 2).y * 1000000;
})";
  cl_kernel kernel = buildKernel(source, "blocks", "-cl-std=CL3.0");
  ASSERT_NE(kernel, nullptr);
  constexpr size_t kItems = 256, kLocal = 128;
  std::vector<uint16_t> in(kItems * 4), zeros(kItems * 4, 0);
  std::vector<uint32_t> words(kItems), none(kItems, 0);
  for (size_t e = 0; e < in.size(); ++e) in[e] = uint16_t(e * 3 + 1);
  for (size_t i = 0; i < kItems; ++i) words[i] = uint32_t(i * 7 + 2);
  cl_mem input = bufferWith(in), copy = bufferWith(zeros), wordBuffer = bufferWith(words), output = bufferWith(none);
  setArgs(kernel, input, copy, wordBuffer, output);
  EXPECT_CL_OK(clSetKernelArg(kernel, 4, kLocal * sizeof(uint32_t), nullptr));
  run1d(kernel, kItems, &kLocal);
  EXPECT_EQ(readBack<uint16_t>(copy, kItems * 4), in);
  const std::vector<uint32_t> out = readBack<uint32_t>(output, kItems);
  const size_t size = sizeFor({kLocal});
  for (size_t i = 0; i < kItems; ++i) {
    const size_t first = i - i % kLocal % size, id = i - first;
    EXPECT_EQ(out[i], words[i] + uint32_t(in[first * 2 + id + size]) * 1000000) << i;
  }
}

}  // namespace
}  // namespace loom::test
