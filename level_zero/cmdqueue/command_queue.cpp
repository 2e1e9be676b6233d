#include "level_zero/cmdqueue/command_queue.h"

#include "level_zero/cmdlist/command_list.h"
#include "level_zero/context/context.h"
#include "level_zero/device/device.h"
#include "level_zero/fence/fence.h"
#include "level_zero/validation.h"

namespace loom::l0 {

uint64_t CommandQueue::submit(std::shared_ptr<const std::vector<uint8_t>> stream) {
  const uint64_t taskCount = engine_->submit(std::move(stream));
  lastTaskCount_.store(taskCount, std::memory_order_release);
  return taskCount;
}

bool CommandQueue::synchronize(uint64_t timeoutNs) {
  return engine_->waitForTaskCount(lastTaskCount_.load(std::memory_order_acquire), timeoutNs);
}

ze_result_t createEngine(const char* function, Device& device, const ze_command_queue_desc_t& desc,
                         std::unique_ptr<core::Engine>& engine) {
  if (ze_result_t result = checkDescriptor(function, &desc, ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC); result != ZE_RESULT_SUCCESS)
    return result;
  if (desc.flags & ~ZE_COMMAND_QUEUE_FLAG_EXPLICIT_ONLY)
    return reportError(ZE_RESULT_ERROR_INVALID_ENUMERATION, function, "desc->flags has unknown bits");
  if (desc.mode > ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS)
    return reportError(ZE_RESULT_ERROR_INVALID_ENUMERATION, function, "desc->mode is not a queue mode");
  if (desc.priority > ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH)
    return reportError(ZE_RESULT_ERROR_INVALID_ENUMERATION, function, "desc->priority is not a priority");
  engine = device.core().createEngine(desc.ordinal, desc.index);
  if (!engine) return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, function, "desc->ordinal or desc->index is out of range");
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeCommandQueueCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice, const ze_command_queue_desc_t* desc,
                                 ze_command_queue_handle_t* phCommandQueue) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(desc);
  ZE_REQUIRE_POINTER(phCommandQueue);
  Device* device = Device::fromHandle(hDevice);
  std::unique_ptr<core::Engine> engine;
  if (ze_result_t result = createEngine(__func__, *device, *desc, engine); result != ZE_RESULT_SUCCESS) return result;
  *phCommandQueue = new CommandQueue(*device, std::move(engine), desc->ordinal, desc->mode);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeCommandQueueDestroy(ze_command_queue_handle_t hCommandQueue) {
  ZE_REQUIRE_HANDLE(hCommandQueue);
  CommandQueue* queue = CommandQueue::fromHandle(hCommandQueue);
  queue->retireHandle();
  // The application must not destroy a queue in use, yet a kernel may never end: work still in
  // flight finishes on the engine's thread alone, which holds what it needs (core::Engine), and
  // what it uses (events, modules, memory) is released only after it (releaseAfterSubmittedWork).
  delete queue;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeCommandQueueExecuteCommandLists(ze_command_queue_handle_t hCommandQueue, uint32_t numCommandLists,
                                              ze_command_list_handle_t* phCommandLists, ze_fence_handle_t hFence) {
  ZE_REQUIRE_HANDLE(hCommandQueue);
  ZE_REQUIRE_POINTER(phCommandLists);
  ZE_REQUIRE(numCommandLists != 0, ZE_RESULT_ERROR_INVALID_SIZE, "numCommandLists is 0");
  ZE_REQUIRE_HANDLES(numCommandLists, phCommandLists);
  CommandQueue* queue = CommandQueue::fromHandle(hCommandQueue);
  for (uint32_t i = 0; i < numCommandLists; ++i) {
    CommandList* list = CommandList::fromHandle(phCommandLists[i]);
    ZE_REQUIRE(!list->immediate(), ZE_RESULT_ERROR_INVALID_ARGUMENT, "an immediate command list cannot be executed");
    ZE_REQUIRE(list->closed(), ZE_RESULT_ERROR_INVALID_ARGUMENT, "a command list is not closed");
    ZE_REQUIRE(list->ordinal() == queue->ordinal(), ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE,
               "a command list was created for another queue group");
  }
  Fence* fence = hFence ? Fence::fromHandle(hFence) : nullptr;
  ZE_REQUIRE(!fence || &fence->queue() == queue, ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT, "hFence belongs to another queue");
  uint64_t taskCount = 0;
  for (uint32_t i = 0; i < numCommandLists; ++i) taskCount = queue->submit(CommandList::fromHandle(phCommandLists[i])->recorded());
  if (fence) fence->submitted(taskCount);
  if (!queue->synchronous()) return ZE_RESULT_SUCCESS;
  return synchronizationResult(queue->synchronize(UINT64_MAX), [&] { return queue->engine().deviceFailure(); }, __func__);
}

ze_result_t zeCommandQueueSynchronize(ze_command_queue_handle_t hCommandQueue, uint64_t timeout) {
  ZE_REQUIRE_HANDLE(hCommandQueue);
  CommandQueue& queue = *CommandQueue::fromHandle(hCommandQueue);
  return synchronizationResult(queue.synchronize(timeout), [&] { return queue.engine().deviceFailure(); }, __func__);
}

}  // namespace loom::l0
