// The host's address space: real reservations, anonymous files and shared mappings.
#include "loom/core/host_address_space.h"

#include <gtest/gtest.h>

#include <cstring>

#include "loom/core/shared_memory.h"

namespace loom::core {
namespace {

TEST(HostAddressSpace, PagesAreTheSystemsPages) { EXPECT_EQ(HostAddressSpace::get().pageSize(), pageSize()); }

TEST(HostAddressSpace, TwoMappingsOfOnePhysicalMemoryShareItsPages) {
  HostAddressSpace& space = HostAddressSpace::get();
  const size_t page = space.pageSize();
  auto physical = space.createPhysicalMemory(2 * page);
  ASSERT_NE(physical, nullptr);
  EXPECT_EQ(&physical->addressSpace(), &space);
  auto* first = static_cast<char*>(space.reserve(nullptr, page));
  auto* second = static_cast<char*>(space.reserve(nullptr, page));
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  ASSERT_EQ(space.map(first, page, *physical, page, MemoryAccess::ReadWrite), VirtualMemoryStatus::Success);
  ASSERT_EQ(space.map(second, page, *physical, page, MemoryAccess::ReadOnly), VirtualMemoryStatus::Success);
  physical.reset();  // the mappings keep the pages
  std::strcpy(first, "shared");
  EXPECT_STREQ(second, "shared");
  ASSERT_EQ(space.protect(first, page, MemoryAccess::ReadOnly), VirtualMemoryStatus::Success);
  EXPECT_STREQ(first, "shared");
  space.unmap(first, page);
  space.unmap(second, page);
  space.release(first, page);
  space.release(second, page);
}

TEST(HostAddressSpace, AMappingTheSystemRefusesFails) {
  HostAddressSpace& space = HostAddressSpace::get();
  const size_t page = space.pageSize();
  auto physical = space.createPhysicalMemory(page);
  ASSERT_NE(physical, nullptr);
  // An address off a page boundary: mmap refuses it.
  EXPECT_EQ(space.map(reinterpret_cast<void*>(1), page, *physical, 0, MemoryAccess::ReadWrite), VirtualMemoryStatus::Failed);
}

}  // namespace
}  // namespace loom::core
