#pragma once
// Heap allocations of the calling thread, counted through the test program's own operator new
// (allocation_count.cpp replaces it), which the driver's allocations reach too. Other threads
// (an engine's, which may allocate as it runs the work) are not counted.
#include <cstddef>

namespace loom::test {

// Counts the calling thread's allocations while it lives.
class AllocationCount {
 public:
  AllocationCount();
  ~AllocationCount();
  AllocationCount(const AllocationCount&) = delete;
  AllocationCount& operator=(const AllocationCount&) = delete;

  size_t allocations() const;
};

}  // namespace loom::test
