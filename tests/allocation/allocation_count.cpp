#include "allocation_count.h"

#include <cstdlib>
#include <new>

namespace {

thread_local bool counting = false;
thread_local size_t counted = 0;

void* allocate(size_t size) noexcept {
  if (counting) ++counted;
  return std::malloc(size ? size : 1);
}

// Out of line: GCC takes a free() it sees next to an inlined operator new for a mismatch.
[[gnu::noinline]] void release(void* memory) noexcept { std::free(memory); }

}  // namespace

void* operator new(size_t size) {
  if (void* memory = allocate(size)) return memory;
  throw std::bad_alloc();
}
void* operator new[](size_t size) { return operator new(size); }
void* operator new(size_t size, const std::nothrow_t&) noexcept { return allocate(size); }
void* operator new[](size_t size, const std::nothrow_t&) noexcept { return allocate(size); }
void operator delete(void* memory) noexcept { release(memory); }
void operator delete[](void* memory) noexcept { release(memory); }
void operator delete(void* memory, size_t) noexcept { release(memory); }
void operator delete[](void* memory, size_t) noexcept { release(memory); }

namespace loom::test {

AllocationCount::AllocationCount() {
  counted = 0;
  counting = true;
}

AllocationCount::~AllocationCount() { counting = false; }

size_t AllocationCount::allocations() const { return counted; }

}  // namespace loom::test
