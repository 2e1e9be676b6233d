#include "level_zero/cmdlist/command_list.h"

#include <string>

#include "level_zero/cmdqueue/command_queue.h"
#include "level_zero/context/context.h"
#include "level_zero/device/device.h"
#include "level_zero/event/event_pool.h"
#include "level_zero/kernel/kernel.h"
#include "level_zero/module/module.h"
#include "level_zero/validation.h"
#include "loom/core/runtime.h"

namespace loom::l0 {

namespace {
constexpr size_t kMaxFillPatternSize = 128;

std::vector<core::Event*> coreEvents(uint32_t count, ze_event_handle_t* events) {
  std::vector<core::Event*> result(count);
  for (uint32_t i = 0; i < count; ++i) result[i] = Event::coreOf(events[i]);
  return result;
}
}  // namespace

bool CommandList::canLaunchKernels() const {
  const auto& groups = device_.core().engineGroups();
  return ordinal_ < groups.size() && groups[ordinal_].type == core::EngineType::Compute;
}

void CommandList::close() { recorded_ = std::make_shared<const std::vector<uint8_t>>(stream_.take()); }

void CommandList::reset() {
  stream_.clear();
  recorded_.reset();
}

ze_result_t CommandList::checkRange(const char* function, const char* name, const void* pointer, size_t size) const {
  if (context_.virtualMemory.holds(pointer, size)) return ZE_RESULT_SUCCESS;
  const core::RangeCheck check = core::Runtime::get().memory().checkRange(pointer, size);
  if (check == core::RangeCheck::Valid) return ZE_RESULT_SUCCESS;
  // An address that is nowhere is a bad argument; a range too long for where it starts, a bad size.
  const ze_result_t result =
      check == core::RangeCheck::UnreadableAddress ? ZE_RESULT_ERROR_INVALID_ARGUMENT : ZE_RESULT_ERROR_INVALID_SIZE;
  return reportError(result, function, (std::string(name) + ": " + core::describe(check)).c_str());
}

ze_result_t CommandList::checkAppend(const char* function, uint32_t numWaitEvents, ze_event_handle_t* waitEvents) const {
  if (closed()) return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, function, "the command list is closed");
  if (numWaitEvents && !waitEvents)
    return reportError(ZE_RESULT_ERROR_INVALID_SIZE, function, "numWaitEvents > 0 but phWaitEvents is null");
  return checkHandleArray(function, "phWaitEvents", numWaitEvents, waitEvents);
}

core::CommandFraming CommandList::framing(ze_event_handle_t signal, uint32_t numWaitEvents, ze_event_handle_t* waitEvents,
                                          std::vector<core::Event*>& waits) {
  if (numWaitEvents) waits = coreEvents(numWaitEvents, waitEvents);
  const bool timed = signal && Event::fromHandle(signal)->recordsKernelTimestamps();
  return {waits, timed ? Event::coreOf(signal) : nullptr, Event::coreOf(signal)};
}

ze_result_t CommandList::submitImmediate(const char* function) {
  const uint64_t taskCount = engine_->submit(stream_);
  if (!synchronous_) return ZE_RESULT_SUCCESS;
  return synchronizationResult(engine_->waitForTaskCount(taskCount, UINT64_MAX), [&] { return engine_->deviceFailure(); }, function);
}

