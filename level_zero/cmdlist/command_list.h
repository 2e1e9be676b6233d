#pragma once
// Command lists, regular and immediate. Appends encode commands into a core command stream:
// a regular list keeps it until executed (any number of times), an immediate list submits each
// append to its engine at once.
#include <level_zero/ze_api.h>

#include <memory>
#include <vector>

#include "level_zero/handle/handle.h"
#include "loom/core/command_stream.h"
#include "loom/core/engine.h"

namespace loom::l0 {

class Context;
class Device;

class CommandList : public _ze_command_list_handle_t {
 public:
  // `engine` is set for immediate lists only: each owns one. Destroying an immediate list in use
  // leaves its work to finish alone, as destroying a queue does (zeCommandQueueDestroy).
  CommandList(Context& context, Device& device, uint32_t ordinal, std::unique_ptr<core::Engine> engine, bool synchronous)
      : context_(context), device_(device), ordinal_(ordinal), engine_(std::move(engine)), synchronous_(synchronous) {}
  static CommandList* fromHandle(ze_command_list_handle_t handle) { return static_cast<CommandList*>(handle); }

  Device& device() const { return device_; }
  uint32_t ordinal() const { return ordinal_; }
  bool immediate() const { return engine_ != nullptr; }
  bool closed() const { return recorded_ != nullptr; }
  bool canLaunchKernels() const;
  // The closed list's commands, shared with submissions in flight.
  std::shared_ptr<const std::vector<uint8_t>> recorded() const { return recorded_; }

  void close();
  void reset();

  // Whether a copy or fill may touch [pointer, pointer + size): inside one allocation, in host
  // memory that holds none, or in mapped pages of the context's virtual memory. `name` is the
  // argument's, for the message.
  ze_result_t checkRange(const char* function, const char* name, const void* pointer, size_t size) const;

  // Encodes one append with its wait list and signal event. Immediate lists submit it right away.
  template <typename Encode>
  ze_result_t append(const char* function, ze_event_handle_t signal, uint32_t numWaitEvents, ze_event_handle_t* waitEvents,
                     Encode&& encode);

 private:
  ze_result_t checkAppend(const char* function, uint32_t numWaitEvents, ze_event_handle_t* waitEvents) const;
  // How an append is framed: it waits for `waitEvents` (as core events, kept in `waits`), and
  // signals `signal`, whose start it marks where its pool records kernel timestamps.
  static core::CommandFraming framing(ze_event_handle_t signal, uint32_t numWaitEvents, ze_event_handle_t* waitEvents,
                                      std::vector<core::Event*>& waits);
  // Submits what an immediate list recorded; a synchronous list waits for it and reports how it went.
  ze_result_t submitImmediate(const char* function);

  Context& context_;
  Device& device_;
  uint32_t ordinal_;
  std::unique_ptr<core::Engine> engine_;
  bool synchronous_;
  core::CommandStream stream_;
  std::shared_ptr<const std::vector<uint8_t>> recorded_;
};

template <typename Encode>
ze_result_t CommandList::append(const char* function, ze_event_handle_t signal, uint32_t numWaitEvents,
                                ze_event_handle_t* waitEvents, Encode&& encode) {
  if (ze_result_t result = checkAppend(function, numWaitEvents, waitEvents); result != ZE_RESULT_SUCCESS) return result;
  std::vector<core::Event*> waits;
  stream_.appendFramed(framing(signal, numWaitEvents, waitEvents, waits), encode);
  return immediate() ? submitImmediate(function) : ZE_RESULT_SUCCESS;
}

ze_result_t zeCommandListCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice, const ze_command_list_desc_t* desc,
                                ze_command_list_handle_t* phCommandList);
ze_result_t zeCommandListCreateImmediate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                         const ze_command_queue_desc_t* altdesc, ze_command_list_handle_t* phCommandList);
ze_result_t zeCommandListDestroy(ze_command_list_handle_t hCommandList);
ze_result_t zeCommandListClose(ze_command_list_handle_t hCommandList);
ze_result_t zeCommandListReset(ze_command_list_handle_t hCommandList);
ze_result_t zeCommandListAppendBarrier(ze_command_list_handle_t hCommandList, ze_event_handle_t hSignalEvent,
                                       uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents);
