#pragma once
// What the bad-input and bad-handle tests share: a fixture holding one live object of each kind
// (so that a launch could run and only the argument under test is bad), a case as one call and
// the code the specification gives for it, and where the create calls under test write.
#include <functional>
#include <vector>

#include "ze_test_helpers.h"

namespace loom::test {

class BadCallTest : public ZeTest {
 protected:
  // One call with bad input and the result ze_api.h lists for it.
  struct Case {
    const char* call;
    ze_result_t expected;
    std::function<ze_result_t()> invoke;
  };

  // The handles a create call under test would return; each must stay null.
  struct Created {
    ze_context_handle_t context = nullptr;
    ze_command_queue_handle_t queue = nullptr;
    ze_command_list_handle_t list = nullptr;
    ze_event_pool_handle_t pool = nullptr;
    ze_event_handle_t event = nullptr;
    ze_fence_handle_t fence = nullptr;
    ze_module_handle_t module = nullptr;
    ze_kernel_handle_t kernel = nullptr;
  };

  void createObjects() {
    queue = commandQueue();
    regular = regularList();
    pool = eventPool(ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 2);
    e = event(pool);
    m = module("api_kernels.spv");
    k = kernel(m, "add_vectors");
    memory = shared<int>(16);
    setArguments(k, memory, memory, memory);
  }

  ze_command_queue_handle_t queue = nullptr;
  ze_command_list_handle_t regular = nullptr;
  ze_event_pool_handle_t pool = nullptr;
  ze_event_handle_t e = nullptr;
  ze_module_handle_t m = nullptr;
  ze_kernel_handle_t k = nullptr;
  int* memory = nullptr;
  Created created;
};

}  // namespace loom::test

#define CASE(expected, ...) Case{#__VA_ARGS__, expected, [&]() -> ze_result_t { return __VA_ARGS__; }}
