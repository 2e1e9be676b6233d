// Real kernels and what they compute: vector add, work-item functions over a 3-D range,
// barriers, __local memory, by-value arguments, atomics and math builtins.
#include <cmath>

#include "ze_test_helpers.h"

namespace loom::test {
namespace {

using KernelExecutionTest = ZeTest;

TEST_F(KernelExecutionTest, VectorAddMatchesTheHost) {
  const uint32_t n = 100'000, groupSize = 32;
  float *a = shared<float>(n), *b = shared<float>(n), *sum = shared<float>(n);
  for (uint32_t i = 0; i < n; ++i) a[i] = 0.5f * float(i), b[i] = 1.0f / float(i + 1), sum[i] = -1.0f;
  ze_kernel_handle_t add = apiKernel("add_vectors");
  setArguments(add, a, b, sum);
  launch(add, n / groupSize, groupSize);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(sum[i], a[i] + b[i]) << i;
}

TEST_F(KernelExecutionTest, WorkItemFunctionsDescribeA3dRange) {
  ze_kernel_handle_t ids = apiKernel("work_item_ids");
  const uint32_t group[3] = {4, 3, 2}, count[3] = {3, 2, 2};
  const uint32_t global[3] = {group[0] * count[0], group[1] * count[1], group[2] * count[2]};
  const uint32_t total = global[0] * global[1] * global[2];
  uint64_t* out = shared<uint64_t>(total * kWorkItemRecord);
  std::fill(out, out + total * kWorkItemRecord, ~0ull);
  setArguments(ids, out);
  ASSERT_ZE(zeKernelSetGroupSize(ids, group[0], group[1], group[2]));
  ze_group_count_t groups{count[0], count[1], count[2]};
  ASSERT_ZE(zeCommandListAppendLaunchKernel(list, ids, &groups, nullptr, 0, nullptr));
  for (uint32_t z = 0; z < global[2]; ++z)
    for (uint32_t y = 0; y < global[1]; ++y)
      for (uint32_t x = 0; x < global[0]; ++x) {
        const uint64_t* record = out + ((z * global[1] + y) * global[0] + x) * kWorkItemRecord;
        const uint32_t id[3] = {x, y, z};
        for (int d = 0; d < 3; ++d) {
          ASSERT_EQ(record[d], id[d]) << "get_global_id(" << d << ") at " << x << "," << y << "," << z;
          ASSERT_EQ(record[3 + d], id[d] % group[d]) << "get_local_id(" << d << ")";
          ASSERT_EQ(record[6 + d], id[d] / group[d]) << "get_group_id(" << d << ")";
          ASSERT_EQ(record[9 + d], group[d]) << "get_local_size(" << d << ")";
          ASSERT_EQ(record[18 + d], count[d]) << "get_num_groups(" << d << ")";
        }
        ASSERT_EQ(record[24], 3u) << "get_work_dim()";
      }
}

// ZE_experimental_global_offset: the offset a kernel has when a launch is appended shifts its
// global ids (and get_global_offset says it), not where its linear ids start; a later offset
// leaves the appended launch as it was.
TEST_F(KernelExecutionTest, AGlobalOffsetShiftsTheGlobalIdsOfTheLaunchesAppendedAfterIt) {
  ze_kernel_handle_t ids = apiKernel("work_item_ids");
  const uint32_t group[3] = {4, 2, 1}, count[3] = {2, 2, 3}, offset[3] = {5, 2, 7};
  const uint32_t global[3] = {group[0] * count[0], group[1] * count[1], group[2] * count[2]};
  const uint32_t total = global[0] * global[1] * global[2];
  uint64_t* out = shared<uint64_t>(total * kWorkItemRecord);
  setArguments(ids, out);
  ASSERT_ZE(zeKernelSetGroupSize(ids, group[0], group[1], group[2]));
  ASSERT_ZE(zeKernelSetGlobalOffsetExp(ids, offset[0], offset[1], offset[2]));
  ze_group_count_t groups{count[0], count[1], count[2]};
  ze_command_list_handle_t regular = regularList();
  ASSERT_ZE(zeCommandListAppendLaunchKernel(regular, ids, &groups, nullptr, 0, nullptr));
  ASSERT_ZE(zeKernelSetGlobalOffsetExp(ids, 0, 0, 0));
  ASSERT_ZE(zeCommandListClose(regular));
  execute(regular);
  for (uint32_t linear = 0; linear < total; ++linear) {
    const uint32_t id[3] = {linear % global[0], linear / global[0] % global[1], linear / (global[0] * global[1])};
    const uint64_t* record = out + linear * kWorkItemRecord;
    for (int d = 0; d < 3; ++d) {
      ASSERT_EQ(record[d], id[d] + offset[d]) << "get_global_id(" << d << ") of work-item " << linear;
      ASSERT_EQ(record[21 + d], offset[d]) << "get_global_offset(" << d << ")";
    }
    ASSERT_EQ(record[26], linear) << "get_global_linear_id()";
  }
}

TEST_F(KernelExecutionTest, ABarrierInsideALoopSynchronizesATreeReduction) {
  const uint32_t groupSize = 256, groups = 8, n = groupSize * groups;
  int *in = shared<int>(n), *sums = shared<int>(groups);
  for (uint32_t i = 0; i < n; ++i) in[i] = int(i % 97) - 40;
  ze_kernel_handle_t reduce = apiKernel("reduce_in_groups");
  setArguments(reduce, in, sums);
  ASSERT_ZE(zeKernelSetArgumentValue(reduce, 2, groupSize * sizeof(int), nullptr));  // local memory by size
  launch(reduce, groups, groupSize);
  for (uint32_t g = 0; g < groups; ++g) {
    int expected = 0;
    for (uint32_t i = 0; i < groupSize; ++i) expected += in[g * groupSize + i];
    EXPECT_EQ(sums[g], expected) << "group " << g;
  }
}

TEST_F(KernelExecutionTest, ABarrierInACalledFunctionWithAStaticLocalArrayReversesEachGroup) {
  int* data = shared<int>(128);
  for (int i = 0; i < 128; ++i) data[i] = i;
  ze_kernel_handle_t reverse = apiKernel("reverse_in_groups");
  setArguments(reverse, data);
  launch(reverse, 2, 64);
  for (int i = 0; i < 128; ++i) ASSERT_EQ(data[i], (i / 64) * 64 + 63 - i % 64) << i;
}

TEST_F(KernelExecutionTest, WorkItemsThatReturnBeforeABarrierDoNotStopTheOthers) {
  int* data = shared<int>(64);
  for (int i = 0; i < 64; ++i) data[i] = 7 * i + 5;
  ze_kernel_handle_t k = apiKernel("early_exit_then_barrier");
  setArguments(k, data, 40);
  launch(k, 1, 64);
  for (int i = 0; i < 40; ++i) ASSERT_EQ(data[i], 5 + i) << i;       // data[0] + local id
  for (int i = 40; i < 64; ++i) ASSERT_EQ(data[i], 7 * i + 5) << i;  // returned early: untouched
}

TEST_F(KernelExecutionTest, AStructAndMixedScalarsArriveIntact) {
  struct Mixed {  // mixed_t (tests/kernels/mixed_t.h): the same layout
    char c;
    int i;
    double d;
    short s;
  } mixed{3, 1000, 0.25, -7};
  double* out = shared<double>(2);
  out[0] = out[1] = 0.0;
  ze_kernel_handle_t k = apiKernel("mixed_arguments");
  setArguments(k, out, mixed, char(-2), short(300), int64_t(1) << 40, 1.5f, 2.25, uint8_t(200));
  launch(k, 1, 1);
  EXPECT_DOUBLE_EQ(out[0], 3 + 1000 + 0.25 - 7);
  // OpenCL C arithmetic: char + short + long is a long, + float is a float, + double a double.
  const float inFloat = float((int64_t(1) << 40) - 2 + 300) + 1.5f;
  EXPECT_DOUBLE_EQ(out[1], double(inFloat) + 2.25 + 200);
}

TEST_F(KernelExecutionTest, AtomicsOnGlobalAndLocalMemoryCountEveryWorkItem) {
  const uint32_t groupSize = 64, groups = 16;
  int *counter = shared<int>(1), *maximum = shared<int>(1), *totals = shared<int>(groups);
  uint32_t* exchanged = shared<uint32_t>(1);
  *counter = 0, *maximum = -1, *exchanged = 0;
  std::fill(totals, totals + groups, 0);
  ze_kernel_handle_t k = apiKernel("atomics");
  setArguments(k, counter, maximum, exchanged, totals);
  launch(k, groups, groupSize);
  EXPECT_EQ(*counter, int(groupSize * groups)) << "atomic_inc on global memory";
  EXPECT_EQ(*maximum, int(groupSize * groups - 1)) << "atomic_max";
  EXPECT_EQ(*exchanged, 7u) << "atomic_cmpxchg";
  for (uint32_t g = 0; g < groups; ++g) EXPECT_EQ(totals[g], int(groupSize)) << "atomic_add on local memory, group " << g;
}

TEST_F(KernelExecutionTest, MathBuiltinsMatchTheHostWithinTolerance) {
  const uint32_t n = 64;
  float *in = shared<float>(n), *out = shared<float>(4 * n);
  for (uint32_t i = 0; i < n; ++i) in[i] = 0.1f + 0.37f * float(i);
  ze_kernel_handle_t k = apiKernel("math_functions");
  setArguments(k, in, out);
  launch(k, n / 16, 16);
  for (uint32_t i = 0; i < n; ++i) {
    const float x = in[i];
    EXPECT_NEAR(out[4 * i + 0], std::sqrt(x), 1e-6f * std::sqrt(x)) << "sqrt(" << x << ")";
    EXPECT_NEAR(out[4 * i + 1], std::exp(x), 1e-5f * std::exp(x)) << "exp(" << x << ")";
    EXPECT_NEAR(out[4 * i + 2], std::sin(x), 1e-6f) << "sin(" << x << ")";
    EXPECT_NEAR(out[4 * i + 3], std::pow(x, 1.5f), 1e-5f * std::pow(x, 1.5f)) << "pow(" << x << ", 1.5)";
  }
}

TEST_F(KernelExecutionTest, ArgumentsAreCapturedWhenTheLaunchIsAppended) {
  ze_kernel_handle_t add = apiKernel("add_vectors");
  const uint32_t n = 64;
  float *a = shared<float>(n), *first = shared<float>(n), *second = shared<float>(n);
  for (uint32_t i = 0; i < n; ++i) a[i] = float(i), first[i] = second[i] = 0.0f;
  ze_command_list_handle_t l = regularList();
  setArguments(add, a, a, first);
  launch(add, 1, n, l);
  setArguments(add, a, a, second);  // changes the next launch only
  ASSERT_ZE(zeKernelSetGroupSize(add, n / 2, 1, 1));
  ze_group_count_t one{1, 1, 1};
  ASSERT_ZE(zeCommandListAppendLaunchKernel(l, add, &one, nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListClose(l));
  execute(l);
  EXPECT_EQ(first[n - 1], 2.0f * float(n - 1)) << "the first launch kept its arguments and group size";
  EXPECT_EQ(second[n / 2 - 1], 2.0f * float(n / 2 - 1));
  EXPECT_EQ(second[n / 2], 0.0f) << "the second launch ran one group of n / 2";
}

// An immediate list hands each append to its engine at once; the launches wait there for a gate
// while the kernel's arguments and group size change, and each runs with those of its append.
TEST_F(KernelExecutionTest, AnImmediateListsWaitingLaunchesKeepTheArgumentsOfTheirAppend) {
  ze_kernel_handle_t add = apiKernel("add_vectors");
  const uint32_t n = 64;
  float *a = shared<float>(n), *first = shared<float>(n), *second = shared<float>(n);
  for (uint32_t i = 0; i < n; ++i) a[i] = float(i), first[i] = second[i] = 0.0f;
  ze_command_list_handle_t async = immediateList(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  ze_event_handle_t gate = hostVisibleEvent();
  ze_event_handle_t done = hostVisibleEvent(ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP);
  ze_group_count_t groups{2, 1, 1};
  setArguments(add, a, a, first);
  ASSERT_ZE(zeKernelSetGroupSize(add, n / 2, 1, 1));
  ASSERT_ZE(zeCommandListAppendLaunchKernel(async, add, &groups, nullptr, 1, &gate));
  setArguments(add, a, a, second);
  ASSERT_ZE(zeKernelSetGroupSize(add, n / 4, 1, 1));
  ASSERT_ZE(zeCommandListAppendLaunchKernel(async, add, &groups, done, 0, nullptr));
  EXPECT_EQ(first[n - 1], 0.0f) << "the first launch waits for the gate";
  ASSERT_ZE(zeEventHostSignal(gate));
  ASSERT_ZE(zeEventHostSynchronize(done, kTimeout));
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(first[i], 2.0f * float(i)) << "first launch, " << i;
  for (uint32_t i = 0; i < n / 2; ++i) ASSERT_EQ(second[i], 2.0f * float(i)) << "second launch, " << i;
  EXPECT_EQ(second[n / 2], 0.0f) << "the second launch ran 2 groups of n / 4";
  ze_kernel_timestamp_result_t times{};
  ASSERT_ZE(zeEventQueryKernelTimestamp(done, &times));
  EXPECT_LE(times.global.kernelStart, times.global.kernelEnd) << "the signal event's start was marked";
  EXPECT_NE(times.global.kernelStart, 0u);
}

// Each launch reads what the one before it wrote. GPUs that start a kernel's blocks while the
// kernel before it retires (backends/cuda/cuda_dependent_launch.h) keep this order by the wait at
// the start of every entry.
TEST_F(KernelExecutionTest, EachKernelBackToBackSeesWhatTheOneBeforeWrote) {
  const uint32_t groupSize = 256, groups = 1024, n = groupSize * groups, launches = 64;
  float *even = deviceMemory<float>(n), *odd = deviceMemory<float>(n), *ones = deviceMemory<float>(n);
  upload(even, std::vector<float>(n, 0.0f));
  upload(ones, std::vector<float>(n, 1.0f));
  ze_kernel_handle_t add = apiKernel("add_vectors");
  ze_command_list_handle_t l = regularList();
  for (uint32_t i = 0; i < launches; ++i) {
    if (i % 2 == 0)
      setArguments(add, even, ones, odd);
    else
      setArguments(add, odd, ones, even);
    launch(add, groups, groupSize, l);
  }
  ASSERT_ZE(zeCommandListClose(l));
  execute(l);
  const std::vector<float> result = download(even, n);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(result[i], float(launches)) << i;
}

}  // namespace
}  // namespace loom::test