ze_result_t zeCommandListCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice, const ze_command_list_desc_t* desc,
                                ze_command_list_handle_t* phCommandList) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(desc);
  ZE_REQUIRE_POINTER(phCommandList);
  ZE_REQUIRE_DESCRIPTOR(desc, ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC);
  ZE_REQUIRE_FLAGS(desc->flags, ZE_COMMAND_LIST_FLAG_RELAXED_ORDERING | ZE_COMMAND_LIST_FLAG_MAXIMIZE_THROUGHPUT |
                                    ZE_COMMAND_LIST_FLAG_EXPLICIT_ONLY);
  Device* device = Device::fromHandle(hDevice);
  ZE_REQUIRE(desc->commandQueueGroupOrdinal < device->core().engineGroups().size(), ZE_RESULT_ERROR_INVALID_ARGUMENT,
             "desc->commandQueueGroupOrdinal is out of range");
  *phCommandList = new CommandList(*Context::fromHandle(hContext), *device, desc->commandQueueGroupOrdinal, nullptr, false);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeCommandListCreateImmediate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                         const ze_command_queue_desc_t* altdesc, ze_command_list_handle_t* phCommandList) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(altdesc);
  ZE_REQUIRE_POINTER(phCommandList);
  Device* device = Device::fromHandle(hDevice);
  std::unique_ptr<core::Engine> engine;
  if (ze_result_t result = createEngine(__func__, *device, *altdesc, engine); result != ZE_RESULT_SUCCESS) return result;
  *phCommandList =
      new CommandList(*Context::fromHandle(hContext), *device, altdesc->ordinal, std::move(engine),
                      altdesc->mode == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeCommandListDestroy(ze_command_list_handle_t hCommandList) {
  ZE_REQUIRE_HANDLE(hCommandList);
  CommandList* list = CommandList::fromHandle(hCommandList);
  list->retireHandle();
  delete list;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeCommandListClose(ze_command_list_handle_t hCommandList) {
  ZE_REQUIRE_HANDLE(hCommandList);
  CommandList* list = CommandList::fromHandle(hCommandList);
  // An immediate list needs no closing, but the specification honours the call: nothing is recorded
  // to close, and the list goes on running what is appended to it.
  if (list->immediate()) return ZE_RESULT_SUCCESS;
  list->close();
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeCommandListReset(ze_command_list_handle_t hCommandList) {
  ZE_REQUIRE_HANDLE(hCommandList);
  CommandList::fromHandle(hCommandList)->reset();
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeCommandListAppendBarrier(ze_command_list_handle_t hCommandList, ze_event_handle_t hSignalEvent,
                                       uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  ZE_REQUIRE_HANDLE(hCommandList);
  return CommandList::fromHandle(hCommandList)->append(__func__, hSignalEvent, numWaitEvents, phWaitEvents,
                                                       [](core::CommandStream& stream) { stream.appendBarrier(); });
}

ze_result_t zeCommandListAppendMemoryRangesBarrier(ze_command_list_handle_t hCommandList, uint32_t numRanges,
                                                   const size_t* pRangeSizes, const void** pRanges,
                                                   ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                                                   ze_event_handle_t* phWaitEvents) {
  ZE_REQUIRE_HANDLE(hCommandList);
  ZE_REQUIRE(numRanges == 0 || (pRangeSizes && pRanges), ZE_RESULT_ERROR_INVALID_NULL_POINTER, "pRangeSizes or pRanges is null");
  // The ranges need no separate treatment: a barrier already orders all memory on the CPU.
  return CommandList::fromHandle(hCommandList)->append(__func__, hSignalEvent, numWaitEvents, phWaitEvents,
                                                       [](core::CommandStream& stream) { stream.appendBarrier(); });
}

ze_result_t zeCommandListAppendMemoryCopy(ze_command_list_handle_t hCommandList, void* dstptr, const void* srcptr, size_t size,
                                          ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  ZE_REQUIRE_HANDLE(hCommandList);
  ZE_REQUIRE_POINTER(dstptr);
  ZE_REQUIRE_POINTER(srcptr);
  CommandList& list = *CommandList::fromHandle(hCommandList);
  if (ze_result_t result = list.checkRange(__func__, "dstptr", dstptr, size); result != ZE_RESULT_SUCCESS) return result;
  if (ze_result_t result = list.checkRange(__func__, "srcptr", srcptr, size); result != ZE_RESULT_SUCCESS) return result;
  return list.append(__func__, hSignalEvent, numWaitEvents, phWaitEvents,
                     [&](core::CommandStream& stream) { stream.appendCopy({dstptr, srcptr, size}); });
}

ze_result_t zeCommandListAppendMemoryFill(ze_command_list_handle_t hCommandList, void* ptr, const void* pattern,
                                          size_t pattern_size, size_t size, ze_event_handle_t hSignalEvent,
                                          uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  ZE_REQUIRE_HANDLE(hCommandList);
  ZE_REQUIRE_POINTER(ptr);
  ZE_REQUIRE_POINTER(pattern);
  ZE_REQUIRE(pattern_size != 0 && (pattern_size & (pattern_size - 1)) == 0 && pattern_size <= kMaxFillPatternSize,
             ZE_RESULT_ERROR_INVALID_SIZE, "pattern_size is not a power of two up to maxMemoryFillPatternSize");
  CommandList& list = *CommandList::fromHandle(hCommandList);
  if (ze_result_t result = list.checkRange(__func__, "ptr", ptr, size); result != ZE_RESULT_SUCCESS) return result;
  if (ze_result_t result = list.checkRange(__func__, "pattern", pattern, pattern_size); result != ZE_RESULT_SUCCESS) return result;
  return list.append(__func__, hSignalEvent, numWaitEvents, phWaitEvents,
                     [&](core::CommandStream& stream) { stream.appendFill({ptr, size, pattern_size}, pattern); });
}

namespace {

// Byte span [first, last) a copy region touches.
std::pair<uintptr_t, uintptr_t> regionSpan(const void* base, const core::Region3d& region, uint64_t width, uint64_t height,
                                           uint64_t depth) {
  const uintptr_t start = reinterpret_cast<uintptr_t>(base) + region.originZ * region.slicePitch +
                          region.originY * region.rowPitch + region.originX;
  return {start, start + (depth - 1) * region.slicePitch + (height - 1) * region.rowPitch + width};
}

// Regions of one buffer with the same pitches overlap when their boxes do; otherwise the byte
// spans they touch are compared (conservative for interleaved rows).
bool regionsOverlap(const core::CopyRegionCommand& copy) {
  const core::Region3d &to = copy.destinationRegion, &from = copy.sourceRegion;
  if (copy.destination == copy.source && to.rowPitch == from.rowPitch && to.slicePitch == from.slicePitch) {
    auto apart = [](uint64_t a, uint64_t b, uint64_t extent) { return a + extent <= b || b + extent <= a; };
    return !(apart(to.originX, from.originX, copy.width) || apart(to.originY, from.originY, copy.height) ||
             apart(to.originZ, from.originZ, copy.depth));
  }
  const auto destination = regionSpan(copy.destination, to, copy.width, copy.height, copy.depth);
  const auto source = regionSpan(copy.source, from, copy.width, copy.height, copy.depth);
  return destination.first < source.second && source.first < destination.second;
}

}  // namespace

ze_result_t zeCommandListAppendMemoryCopyRegion(ze_command_list_handle_t hCommandList, void* dstptr,
                                                const ze_copy_region_t* dstRegion, uint32_t dstPitch, uint32_t dstSlicePitch,
                                                const void* srcptr, const ze_copy_region_t* srcRegion, uint32_t srcPitch,
                                                uint32_t srcSlicePitch, ze_event_handle_t hSignalEvent,
                                                uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  ZE_REQUIRE_HANDLE(hCommandList);
  ZE_REQUIRE_POINTER(dstptr);
  ZE_REQUIRE_POINTER(srcptr);
  ZE_REQUIRE_POINTER(dstRegion);
  ZE_REQUIRE_POINTER(srcRegion);
  auto depthOf = [](const ze_copy_region_t& region) { return region.depth == 0 ? 1u : region.depth; };
  ZE_REQUIRE(dstRegion->width == srcRegion->width && dstRegion->height == srcRegion->height &&
                 depthOf(*dstRegion) == depthOf(*srcRegion),
             ZE_RESULT_ERROR_INVALID_ARGUMENT, "source and destination regions differ in extent");
  core::CopyRegionCommand copy{};
  copy.destination = dstptr;
  copy.source = srcptr;
  copy.destinationRegion = {dstRegion->originX, dstRegion->originY, dstRegion->originZ, dstPitch, dstSlicePitch};
  copy.sourceRegion = {srcRegion->originX, srcRegion->originY, srcRegion->originZ, srcPitch, srcSlicePitch};
  copy.width = srcRegion->width;
  copy.height = srcRegion->height;
  copy.depth = depthOf(*srcRegion);
  const bool empty = copy.width == 0 || copy.height == 0;
  ZE_REQUIRE(empty || !regionsOverlap(copy), ZE_RESULT_ERROR_OVERLAPPING_REGIONS, "the source and destination regions overlap");
  CommandList& list = *CommandList::fromHandle(hCommandList);
  if (!empty) {
    const auto destination = regionSpan(copy.destination, copy.destinationRegion, copy.width, copy.height, copy.depth);
    const auto source = regionSpan(copy.source, copy.sourceRegion, copy.width, copy.height, copy.depth);
    ze_result_t result = list.checkRange(__func__, "dstRegion", reinterpret_cast<const void*>(destination.first),
                                         destination.second - destination.first);
    if (result == ZE_RESULT_SUCCESS)
      result = list.checkRange(__func__, "srcRegion", reinterpret_cast<const void*>(source.first), source.second - source.first);
    if (result != ZE_RESULT_SUCCESS) return result;
  }
  return list.append(__func__, hSignalEvent, numWaitEvents, phWaitEvents,
                     [&](core::CommandStream& stream) { stream.appendCopyRegion(copy); });
}

ze_result_t zeCommandListAppendMemoryCopyFromContext(ze_command_list_handle_t hCommandList, void* dstptr,
                                                     ze_context_handle_t hContextSrc, const void* srcptr, size_t size,
                                                     ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                                                     ze_event_handle_t* phWaitEvents) {
  ZE_REQUIRE_HANDLE(hContextSrc);
  // One process address space: a copy from another context's memory is a plain copy.
  return l0::zeCommandListAppendMemoryCopy(hCommandList, dstptr, srcptr, size, hSignalEvent, numWaitEvents, phWaitEvents);
}

ze_result_t zeCommandListAppendMemoryPrefetch(ze_command_list_handle_t hCommandList, const void* ptr, size_t size) {
  ZE_REQUIRE_HANDLE(hCommandList);
  ZE_REQUIRE_POINTER(ptr);
  return CommandList::fromHandle(hCommandList)->append(__func__, nullptr, 0, nullptr, [&](core::CommandStream& stream) {
    stream.appendPrefetch(ptr, size);
  });
}

ze_result_t zeCommandListAppendMemAdvise(ze_command_list_handle_t hCommandList, ze_device_handle_t hDevice, const void* ptr,
                                         size_t size, ze_memory_advice_t advice) {
  ZE_REQUIRE_HANDLE(hCommandList);
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(ptr);
  ZE_REQUIRE(advice <= ZE_MEMORY_ADVICE_BIAS_UNCACHED, ZE_RESULT_ERROR_INVALID_ENUMERATION,
             "advice is not a memory advice");
  return CommandList::fromHandle(hCommandList)->append(__func__, nullptr, 0, nullptr, [&](core::CommandStream& stream) {
    stream.appendMemoryAdvise(ptr, size, advice);
  });
}

ze_result_t zeCommandListAppendSignalEvent(ze_command_list_handle_t hCommandList, ze_event_handle_t hEvent) {
  ZE_REQUIRE_HANDLE(hCommandList);
  ZE_REQUIRE_HANDLE(hEvent);
  return CommandList::fromHandle(hCommandList)->append(__func__, hEvent, 0, nullptr, [](core::CommandStream&) {});
}

ze_result_t zeCommandListAppendWaitOnEvents(ze_command_list_handle_t hCommandList, uint32_t numEvents,
                                            ze_event_handle_t* phEvents) {
  ZE_REQUIRE_HANDLE(hCommandList);
  ZE_REQUIRE_POINTER(phEvents);
  return CommandList::fromHandle(hCommandList)->append(__func__, nullptr, numEvents, phEvents, [](core::CommandStream&) {});
}

ze_result_t zeCommandListAppendEventReset(ze_command_list_handle_t hCommandList, ze_event_handle_t hEvent) {
  ZE_REQUIRE_HANDLE(hCommandList);
  ZE_REQUIRE_HANDLE(hEvent);
  return CommandList::fromHandle(hCommandList)->append(__func__, nullptr, 0, nullptr, [&](core::CommandStream& stream) {
    stream.appendResetEvent(Event::coreOf(hEvent));
  });
}

ze_result_t zeCommandListAppendQueryKernelTimestamps(ze_command_list_handle_t hCommandList, uint32_t numEvents,
                                                     ze_event_handle_t* phEvents, void* dstptr, const size_t* pOffsets,
                                                     ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                                                     ze_event_handle_t* phWaitEvents) {
  ZE_REQUIRE_HANDLE(hCommandList);
  ZE_REQUIRE_POINTER(phEvents);
  ZE_REQUIRE_POINTER(dstptr);
  ZE_REQUIRE_HANDLES(numEvents, phEvents);
  CommandList& list = *CommandList::fromHandle(hCommandList);
  constexpr size_t kResultSize = sizeof(ze_kernel_timestamp_result_t);
  for (uint32_t i = 0; i < numEvents; ++i) {
    const size_t offset = pOffsets ? pOffsets[i] : i * kResultSize;
    if (ze_result_t result = list.checkRange(__func__, "dstptr", static_cast<char*>(dstptr) + offset, kResultSize);
        result != ZE_RESULT_SUCCESS)
      return result;
  }
  const auto events = coreEvents(numEvents, phEvents);
  return list.append(__func__, hSignalEvent, numWaitEvents, phWaitEvents, [&](core::CommandStream& stream) {
    stream.appendQueryKernelTimestamps(dstptr, events.data(), numEvents, pOffsets);
  });
}

ze_result_t zeCommandListAppendWriteGlobalTimestamp(ze_command_list_handle_t hCommandList, uint64_t* dstptr,
                                                    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                                                    ze_event_handle_t* phWaitEvents) {
  ZE_REQUIRE_HANDLE(hCommandList);
  ZE_REQUIRE_POINTER(dstptr);
  CommandList& list = *CommandList::fromHandle(hCommandList);
  if (ze_result_t result = list.checkRange(__func__, "dstptr", dstptr, sizeof(*dstptr)); result != ZE_RESULT_SUCCESS) return result;
  return list.append(__func__, hSignalEvent, numWaitEvents, phWaitEvents,
                     [&](core::CommandStream& stream) { stream.appendWriteTimestamp(dstptr); });
}

namespace {

// Where a launch takes its group counts from: given now, or read from memory when it runs.
struct GroupCountSource {
  const ze_group_count_t* counts;
  bool indirect;
  const uint32_t* kernelCount = nullptr;  // multiple-kernels-indirect only
  uint32_t kernelIndex = 0;
  bool cooperative = false;  // all groups run at once (zeCommandListAppendLaunchCooperativeKernel)
};

// Whether a kernel built for `built` runs on `target`: on its own device; a CPU kernel also on any
// other CPU device that is no root of tiles (its code runs on every core). A GPU's functions belong
// to its context and a root's kernels hold one kernel per tile, so nothing else runs elsewhere.
// The specification leaves this to the application (the kernel must be "accessible by the device
// on which the command list was created"); launching foreign code would crash.
bool runsOn(const core::Device& built, const core::Device& target) {
  if (&built == &target) return true;
  const auto plainCpu = [](const core::Device& device) {
    return device.info().type == core::DeviceType::Cpu && device.subDevices().empty();
  };
  return plainCpu(built) && plainCpu(target);
}

ze_result_t checkLaunch(const char* function, CommandList& list, Kernel& kernel, const GroupCountSource& source) {
  if (!list.canLaunchKernels()) return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, function, "the list's queue group cannot run kernels");
  const core::Device& built = kernel.module().device().core();
  if (!runsOn(built, list.device().core()))
    return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, function,
                       "the kernel's module was created for another device than the list's (a root device and its tiles, "
                       "or a GPU and another device, do not share kernels)");
  // Indirect counts are in memory that later work may write: they are read when the launch runs.
  static_assert(sizeof(ze_group_count_t) == 3 * sizeof(uint32_t));
  const uint32_t* counts = source.indirect ? nullptr : reinterpret_cast<const uint32_t*>(source.counts);
  switch (kernel.core().checkLaunch(list.device().core().info(), counts, source.cooperative)) {
    case core::LaunchError::None: return ZE_RESULT_SUCCESS;
    case core::LaunchError::ArgumentsMissing:
      return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, function, "not every kernel argument was set");
    case core::LaunchError::TooManyGroups:
      return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, function, "a group count exceeds the device's maximum");
    case core::LaunchError::TooManyCooperativeGroups:
      return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, function,
                         "more groups than can run at once (zeKernelSuggestMaxCooperativeGroupCount)");
    case core::LaunchError::TooMuchLocalMemory:
      return reportError(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY, function, "the kernel needs more local memory than the device has");
  }
  return ZE_RESULT_SUCCESS;
}

