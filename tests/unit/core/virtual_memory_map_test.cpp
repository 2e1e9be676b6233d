// VirtualMemoryMap: the checks on every range, and what it asks of the address space (a fake
// that records calls, with pages of 64 KiB at made-up addresses).
#include "loom/core/virtual_memory_map.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace loom::core {
namespace {

constexpr size_t kPage = 64 * 1024;
constexpr uintptr_t kBase = 0x7000'0000'0000;

class RecordingAddressSpace final : public AddressSpace {
 public:
  size_t pageSize() const override { return kPage; }
  void* reserve(void* hint, size_t size) override {
    calls.push_back("reserve " + std::to_string(size / kPage) + (hint ? " at hint" : ""));
    void* start = reinterpret_cast<void*>(next);
    next += size + kPage;
    return start;
  }
  void release(void* address, size_t size) override { calls.push_back("release " + describe(address, size)); }
  VirtualMemoryStatus map(void* address, size_t size, const PhysicalMemory&, size_t offset, MemoryAccess access) override {
    calls.push_back("map " + describe(address, size) + " from page " + std::to_string(offset / kPage) + name(access));
    return mapStatus;
  }
  void unmap(void* address, size_t size) override { calls.push_back("unmap " + describe(address, size)); }
  VirtualMemoryStatus protect(void* address, size_t size, MemoryAccess access) override {
    calls.push_back("protect " + describe(address, size) + name(access));
    return protectStatus;
  }

  // "pages FIRST+COUNT" relative to kBase.
  static std::string describe(void* address, size_t size) {
    return "pages " + std::to_string((reinterpret_cast<uintptr_t>(address) - kBase) / kPage) + "+" + std::to_string(size / kPage);
  }
  static std::string name(MemoryAccess access) {
    return access == MemoryAccess::None ? " none" : access == MemoryAccess::ReadOnly ? " read-only" : " read-write";
  }

  std::vector<std::string> calls;
  uintptr_t next = kBase;
  VirtualMemoryStatus mapStatus = VirtualMemoryStatus::Success;
  VirtualMemoryStatus protectStatus = VirtualMemoryStatus::Success;
};

class VirtualMemoryMapTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(map.reserve(space, nullptr, 8 * kPage, &reserved), VirtualMemoryStatus::Success);
    space.calls.clear();
  }
  void* page(size_t index) { return static_cast<char*>(reserved) + index * kPage; }
  std::vector<std::string> takeCalls() { return std::exchange(space.calls, {}); }

  RecordingAddressSpace space;
  RecordingAddressSpace otherSpace;
  PhysicalMemory physical{space, 4 * kPage};
  VirtualMemoryMap map;
  void* reserved = nullptr;
};

using Calls = std::vector<std::string>;

TEST_F(VirtualMemoryMapTest, ReservationsAreWholePages) {
  void* other = nullptr;
  EXPECT_EQ(map.reserve(space, nullptr, 0, &other), VirtualMemoryStatus::UnalignedSize);
  EXPECT_EQ(map.reserve(space, nullptr, kPage + 1, &other), VirtualMemoryStatus::UnalignedSize);
  EXPECT_TRUE(takeCalls().empty());
  EXPECT_EQ(reserved, reinterpret_cast<void*>(kBase));
}

TEST_F(VirtualMemoryMapTest, AHintOffAPageIsIgnored) {
  void* other = nullptr;
  ASSERT_EQ(map.reserve(space, reinterpret_cast<void*>(kBase + 1), kPage, &other), VirtualMemoryStatus::Success);
  ASSERT_EQ(map.reserve(space, reinterpret_cast<void*>(kBase + 64 * kPage), kPage, &other), VirtualMemoryStatus::Success);
  EXPECT_EQ(takeCalls(), (Calls{"reserve 1", "reserve 1 at hint"}));
}

