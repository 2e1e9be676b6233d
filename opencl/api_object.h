#pragma once
// Every OpenCL handle points at an object whose first member is the ICD dispatch table (the ICD
// loader reads it to route calls) followed by a magic number per type, so that entry points can
// reject null, foreign or destroyed handles instead of crashing on them. The objects live in
// core's HandleArena, so that reading the magic number through any pointer an application passes
// (a random one as a cl_mem argument, say) cannot fault.
#include <CL/cl_icd.h>

#include <atomic>
#include <cstdint>
#include <type_traits>

#include "loom/core/handle_arena.h"

// The few entry points the ICD loader looks up by name (see loom_opencl.map).
#define LOOM_ICD_EXPORT __attribute__((visibility("default")))

namespace loom::cl {

const cl_icd_dispatch* dispatchTable();

enum class Magic : uint64_t {
  Dead = 0,
  Platform = 0x4c4f4f4d504c4154,  // "LOOMPLAT"
  Device = 0x4c4f4f4d44455643,
  Context = 0x4c4f4f4d43545854,
  Queue = 0x4c4f4f4d51554555,
  Mem = 0x4c4f4f4d4d454d4f,
  Program = 0x4c4f4f4d50524f47,
  Kernel = 0x4c4f4f4d4b524e4c,
  Event = 0x4c4f4f4d45564e54,
  Sampler = 0x4c4f4f4d534d504c,
};

template <Magic TypeMagic>
struct HandleHeader {
  HandleHeader() = default;
  ~HandleHeader() { magic = Magic::Dead; }
  static void* operator new(size_t size) { return core::HandleArena::get().allocate(size); }
  static void operator delete(void* object, size_t size) { core::HandleArena::get().release(object, size); }
  const cl_icd_dispatch* dispatch = dispatchTable();
  Magic magic = TypeMagic;
};

// Reference counting as the API defines it: objects start at 1; the last release destroys.
class RefCounted {
 public:
  void retain() { count_.fetch_add(1, std::memory_order_relaxed); }
  // True when this was the last reference.
  bool release() { return count_.fetch_sub(1, std::memory_order_acq_rel) == 1; }
  cl_uint referenceCount() const { return count_.load(std::memory_order_relaxed); }

 private:
  std::atomic<cl_uint> count_{1};
};

// The object behind `handle` when it is a live object of type T, else nullptr: not null, in the
// arena, of T's magic number, and (for reference-counted objects) not released by its last
// reference, though work in flight may keep it a while longer.
template <typename T, typename Handle>
T* objectOf(Handle handle) {
  if (handle == nullptr || reinterpret_cast<uintptr_t>(handle) % alignof(Magic) != 0) return nullptr;
  if (!core::HandleArena::get().contains(handle, sizeof(*handle)) || handle->magic != T::kMagic) return nullptr;
  T* object = static_cast<T*>(handle);
  if constexpr (std::is_base_of_v<RefCounted, T>) {
    if (object->referenceCount() == 0) return nullptr;
  }
  return object;
}

}  // namespace loom::cl

struct _cl_platform_id : loom::cl::HandleHeader<loom::cl::Magic::Platform> {};
struct _cl_device_id : loom::cl::HandleHeader<loom::cl::Magic::Device> {};
struct _cl_context : loom::cl::HandleHeader<loom::cl::Magic::Context> {};
struct _cl_command_queue : loom::cl::HandleHeader<loom::cl::Magic::Queue> {};
struct _cl_mem : loom::cl::HandleHeader<loom::cl::Magic::Mem> {};
struct _cl_program : loom::cl::HandleHeader<loom::cl::Magic::Program> {};
struct _cl_kernel : loom::cl::HandleHeader<loom::cl::Magic::Kernel> {};
struct _cl_event : loom::cl::HandleHeader<loom::cl::Magic::Event> {};
struct _cl_sampler : loom::cl::HandleHeader<loom::cl::Magic::Sampler> {};
