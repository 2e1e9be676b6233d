#include "level_zero/fence/fence.h"

#include "level_zero/cmdqueue/command_queue.h"
#include "level_zero/validation.h"

namespace loom::l0 {

ze_result_t zeFenceCreate(ze_command_queue_handle_t hCommandQueue, const ze_fence_desc_t* desc, ze_fence_handle_t* phFence) {
  ZE_REQUIRE_HANDLE(hCommandQueue);
  ZE_REQUIRE_POINTER(desc);
  ZE_REQUIRE_POINTER(phFence);
  ZE_REQUIRE_DESCRIPTOR(desc, ZE_STRUCTURE_TYPE_FENCE_DESC);
  ZE_REQUIRE_FLAGS(desc->flags, ZE_FENCE_FLAG_SIGNALED);
  CommandQueue* queue = CommandQueue::fromHandle(hCommandQueue);
  *phFence = new Fence(*queue, queue->engine(), desc->flags & ZE_FENCE_FLAG_SIGNALED);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeFenceDestroy(ze_fence_handle_t hFence) {
  ZE_REQUIRE_HANDLE(hFence);
  delete Fence::fromHandle(hFence);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeFenceHostSynchronize(ze_fence_handle_t hFence, uint64_t timeout) {
  ZE_REQUIRE_HANDLE(hFence);
  Fence& fence = *Fence::fromHandle(hFence);
  return synchronizationResult(fence.hostSynchronize(timeout), [&] { return fence.deviceFailure(); }, __func__);
}

ze_result_t zeFenceQueryStatus(ze_fence_handle_t hFence) {
  ZE_REQUIRE_HANDLE(hFence);
  Fence& fence = *Fence::fromHandle(hFence);
  return synchronizationResult(fence.isSignaled(), [&] { return fence.deviceFailure(); }, __func__);
}

ze_result_t zeFenceReset(ze_fence_handle_t hFence) {
  ZE_REQUIRE_HANDLE(hFence);
  Fence::fromHandle(hFence)->reset();
  return ZE_RESULT_SUCCESS;
}

}  // namespace loom::l0