TEST_F(VirtualMemoryMapTest, RangesMustBeWholePagesInsideOneReservation) {
  EXPECT_EQ(map.map(page(0), kPage + 1, physical, 0, MemoryAccess::ReadWrite), VirtualMemoryStatus::UnalignedSize);
  EXPECT_EQ(map.map(page(0), 0, physical, 0, MemoryAccess::ReadWrite), VirtualMemoryStatus::UnalignedSize);
  EXPECT_EQ(map.map(static_cast<char*>(page(0)) + 8, kPage, physical, 0, MemoryAccess::ReadWrite),
            VirtualMemoryStatus::UnalignedAddress);
  EXPECT_EQ(map.map(page(0), kPage, physical, 100, MemoryAccess::ReadWrite), VirtualMemoryStatus::UnalignedAddress);
  EXPECT_EQ(map.map(page(7), 2 * kPage, physical, 0, MemoryAccess::ReadWrite), VirtualMemoryStatus::NotReserved);
  EXPECT_EQ(map.map(page(8), kPage, physical, 0, MemoryAccess::ReadWrite), VirtualMemoryStatus::NotReserved);
  EXPECT_EQ(map.unmap(reinterpret_cast<void*>(kBase - kPage), kPage), VirtualMemoryStatus::NotReserved);
  EXPECT_EQ(map.map(page(0), 2 * kPage, physical, 3 * kPage, MemoryAccess::ReadWrite), VirtualMemoryStatus::OutOfRange);
  EXPECT_TRUE(takeCalls().empty());
}

TEST_F(VirtualMemoryMapTest, HoldsRangesInOneReservationWhoseEndsAreMapped) {
  ASSERT_EQ(map.map(page(1), 3 * kPage, physical, 0, MemoryAccess::ReadWrite), VirtualMemoryStatus::Success);
  EXPECT_TRUE(map.holds(static_cast<char*>(page(1)) + 5, 3 * kPage - 5)) << "any bytes, not only whole pages";
  EXPECT_FALSE(map.holds(page(0), 2 * kPage)) << "the first page is not mapped";
  EXPECT_FALSE(map.holds(page(3), 2 * kPage)) << "the last page is not mapped";
  EXPECT_FALSE(map.holds(page(7), 2 * kPage)) << "past the reservation";
  EXPECT_FALSE(map.holds(reinterpret_cast<void*>(kBase - 8), 16)) << "before any reservation";
  EXPECT_FALSE(map.holds(page(1), 0));
  EXPECT_FALSE(map.holds(page(1), SIZE_MAX)) << "wraps around";
}

TEST_F(VirtualMemoryMapTest, PhysicalMemoryOfAnotherAddressSpaceIsForeign) {
  PhysicalMemory foreign{otherSpace, kPage};
  EXPECT_EQ(map.map(page(0), kPage, foreign, 0, MemoryAccess::ReadWrite), VirtualMemoryStatus::ForeignMemory);
  EXPECT_TRUE(takeCalls().empty());
}

TEST_F(VirtualMemoryMapTest, MappingOverMappedPagesUnmapsThemFirst) {
  ASSERT_EQ(map.map(page(1), 2 * kPage, physical, 0, MemoryAccess::ReadWrite), VirtualMemoryStatus::Success);
  ASSERT_EQ(map.map(page(0), 4 * kPage, physical, 0, MemoryAccess::ReadOnly), VirtualMemoryStatus::Success);
  EXPECT_EQ(takeCalls(), (Calls{"map pages 1+2 from page 0 read-write", "unmap pages 1+2", "map pages 0+4 from page 0 read-only"}));
}

TEST_F(VirtualMemoryMapTest, UnmapTouchesOnlyMappedRuns) {
  ASSERT_EQ(map.map(page(0), 2 * kPage, physical, 0, MemoryAccess::ReadWrite), VirtualMemoryStatus::Success);
  ASSERT_EQ(map.map(page(4), kPage, physical, 0, MemoryAccess::ReadWrite), VirtualMemoryStatus::Success);
  takeCalls();
  ASSERT_EQ(map.unmap(page(1), 6 * kPage), VirtualMemoryStatus::Success);
  EXPECT_EQ(takeCalls(), (Calls{"unmap pages 1+1", "unmap pages 4+1"}));
  ASSERT_EQ(map.unmap(page(1), 6 * kPage), VirtualMemoryStatus::Success);
  EXPECT_TRUE(takeCalls().empty()) << "nothing is mapped there any more";
}

