#pragma once
// Every Level Zero handle points at an API object that starts with a tag of its kind, and every
// API object lives in core's HandleArena. So an entry point can tell a live handle of the kind it
// expects from a null one, one of another kind, a destroyed one or garbage (0xdeadbeef) by a
// range check and a compare, without following the pointer anywhere else.
//
// The generated DDI tables (ddi/generate_ddi_tables.py) call every entry point through
// checkedCall, which checks each handle argument; entry points check the handles they receive
// in arrays themselves (checkHandleArray).
#include <level_zero/ze_api.h>
#include <level_zero/zes_api.h>
#include <level_zero/zet_api.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <iterator>
#include <mutex>
#include <vector>

#include "loom/core/handle_arena.h"
#include "loom/core/runtime.h"
#include "loom/core/trace_recorder.h"
#include "level_zero/validation.h"

namespace loom::l0 {

// 64-bit tags, so that no stray value passes for one: "loom" followed by the kind.
enum class HandleKind : uint64_t {
  Dead = 0,
  Driver = 0x6c6f6f6d64727672,          // "loomdrvr"
  Device = 0x6c6f6f6d64657663,          // "loomdevc"
  Context = 0x6c6f6f6d63747874,         // "loomctxt"
  CommandQueue = 0x6c6f6f6d63717565,    // "loomcque"
  CommandList = 0x6c6f6f6d636c7374,     // "loomclst"
  Fence = 0x6c6f6f6d66656e63,           // "loomfenc"
  EventPool = 0x6c6f6f6d65706f6c,       // "loomepol"
  Event = 0x6c6f6f6d6576656e,           // "loomeven"
  Module = 0x6c6f6f6d6d6f646c,          // "loommodl"
  ModuleBuildLog = 0x6c6f6f6d626c6f67,  // "loomblog"
  Kernel = 0x6c6f6f6d6b726e6c,          // "loomkrnl"
  PhysicalMemory = 0x6c6f6f6d7068796d,  // "loomphym"
  Frequency = 0x6c6f6f6d66726571,       // "loomfreq"
  Power = 0x6c6f6f6d706f7772,           // "loompowr"
  Temperature = 0x6c6f6f6d74656d70,     // "loomtemp"
  MemoryModule = 0x6c6f6f6d6d656d6f,    // "loommemo"
  EngineGroup = 0x6c6f6f6d656e6769,     // "loomengi"
  Firmware = 0x6c6f6f6d6669726d,        // "loomfirm"
  Tracer = 0x6c6f6f6d74726372,          // "loomtrcr"
  Image = 0x6c6f6f6d696d6167,           // "loomimag"
  Sampler = 0x6c6f6f6d736d706c,         // "loomsmpl"
  FabricVertex = 0x6c6f6f6d76727478,    // "loomvrtx"
  FabricEdge = 0x6c6f6f6d65646765,      // "loomedge"
  MetricGroup = 0x6c6f6f6d6d677270,     // "loommgrp"
  Metric = 0x6c6f6f6d6d657472,          // "loommetr"
  MetricQueryPool = 0x6c6f6f6d6d71706c, // "loommqpl"
  MetricQuery = 0x6c6f6f6d6d717279,     // "loommqry"
  MetricStreamer = 0x6c6f6f6d6d737472,  // "loommstr"
};

// The base of every API object: its tag, and its storage in the HandleArena.
class HandleObject {
 public:
  static void* operator new(size_t size) { return core::HandleArena::get().allocate(size); }
  static void operator delete(void* object, size_t size) { core::HandleArena::get().release(object, size); }

  // From now on the handle reads as destroyed, though the object may live on until work in
  // flight no longer uses it.
  void retireHandle() { std::atomic_ref<HandleKind>(kind_).store(HandleKind::Dead, std::memory_order_release); }

  // True when `handle` points at a live object of `kind`.
  [[gnu::always_inline]] static bool isLive(const void* handle, HandleKind kind) {
    if (reinterpret_cast<uintptr_t>(handle) % alignof(HandleKind) != 0) return false;
    if (!core::HandleArena::get().contains(handle, sizeof(HandleKind))) return false;
    auto& tag = *static_cast<HandleKind*>(const_cast<void*>(handle));
    return std::atomic_ref<HandleKind>(tag).load(std::memory_order_acquire) == kind;
  }

