// Several host threads using one context at once: appending to lists of their own, allocating
// and freeing, building modules and signaling events; and a stress test of every kind of object
// coming and going while other threads work.
#include <atomic>

#include "ze_test_helpers.h"

namespace loom::test {
namespace {

using ThreadingTest = ZeTest;

// Runs body(t) on kThreads threads and joins them.
constexpr int kThreads = 4;
template <typename Body>
void onThreads(Body&& body) {
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back(body, t);
  for (auto& thread : threads) thread.join();
}

TEST_F(ThreadingTest, ThreadsAppendToTheirOwnListsAndAllocateConcurrently) {
  constexpr int kRounds = 50;
  std::vector<int*> results(kThreads);
  for (int t = 0; t < kThreads; ++t) results[t] = shared<int>(kRounds);
  onThreads([&](int t) {
    ze_command_queue_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
    desc.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
    desc.index = uint32_t(t % 2);  // two threads share each engine
    ze_command_list_handle_t own = nullptr;
    ASSERT_ZE(zeCommandListCreateImmediate(context, device, &desc, &own));
    for (int round = 0; round < kRounds; ++round) {
      ze_host_mem_alloc_desc_t hostDesc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
      void* scratch = nullptr;
      ASSERT_ZE(zeMemAllocHost(context, &hostDesc, sizeof(int), 0, &scratch));
      const int value = t * 1000 + round;
      ASSERT_ZE(zeCommandListAppendMemoryFill(own, scratch, &value, sizeof(value), sizeof(value), nullptr, 0, nullptr));
      ASSERT_ZE(zeCommandListAppendMemoryCopy(own, &results[t][round], scratch, sizeof(int), nullptr, 0, nullptr));
      ASSERT_ZE(zeMemFree(context, scratch));
    }
    ASSERT_ZE(zeCommandListDestroy(own));
  });
  for (int t = 0; t < kThreads; ++t)
    for (int round = 0; round < kRounds; ++round) EXPECT_EQ(results[t][round], t * 1000 + round);
}

TEST_F(ThreadingTest, ThreadsRecordRegularListsAndLaunchKernelsConcurrently) {
  const uint32_t n = 4096;
  ze_module_handle_t m = module("api_kernels.spv");
  float* a = shared<float>(n);
  for (uint32_t i = 0; i < n; ++i) a[i] = float(i);
  std::vector<float*> sums(kThreads);
  for (int t = 0; t < kThreads; ++t) sums[t] = shared<float>(n);
  onThreads([&](int t) {
    ze_kernel_desc_t kernelDesc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "add_vectors"};
    ze_kernel_handle_t add = nullptr;
    ASSERT_ZE(zeKernelCreate(m, &kernelDesc, &add));
    ASSERT_ZE(zeKernelSetArgumentValue(add, 0, sizeof(a), &a));
    ASSERT_ZE(zeKernelSetArgumentValue(add, 1, sizeof(a), &a));
    ASSERT_ZE(zeKernelSetArgumentValue(add, 2, sizeof(float*), &sums[t]));
    ASSERT_ZE(zeKernelSetGroupSize(add, 64, 1, 1));
    ze_command_list_desc_t listDesc{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
    ze_command_list_handle_t l = nullptr;
    ASSERT_ZE(zeCommandListCreate(context, device, &listDesc, &l));
    ze_group_count_t groups{n / 64, 1, 1};
    ASSERT_ZE(zeCommandListAppendLaunchKernel(l, add, &groups, nullptr, 0, nullptr));
    ASSERT_ZE(zeCommandListClose(l));
    ze_command_queue_desc_t queueDesc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
    queueDesc.index = uint32_t(t % 2);
    ze_command_queue_handle_t q = nullptr;
    ASSERT_ZE(zeCommandQueueCreate(context, device, &queueDesc, &q));
    ASSERT_ZE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr));
    ASSERT_ZE(zeCommandQueueSynchronize(q, kTimeout));
    EXPECT_ZE(zeCommandQueueDestroy(q));
    EXPECT_ZE(zeCommandListDestroy(l));
    EXPECT_ZE(zeKernelDestroy(add));
  });
  for (int t = 0; t < kThreads; ++t)
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(sums[t][i], 2.0f * float(i)) << "thread " << t;
}

TEST_F(ThreadingTest, ThreadsBuildModulesConcurrently) {
  const std::vector<uint8_t> spirv = readKernelFile("api_kernels.spv");
  ASSERT_FALSE(spirv.empty());
  uint32_t expected = 0;
  ASSERT_ZE(zeModuleGetKernelNames(module("api_kernels.spv"), &expected, nullptr));
  std::atomic<int> built{0};
  onThreads([&](int) {
    ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC};
    desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
    desc.inputSize = spirv.size();
    desc.pInputModule = spirv.data();
    ze_module_handle_t m = nullptr;
    ASSERT_ZE(zeModuleCreate(context, device, &desc, &m, nullptr));
    uint32_t count = 0;
    ASSERT_ZE(zeModuleGetKernelNames(m, &count, nullptr));
    if (count == expected) ++built;
    EXPECT_ZE(zeModuleDestroy(m));
  });
  EXPECT_EQ(built.load(), kThreads);
}