TEST_F(VirtualMemoryMapTest, FreeUnmapsWhatIsLeftThenReleases) {
  ASSERT_EQ(map.map(page(2), kPage, physical, kPage, MemoryAccess::ReadWrite), VirtualMemoryStatus::Success);
  takeCalls();
  EXPECT_EQ(map.free(reserved, 4 * kPage), VirtualMemoryStatus::NotReserved);
  EXPECT_EQ(map.free(page(1), 7 * kPage), VirtualMemoryStatus::NotReserved);
  ASSERT_EQ(map.free(reserved, 8 * kPage), VirtualMemoryStatus::Success);
  EXPECT_EQ(takeCalls(), (Calls{"unmap pages 2+1", "release pages 0+8"}));
  EXPECT_EQ(map.unmap(page(2), kPage), VirtualMemoryStatus::NotReserved);
}

TEST_F(VirtualMemoryMapTest, DestructionReleasesEveryReservation) {
  {
    VirtualMemoryMap scoped;
    void* first = nullptr;
    ASSERT_EQ(scoped.reserve(space, nullptr, 2 * kPage, &first), VirtualMemoryStatus::Success);
    ASSERT_EQ(scoped.map(first, kPage, physical, 0, MemoryAccess::ReadWrite), VirtualMemoryStatus::Success);
    takeCalls();
  }
  EXPECT_EQ(takeCalls(), (Calls{"unmap pages 9+1", "release pages 9+2"}));
}

TEST_F(VirtualMemoryMapTest, AccessOfARangeProtectsOnlyItsMappedPages) {
  ASSERT_EQ(map.map(page(0), kPage, physical, 0, MemoryAccess::ReadWrite), VirtualMemoryStatus::Success);
  ASSERT_EQ(map.map(page(2), kPage, physical, kPage, MemoryAccess::ReadWrite), VirtualMemoryStatus::Success);
  takeCalls();
  ASSERT_EQ(map.setAccess(page(0), 4 * kPage, MemoryAccess::ReadOnly), VirtualMemoryStatus::Success);
  EXPECT_EQ(takeCalls(), (Calls{"protect pages 0+1 read-only", "protect pages 2+1 read-only"}));
  ASSERT_EQ(map.setAccess(page(4), 2 * kPage, MemoryAccess::ReadWrite), VirtualMemoryStatus::Success);
  EXPECT_TRUE(takeCalls().empty()) << "pages that are not mapped reach no address space";
  EXPECT_EQ(map.setAccess(page(7), 2 * kPage, MemoryAccess::ReadWrite), VirtualMemoryStatus::NotReserved);
}

// Each page reports the access of its mapping, or the access it was last given while not mapped.
std::vector<MemoryAccess> accessPerPage(const VirtualMemoryMap& map, void* reserved, size_t pages) {
  std::vector<MemoryAccess> accesses;
  for (size_t i = 0; i < pages; ++i) {
    MemoryAccess access = MemoryAccess::ReadWrite;
    size_t same = 0;
    EXPECT_EQ(map.access(static_cast<char*>(reserved) + i * kPage, kPage, access, same), VirtualMemoryStatus::Success);
    accesses.push_back(access);
  }
  return accesses;
}

TEST_F(VirtualMemoryMapTest, PagesThatAreNotMappedKeepTheAccessTheyWereGiven) {
  using enum MemoryAccess;
  EXPECT_EQ(accessPerPage(map, reserved, 8), std::vector<MemoryAccess>(8, None)) << "a new reservation has no access";
  ASSERT_EQ(map.setAccess(page(1), 4 * kPage, ReadWrite), VirtualMemoryStatus::Success);
  ASSERT_EQ(map.setAccess(page(3), 3 * kPage, ReadOnly), VirtualMemoryStatus::Success);
  EXPECT_EQ(accessPerPage(map, reserved, 8), (std::vector<MemoryAccess>{None, ReadWrite, ReadWrite, ReadOnly, ReadOnly, ReadOnly, None, None}));
  MemoryAccess access = None;
  size_t same = 0;
  ASSERT_EQ(map.access(page(1), 7 * kPage, access, same), VirtualMemoryStatus::Success);
  EXPECT_EQ(access, ReadWrite);
  EXPECT_EQ(same, 2 * kPage);
  // A mapping brings its own access; unmapped, the pages have what they were given again.
  ASSERT_EQ(map.map(page(2), 2 * kPage, physical, 0, None), VirtualMemoryStatus::Success);
  EXPECT_EQ(accessPerPage(map, reserved, 8), (std::vector<MemoryAccess>{None, ReadWrite, None, None, ReadOnly, ReadOnly, None, None}));
  ASSERT_EQ(map.unmap(page(2), 2 * kPage), VirtualMemoryStatus::Success);
  EXPECT_EQ(accessPerPage(map, reserved, 8), (std::vector<MemoryAccess>{None, ReadWrite, ReadWrite, ReadOnly, ReadOnly, ReadOnly, None, None}));
  ASSERT_EQ(map.setAccess(page(0), 8 * kPage, None), VirtualMemoryStatus::Success);
  EXPECT_EQ(accessPerPage(map, reserved, 8), std::vector<MemoryAccess>(8, None));
}

