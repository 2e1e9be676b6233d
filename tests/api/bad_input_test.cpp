// Bad input across the entry points: null handles, null pointers and bad enumerations return
// the codes ze_api.h lists for each function, and nothing crashes.
#include "bad_call_test.h"

namespace loom::test {
namespace {

class BadInputTest : public BadCallTest {
 protected:
  void SetUp() override {
    ZeTest::SetUp();
    if (HasFatalFailure() || IsSkipped()) return;
    createObjects();
  }

  static void check(const std::vector<Case>& cases) {
    for (const Case& c : cases) EXPECT_EQ(c.invoke(), c.expected) << c.call;
  }
  // Every call failed, so none wrote a handle, nor the allocation `out`.
  void expectNothingCreated(const void* out) const {
    const void* written[] = {created.context, created.queue, created.list,   created.pool, created.event,
                             created.fence,   created.module, created.kernel, out};
    for (const void* handle : written) EXPECT_EQ(handle, nullptr);
  }
};

TEST_F(BadInputTest, NullHandlesAreInvalidNullHandles) {
  constexpr ze_result_t kNull = ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  ze_driver_properties_t driverProperties{ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES};
  ze_device_properties_t deviceProperties{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
  ze_context_desc_t contextDesc{ZE_STRUCTURE_TYPE_CONTEXT_DESC};
  ze_command_queue_desc_t queueDesc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
  ze_command_list_desc_t listDesc{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
  ze_event_pool_desc_t poolDesc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, 0, 1};
  ze_event_desc_t eventDesc{ZE_STRUCTURE_TYPE_EVENT_DESC};
  ze_fence_desc_t fenceDesc{ZE_STRUCTURE_TYPE_FENCE_DESC};
  ze_kernel_desc_t kernelDesc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "add_vectors"};
  ze_host_mem_alloc_desc_t hostDesc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
  ze_device_mem_alloc_desc_t deviceDesc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
  ze_memory_allocation_properties_t allocProperties{ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
  const std::vector<uint8_t> spirv = readKernelFile("api_kernels.spv");
  ze_module_desc_t moduleDesc{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_IL_SPIRV, spirv.size(), spirv.data()};
  ze_group_count_t groups{1, 1, 1};
  uint32_t count = 0;
  void* out = nullptr;
  check({
      CASE(kNull, zeDriverGetProperties(nullptr, &driverProperties)),
      CASE(kNull, zeDeviceGet(nullptr, &count, nullptr)),
      CASE(kNull, zeDeviceGetProperties(nullptr, &deviceProperties)),
      CASE(kNull, zeDeviceGetSubDevices(nullptr, &count, nullptr)),
      CASE(kNull, zeContextCreate(nullptr, &contextDesc, &created.context)),
      CASE(kNull, zeContextDestroy(nullptr)),
      CASE(kNull, zeContextGetStatus(nullptr)),
      CASE(kNull, zeCommandQueueCreate(nullptr, device, &queueDesc, &created.queue)),
      CASE(kNull, zeCommandQueueCreate(context, nullptr, &queueDesc, &created.queue)),
      CASE(kNull, zeCommandQueueDestroy(nullptr)),
      CASE(kNull, zeCommandQueueSynchronize(nullptr, 0)),
      CASE(kNull, zeCommandQueueExecuteCommandLists(nullptr, 1, &regular, nullptr)),
      CASE(kNull, zeCommandListCreate(nullptr, device, &listDesc, &created.list)),
      CASE(kNull, zeCommandListCreate(context, nullptr, &listDesc, &created.list)),
      CASE(kNull, zeCommandListCreateImmediate(context, nullptr, &queueDesc, &created.list)),
      CASE(kNull, zeCommandListDestroy(nullptr)),
      CASE(kNull, zeCommandListClose(nullptr)),
      CASE(kNull, zeCommandListReset(nullptr)),
      CASE(kNull, zeCommandListAppendBarrier(nullptr, nullptr, 0, nullptr)),
      CASE(kNull, zeCommandListAppendMemoryCopy(nullptr, memory, memory + 1, 4, nullptr, 0, nullptr)),
      CASE(kNull, zeCommandListAppendLaunchKernel(nullptr, k, &groups, nullptr, 0, nullptr)),
      CASE(kNull, zeCommandListAppendLaunchKernel(list, nullptr, &groups, nullptr, 0, nullptr)),
      CASE(kNull, zeCommandListAppendSignalEvent(list, nullptr)),
      CASE(kNull, zeCommandListAppendWaitOnEvents(list, 1, std::vector<ze_event_handle_t>{nullptr}.data())),
      CASE(kNull, zeCommandListAppendMemoryCopy(list, memory, memory + 1, 4, nullptr, 1,
                                                std::vector<ze_event_handle_t>{nullptr}.data())),
      CASE(kNull, zeEventPoolCreate(nullptr, &poolDesc, 0, nullptr, &created.pool)),
      CASE(kNull, zeEventPoolDestroy(nullptr)),
      CASE(kNull, zeEventCreate(nullptr, &eventDesc, &created.event)),
      CASE(kNull, zeEventDestroy(nullptr)),
      CASE(kNull, zeEventHostSignal(nullptr)),
      CASE(kNull, zeEventHostSynchronize(nullptr, 0)),
      CASE(kNull, zeEventQueryStatus(nullptr)),
      CASE(kNull, zeEventHostReset(nullptr)),
      CASE(kNull, zeFenceCreate(nullptr, &fenceDesc, &created.fence)),
      CASE(kNull, zeFenceDestroy(nullptr)),
      CASE(kNull, zeModuleCreate(nullptr, device, &moduleDesc, &created.module, nullptr)),
      CASE(kNull, zeModuleCreate(context, nullptr, &moduleDesc, &created.module, nullptr)),
      CASE(kNull, zeModuleDestroy(nullptr)),
      CASE(kNull, zeModuleGetKernelNames(nullptr, &count, nullptr)),
      CASE(kNull, zeModuleBuildLogDestroy(nullptr)),
      CASE(kNull, zeKernelCreate(nullptr, &kernelDesc, &created.kernel)),
      CASE(kNull, zeKernelDestroy(nullptr)),
      CASE(kNull, zeKernelSetGroupSize(nullptr, 1, 1, 1)),
      CASE(kNull, zeKernelSetArgumentValue(nullptr, 0, sizeof(memory), &memory)),
      CASE(kNull, zeMemAllocHost(nullptr, &hostDesc, 64, 0, &out)),
      CASE(kNull, zeMemAllocDevice(context, &deviceDesc, 64, 0, nullptr, &out)),
      CASE(kNull, zeMemFree(nullptr, memory)),
      CASE(kNull, zeMemGetAllocProperties(nullptr, memory, &allocProperties, nullptr)),
  });
  expectNothingCreated(out);
}

TEST_F(BadInputTest, NullPointersAreInvalidNullPointers) {
  constexpr ze_result_t kNull = ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  ze_context_desc_t contextDesc{ZE_STRUCTURE_TYPE_CONTEXT_DESC};
  ze_command_queue_desc_t queueDesc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
  ze_event_pool_desc_t poolDesc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, 0, 1};
  ze_kernel_desc_t kernelDesc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, nullptr};
  ze_host_mem_alloc_desc_t hostDesc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
  ze_module_desc_t noInput{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_IL_SPIRV, 16, nullptr};
  ze_memory_allocation_properties_t allocProperties{ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
  void* out = nullptr;
  uint32_t x = 0, y = 0;
  check({
      CASE(kNull, zeDeviceGet(driver, nullptr, nullptr)),
      CASE(kNull, zeDriverGetProperties(driver, nullptr)),
      CASE(kNull, zeDriverGetApiVersion(driver, nullptr)),
      CASE(kNull, zeDeviceGetProperties(device, nullptr)),
      CASE(kNull, zeDeviceGetComputeProperties(device, nullptr)),
      CASE(kNull, zeDeviceGetModuleProperties(device, nullptr)),
      CASE(kNull, zeDeviceGetCommandQueueGroupProperties(device, nullptr, nullptr)),
      CASE(kNull, zeDeviceGetGlobalTimestamps(device, nullptr, nullptr)),
      CASE(kNull, zeContextCreate(driver, nullptr, &created.context)),
      CASE(kNull, zeContextCreate(driver, &contextDesc, nullptr)),
      CASE(kNull, zeCommandQueueCreate(context, device, nullptr, nullptr)),
      CASE(kNull, zeCommandListCreate(context, device, nullptr, &created.list)),
      CASE(kNull, zeCommandListCreateImmediate(context, device, &queueDesc, nullptr)),
      CASE(kNull, zeCommandQueueExecuteCommandLists(queue, 1, nullptr, nullptr)),
      CASE(kNull, zeCommandListAppendMemoryCopy(list, nullptr, memory, 4, nullptr, 0, nullptr)),
      CASE(kNull, zeCommandListAppendMemoryCopy(list, memory, nullptr, 4, nullptr, 0, nullptr)),
      CASE(kNull, zeCommandListAppendMemoryFill(list, memory, nullptr, 4, 4, nullptr, 0, nullptr)),
      CASE(kNull, zeCommandListAppendMemoryCopyRegion(list, memory, nullptr, 4, 0, memory + 8, nullptr, 4, 0, nullptr, 0,
                                                      nullptr)),
      CASE(kNull, zeCommandListAppendLaunchKernel(list, k, nullptr, nullptr, 0, nullptr)),
      CASE(kNull, zeCommandListAppendLaunchKernelIndirect(list, k, nullptr, nullptr, 0, nullptr)),
      CASE(kNull, zeCommandListAppendWriteGlobalTimestamp(list, nullptr, nullptr, 0, nullptr)),
      CASE(kNull, zeEventPoolCreate(context, nullptr, 0, nullptr, &created.pool)),
      CASE(kNull, zeEventPoolCreate(context, &poolDesc, 0, nullptr, nullptr)),
      CASE(kNull, zeEventCreate(pool, nullptr, nullptr)),
      CASE(kNull, zeEventQueryKernelTimestamp(e, nullptr)),
      CASE(kNull, zeFenceCreate(queue, nullptr, nullptr)),
      CASE(kNull, zeModuleCreate(context, device, nullptr, &created.module, nullptr)),
      CASE(kNull, zeModuleCreate(context, device, &noInput, &created.module, nullptr)),
      CASE(kNull, zeModuleGetKernelNames(m, nullptr, nullptr)),
      CASE(kNull, zeModuleGetNativeBinary(m, nullptr, nullptr)),
      CASE(kNull, zeModuleGetGlobalPointer(m, nullptr, nullptr, &out)),
      CASE(kNull, zeKernelCreate(m, &kernelDesc, &created.kernel)),
      CASE(kNull, zeKernelCreate(m, nullptr, &created.kernel)),
      CASE(kNull, zeKernelGetProperties(k, nullptr)),
      CASE(kNull, zeKernelSuggestGroupSize(k, 64, 1, 1, &x, &y, nullptr)),
      CASE(kNull, zeKernelSuggestMaxCooperativeGroupCount(k, nullptr)),
      CASE(kNull, zeKernelGetName(k, nullptr, nullptr)),
      CASE(kNull, zeMemAllocHost(context, nullptr, 64, 0, &out)),
      CASE(kNull, zeMemAllocHost(context, &hostDesc, 64, 0, nullptr)),
      CASE(kNull, zeMemFree(context, nullptr)),
      CASE(kNull, zeMemGetAllocProperties(context, nullptr, &allocProperties, nullptr)),
      CASE(kNull, zeMemGetAllocProperties(context, memory, nullptr, nullptr)),
      CASE(kNull, zeMemGetAddressRange(context, nullptr, &out, nullptr)),
      CASE(kNull, zeMemGetIpcHandle(context, memory, nullptr)),
      CASE(kNull, zeCommandListAppendWaitOnEvents(list, 1, nullptr)),
      CASE(kNull, zeCommandListAppendMemoryRangesBarrier(list, 1, nullptr, nullptr, nullptr, 0, nullptr)),
      CASE(kNull, zeCommandListAppendLaunchMultipleKernelsIndirect(list, 1, &k, nullptr, nullptr, nullptr, 0, nullptr)),
      CASE(kNull, zeCommandListAppendQueryKernelTimestamps(list, 1, &e, nullptr, nullptr, nullptr, 0, nullptr)),
      CASE(kNull, zeModuleDynamicLink(1, nullptr, nullptr)),
  });
  expectNothingCreated(out);
}

TEST_F(BadInputTest, BadEnumerationsAndFlagsAreInvalidEnumerations) {
  constexpr ze_result_t kEnum = ZE_RESULT_ERROR_INVALID_ENUMERATION;
  ze_context_desc_t contextDesc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0x2};
  ze_command_queue_desc_t badMode{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
  badMode.mode = static_cast<ze_command_queue_mode_t>(3);
  ze_command_queue_desc_t badPriority{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
  badPriority.priority = static_cast<ze_command_queue_priority_t>(3);
  ze_command_list_desc_t listDesc{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, nullptr, 0, 0x8};
  ze_event_pool_desc_t poolDesc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, 0x10, 1};
  ze_event_desc_t eventDesc{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 1, 0, 0x8};
  ze_fence_desc_t fenceDesc{ZE_STRUCTURE_TYPE_FENCE_DESC, nullptr, 0x2};
  ze_kernel_desc_t kernelDesc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0x4, "add_vectors"};
  ze_host_mem_alloc_desc_t hostDesc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0x10};
  ze_device_mem_alloc_desc_t deviceDesc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0x8, 0};
  ze_device_mem_alloc_desc_t goodDeviceDesc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
  const std::vector<uint8_t> spirv = readKernelFile("api_kernels.spv");
  ze_module_desc_t moduleDesc{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, static_cast<ze_module_format_t>(2), spirv.size(),
                              spirv.data()};
  const ze_ipc_mem_handle_t ipc{};  // the flags are checked before the handle
  void* out = nullptr;
  check({
      CASE(kEnum, zeContextCreate(driver, &contextDesc, &created.context)),
      CASE(kEnum, zeCommandQueueCreate(context, device, &badMode, &created.queue)),
      CASE(kEnum, zeCommandQueueCreate(context, device, &badPriority, &created.queue)),
      CASE(kEnum, zeCommandListCreateImmediate(context, device, &badMode, &created.list)),
      CASE(kEnum, zeCommandListCreate(context, device, &listDesc, &created.list)),
      CASE(kEnum, zeEventPoolCreate(context, &poolDesc, 0, nullptr, &created.pool)),
      CASE(kEnum, zeEventCreate(pool, &eventDesc, &created.event)),
      CASE(kEnum, zeFenceCreate(queue, &fenceDesc, &created.fence)),
      CASE(kEnum, zeModuleCreate(context, device, &moduleDesc, &created.module, nullptr)),
      CASE(kEnum, zeKernelCreate(m, &kernelDesc, &created.kernel)),
      CASE(kEnum, zeKernelSetCacheConfig(k, 0x4)),
      CASE(kEnum, zeKernelSetIndirectAccess(k, 0x8)),
      CASE(kEnum, zeMemAllocHost(context, &hostDesc, 64, 0, &out)),
      CASE(kEnum, zeMemAllocDevice(context, &deviceDesc, 64, 0, device, &out)),
      CASE(kEnum, zeMemAllocShared(context, &goodDeviceDesc, &hostDesc, 64, 0, device, &out)),
      CASE(kEnum, zeMemOpenIpcHandle(context, device, ipc, 0x4, &out)),
      CASE(kEnum, zeCommandListAppendMemAdvise(regular, device, memory, 16, static_cast<ze_memory_advice_t>(99))),
  });
  expectNothingCreated(out);
}