void encodeLaunch(core::CommandStream& stream, Kernel& kernel, const GroupCountSource& source) {
  core::LaunchRange range;
  range.groupSize = kernel.core().groupSize();
  range.globalOffset = kernel.core().globalOffset();
  range.cooperative = source.cooperative;
  core::IndirectLaunch indirect{nullptr, source.kernelCount, source.kernelIndex};
  if (source.indirect)
    indirect.groupCount = reinterpret_cast<const uint32_t*>(source.counts);
  else
    range.groupCount = {source.counts->groupCountX, source.counts->groupCountY, source.counts->groupCountZ};
  kernel.core().appendLaunch(stream, range, indirect);
}

ze_result_t appendLaunch(const char* function, ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
                         const GroupCountSource& source, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                         ze_event_handle_t* phWaitEvents) {
  if (!hCommandList) return reportError(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, function, "hCommandList is null");
  if (!hKernel) return reportError(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, function, "hKernel is null");
  if (!source.counts) return reportError(ZE_RESULT_ERROR_INVALID_NULL_POINTER, function, "the group counts are null");
  CommandList& list = *CommandList::fromHandle(hCommandList);
  Kernel& kernel = *Kernel::fromHandle(hKernel);
  if (ze_result_t result = checkLaunch(function, list, kernel, source); result != ZE_RESULT_SUCCESS) return result;
  return list.append(function, hSignalEvent, numWaitEvents, phWaitEvents,
                     [&](core::CommandStream& stream) { encodeLaunch(stream, kernel, source); });
}

}  // namespace

