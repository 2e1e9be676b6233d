// Virtual memory: reservations, physical memory, mappings and their access attributes, on any
// device. Mapped memory is read and written through copies, fills and kernels, which reach it on
// every device; the tests of host access to it run on the CPU device only.
#include <csignal>
#include <cstring>

#include "ze_test_helpers.h"

namespace loom::test {
namespace {

class VirtualMemoryTest : public ZeTest {
 protected:
  void SetUp() override {
    ZeTest::SetUp();
    if (HasFatalFailure() || IsSkipped()) return;
    ASSERT_ZE(zeVirtualMemQueryPageSize(context, device, 1, &pageSize));
    size = 4 * pageSize;
    ASSERT_ZE(zeVirtualMemReserve(context, nullptr, size, &reserved));
    physical = physicalMemory(size);
  }
  void TearDown() override {
    for (ze_physical_mem_handle_t memory : physicalMemories) EXPECT_ZE(zePhysicalMemDestroy(context, memory));
    if (reserved) {
      EXPECT_ZE(zeVirtualMemFree(context, reserved, size));
    }
    ZeTest::TearDown();
  }
  ze_physical_mem_handle_t physicalMemory(size_t bytes) {
    ze_physical_mem_desc_t desc{ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, nullptr, 0, bytes};
    ze_physical_mem_handle_t memory = nullptr;
    EXPECT_ZE(zePhysicalMemCreate(context, device, &desc, &memory));
    if (memory) physicalMemories.push_back(memory);
    return memory;
  }
  void mapAll(ze_memory_access_attribute_t access = ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE) {
    ASSERT_ZE(zeVirtualMemMap(context, reserved, size, physical, 0, access));
  }
  ze_memory_access_attribute_t accessOf(const void* at, size_t length, size_t* sameAccess) {
    ze_memory_access_attribute_t access = ZE_MEMORY_ACCESS_ATTRIBUTE_FORCE_UINT32;
    EXPECT_ZE(zeVirtualMemGetAccessAttribute(context, at, length, &access, sameAccess));
    return access;
  }
  // Sets `access` on the range; false (and the test is to skip) where the device refuses
  // read-only pages, as a GPU's driver may.
  bool setAccess(void* at, size_t length, ze_memory_access_attribute_t access) {
    const ze_result_t result = zeVirtualMemSetAccessAttribute(context, at, length, access);
    if (access == ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY && result == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE) return false;
    EXPECT_ZE(result);
    return true;
  }
  char* bytes() { return static_cast<char*>(reserved); }
  void fillBytes(void* at, uint8_t value, size_t length) {
    ASSERT_ZE(zeCommandListAppendMemoryFill(list, at, &value, 1, length, nullptr, 0, nullptr));
  }
  // Bytes i * 7 (mod 256) from `at` on.
  static std::vector<uint8_t> pattern(size_t length) {
    std::vector<uint8_t> values(length);
    for (size_t i = 0; i < length; ++i) values[i] = uint8_t(i * 7);
    return values;
  }