TEST_F(VirtualMemoryMapTest, AFreedReservationForgetsTheAccessOfItsPages) {
  ASSERT_EQ(map.setAccess(reserved, 8 * kPage, MemoryAccess::ReadWrite), VirtualMemoryStatus::Success);
  ASSERT_EQ(map.free(reserved, 8 * kPage), VirtualMemoryStatus::Success);
  space.next = reinterpret_cast<uintptr_t>(reserved);  // the fake gives the same pages again
  void* same = nullptr;
  ASSERT_EQ(map.reserve(space, nullptr, 8 * kPage, &same), VirtualMemoryStatus::Success);
  ASSERT_EQ(same, reserved);
  EXPECT_EQ(accessPerPage(map, reserved, 8), std::vector<MemoryAccess>(8, MemoryAccess::None));
}

TEST_F(VirtualMemoryMapTest, AccessRunsFollowMappingsAndChanges) {
  ASSERT_EQ(map.map(page(0), 4 * kPage, physical, 0, MemoryAccess::ReadWrite), VirtualMemoryStatus::Success);
  ASSERT_EQ(map.setAccess(page(1), kPage, MemoryAccess::ReadOnly), VirtualMemoryStatus::Success);
  MemoryAccess access = MemoryAccess::None;
  size_t same = 0;
  ASSERT_EQ(map.access(page(0), 8 * kPage, access, same), VirtualMemoryStatus::Success);
  EXPECT_EQ(access, MemoryAccess::ReadWrite);
  EXPECT_EQ(same, kPage);
  ASSERT_EQ(map.access(page(1), 8 * kPage - kPage, access, same), VirtualMemoryStatus::Success);
  EXPECT_EQ(access, MemoryAccess::ReadOnly);
  EXPECT_EQ(same, kPage);
  ASSERT_EQ(map.access(page(2), 2 * kPage, access, same), VirtualMemoryStatus::Success);
  EXPECT_EQ(access, MemoryAccess::ReadWrite);
  EXPECT_EQ(same, 2 * kPage);
  ASSERT_EQ(map.access(page(4), 4 * kPage, access, same), VirtualMemoryStatus::Success);
  EXPECT_EQ(access, MemoryAccess::None) << "unmapped pages have no access";
  EXPECT_EQ(same, 4 * kPage);
}

TEST_F(VirtualMemoryMapTest, AFailedChangeLeavesTheRecordedAccess) {
  ASSERT_EQ(map.map(page(0), kPage, physical, 0, MemoryAccess::ReadWrite), VirtualMemoryStatus::Success);
  space.protectStatus = VirtualMemoryStatus::Unsupported;
  EXPECT_EQ(map.setAccess(page(0), kPage, MemoryAccess::ReadOnly), VirtualMemoryStatus::Unsupported);
  MemoryAccess access = MemoryAccess::None;
  size_t same = 0;
  ASSERT_EQ(map.access(page(0), kPage, access, same), VirtualMemoryStatus::Success);
  EXPECT_EQ(access, MemoryAccess::ReadWrite);
  space.mapStatus = VirtualMemoryStatus::OutOfMemory;
  EXPECT_EQ(map.map(page(2), kPage, physical, 0, MemoryAccess::ReadWrite), VirtualMemoryStatus::OutOfMemory);
  ASSERT_EQ(map.access(page(2), kPage, access, same), VirtualMemoryStatus::Success);
  EXPECT_EQ(access, MemoryAccess::None) << "a failed mapping maps nothing";
}

}  // namespace
}  // namespace loom::core