 protected:
  explicit HandleObject(HandleKind kind) : kind_(kind) {}
  ~HandleObject() { retireHandle(); }
  HandleObject(const HandleObject&) = delete;
  HandleObject& operator=(const HandleObject&) = delete;

 private:
  alignas(8) HandleKind kind_;
};

// The base of one handle type (struct _ze_kernel_handle_t : TaggedHandle<HandleKind::Kernel>).
template <HandleKind Kind>
struct TaggedHandle : HandleObject {
  static constexpr HandleKind kKind = Kind;
  TaggedHandle() : HandleObject(Kind) {}
};

}  // namespace loom::l0

// The handle types of Loom's objects, all here so that every entry point sees them complete.
#define LOOM_HANDLE_TYPE(handle, kind) \
  struct handle : loom::l0::TaggedHandle<loom::l0::HandleKind::kind> {}
LOOM_HANDLE_TYPE(_ze_driver_handle_t, Driver);
LOOM_HANDLE_TYPE(_ze_device_handle_t, Device);
LOOM_HANDLE_TYPE(_ze_context_handle_t, Context);
LOOM_HANDLE_TYPE(_ze_command_queue_handle_t, CommandQueue);
LOOM_HANDLE_TYPE(_ze_command_list_handle_t, CommandList);
LOOM_HANDLE_TYPE(_ze_fence_handle_t, Fence);
LOOM_HANDLE_TYPE(_ze_event_pool_handle_t, EventPool);
LOOM_HANDLE_TYPE(_ze_event_handle_t, Event);
LOOM_HANDLE_TYPE(_ze_module_handle_t, Module);
LOOM_HANDLE_TYPE(_ze_module_build_log_handle_t, ModuleBuildLog);
LOOM_HANDLE_TYPE(_ze_kernel_handle_t, Kernel);
LOOM_HANDLE_TYPE(_ze_physical_mem_handle_t, PhysicalMemory);
LOOM_HANDLE_TYPE(_zes_freq_handle_t, Frequency);
LOOM_HANDLE_TYPE(_zes_pwr_handle_t, Power);
LOOM_HANDLE_TYPE(_zes_temp_handle_t, Temperature);
LOOM_HANDLE_TYPE(_zes_mem_handle_t, MemoryModule);
LOOM_HANDLE_TYPE(_zes_engine_handle_t, EngineGroup);
LOOM_HANDLE_TYPE(_zes_firmware_handle_t, Firmware);
LOOM_HANDLE_TYPE(_zet_tracer_exp_handle_t, Tracer);
LOOM_HANDLE_TYPE(_ze_image_handle_t, Image);
LOOM_HANDLE_TYPE(_ze_sampler_handle_t, Sampler);
LOOM_HANDLE_TYPE(_ze_fabric_vertex_handle_t, FabricVertex);
LOOM_HANDLE_TYPE(_ze_fabric_edge_handle_t, FabricEdge);
LOOM_HANDLE_TYPE(_zet_metric_group_handle_t, MetricGroup);
LOOM_HANDLE_TYPE(_zet_metric_handle_t, Metric);
LOOM_HANDLE_TYPE(_zet_metric_query_pool_handle_t, MetricQueryPool);
LOOM_HANDLE_TYPE(_zet_metric_query_handle_t, MetricQuery);
LOOM_HANDLE_TYPE(_zet_metric_streamer_handle_t, MetricStreamer);
#undef LOOM_HANDLE_TYPE