  size_t pageSize = 0, size = 0;
  void* reserved = nullptr;
  ze_physical_mem_handle_t physical = nullptr;
  std::vector<ze_physical_mem_handle_t> physicalMemories;
};

#define SKIP_UNLESS_READ_ONLY_PAGES(call) \
  if (!(call)) GTEST_SKIP() << "the device does not support read-only pages"

TEST_F(VirtualMemoryTest, PageSizeIsAPowerOfTwoAndCoversSmallRequests) {
  EXPECT_GE(pageSize, 4096u);
  EXPECT_EQ(pageSize & (pageSize - 1), 0u);
  size_t forLarge = 0;
  ASSERT_ZE(zeVirtualMemQueryPageSize(context, device, 64 << 20, &forLarge));
  EXPECT_GE(forLarge, pageSize);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(reserved) % pageSize, 0u);
}

TEST_F(VirtualMemoryTest, TheHostWritesAndReadsThroughAMapping) {
  SKIP_UNLESS_CPU_DEVICE("host access to mapped pages");
  mapAll();
  for (size_t i = 0; i < size; ++i) bytes()[i] = char(i * 7);
  for (size_t i = 0; i < size; ++i) ASSERT_EQ(bytes()[i], char(i * 7)) << i;
}

TEST_F(VirtualMemoryTest, CommandListsCopyIntoAndOutOfAMapping) {
  mapAll();
  const std::vector<uint8_t> values = pattern(size);
  upload(reinterpret_cast<uint8_t*>(reserved), values);
  EXPECT_EQ(download(reinterpret_cast<const uint8_t*>(reserved), size), values);
}

TEST_F(VirtualMemoryTest, FillsReachEveryPageOfAMapping) {
  mapAll();
  fillBytes(reserved, 0x5a, size);
  fillBytes(bytes() + pageSize, 0x11, pageSize);
  const std::vector<uint8_t> filled = download(reinterpret_cast<const uint8_t*>(reserved), size);
  EXPECT_EQ(filled[0], 0x5a);
  EXPECT_EQ(filled[pageSize - 1], 0x5a);
  EXPECT_EQ(filled[pageSize], 0x11);
  EXPECT_EQ(filled[2 * pageSize - 1], 0x11);
  EXPECT_EQ(filled[size - 1], 0x5a);
}

TEST_F(VirtualMemoryTest, KernelsReadAndWriteThroughAMapping) {
  mapAll();
  // a, b and their sum in one mapping, each in a page of its own.
  const size_t n = 1024;
  auto* a = reinterpret_cast<float*>(bytes());
  auto* b = reinterpret_cast<float*>(bytes() + pageSize);
  auto* sum = reinterpret_cast<float*>(bytes() + 3 * pageSize - n * sizeof(float));  // ends a page
  std::vector<float> left(n), right(n), expected(n);
  for (size_t i = 0; i < n; ++i) {
    left[i] = float(i);
    right[i] = 0.5f * float(i);
    expected[i] = 1.5f * float(i);
  }
  upload(a, left);
  upload(b, right);
  ze_kernel_handle_t add = apiKernel("add_vectors");
  setArguments(add, a, b, sum);
  launch(add, n / 64, 64);
  EXPECT_EQ(download(sum, n), expected);
}

TEST_F(VirtualMemoryTest, TwoMappingsOfOnePhysicalMemoryShareTheirPages) {
  void* second = nullptr;
  ASSERT_ZE(zeVirtualMemReserve(context, nullptr, pageSize, &second));
  ASSERT_ZE(zeVirtualMemMap(context, reserved, pageSize, physical, pageSize, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
  ASSERT_ZE(zeVirtualMemMap(context, second, pageSize, physical, pageSize, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
  const std::vector<uint8_t> values = pattern(pageSize);
  upload(reinterpret_cast<uint8_t*>(reserved), values);
  EXPECT_EQ(download(static_cast<const uint8_t*>(second), pageSize), values) << "one page, two addresses";
  EXPECT_ZE(zeVirtualMemUnmap(context, second, pageSize));
  EXPECT_ZE(zeVirtualMemUnmap(context, reserved, pageSize));
  EXPECT_ZE(zeVirtualMemFree(context, second, pageSize));
}

TEST_F(VirtualMemoryTest, MappingOverAMappingReplacesIt) {
  mapAll();
  fillBytes(reserved, 1, size);
  ze_physical_mem_handle_t other = physicalMemory(pageSize);
  fillBytes(bytes() + pageSize, 2, pageSize);
  ASSERT_ZE(zeVirtualMemMap(context, bytes() + pageSize, pageSize, other, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
  fillBytes(bytes() + pageSize, 3, pageSize);
  const std::vector<uint8_t> seen = download(reinterpret_cast<const uint8_t*>(reserved), size);
  EXPECT_EQ(seen[pageSize - 1], 1);
  EXPECT_EQ(seen[pageSize], 3);
  EXPECT_EQ(seen[2 * pageSize], 1);
  // The replaced page of the first physical memory kept what it had.
  ASSERT_ZE(zeVirtualMemMap(context, bytes() + pageSize, pageSize, physical, pageSize, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
  EXPECT_EQ(download(reinterpret_cast<const uint8_t*>(bytes() + pageSize), 1)[0], 2);
}

TEST_F(VirtualMemoryTest, AccessAttributesRoundTripPageByPage) {
  mapAll();
  size_t sameAccess = 0;
  EXPECT_EQ(accessOf(reserved, size, &sameAccess), ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE);
  EXPECT_EQ(sameAccess, size);
  SKIP_UNLESS_READ_ONLY_PAGES(setAccess(reserved, pageSize, ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY));
  EXPECT_EQ(accessOf(reserved, size, &sameAccess), ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY);
  EXPECT_EQ(sameAccess, pageSize) << "only the first page is read-only";
  EXPECT_EQ(accessOf(bytes() + pageSize, 3 * pageSize, &sameAccess), ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE);
  EXPECT_EQ(sameAccess, 3 * pageSize);
}

TEST_F(VirtualMemoryTest, ReadOnlyPagesStillFeedCopies) {
  mapAll();
  const std::vector<uint8_t> values = pattern(pageSize);
  upload(reinterpret_cast<uint8_t*>(reserved), values);
  SKIP_UNLESS_READ_ONLY_PAGES(setAccess(reserved, pageSize, ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY));
  EXPECT_EQ(download(reinterpret_cast<const uint8_t*>(reserved), pageSize), values);
}

TEST_F(VirtualMemoryTest, PagesWithoutAccessKeepTheirContents) {
  mapAll();
  fillBytes(reserved, 9, size);
  ASSERT_TRUE(setAccess(bytes() + pageSize, 2 * pageSize, ZE_MEMORY_ACCESS_ATTRIBUTE_NONE));
  size_t sameAccess = 0;
  EXPECT_EQ(accessOf(bytes() + pageSize, 3 * pageSize, &sameAccess), ZE_MEMORY_ACCESS_ATTRIBUTE_NONE);
  EXPECT_EQ(sameAccess, 2 * pageSize);
  ASSERT_TRUE(setAccess(reserved, size, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
  const std::vector<uint8_t> seen = download(reinterpret_cast<const uint8_t*>(reserved), size);
  EXPECT_EQ(seen, std::vector<uint8_t>(size, 9));
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
  SKIP_UNLESS_CPU_DEVICE("host access to mapped pages");
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
  fillBytes(bytes() + size - 1, 9, 1);
  EXPECT_EQ(download(reinterpret_cast<const uint8_t*>(bytes() + size - 1), 1)[0], 9);
  ASSERT_ZE(zeVirtualMemUnmap(context, reserved, size));
}

TEST_F(VirtualMemoryTest, PhysicalMemoryKeepsItsContentsAcrossMappings) {
  mapAll();
  const std::vector<uint8_t> values = pattern(64);
  upload(reinterpret_cast<uint8_t*>(reserved), values);
  ASSERT_ZE(zeVirtualMemUnmap(context, reserved, size));
  mapAll();
  EXPECT_EQ(download(reinterpret_cast<const uint8_t*>(reserved), values.size()), values);
}

TEST_F(VirtualMemoryTest, RangesThatAreNotWholePagesOfAReservationAreRejected) {
  EXPECT_EQ(zeVirtualMemMap(context, reserved, pageSize + 1, physical, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
            ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  EXPECT_EQ(zeVirtualMemMap(context, bytes() + 1, pageSize, physical, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
            ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
  EXPECT_EQ(zeVirtualMemMap(context, reserved, pageSize, physical, 1, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
            ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
  EXPECT_EQ(zeVirtualMemMap(context, reserved, 0, physical, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
            ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  EXPECT_EQ(zeVirtualMemMap(context, reserved, 2 * pageSize, physical, 3 * pageSize, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
            ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(zeVirtualMemMap(context, reserved, pageSize, physical, 0, static_cast<ze_memory_access_attribute_t>(7)),
            ZE_RESULT_ERROR_INVALID_ENUMERATION);
  EXPECT_EQ(zeVirtualMemSetAccessAttribute(context, reserved, pageSize - 1, ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY),
            ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  void* outside = nullptr;
  EXPECT_EQ(zeVirtualMemReserve(context, nullptr, 0, &outside), ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  ze_physical_mem_desc_t empty{ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, nullptr, 0, 0};
  ze_physical_mem_handle_t none = nullptr;
  EXPECT_EQ(zePhysicalMemCreate(context, device, &empty, &none), ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  ze_physical_mem_desc_t partPage{ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, nullptr, 0, pageSize / 2};
  EXPECT_EQ(zePhysicalMemCreate(context, device, &partPage, &none), ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
}

// virtual.yml: zeVirtualMemSetAccessAttribute's ptr is the "start of reserved virtual address
// region"; pages need not be mapped (level-zero-tests sets and reads back every attribute so).
TEST_F(VirtualMemoryTest, AReservationThatIsNotMappedTakesEveryAccessAttribute) {
  size_t sameAccess = 0;
  EXPECT_EQ(accessOf(reserved, size, &sameAccess), ZE_MEMORY_ACCESS_ATTRIBUTE_NONE);
  EXPECT_EQ(sameAccess, size);
  for (ze_memory_access_attribute_t access : {ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE, ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY,
                                              ZE_MEMORY_ACCESS_ATTRIBUTE_NONE}) {
    ASSERT_ZE(zeVirtualMemSetAccessAttribute(context, reserved, size, access));
    sameAccess = 0;
    EXPECT_EQ(accessOf(reserved, size, &sameAccess), access);
    EXPECT_EQ(sameAccess, size);
  }
}

TEST_F(VirtualMemoryTest, AccessOfARangeReachesItsMappedPagesAndStaysWithTheOthers) {
  ASSERT_ZE(zeVirtualMemMap(context, reserved, pageSize, physical, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
  SKIP_UNLESS_READ_ONLY_PAGES(setAccess(reserved, 2 * pageSize, ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY));
  size_t sameAccess = 0;
  EXPECT_EQ(accessOf(reserved, size, &sameAccess), ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY);
  EXPECT_EQ(sameAccess, 2 * pageSize) << "the mapped page and the one that is not";
  // Unmapped, the page keeps the access it was given; a mapping brings its own.
  ASSERT_ZE(zeVirtualMemUnmap(context, reserved, pageSize));
  EXPECT_EQ(accessOf(reserved, pageSize, &sameAccess), ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY);
  ASSERT_ZE(zeVirtualMemMap(context, bytes() + pageSize, pageSize, physical, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
  EXPECT_EQ(accessOf(bytes() + pageSize, pageSize, &sameAccess), ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE);
  fillBytes(bytes() + pageSize, 5, pageSize);
  EXPECT_EQ(download(reinterpret_cast<const uint8_t*>(bytes() + pageSize), 1)[0], 5);
  EXPECT_EQ(zeVirtualMemSetAccessAttribute(context, bytes() + size, pageSize, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
            ZE_RESULT_ERROR_INVALID_ARGUMENT)
      << "past the reservation";
  EXPECT_EQ(zeVirtualMemSetAccessAttribute(context, bytes() + 3 * pageSize, 2 * pageSize, ZE_MEMORY_ACCESS_ATTRIBUTE_NONE),
            ZE_RESULT_ERROR_INVALID_ARGUMENT)
      << "partly past the reservation";
}

TEST_F(VirtualMemoryTest, AReadOnlyRangeProtectsThePagesMappedInIt) {
  SKIP_UNLESS_CPU_DEVICE("host access to mapped pages");
  ASSERT_ZE(zeVirtualMemMap(context, bytes() + pageSize, pageSize, physical, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
  ASSERT_ZE(zeVirtualMemSetAccessAttribute(context, reserved, size, ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY));
  EXPECT_EQ(writeFaults(bytes() + pageSize), 3) << "a write to a read-only page must fault";
  ASSERT_ZE(zeVirtualMemSetAccessAttribute(context, reserved, size, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
  EXPECT_EQ(writeFaults(bytes() + pageSize), 0);
}

TEST_F(VirtualMemoryTest, FreeNeedsTheReservationsExactStartAndSize) {
  EXPECT_EQ(zeVirtualMemFree(context, reserved, pageSize), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(zeVirtualMemFree(context, bytes() + pageSize, 3 * pageSize), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  ASSERT_ZE(zeVirtualMemFree(context, reserved, size));
  reserved = nullptr;
}

TEST_F(VirtualMemoryTest, FreeingAReservationUnmapsWhatIsStillMapped) {
  mapAll();
  fillBytes(reserved, 4, size);
  ASSERT_ZE(zeVirtualMemFree(context, reserved, size));
  reserved = nullptr;
  // The physical memory outlives the mapping, and maps again elsewhere with its contents.
  ASSERT_ZE(zeVirtualMemReserve(context, nullptr, size, &reserved));
  mapAll();
  EXPECT_EQ(download(reinterpret_cast<const uint8_t*>(reserved), 1)[0], 4);
}

}  // namespace
}  // namespace loom::test
