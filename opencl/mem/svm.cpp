// Shared virtual memory: clSVMAlloc allocations are core shared allocations owned by the
// context, addressable alike by the host and by kernels; the clEnqueueSVM* commands are core
// copies and fills.
#include <algorithm>
#include <memory>

#include "loom/core/runtime.h"
#include "opencl/context/context.h"
#include "opencl/device/device.h"
#include "opencl/enqueue/enqueue_checks.h"
#include "opencl/enqueue/pointer_commands.h"
#include "opencl/queue/command_queue.h"
#include "opencl/validation.h"

namespace loom::cl {
namespace {

constexpr cl_svm_mem_flags kKnownSvmFlags =
    CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;
constexpr size_t kLargestSvmAlignment = 4096;

// clSVMFree does not wait: in-flight work may still use the memory, so it goes afterwards.
void freeSvm(const void* pointer) {
  core::Runtime::get().releaseAfterSubmittedWork([pointer] { core::Runtime::get().memory().free(pointer); });
}

struct SvmFreeCall {
  cl_command_queue queue;
  void(CL_CALLBACK* callback)(cl_command_queue, cl_uint, void**, void*);
  void* userData;
  std::vector<void*> pointers;
  static void run(void* self) {
    auto* call = static_cast<SvmFreeCall*>(self);
    if (call->callback) {
      call->callback(call->queue, static_cast<cl_uint>(call->pointers.size()), call->pointers.data(), call->userData);
      return;
    }
    for (void* pointer : call->pointers) core::Runtime::get().memory().free(pointer);
  }
};

}  // namespace
}  // namespace loom::cl

using namespace loom::cl;

extern "C" {

CL_API_ENTRY void* CL_API_CALL clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size, cl_uint alignment) {
  Context* owner = objectOf<Context>(context);
  if (owner == nullptr || (flags & ~kKnownSvmFlags) || size == 0) return nullptr;
  const cl_svm_mem_flags access = flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY);
  if (access & (access - 1)) return nullptr;  // the access flags are alternatives
  if ((flags & CL_MEM_SVM_ATOMICS) && !(flags & CL_MEM_SVM_FINE_GRAIN_BUFFER)) return nullptr;
  if ((alignment & (alignment - 1)) != 0 || alignment > kLargestSvmAlignment) return nullptr;
  if (size > owner->allocationLimit()) return nullptr;
  // Shared memory of the context's first device: managed memory on a GPU, which its kernels and
  // the host both address; the CPU's own memory otherwise.
  auto allocation = loom::core::Runtime::get().memory().allocate(loom::core::MemoryType::Shared, size,
                                                                 std::max<size_t>(alignment, 128),
                                                                 &owner->devices().front()->core(), owner);
  return allocation ? allocation->address : nullptr;
}

CL_API_ENTRY void CL_API_CALL clSVMFree(cl_context context, void* svm_pointer) {
  if (objectOf<Context>(context) == nullptr || svm_pointer == nullptr) return;
  freeSvm(svm_pointer);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMFree(cl_command_queue command_queue, cl_uint num_svm_pointers, void* svm_pointers[],
                                                 void(CL_CALLBACK* pfn_free_func)(cl_command_queue, cl_uint, void**, void*),
                                                 void* user_data, cl_uint num_events_in_wait_list,
                                                 const cl_event* event_wait_list, cl_event* event) {
  cl_int error;
  CommandQueue* queue = queueOf(command_queue, error, __func__);
  if (!queue) return error;
  CL_REQUIRE(num_svm_pointers != 0 && svm_pointers != nullptr, CL_INVALID_VALUE, "no pointers");
  auto call = std::make_shared<SvmFreeCall>(
      SvmFreeCall{command_queue, pfn_free_func, user_data, std::vector<void*>(svm_pointers, svm_pointers + num_svm_pointers)});
  EnqueueArguments arguments{CL_COMMAND_SVM_FREE, num_events_in_wait_list, event_wait_list, event};
  arguments.keepAlive = call;
  return queue->enqueue(
      arguments, [&](loom::core::CommandStream& stream) { stream.appendHostFunction(&SvmFreeCall::run, call.get()); }, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy, void* dst_ptr,
                                                   const void* src_ptr, size_t size, cl_uint num_events_in_wait_list,
                                                   const cl_event* event_wait_list, cl_event* event) {
  const EnqueueArguments arguments{CL_COMMAND_SVM_MEMCPY, num_events_in_wait_list, event_wait_list, event,
                                   blocking_copy == CL_TRUE};
  return enqueuePointerCopy(command_queue, arguments, dst_ptr, src_ptr, size, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue command_queue, void* svm_ptr, const void* pattern,
                                                    size_t pattern_size, size_t size, cl_uint num_events_in_wait_list,
                                                    const cl_event* event_wait_list, cl_event* event) {
  const EnqueueArguments arguments{CL_COMMAND_SVM_MEMFILL, num_events_in_wait_list, event_wait_list, event};
  return enqueuePointerFill(command_queue, arguments, svm_ptr, pattern, pattern_size, size, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map, cl_map_flags flags,
                                                void* svm_ptr, size_t size, cl_uint num_events_in_wait_list,
                                                const cl_event* event_wait_list, cl_event* event) {
  CL_REQUIRE(svm_ptr && size != 0, CL_INVALID_VALUE, "svm_ptr is null or size is 0");
  CL_REQUIRE((flags & ~(CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) == 0, CL_INVALID_VALUE,
             "unknown map flags");
  // SVM is coherent with the host here: mapping only orders the queue.
  const EnqueueArguments arguments{CL_COMMAND_SVM_MAP, num_events_in_wait_list, event_wait_list, event,
                                   blocking_map == CL_TRUE};
  return enqueueOrderingOnly(command_queue, arguments, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue command_queue, void* svm_ptr, cl_uint num_events_in_wait_list,
                                                  const cl_event* event_wait_list, cl_event* event) {
  CL_REQUIRE(svm_ptr, CL_INVALID_VALUE, "svm_ptr is null");
  const EnqueueArguments arguments{CL_COMMAND_SVM_UNMAP, num_events_in_wait_list, event_wait_list, event};
  return enqueueOrderingOnly(command_queue, arguments, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint num_svm_pointers,
                                                       const void** svm_pointers, const size_t*, cl_mem_migration_flags flags,
                                                       cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                       cl_event* event) {
  CL_REQUIRE(num_svm_pointers != 0 && svm_pointers != nullptr, CL_INVALID_VALUE, "no pointers");
  CL_REQUIRE((flags & ~(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)) == 0, CL_INVALID_VALUE,
             "unknown migration flags");
  const EnqueueArguments arguments{CL_COMMAND_SVM_MIGRATE_MEM, num_events_in_wait_list, event_wait_list, event};
  return enqueueOrderingOnly(command_queue, arguments, __func__);
}

}  // extern "C"
