// The context object: creation with and without a device list, status, and residency.
#include "ze_test_helpers.h"

namespace loom::test {
namespace {

using ContextTest = ZeTest;

TEST_F(ContextTest, ANewContextIsHealthyAndDestroyable) {
  ze_context_desc_t desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC};
  ze_context_handle_t second = nullptr;
  ASSERT_ZE(zeContextCreate(driver, &desc, &second));
  ASSERT_NE(second, nullptr);
  EXPECT_NE(second, context);
  EXPECT_ZE(zeContextGetStatus(second));
  EXPECT_ZE(zeContextDestroy(second));
  EXPECT_ZE(zeContextGetStatus(context));
}

TEST_F(ContextTest, AContextOverAnExplicitDeviceListAllocatesAndRuns) {
  ze_context_desc_t desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC};
  ze_context_handle_t withDevices = nullptr;
  ASSERT_ZE(zeContextCreateEx(driver, &desc, 1, &device, &withDevices));
  ze_device_mem_alloc_desc_t deviceDesc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
  void* memory = nullptr;
  ASSERT_ZE(zeMemAllocDevice(withDevices, &deviceDesc, 64, 0, device, &memory));
  ze_command_queue_desc_t queueDesc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
  queueDesc.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
  ze_command_list_handle_t immediate = nullptr;
  ASSERT_ZE(zeCommandListCreateImmediate(withDevices, device, &queueDesc, &immediate));
  const uint32_t pattern = 0xabcd1234u;
  ASSERT_ZE(zeCommandListAppendMemoryFill(immediate, memory, &pattern, sizeof(pattern), 64, nullptr, 0, nullptr));
  uint32_t last = 0;
  ASSERT_ZE(zeCommandListAppendMemoryCopy(immediate, &last, static_cast<uint32_t*>(memory) + 15, sizeof(last), nullptr, 0, nullptr));
  EXPECT_EQ(last, pattern);
  EXPECT_ZE(zeCommandListDestroy(immediate));
  EXPECT_ZE(zeMemFree(withDevices, memory));
  EXPECT_ZE(zeContextDestroy(withDevices));
}

TEST_F(ContextTest, BadDescriptorsAreRejected) {
  ze_context_desc_t desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC};
  ze_context_handle_t handle = nullptr;
  EXPECT_EQ(zeContextCreate(nullptr, &desc, &handle), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  EXPECT_EQ(zeContextCreate(driver, nullptr, &handle), ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  EXPECT_EQ(zeContextCreate(driver, &desc, nullptr), ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  desc.flags = 0x2;
  EXPECT_EQ(zeContextCreate(driver, &desc, &handle), ZE_RESULT_ERROR_INVALID_ENUMERATION);
  EXPECT_EQ(handle, nullptr);
}

TEST_F(ContextTest, ADeviceCountWithoutADeviceArrayIsAnInvalidSize) {
  ze_context_desc_t desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC};
  ze_context_handle_t handle = nullptr;
  EXPECT_EQ(zeContextCreateEx(driver, &desc, 1, nullptr, &handle), ZE_RESULT_ERROR_INVALID_SIZE)
      << "ze_api.h: (nullptr == phDevices) && (0 < numDevices)";
  EXPECT_EQ(handle, nullptr);
}

TEST_F(ContextTest, ResidencyCallsAcceptAllocationsAndRejectRangesBeyondThem) {
  char* memory = shared<char>(256);
  EXPECT_ZE(zeContextMakeMemoryResident(context, device, memory, 256));
  EXPECT_ZE(zeContextEvictMemory(context, device, memory, 256));
  EXPECT_EQ(zeContextMakeMemoryResident(context, device, memory, 257), ZE_RESULT_ERROR_INVALID_SIZE);
  EXPECT_EQ(zeContextMakeMemoryResident(context, device, nullptr, 1), ZE_RESULT_ERROR_INVALID_NULL_POINTER);
}

}  // namespace
}  // namespace loom::test
