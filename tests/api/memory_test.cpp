#include <sys/wait.h>
#include <unistd.h>

#include <cstring>

#include "ze_test.h"

namespace loom::test {
namespace {

using MemoryTest = ZeTest;

TEST_F(MemoryTest, EveryKindHonoursAlignmentAndIsDescribed) {
  ze_device_mem_alloc_desc_t deviceDesc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
  ze_host_mem_alloc_desc_t hostDesc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
  for (size_t alignment : {size_t(0), size_t(64), size_t(4096), size_t(65536)}) {
    void *host = nullptr, *dev = nullptr, *share = nullptr;
    ASSERT_ZE(zeMemAllocHost(context, &hostDesc, 1000, alignment, &host));
    ASSERT_ZE(zeMemAllocDevice(context, &deviceDesc, 1000, alignment, device, &dev));
    ASSERT_ZE(zeMemAllocShared(context, &deviceDesc, &hostDesc, 1000, alignment, device, &share));
    const std::pair<void*, ze_memory_type_t> expected[] = {
        {host, ZE_MEMORY_TYPE_HOST}, {dev, ZE_MEMORY_TYPE_DEVICE}, {share, ZE_MEMORY_TYPE_SHARED}};
    for (auto [pointer, type] : expected) {
      if (alignment) {
        EXPECT_EQ(reinterpret_cast<uintptr_t>(pointer) % alignment, 0u);
      }
      ze_memory_allocation_properties_t properties{ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
      ze_device_handle_t owner = nullptr;
      ASSERT_ZE(zeMemGetAllocProperties(context, static_cast<char*>(pointer) + 10, &properties, &owner));
      EXPECT_EQ(properties.type, type);
      EXPECT_NE(properties.id, 0u);
      EXPECT_EQ(owner, type == ZE_MEMORY_TYPE_HOST ? nullptr : device);
      void* base = nullptr;
      size_t size = 0;
      ASSERT_ZE(zeMemGetAddressRange(context, static_cast<char*>(pointer) + 999, &base, &size));
      EXPECT_EQ(base, pointer);
      EXPECT_EQ(size, 1000u);
      ASSERT_ZE(zeMemFree(context, pointer));
    }
  }
}

TEST_F(MemoryTest, UnknownPointersAreUnknown) {
  int onTheStack = 0;
  ze_memory_allocation_properties_t properties{ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
  ASSERT_ZE(zeMemGetAllocProperties(context, &onTheStack, &properties, nullptr));
  EXPECT_EQ(properties.type, ZE_MEMORY_TYPE_UNKNOWN);
  EXPECT_EQ(zeMemFree(context, &onTheStack), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  void* base = nullptr;
  EXPECT_NE(zeMemGetAddressRange(context, &onTheStack, &base, nullptr), ZE_RESULT_SUCCESS);
}

TEST_F(MemoryTest, BadSizesAndAlignmentsAreRejected) {
  ze_host_mem_alloc_desc_t hostDesc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
  void* memory = nullptr;
  EXPECT_EQ(zeMemAllocHost(context, &hostDesc, 0, 0, &memory), ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  EXPECT_EQ(zeMemAllocHost(context, &hostDesc, 64, 48, &memory), ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
  EXPECT_EQ(zeMemAllocHost(context, &hostDesc, SIZE_MAX / 2, 0, &memory), ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  hostDesc.flags = 0x100;
  EXPECT_EQ(zeMemAllocHost(context, &hostDesc, 64, 0, &memory), ZE_RESULT_ERROR_INVALID_ENUMERATION);
  EXPECT_EQ(zeMemAllocHost(context, nullptr, 64, 0, &memory), ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  EXPECT_EQ(zeMemAllocHost(nullptr, &hostDesc, 64, 0, &memory), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
}

TEST_F(MemoryTest, IpcHandleSharesAnAllocationWithAChildProcess) {
  ze_device_mem_alloc_desc_t deviceDesc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
  void* memory = nullptr;
  ASSERT_ZE(zeMemAllocDevice(context, &deviceDesc, 8192, 0, device, &memory));
  std::memset(memory, 0, 8192);
  char* interior = static_cast<char*>(memory) + 100;
  ze_ipc_mem_handle_t handle{};
  ASSERT_ZE(zeMemGetIpcHandle(context, interior, &handle));
  const pid_t child = fork();
  if (child == 0) {
    // The child opens the handle in a context of its own and writes through it.
    void* opened = nullptr;
    ze_context_desc_t contextDesc{ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    ze_context_handle_t childContext = nullptr;
    bool ok = zeContextCreate(driver, &contextDesc, &childContext) == ZE_RESULT_SUCCESS &&
              zeMemOpenIpcHandle(childContext, device, handle, 0, &opened) == ZE_RESULT_SUCCESS;
    if (ok) std::strcpy(static_cast<char*>(opened), "written by the child");
    ok = ok && zeMemCloseIpcHandle(childContext, opened) == ZE_RESULT_SUCCESS;
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_STREQ(interior, "written by the child");
  ASSERT_ZE(zeMemFree(context, memory));
}

TEST_F(MemoryTest, VirtualMemoryMapsPhysicalMemoryWithAccessAttributes) {
  size_t pageSize = 0;
  ASSERT_ZE(zeVirtualMemQueryPageSize(context, device, 1, &pageSize));
  ASSERT_GT(pageSize, 0u);
  const size_t size = 4 * pageSize;
  void* reserved = nullptr;
  ASSERT_ZE(zeVirtualMemReserve(context, nullptr, size, &reserved));
  ze_physical_mem_desc_t physicalDesc{ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, nullptr, 0, size};
  ze_physical_mem_handle_t physical = nullptr;
  ASSERT_ZE(zePhysicalMemCreate(context, device, &physicalDesc, &physical));
  ASSERT_ZE(zeVirtualMemMap(context, reserved, size, physical, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
  std::memset(reserved, 0x5a, size);
  // A kernel-engine copy through the mapping.
  char* copy = shared<char>(size);
  ASSERT_ZE(zeCommandListAppendMemoryCopy(list, copy, reserved, size, nullptr, 0, nullptr));
  EXPECT_EQ(copy[size - 1], 0x5a);
  ASSERT_ZE(zeVirtualMemSetAccessAttribute(context, reserved, pageSize, ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY));
  ze_memory_access_attribute_t access{};
  size_t sameAccess = 0;
  ASSERT_ZE(zeVirtualMemGetAccessAttribute(context, reserved, size, &access, &sameAccess));
  EXPECT_EQ(access, ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY);
  EXPECT_EQ(sameAccess, pageSize);
  EXPECT_EQ(zeVirtualMemMap(context, reserved, pageSize + 1, physical, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
            ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  ASSERT_ZE(zeVirtualMemUnmap(context, reserved, size));
  ASSERT_ZE(zePhysicalMemDestroy(context, physical));
  ASSERT_ZE(zeVirtualMemFree(context, reserved, size));
}

TEST_F(MemoryTest, ResidencyCallsValidateTheRange) {
  char* memory = shared<char>(256);
  EXPECT_ZE(zeContextMakeMemoryResident(context, device, memory, 256));
  EXPECT_ZE(zeContextEvictMemory(context, device, memory, 256));
  EXPECT_EQ(zeContextMakeMemoryResident(context, device, memory, 257), ZE_RESULT_ERROR_INVALID_SIZE);
}

}  // namespace
}  // namespace loom::test