namespace loom::l0 {

// Handle types whose objects are Loom's (above). Other handle types (zet debug sessions) are
// incomplete here and name nothing Loom makes: the entry points that take them are unsupported.
template <typename Handle>
concept LoomHandle = std::is_pointer_v<Handle> && requires { std::remove_pointer_t<Handle>::kKind; };

// The failures of the checks below, said under PrintDebugMessages.
ze_result_t reportDeadHandle(const char* function, const char* argument);
ze_result_t reportNullHandleIn(const char* function, const char* array);

// ZE_RESULT_SUCCESS when `handle` is null (the entry point decides whether it may be) or a live
// handle of its type; ZE_RESULT_ERROR_INVALID_ARGUMENT otherwise. `argument` names it.
template <typename Handle>
[[gnu::always_inline]] inline ze_result_t checkHandle(const char* function, const char* argument, Handle handle) {
  if constexpr (LoomHandle<Handle>) {
    if (handle != nullptr && !HandleObject::isLive(handle, std::remove_pointer_t<Handle>::kKind))
      return reportDeadHandle(function, argument);
  }
  return ZE_RESULT_SUCCESS;
}

// Calls `entry` once every handle among `arguments` passed checkHandle; the call shows on the
// LOOM_TraceFile timeline. Inlined into each entry point (the checks are a few compares, fewer
// than the instructions of a call), also where API tracing calls the entry point a second way.
template <typename... Parameters, typename... Arguments>
[[gnu::always_inline]] inline ze_result_t checkedCall(const char* function, ze_result_t (*entry)(Parameters...), Arguments... arguments) {
  const core::TraceScope traced(function);
  static constexpr const char* kPositions[] = {"argument 1", "argument 2", "argument 3", "argument 4", "argument 5",
                                               "argument 6", "argument 7", "argument 8", "argument 9", "argument 10",
                                               "argument 11", "argument 12", "argument 13", "argument 14"};
  static_assert(sizeof...(Arguments) <= std::size(kPositions));
  ze_result_t result = ZE_RESULT_SUCCESS;
  size_t position = 0;
  ((result = result == ZE_RESULT_SUCCESS ? checkHandle(function, kPositions[position], arguments) : result, ++position), ...);
  return result == ZE_RESULT_SUCCESS ? entry(arguments...) : result;
}

// The handles of an array argument `name`: none null, all live handles of their type.
template <typename Handle>
ze_result_t checkHandleArray(const char* function, const char* name, uint32_t count, const Handle* handles) {
  for (uint32_t i = 0; i < count; ++i) {
    if (handles[i] == nullptr) return reportNullHandleIn(function, name);
    if (ze_result_t result = checkHandle(function, name, handles[i]); result != ZE_RESULT_SUCCESS) return result;
  }
  return ZE_RESULT_SUCCESS;
}

// The handles an object hands out (a pool's events, a module's kernels). Destroying the object
// retires those the application left and deletes them with it, so that none outlives what it
// points into.
template <typename Child>
class ChildHandles {
 public:
  ChildHandles() = default;
  ChildHandles(const ChildHandles&) = delete;
  ChildHandles& operator=(const ChildHandles&) = delete;
  ~ChildHandles() {
    for (Child* child : children_) delete child;
  }

  void add(Child* child) {
    std::lock_guard lock(mutex_);
    children_.push_back(child);
  }
  void remove(Child* child) {
    std::lock_guard lock(mutex_);
    children_.erase(std::remove(children_.begin(), children_.end(), child), children_.end());
  }
  void retireAll() {
    std::lock_guard lock(mutex_);
    for (Child* child : children_) child->retireHandle();
  }
  // The application destroys `child`: its handle reads as destroyed at once, and the object goes
  // once the work submitted until now is done with it (commands in flight may still use it).
  void destroyAfterSubmittedWork(Child* child) {
    child->retireHandle();
    remove(child);
    core::Runtime::get().releaseAfterSubmittedWork([child] { delete child; });
  }

 private:
  std::mutex mutex_;
  std::vector<Child*> children_;
};

}  // namespace loom::l0

#define ZE_REQUIRE_HANDLES(count, handles)                                                  \
  do {                                                                                      \
    const ze_result_t handlesCheck = ::loom::l0::checkHandleArray(__func__, #handles, count, handles); \
    if (handlesCheck != ZE_RESULT_SUCCESS) return handlesCheck;                             \
  } while (0)