TEST_F(BadInputTest, CountsWithoutTheirArraysAreInvalidSizes) {
  constexpr ze_result_t kSize = ZE_RESULT_ERROR_INVALID_SIZE;
  ze_event_pool_desc_t poolDesc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, 0, 1};
  ze_event_pool_desc_t emptyPool{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, 0, 0};
  const std::vector<uint8_t> spirv = readKernelFile("api_kernels.spv");
  ze_module_desc_t emptyModule{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_IL_SPIRV, 0, spirv.data()};
  ze_group_count_t groups{1, 1, 1};
  check({
      CASE(kSize, zeEventPoolCreate(context, &poolDesc, 1, nullptr, &created.pool)),
      CASE(kSize, zeEventPoolCreate(context, &emptyPool, 0, nullptr, &created.pool)),
      CASE(kSize, zeModuleCreate(context, device, &emptyModule, &created.module, nullptr)),
      CASE(kSize, zeCommandQueueExecuteCommandLists(queue, 0, &regular, nullptr)),
      CASE(kSize, zeCommandListAppendBarrier(list, nullptr, 1, nullptr)),
      CASE(kSize, zeCommandListAppendMemoryCopy(list, memory, memory + 1, 4, nullptr, 2, nullptr)),
      CASE(kSize, zeCommandListAppendMemoryFill(list, memory, memory + 1, 4, 4, nullptr, 1, nullptr)),
      CASE(kSize, zeCommandListAppendLaunchKernel(list, k, &groups, nullptr, 1, nullptr)),
      CASE(kSize, zeCommandListAppendWriteGlobalTimestamp(list, reinterpret_cast<uint64_t*>(memory), nullptr, 1, nullptr)),
  });
  expectNothingCreated(nullptr);
}

TEST_F(BadInputTest, ObjectsStillWorkAfterTheBadCalls) {
  // The rejected calls above changed nothing: the same objects run a kernel.
  EXPECT_EQ(zeKernelSetArgumentValue(k, 7, 8, &memory), ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX);
  EXPECT_EQ(zeCommandListAppendLaunchKernel(list, k, nullptr, nullptr, 0, nullptr), ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  float* data = shared<float>(16);
  for (int i = 0; i < 16; ++i) data[i] = float(i);
  setArguments(k, data, data, data);
  launch(k, 1, 16);
  EXPECT_EQ(data[15], 30.0f);
}

#undef CASE

}  // namespace
}  // namespace loom::test