TEST_F(ThreadingTest, AllocationsMadeOnOneThreadAreDescribedOnAnother) {
  constexpr int kPerThread = 200;
  std::vector<std::vector<void*>> made(kThreads);
  onThreads([&](int t) {
    ze_host_mem_alloc_desc_t hostDesc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    for (int i = 0; i < kPerThread; ++i) {
      void* memory = nullptr;
      ASSERT_ZE(zeMemAllocHost(context, &hostDesc, size_t(64 + i), 0, &memory));
      made[t].push_back(memory);
    }
  });
  onThreads([&](int t) {
    // Each thread describes and frees what the next thread allocated.
    for (void* memory : made[(t + 1) % kThreads]) {
      ze_memory_allocation_properties_t properties{ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
      ASSERT_ZE(zeMemGetAllocProperties(context, memory, &properties, nullptr));
      EXPECT_EQ(properties.type, ZE_MEMORY_TYPE_HOST);
      ASSERT_ZE(zeMemFree(context, memory));
    }
  });
}

TEST_F(ThreadingTest, EachThreadSignalsTheEventAnotherWaitsFor) {
  ze_event_pool_handle_t pool = eventPool(ZE_EVENT_POOL_FLAG_HOST_VISIBLE, kThreads);
  std::vector<ze_event_handle_t> chain;
  for (uint32_t i = 0; i < kThreads; ++i) chain.push_back(event(pool, i));
  std::atomic<int> order{0};
  std::vector<int> position(kThreads, -1);
  onThreads([&](int t) {
    if (t > 0) {
      ASSERT_ZE(zeEventHostSynchronize(chain[t - 1], kTimeout));
    }
    position[t] = order++;
    ASSERT_ZE(zeEventHostSignal(chain[t]));
  });
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(position[t], t);
}

// Two threads create and destroy every kind of object, in a context of their own and in the
// shared one, while two others launch, copy and wait in the shared context: bounded rounds, and
// every launch's result is checked.
TEST_F(ThreadingTest, ObjectsComeAndGoWhileOtherThreadsLaunchCopyAndWait) {
  const std::vector<uint8_t> spirv = readKernelFile("api_kernels.spv");
  ASSERT_FALSE(spirv.empty());
  ze_module_handle_t shared = module("api_kernels.spv");
  constexpr uint32_t n = 1024;
  constexpr int kChurnRounds = 40, kLaunchRounds = 200;
  std::atomic<int> launchesChecked{0};
  onThreads([&](int t) {
    if (t < 2) {
      for (int round = 0; round < kChurnRounds; ++round) {
        ze_context_handle_t own = nullptr;
        ze_context_desc_t contextDesc{ZE_STRUCTURE_TYPE_CONTEXT_DESC};
        ASSERT_ZE(zeContextCreate(driver, &contextDesc, &own));
        ze_context_handle_t in = round % 2 ? own : context;
        ze_module_desc_t moduleDesc{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_IL_SPIRV, spirv.size(), spirv.data()};
        ze_module_handle_t m = nullptr;
        ASSERT_ZE(zeModuleCreate(in, device, &moduleDesc, &m, nullptr));
        ze_kernel_desc_t kernelDesc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "add_vectors"};
        ze_kernel_handle_t k = nullptr;
        ASSERT_ZE(zeKernelCreate(m, &kernelDesc, &k));
        ze_event_pool_desc_t poolDesc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 4};
        ze_event_pool_handle_t pool = nullptr;
        ASSERT_ZE(zeEventPoolCreate(in, &poolDesc, 1, &device, &pool));
        ze_event_desc_t eventDesc{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, uint32_t(round % 4), 0, ZE_EVENT_SCOPE_FLAG_HOST};
        ze_event_handle_t e = nullptr;
        ASSERT_ZE(zeEventCreate(pool, &eventDesc, &e));
        ze_command_queue_desc_t queueDesc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
        ze_command_queue_handle_t q = nullptr;
        ASSERT_ZE(zeCommandQueueCreate(in, device, &queueDesc, &q));
        ze_fence_desc_t fenceDesc{ZE_STRUCTURE_TYPE_FENCE_DESC};
        ze_fence_handle_t f = nullptr;
        ASSERT_ZE(zeFenceCreate(q, &fenceDesc, &f));
        ze_command_list_desc_t listDesc{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
        ze_command_list_handle_t l = nullptr;
        ASSERT_ZE(zeCommandListCreate(in, device, &listDesc, &l));
        ze_host_mem_alloc_desc_t hostDesc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
        void* memory = nullptr;
        ASSERT_ZE(zeMemAllocHost(in, &hostDesc, 4096, 0, &memory));
        const int pattern = round;
        ASSERT_ZE(zeCommandListAppendMemoryFill(l, memory, &pattern, sizeof(pattern), 4096, e, 0, nullptr));
        ASSERT_ZE(zeCommandListClose(l));
        ASSERT_ZE(zeCommandQueueExecuteCommandLists(q, 1, &l, f));
        ASSERT_ZE(zeFenceHostSynchronize(f, kTimeout));
        ASSERT_ZE(zeEventHostSynchronize(e, kTimeout));
        EXPECT_EQ(static_cast<int*>(memory)[1023], round);
        // Destroyed in an order other than creation's.
        EXPECT_ZE(zeKernelDestroy(k));
        EXPECT_ZE(zeMemFree(in, memory));
        EXPECT_ZE(zeFenceDestroy(f));
        EXPECT_ZE(zeCommandQueueDestroy(q));
        EXPECT_ZE(zeModuleDestroy(m));
        EXPECT_ZE(zeEventDestroy(e));
        EXPECT_ZE(zeCommandListDestroy(l));
        EXPECT_ZE(zeEventPoolDestroy(pool));
        EXPECT_ZE(zeContextDestroy(own));
      }
      return;
    }
    ze_kernel_desc_t kernelDesc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "add_vectors"};
    ze_kernel_handle_t add = nullptr;
    ASSERT_ZE(zeKernelCreate(shared, &kernelDesc, &add));
    ze_command_queue_desc_t queueDesc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
    queueDesc.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
    ze_command_list_handle_t own = nullptr;
    ASSERT_ZE(zeCommandListCreateImmediate(context, device, &queueDesc, &own));
    ze_host_mem_alloc_desc_t hostDesc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    float *a = nullptr, *sum = nullptr, *copy = nullptr;
    ASSERT_ZE(zeMemAllocHost(context, &hostDesc, n * sizeof(float), 0, reinterpret_cast<void**>(&a)));
    ASSERT_ZE(zeMemAllocHost(context, &hostDesc, n * sizeof(float), 0, reinterpret_cast<void**>(&sum)));
    ASSERT_ZE(zeMemAllocHost(context, &hostDesc, n * sizeof(float), 0, reinterpret_cast<void**>(&copy)));
    ASSERT_ZE(zeKernelSetArgumentValue(add, 0, sizeof(a), &a));
    ASSERT_ZE(zeKernelSetArgumentValue(add, 1, sizeof(a), &a));
    ASSERT_ZE(zeKernelSetArgumentValue(add, 2, sizeof(sum), &sum));
    ASSERT_ZE(zeKernelSetGroupSize(add, 64, 1, 1));
    ze_event_pool_desc_t poolDesc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
    ze_event_pool_handle_t pool = nullptr;
    ASSERT_ZE(zeEventPoolCreate(context, &poolDesc, 1, &device, &pool));
    ze_event_desc_t eventDesc{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, 0, ZE_EVENT_SCOPE_FLAG_HOST};
    ze_event_handle_t copied = nullptr;
    ASSERT_ZE(zeEventCreate(pool, &eventDesc, &copied));
    const ze_group_count_t groups{n / 64, 1, 1};
    for (int round = 0; round < kLaunchRounds; ++round) {
      for (uint32_t i = 0; i < n; ++i) a[i] = float(i + round + t);
      ASSERT_ZE(zeCommandListAppendLaunchKernel(own, add, &groups, nullptr, 0, nullptr));
      ASSERT_ZE(zeCommandListAppendBarrier(own, nullptr, 0, nullptr));
      ASSERT_ZE(zeCommandListAppendMemoryCopy(own, copy, sum, n * sizeof(float), copied, 0, nullptr));
      ASSERT_ZE(zeEventHostSynchronize(copied, kTimeout));
      ASSERT_ZE(zeEventHostReset(copied));
      if (copy[n - 1] == 2.0f * float(n - 1 + round + t) && copy[0] == 2.0f * float(round + t)) ++launchesChecked;
    }
    EXPECT_ZE(zeCommandListDestroy(own));
    EXPECT_ZE(zeEventDestroy(copied));
    EXPECT_ZE(zeEventPoolDestroy(pool));
    EXPECT_ZE(zeKernelDestroy(add));
    for (void* memory : {static_cast<void*>(a), static_cast<void*>(sum), static_cast<void*>(copy)}) EXPECT_ZE(zeMemFree(context, memory));
  });
  EXPECT_EQ(launchesChecked.load(), 2 * kLaunchRounds);
}

}  // namespace
}  // namespace loom::test
