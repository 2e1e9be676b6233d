// Virtual memory: reservations, physical memory, mappings and their access attributes.
#include <csignal>
#include <cstring>

#include "ze_test_helpers.h"

namespace loom::test {
namespace {

class VirtualMemoryTest : public ZeTest {
 protected:
  void SetUp() override {
    ZeTest::SetUp();
    ASSERT_ZE(zeVirtualMemQueryPageSize(context, device, 1, &pageSize));
    size = 4 * pageSize;
    ASSERT_ZE(zeVirtualMemReserve(context, nullptr, size, &reserved));
    ze_physical_mem_desc_t physicalDesc{ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, nullptr, 0, size};
    ASSERT_ZE(zePhysicalMemCreate(context, device, &physicalDesc, &physical));
  }
  void TearDown() override {
    if (physical) {
      EXPECT_ZE(zePhysicalMemDestroy(context, physical));
    }
    if (reserved) {
      EXPECT_ZE(zeVirtualMemFree(context, reserved, size));
    }
    ZeTest::TearDown();
  }
  void mapAll(ze_memory_access_attribute_t access = ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE) {
    ASSERT_ZE(zeVirtualMemMap(context, reserved, size, physical, 0, access));
  }
  ze_memory_access_attribute_t accessOf(const void* at, size_t length, size_t* sameAccess) {
    ze_memory_access_attribute_t access = ZE_MEMORY_ACCESS_ATTRIBUTE_FORCE_UINT32;
    EXPECT_ZE(zeVirtualMemGetAccessAttribute(context, at, length, &access, sameAccess));
    return access;
  }
  char* bytes() { return static_cast<char*>(reserved); }

