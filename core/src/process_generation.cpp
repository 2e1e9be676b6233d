#include "loom/core/process_generation.h"

#include <pthread.h>

#include <atomic>

namespace loom::core {

namespace {
std::atomic<uint32_t> generation{0};

void enteredChild() { generation.fetch_add(1, std::memory_order_relaxed); }

// Registered before any thread-owning object can exist: they all read the generation first.
const bool registered = [] { return pthread_atfork(nullptr, nullptr, enteredChild) == 0; }();
}  // namespace

uint32_t processGeneration() {
  (void)registered;
  return generation.load(std::memory_order_relaxed);
}

}  // namespace loom::core
