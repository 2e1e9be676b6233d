#pragma once
// Event pools and events. A pool's event storage is an anonymous shared file so that IPC pools
// can be opened by other processes and signaled from either side.
#include <level_zero/ze_api.h>

#include <memory>

#include "level_zero/handle/handle.h"
#include "loom/core/event.h"
#include "loom/core/shared_memory.h"

namespace loom::l0 {

class Context;
class Event;

class EventPool : public _ze_event_pool_handle_t {
 public:
  // `work`: the kind of device whose work its events stand for (core::Event).
  EventPool(ze_event_pool_flags_t flags, uint32_t count, core::SharedMemoryBlock storage, bool imported, core::DeviceType work)
      : flags_(flags), count_(count), storage_(storage), imported_(imported), work_(work) {}
  ~EventPool();
  static EventPool* fromHandle(ze_event_pool_handle_t handle) { return static_cast<EventPool*>(handle); }

  ze_event_pool_flags_t flags() const { return flags_; }
  uint32_t count() const { return count_; }
  bool imported() const { return imported_; }
  core::DeviceType work() const { return work_; }
  const core::SharedMemoryBlock& storage() const { return storage_; }
  core::EventStorage* eventStorage(uint32_t index) const { return static_cast<core::EventStorage*>(storage_.address) + index; }
  // Where event `index` keeps each tile's timestamps: after every event's storage, in pools of
  // kernel-timestamp events only (nullptr in others).
  core::TileTimestamps* tileTimestamps(uint32_t index) const;
  // The bytes of the storage of a pool of `count` events with `flags`, in every process.
  static uint64_t storageSize(uint32_t count, ze_event_pool_flags_t flags);
  // Completes every event not signaled yet with core::kStatusAbandoned: commands that wait on
  // them are abandoned instead of waiting forever for a pool that is gone.
  void abandonPendingEvents();
  // The events created from the pool and not destroyed yet.
  ChildHandles<Event>& events() { return events_; }

 private:
  ze_event_pool_flags_t flags_;
  uint32_t count_;
  core::SharedMemoryBlock storage_;
  bool imported_;
  core::DeviceType work_;
  ChildHandles<Event> events_;
};

class Event : public _ze_event_handle_t {
 public:
  Event(EventPool& pool, uint32_t index)
      : pool_(pool), event_(pool.eventStorage(index), pool.storage().deviceVisible, pool.work(), pool.tileTimestamps(index)) {}
  static Event* fromHandle(ze_event_handle_t handle) { return static_cast<Event*>(handle); }
  static core::Event* coreOf(ze_event_handle_t handle) { return handle ? &fromHandle(handle)->core() : nullptr; }

  core::Event& core() { return event_; }
  EventPool& pool() const { return pool_; }
  bool recordsKernelTimestamps() const { return pool_.flags() & ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP; }

 private:
  EventPool& pool_;
  core::Event event_;
};

ze_result_t zeEventPoolCreate(ze_context_handle_t hContext, const ze_event_pool_desc_t* desc, uint32_t numDevices,
                              ze_device_handle_t* phDevices, ze_event_pool_handle_t* phEventPool);
ze_result_t zeEventPoolDestroy(ze_event_pool_handle_t hEventPool);
ze_result_t zeEventPoolGetIpcHandle(ze_event_pool_handle_t hEventPool, ze_ipc_event_pool_handle_t* phIpc);
ze_result_t zeEventPoolOpenIpcHandle(ze_context_handle_t hContext, ze_ipc_event_pool_handle_t hIpc,
                                     ze_event_pool_handle_t* phEventPool);
ze_result_t zeEventPoolCloseIpcHandle(ze_event_pool_handle_t hEventPool);
ze_result_t zeEventCreate(ze_event_pool_handle_t hEventPool, const ze_event_desc_t* desc, ze_event_handle_t* phEvent);
ze_result_t zeEventDestroy(ze_event_handle_t hEvent);
ze_result_t zeEventHostSignal(ze_event_handle_t hEvent);
ze_result_t zeEventHostSynchronize(ze_event_handle_t hEvent, uint64_t timeout);
ze_result_t zeEventQueryStatus(ze_event_handle_t hEvent);
ze_result_t zeEventHostReset(ze_event_handle_t hEvent);
ze_result_t zeEventQueryKernelTimestamp(ze_event_handle_t hEvent, ze_kernel_timestamp_result_t* dstptr);
// ZE_experimental_event_query_timestamps: one result per tile for work a root device split among
// its tiles (whichever device handle asks), else one result, that of zeEventQueryKernelTimestamp.
ze_result_t zeEventQueryTimestampsExp(ze_event_handle_t hEvent, ze_device_handle_t hDevice, uint32_t* pCount,
                                      ze_kernel_timestamp_result_t* pTimestamps);

}  // namespace loom::l0