  size_t pageSize = 0, size = 0;
  void* reserved = nullptr;
  ze_physical_mem_handle_t physical = nullptr;
};

TEST_F(VirtualMemoryTest, PageSizeIsAPowerOfTwoAndCoversSmallRequests) {
  EXPECT_GE(pageSize, 4096u);
  EXPECT_EQ(pageSize & (pageSize - 1), 0u);
  size_t forLarge = 0;
  ASSERT_ZE(zeVirtualMemQueryPageSize(context, device, 64 << 20, &forLarge));
  EXPECT_GE(forLarge, pageSize);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(reserved) % pageSize, 0u);
}

TEST_F(VirtualMemoryTest, TheHostWritesAndReadsThroughAMapping) {
  mapAll();
  for (size_t i = 0; i < size; ++i) bytes()[i] = char(i * 7);
  for (size_t i = 0; i < size; ++i) ASSERT_EQ(bytes()[i], char(i * 7)) << i;
}

TEST_F(VirtualMemoryTest, CommandListsCopyIntoAndOutOfAMapping) {
  mapAll();
  char* source = shared<char>(size);
  char* destination = shared<char>(size);
  for (size_t i = 0; i < size; ++i) source[i] = char(i % 251);
  ASSERT_ZE(zeCommandListAppendMemoryCopy(list, reserved, source, size, nullptr, 0, nullptr));
  EXPECT_EQ(bytes()[size - 1], char((size - 1) % 251));
  std::memset(destination, 0, size);
  ASSERT_ZE(zeCommandListAppendMemoryCopy(list, destination, reserved, size, nullptr, 0, nullptr));
  EXPECT_EQ(std::memcmp(destination, source, size), 0);
}

TEST_F(VirtualMemoryTest, TwoMappingsOfOnePhysicalMemoryShareTheirPages) {
  void* second = nullptr;
  ASSERT_ZE(zeVirtualMemReserve(context, nullptr, pageSize, &second));
  ASSERT_ZE(zeVirtualMemMap(context, reserved, pageSize, physical, pageSize, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
  ASSERT_ZE(zeVirtualMemMap(context, second, pageSize, physical, pageSize, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
  std::strcpy(bytes() + 10, "one page, two addresses");
  EXPECT_STREQ(static_cast<char*>(second) + 10, "one page, two addresses");
  EXPECT_ZE(zeVirtualMemUnmap(context, second, pageSize));
  EXPECT_ZE(zeVirtualMemUnmap(context, reserved, pageSize));
  EXPECT_ZE(zeVirtualMemFree(context, second, pageSize));
}

TEST_F(VirtualMemoryTest, AccessAttributesRoundTripPageByPage) {
  mapAll();
  size_t sameAccess = 0;
  EXPECT_EQ(accessOf(reserved, size, &sameAccess), ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE);
  EXPECT_EQ(sameAccess, size);
  ASSERT_ZE(zeVirtualMemSetAccessAttribute(context, reserved, pageSize, ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY));
  EXPECT_EQ(accessOf(reserved, size, &sameAccess), ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY);
  EXPECT_EQ(sameAccess, pageSize) << "only the first page is read-only";
  EXPECT_EQ(accessOf(bytes() + pageSize, 3 * pageSize, &sameAccess), ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE);
  EXPECT_EQ(sameAccess, 3 * pageSize);
}

// In a child process: writes 42 to `page` and says whether the write faulted (exit code 3) or
// not (0). The mapping is shared: a write that succeeds is seen by the parent too.
int writeFaults(volatile char* page) {
  return runInChildProcess([page] {
    std::signal(SIGSEGV, [](int) { _exit(3); });  // our handler, also under AddressSanitizer
    page[0] = 42;
    return true;
  });
}

TEST_F(VirtualMemoryTest, AReadOnlyPageCanBeReadButNotWritten) {
  mapAll();
  bytes()[0] = 42;
  ASSERT_EQ(writeFaults(bytes()), 0) << "read-write first";
  ASSERT_ZE(zeVirtualMemSetAccessAttribute(context, reserved, pageSize, ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY));
  EXPECT_EQ(bytes()[0], 42);
  EXPECT_EQ(writeFaults(bytes()), 3) << "a write to a read-only page must fault";
  ASSERT_ZE(zeVirtualMemSetAccessAttribute(context, reserved, pageSize, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
  EXPECT_EQ(writeFaults(bytes()), 0) << "read-write again";
}

TEST_F(VirtualMemoryTest, UnmappedPagesHaveNoAccessAndCanBeMappedAgain) {
  mapAll();
  ASSERT_ZE(zeVirtualMemUnmap(context, reserved, size));
  size_t sameAccess = 0;
  EXPECT_EQ(accessOf(reserved, size, &sameAccess), ZE_MEMORY_ACCESS_ATTRIBUTE_NONE);
  EXPECT_EQ(sameAccess, size);
  mapAll();
  bytes()[size - 1] = 9;
  EXPECT_EQ(bytes()[size - 1], 9);
  ASSERT_ZE(zeVirtualMemUnmap(context, reserved, size));
}

TEST_F(VirtualMemoryTest, PhysicalMemoryKeepsItsContentsAcrossMappings) {
  mapAll();
  std::strcpy(bytes(), "kept");
  ASSERT_ZE(zeVirtualMemUnmap(context, reserved, size));
  mapAll();
  EXPECT_STREQ(bytes(), "kept");
}

TEST_F(VirtualMemoryTest, RangesThatAreNotWholePagesOfAReservationAreRejected) {
  EXPECT_EQ(zeVirtualMemMap(context, reserved, pageSize + 1, physical, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
            ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  EXPECT_EQ(zeVirtualMemMap(context, bytes() + 1, pageSize, physical, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
            ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
  EXPECT_EQ(zeVirtualMemMap(context, reserved, 0, physical, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
            ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  EXPECT_EQ(zeVirtualMemMap(context, reserved, pageSize, physical, 0, static_cast<ze_memory_access_attribute_t>(7)),
            ZE_RESULT_ERROR_INVALID_ENUMERATION);
  EXPECT_EQ(zeVirtualMemSetAccessAttribute(context, reserved, pageSize - 1, ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY),
            ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  void* outside = nullptr;
  EXPECT_EQ(zeVirtualMemReserve(context, nullptr, 0, &outside), ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  ze_physical_mem_desc_t empty{ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, nullptr, 0, 0};
  ze_physical_mem_handle_t none = nullptr;
  EXPECT_EQ(zePhysicalMemCreate(context, device, &empty, &none), ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
}

TEST_F(VirtualMemoryTest, FreeNeedsTheReservationsExactStartAndSize) {
  EXPECT_EQ(zeVirtualMemFree(context, reserved, pageSize), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(zeVirtualMemFree(context, bytes() + pageSize, 3 * pageSize), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  ASSERT_ZE(zeVirtualMemFree(context, reserved, size));
  reserved = nullptr;
}

}  // namespace
}  // namespace loom::test