ze_result_t zeCommandListAppendMemoryRangesBarrier(ze_command_list_handle_t hCommandList, uint32_t numRanges,
                                                   const size_t* pRangeSizes, const void** pRanges,
                                                   ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                                                   ze_event_handle_t* phWaitEvents);
ze_result_t zeCommandListAppendMemoryCopy(ze_command_list_handle_t hCommandList, void* dstptr, const void* srcptr, size_t size,
                                          ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents);
ze_result_t zeCommandListAppendMemoryFill(ze_command_list_handle_t hCommandList, void* ptr, const void* pattern,
                                          size_t pattern_size, size_t size, ze_event_handle_t hSignalEvent,
                                          uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents);
ze_result_t zeCommandListAppendMemoryCopyRegion(ze_command_list_handle_t hCommandList, void* dstptr,
                                                const ze_copy_region_t* dstRegion, uint32_t dstPitch, uint32_t dstSlicePitch,
                                                const void* srcptr, const ze_copy_region_t* srcRegion, uint32_t srcPitch,
                                                uint32_t srcSlicePitch, ze_event_handle_t hSignalEvent,
                                                uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents);
ze_result_t zeCommandListAppendMemoryCopyFromContext(ze_command_list_handle_t hCommandList, void* dstptr,
                                                     ze_context_handle_t hContextSrc, const void* srcptr, size_t size,
                                                     ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                                                     ze_event_handle_t* phWaitEvents);
ze_result_t zeCommandListAppendMemoryPrefetch(ze_command_list_handle_t hCommandList, const void* ptr, size_t size);
ze_result_t zeCommandListAppendMemAdvise(ze_command_list_handle_t hCommandList, ze_device_handle_t hDevice, const void* ptr,
                                         size_t size, ze_memory_advice_t advice);
ze_result_t zeCommandListAppendSignalEvent(ze_command_list_handle_t hCommandList, ze_event_handle_t hEvent);
ze_result_t zeCommandListAppendWaitOnEvents(ze_command_list_handle_t hCommandList, uint32_t numEvents,
                                            ze_event_handle_t* phEvents);
ze_result_t zeCommandListAppendEventReset(ze_command_list_handle_t hCommandList, ze_event_handle_t hEvent);
ze_result_t zeCommandListAppendQueryKernelTimestamps(ze_command_list_handle_t hCommandList, uint32_t numEvents,
                                                     ze_event_handle_t* phEvents, void* dstptr, const size_t* pOffsets,
                                                     ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                                                     ze_event_handle_t* phWaitEvents);
ze_result_t zeCommandListAppendWriteGlobalTimestamp(ze_command_list_handle_t hCommandList, uint64_t* dstptr,
                                                    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                                                    ze_event_handle_t* phWaitEvents);
ze_result_t zeCommandListAppendLaunchKernel(ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
                                            const ze_group_count_t* pLaunchFuncArgs, ze_event_handle_t hSignalEvent,
                                            uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents);
ze_result_t zeCommandListAppendLaunchCooperativeKernel(ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
                                                       const ze_group_count_t* pLaunchFuncArgs, ze_event_handle_t hSignalEvent,
                                                       uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents);
ze_result_t zeCommandListAppendLaunchKernelIndirect(ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
                                                    const ze_group_count_t* pLaunchArgumentsBuffer,
                                                    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                                                    ze_event_handle_t* phWaitEvents);
ze_result_t zeCommandListAppendLaunchMultipleKernelsIndirect(ze_command_list_handle_t hCommandList, uint32_t numKernels,
                                                             ze_kernel_handle_t* phKernels, const uint32_t* pCountBuffer,
                                                             const ze_group_count_t* pLaunchArgumentsBuffer,
                                                             ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                                                             ze_event_handle_t* phWaitEvents);

}  // namespace loom::l0
