#include "level_zero/event/event_pool.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "level_zero/context/context.h"
#include "level_zero/device/device.h"
#include "level_zero/two_call.h"
#include "level_zero/validation.h"
#include "loom/core/runtime.h"
#include "loom/core/futex.h"
#include "loom/core/ipc_handle_reader.h"
#include "loom/core/log.h"

namespace loom::l0 {

namespace {

// The specification leaves kernel timestamps of an event whose pool lacks
// ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP to the application ("must ensure"); the model runtime answers
// with what the event holds, and applications (ze_peak) query such events. Loom times only the
// signal of such an event: the kernel's interval is empty, at the signal's time (0 when the host
// signaled it).
core::EventTimestamps untimedKernelTimestamps(const core::Event& event) {
  core::debugMessage("zeEventQueryKernelTimestamp: the event's pool lacks ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP; "
                     "its start was not timed, so start and end are the time of its signal");
  const uint64_t signaled = event.timestamps().globalEnd;
  return {signaled, signaled, signaled, signaled};
}

constexpr ze_event_pool_flags_t kPoolFlags =
    ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_IPC | ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP;
constexpr ze_event_scope_flags_t kScopeFlags = ZE_EVENT_SCOPE_FLAG_SUBDEVICE | ZE_EVENT_SCOPE_FLAG_DEVICE | ZE_EVENT_SCOPE_FLAG_HOST;

// The kind of device whose work a pool's events stand for: a GPU's where a GPU may signal them,
// also where the CPU device signals some of them.
core::DeviceType workOf(const std::vector<Device*>& devices) {
  const bool anyGpu = std::any_of(devices.begin(), devices.end(),
                                  [](const Device* device) { return device->core().info().type == core::DeviceType::Gpu; });
  return anyGpu ? core::DeviceType::Gpu : core::DeviceType::Cpu;
}

}  // namespace

uint64_t EventPool::storageSize(uint32_t count, ze_event_pool_flags_t flags) {
  const uint64_t perEvent =
      sizeof(core::EventStorage) + (flags & ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP ? sizeof(core::TileTimestamps) : 0);
  return perEvent * count;
}

core::TileTimestamps* EventPool::tileTimestamps(uint32_t index) const {
  if (!(flags_ & ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP)) return nullptr;
  static_assert(sizeof(core::EventStorage) % alignof(core::TileTimestamps) == 0);
  return reinterpret_cast<core::TileTimestamps*>(eventStorage(count_)) + index;
}

EventPool::~EventPool() { core::Runtime::get().memory().freeDeviceVisible(storage_); }

void EventPool::abandonPendingEvents() {
  for (uint32_t i = 0; i < count_; ++i) {
    core::Event event(eventStorage(i));
    if (!event.isSignaled()) event.fail(core::kStatusAbandoned);
  }
}

ze_result_t zeEventPoolCreate(ze_context_handle_t hContext, const ze_event_pool_desc_t* desc, uint32_t numDevices,
                              ze_device_handle_t* phDevices, ze_event_pool_handle_t* phEventPool) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_POINTER(desc);
  ZE_REQUIRE_POINTER(phEventPool);
  ZE_REQUIRE(numDevices == 0 || phDevices != nullptr, ZE_RESULT_ERROR_INVALID_SIZE, "numDevices > 0 but phDevices is null");
  ZE_REQUIRE_HANDLES(numDevices, phDevices);
  ZE_REQUIRE_DESCRIPTOR(desc, ZE_STRUCTURE_TYPE_EVENT_POOL_DESC);
  ZE_REQUIRE_FLAGS(desc->flags, kPoolFlags);
  ZE_REQUIRE(desc->count != 0, ZE_RESULT_ERROR_INVALID_SIZE, "count is 0");
  // Devices wait on the events and signal them in their own queues where the storage is visible to them.
  core::SharedMemoryBlock storage = core::Runtime::get().memory().allocateDeviceVisible(
      EventPool::storageSize(desc->count, desc->flags), alignof(core::EventStorage),
      {core::MemoryFilePurpose::EventPool, desc->flags, desc->count});
  ZE_REQUIRE(storage.address != nullptr, ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY, "cannot allocate event storage");
  std::vector<Device*> users;
  for (uint32_t i = 0; i < numDevices; ++i) users.push_back(Device::fromHandle(phDevices[i]));
  const core::DeviceType work = workOf(numDevices ? users : Context::fromHandle(hContext)->devices());
  *phEventPool = new EventPool(desc->flags, desc->count, storage, false, work);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeEventPoolDestroy(ze_event_pool_handle_t hEventPool) {
  ZE_REQUIRE_HANDLE(hEventPool);
  ZE_REQUIRE(!EventPool::fromHandle(hEventPool)->imported(), ZE_RESULT_ERROR_INVALID_ARGUMENT,
             "an opened IPC pool is released with zeEventPoolCloseIpcHandle");
  EventPool* pool = EventPool::fromHandle(hEventPool);
  pool->retireHandle();
  pool->events().retireAll();
  pool->abandonPendingEvents();
  // Commands in flight may still signal or wait on the pool's events: they go with the pool.
  core::Runtime::get().releaseAfterSubmittedWork([pool] { delete pool; });
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeEventPoolGetIpcHandle(ze_event_pool_handle_t hEventPool, ze_ipc_event_pool_handle_t* phIpc) {
  ZE_REQUIRE_HANDLE(hEventPool);
  ZE_REQUIRE_POINTER(phIpc);
  EventPool* pool = EventPool::fromHandle(hEventPool);
  ZE_REQUIRE(pool->flags() & ZE_EVENT_POOL_FLAG_IPC, ZE_RESULT_ERROR_INVALID_ARGUMENT, "the pool was not created with ZE_EVENT_POOL_FLAG_IPC");
  const core::IpcEventPoolHandle handle{core::sharedMemoryReference(pool->storage()), pool->count(), pool->flags()};
  static_assert(sizeof(phIpc->data) == core::kIpcHandleSize);
  const core::IpcHandleBytes bytes = core::encodeIpcHandle(handle);
  std::memcpy(phIpc->data, bytes.data(), bytes.size());
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeEventPoolOpenIpcHandle(ze_context_handle_t hContext, ze_ipc_event_pool_handle_t hIpc,
                                     ze_event_pool_handle_t* phEventPool) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_POINTER(phEventPool);
  std::string why;
  const std::optional<core::IpcEventPoolHandle> handle =
      core::readIpcEventPoolHandle(reinterpret_cast<const uint8_t*>(hIpc.data), sizeof(hIpc.data), why);
  if (!handle) return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, __func__, why.c_str());
  ZE_REQUIRE((handle->flags & ~kPoolFlags) == 0 && (handle->flags & ZE_EVENT_POOL_FLAG_IPC), ZE_RESULT_ERROR_INVALID_ARGUMENT,
             "the handle's pool flags are not those of an IPC pool");
  const uint64_t storageSize = EventPool::storageSize(handle->count, handle->flags);
  core::SharedMemoryBlock storage =
      core::Runtime::get().memory().mapForeignDeviceVisible(handle->file, storageSize, why);
  if (!storage.address) return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, __func__, why.c_str());
  *phEventPool = new EventPool(handle->flags, handle->count, storage, true, workOf(Context::fromHandle(hContext)->devices()));
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeEventPoolCloseIpcHandle(ze_event_pool_handle_t hEventPool) {
  ZE_REQUIRE_HANDLE(hEventPool);
  ZE_REQUIRE(EventPool::fromHandle(hEventPool)->imported(), ZE_RESULT_ERROR_INVALID_ARGUMENT, "the pool was not opened from an IPC handle");
  delete EventPool::fromHandle(hEventPool);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeEventCreate(ze_event_pool_handle_t hEventPool, const ze_event_desc_t* desc, ze_event_handle_t* phEvent) {
  ZE_REQUIRE_HANDLE(hEventPool);
  ZE_REQUIRE_POINTER(desc);
  ZE_REQUIRE_POINTER(phEvent);
  ZE_REQUIRE_DESCRIPTOR(desc, ZE_STRUCTURE_TYPE_EVENT_DESC);
  ZE_REQUIRE_FLAGS(desc->signal, kScopeFlags);
  ZE_REQUIRE_FLAGS(desc->wait, kScopeFlags);
  EventPool* pool = EventPool::fromHandle(hEventPool);
  ZE_REQUIRE(desc->index < pool->count(), ZE_RESULT_ERROR_INVALID_ARGUMENT, "index is not below the pool's count");
  auto* event = new Event(*pool, desc->index);
  pool->events().add(event);
  // An opened IPC pool's events keep the state the exporting process gave them.
  if (!pool->imported()) event->core().reset();
  *phEvent = event;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeEventDestroy(ze_event_handle_t hEvent) {
  ZE_REQUIRE_HANDLE(hEvent);
  Event* event = Event::fromHandle(hEvent);
  event->pool().events().destroyAfterSubmittedWork(event);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeEventHostSignal(ze_event_handle_t hEvent) {
  ZE_REQUIRE_HANDLE(hEvent);
  Event* event = Event::fromHandle(hEvent);
  if (event->recordsKernelTimestamps()) {
    // A host-signaled timestamp event reports an empty interval at the moment of signaling.
    const uint64_t now = core::monotonicNanoseconds();
    event->core().markStart(now);
    event->core().signal(now);
    return ZE_RESULT_SUCCESS;
  }
  event->core().hostSignal();
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeEventHostSynchronize(ze_event_handle_t hEvent, uint64_t timeout) {
  ZE_REQUIRE_HANDLE(hEvent);
  const core::Event& event = Event::fromHandle(hEvent)->core();
  return synchronizationResult(event.hostSynchronize(timeout), [&] { return event.error(); }, __func__);
}

ze_result_t zeEventQueryStatus(ze_event_handle_t hEvent) {
  ZE_REQUIRE_HANDLE(hEvent);
  const core::Event& event = Event::fromHandle(hEvent)->core();
  return synchronizationResult(event.isSignaled(), [&] { return event.error(); }, __func__);
}

ze_result_t zeEventHostReset(ze_event_handle_t hEvent) {
  ZE_REQUIRE_HANDLE(hEvent);
  Event::fromHandle(hEvent)->core().reset();
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeEventQueryKernelTimestamp(ze_event_handle_t hEvent, ze_kernel_timestamp_result_t* dstptr) {
  ZE_REQUIRE_HANDLE(hEvent);
  ZE_REQUIRE_POINTER(dstptr);
  Event* event = Event::fromHandle(hEvent);
  if (!event->core().isSignaled()) return ZE_RESULT_NOT_READY;
  static_assert(sizeof(core::EventTimestamps) == sizeof(ze_kernel_timestamp_result_t));
  const core::EventTimestamps timestamps =
      event->recordsKernelTimestamps() ? event->core().timestamps() : untimedKernelTimestamps(event->core());
  std::memcpy(dstptr, &timestamps, sizeof(timestamps));
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeEventQueryTimestampsExp(ze_event_handle_t hEvent, ze_device_handle_t hDevice, uint32_t* pCount,
                                      ze_kernel_timestamp_result_t* pTimestamps) {
  ZE_REQUIRE_HANDLE(hEvent);
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(pCount);
  Event* event = Event::fromHandle(hEvent);
  ZE_REQUIRE(event->recordsKernelTimestamps(), ZE_RESULT_ERROR_INVALID_ARGUMENT, "the event's pool has no kernel timestamps");
  if (!event->core().isSignaled()) return ZE_RESULT_NOT_READY;
  std::vector<core::EventTimestamps> results = event->core().tileTimestamps();
  if (results.empty()) results.push_back(event->core().timestamps());
  return fillArray(results, pCount, pTimestamps, [](ze_kernel_timestamp_result_t& out, const core::EventTimestamps& in) {
    std::memcpy(&out, &in, sizeof(out));
  });
}

}  // namespace loom::l0
