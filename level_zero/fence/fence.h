#pragma once
// A fence: signaled when the submission it was passed with completes on its queue's engine.
#include <level_zero/ze_api.h>

#include <atomic>

#include "level_zero/handle/handle.h"
#include "loom/core/engine.h"

namespace loom::l0 {

class CommandQueue;

class Fence : public _ze_fence_handle_t {
 public:
  Fence(CommandQueue& queue, core::Engine& engine, bool signaled)
      : queue_(queue), engine_(engine), taskCount_(signaled ? kSignaled : kUnsubmitted) {}
  static Fence* fromHandle(ze_fence_handle_t handle) { return static_cast<Fence*>(handle); }

  CommandQueue& queue() const { return queue_; }
  void submitted(uint64_t taskCount) { taskCount_.store(taskCount, std::memory_order_release); }
  void reset() { taskCount_.store(kUnsubmitted, std::memory_order_release); }
  bool isSignaled() const { return engine_.completionTag() >= taskCount_.load(std::memory_order_acquire); }
  bool hostSynchronize(uint64_t timeoutNs) { return engine_.waitForTaskCount(taskCount_.load(std::memory_order_acquire), timeoutNs); }
  int32_t deviceFailure() const { return engine_.deviceFailure(); }

 private:
  // Task counts start at 1, so 0 is always complete and UINT64_MAX never is.
  static constexpr uint64_t kSignaled = 0;
  static constexpr uint64_t kUnsubmitted = UINT64_MAX;
  CommandQueue& queue_;
  core::Engine& engine_;
  std::atomic<uint64_t> taskCount_;
};

ze_result_t zeFenceCreate(ze_command_queue_handle_t hCommandQueue, const ze_fence_desc_t* desc, ze_fence_handle_t* phFence);
ze_result_t zeFenceDestroy(ze_fence_handle_t hFence);
ze_result_t zeFenceHostSynchronize(ze_fence_handle_t hFence, uint64_t timeout);
ze_result_t zeFenceQueryStatus(ze_fence_handle_t hFence);
ze_result_t zeFenceReset(ze_fence_handle_t hFence);

}  // namespace loom::l0
