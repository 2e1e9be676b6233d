#pragma once
// A command queue: submits closed command lists to one engine of its device.
#include <level_zero/ze_api.h>

#include <atomic>
#include <memory>

#include "level_zero/handle/handle.h"
#include "loom/core/engine.h"

namespace loom::l0 {

class Context;
class Device;

class CommandQueue : public _ze_command_queue_handle_t {
 public:
  CommandQueue(Device& device, std::unique_ptr<core::Engine> engine, uint32_t ordinal, ze_command_queue_mode_t mode)
      : device_(device), engine_(std::move(engine)), ordinal_(ordinal), mode_(mode) {}
  static CommandQueue* fromHandle(ze_command_queue_handle_t handle) { return static_cast<CommandQueue*>(handle); }

  core::Engine& engine() const { return *engine_; }
  Device& device() const { return device_; }
  uint32_t ordinal() const { return ordinal_; }
  bool synchronous() const { return mode_ == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS; }
  // Submits one stream; returns its task count.
  uint64_t submit(std::shared_ptr<const std::vector<uint8_t>> stream);
  bool synchronize(uint64_t timeoutNs);

 private:
  Device& device_;
  std::unique_ptr<core::Engine> engine_;  // this queue's own
  uint32_t ordinal_;
  ze_command_queue_mode_t mode_;
  std::atomic<uint64_t> lastTaskCount_{0};
};

// Validates a queue descriptor for `device` and creates the engine that will run the queue.
ze_result_t createEngine(const char* function, Device& device, const ze_command_queue_desc_t& desc,
                         std::unique_ptr<core::Engine>& engine);

ze_result_t zeCommandQueueCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice, const ze_command_queue_desc_t* desc,
                                 ze_command_queue_handle_t* phCommandQueue);
ze_result_t zeCommandQueueDestroy(ze_command_queue_handle_t hCommandQueue);
ze_result_t zeCommandQueueExecuteCommandLists(ze_command_queue_handle_t hCommandQueue, uint32_t numCommandLists,
                                              ze_command_list_handle_t* phCommandLists, ze_fence_handle_t hFence);
ze_result_t zeCommandQueueSynchronize(ze_command_queue_handle_t hCommandQueue, uint64_t timeout);

}  // namespace loom::l0