ze_result_t zeCommandListAppendLaunchKernel(ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
                                            const ze_group_count_t* pLaunchFuncArgs, ze_event_handle_t hSignalEvent,
                                            uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  return appendLaunch(__func__, hCommandList, hKernel, {pLaunchFuncArgs, false}, hSignalEvent, numWaitEvents, phWaitEvents);
}

ze_result_t zeCommandListAppendLaunchCooperativeKernel(ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
                                                       const ze_group_count_t* pLaunchFuncArgs, ze_event_handle_t hSignalEvent,
                                                       uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  return appendLaunch(__func__, hCommandList, hKernel, {pLaunchFuncArgs, false, nullptr, 0, true}, hSignalEvent, numWaitEvents,
                      phWaitEvents);
}

ze_result_t zeCommandListAppendLaunchKernelIndirect(ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
                                                    const ze_group_count_t* pLaunchArgumentsBuffer,
                                                    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                                                    ze_event_handle_t* phWaitEvents) {
  return appendLaunch(__func__, hCommandList, hKernel, {pLaunchArgumentsBuffer, true}, hSignalEvent, numWaitEvents,
                      phWaitEvents);
}

ze_result_t zeCommandListAppendLaunchMultipleKernelsIndirect(ze_command_list_handle_t hCommandList, uint32_t numKernels,
                                                             ze_kernel_handle_t* phKernels, const uint32_t* pCountBuffer,
                                                             const ze_group_count_t* pLaunchArgumentsBuffer,
                                                             ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                                                             ze_event_handle_t* phWaitEvents) {
  ZE_REQUIRE_HANDLE(hCommandList);
  ZE_REQUIRE_POINTER(phKernels);
  ZE_REQUIRE_POINTER(pCountBuffer);
  ZE_REQUIRE_POINTER(pLaunchArgumentsBuffer);
  ZE_REQUIRE_HANDLES(numKernels, phKernels);
  CommandList& list = *CommandList::fromHandle(hCommandList);
  for (uint32_t i = 0; i < numKernels; ++i) {
    GroupCountSource source{pLaunchArgumentsBuffer + i, true, pCountBuffer, i};
    if (ze_result_t result = checkLaunch(__func__, list, *Kernel::fromHandle(phKernels[i]), source); result != ZE_RESULT_SUCCESS)
      return result;
  }
  return list.append(__func__, hSignalEvent, numWaitEvents, phWaitEvents, [&](core::CommandStream& stream) {
    for (uint32_t i = 0; i < numKernels; ++i)
      encodeLaunch(stream, *Kernel::fromHandle(phKernels[i]), {pLaunchArgumentsBuffer + i, true, pCountBuffer, i});
  });
}

}  // namespace loom::l0
