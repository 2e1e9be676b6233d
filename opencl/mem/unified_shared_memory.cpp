// cl_intel_unified_shared_memory: the same host, device and shared allocations as Level Zero's
// USM, owned by the context; copies and fills are the SVM ones under their own command types.
#include <cstring>

#include "loom/core/allocation_limits.h"
#include "loom/core/runtime.h"
#include "opencl/context/context.h"
#include "opencl/device/device.h"
#include "opencl/enqueue/enqueue_checks.h"
#include "opencl/enqueue/pointer_commands.h"
#include "opencl/info.h"
#include "opencl/kernel/kernel.h"
#include "opencl/queue/command_queue.h"
#include "opencl/validation.h"

namespace loom::cl {
namespace {

constexpr cl_mem_alloc_flags_intel kKnownAllocFlags = CL_MEM_ALLOC_WRITE_COMBINED_INTEL |
                                                      CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL |
                                                      CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL;

cl_int checkAllocProperties(const cl_mem_properties_intel* properties) {
  for (const cl_mem_properties_intel* p = properties; p && *p != 0; p += 2) {
    CL_REQUIRE(p[0] == CL_MEM_ALLOC_FLAGS_INTEL, CL_INVALID_PROPERTY, "unknown allocation property");
    CL_REQUIRE((p[1] & ~kKnownAllocFlags) == 0, CL_INVALID_PROPERTY, "unknown allocation flags");
  }
  return CL_SUCCESS;
}

cl_int allocate(cl_context context, cl_device_id device, bool needsDevice, core::MemoryType type,
                const cl_mem_properties_intel* properties, size_t size, cl_uint alignment, void** pointer) {
  Context* owner = objectOf<Context>(context);
  CL_REQUIRE(owner, CL_INVALID_CONTEXT, "not a context");
  Device* target = device ? owner->deviceOf(device) : nullptr;
  CL_REQUIRE(!needsDevice || target, CL_INVALID_DEVICE, "not a device of the context");
  CL_REQUIRE(device == nullptr || target, CL_INVALID_DEVICE, "not a device of the context");
  if (cl_int error = checkAllocProperties(properties); error != CL_SUCCESS) return error;
  CL_REQUIRE((alignment & (alignment - 1)) == 0 && alignment <= 4096, CL_INVALID_VALUE,
             "alignment is not a power of two up to 4096");
  // Memory of one device fits that device; memory of none fits each device of the context.
  const uint64_t limit = target ? core::allocationLimit(target->info()) : owner->allocationLimit();
  CL_REQUIRE(size != 0 && size <= limit, CL_INVALID_BUFFER_SIZE,
             "size is 0 or above CL_DEVICE_MAX_MEM_ALLOC_SIZE of the device, or of a device of the context");
  auto allocation = core::Runtime::get().memory().allocate(type, size, alignment ? alignment : 128,
                                                           target ? &target->core() : nullptr, owner);
  CL_REQUIRE(allocation, CL_OUT_OF_RESOURCES, "out of memory");
  *pointer = allocation->address;
  return CL_SUCCESS;
}

cl_unified_shared_memory_type_intel apiType(core::MemoryType type) {
  switch (type) {
    case core::MemoryType::Host: return CL_MEM_TYPE_HOST_INTEL;
    case core::MemoryType::Device: return CL_MEM_TYPE_DEVICE_INTEL;
    case core::MemoryType::Shared: return CL_MEM_TYPE_SHARED_INTEL;
  }
  return CL_MEM_TYPE_UNKNOWN_INTEL;
}

// The allocation `pointer` lies in, when the context owns one there.
std::optional<core::Allocation> allocationOf(const Context& context, const void* pointer) {
  auto allocation = core::Runtime::get().memory().find(pointer);
  if (!allocation || allocation->owner != &context) return std::nullopt;
  return allocation;
}

Device* apiDevice(const Context& context, const core::Device* device) {
  for (Device* candidate : context.devices())
    if (&candidate->core() == device) return candidate;
  return nullptr;
}

// Migration and advice: USM lies where every device of its context reads it, so either command
// only orders the queue.
cl_int enqueueMemoryHint(cl_command_queue queue, const void* pointer, const EnqueueArguments& arguments, const char* function) {
  if (!pointer) return reportError(CL_INVALID_VALUE, function, "ptr is null");
  return enqueueOrderingOnly(queue, arguments, function);
}

}  // namespace
}  // namespace loom::cl

using namespace loom::cl;
using loom::core::MemoryType;

extern "C" {

CL_API_ENTRY void* CL_API_CALL clHostMemAllocINTEL(cl_context context, const cl_mem_properties_intel* properties, size_t size,
                                                   cl_uint alignment, cl_int* errcode_ret) {
  return createHandle<void*>(errcode_ret, [&](void** pointer) {
    return allocate(context, nullptr, false, MemoryType::Host, properties, size, alignment, pointer);
  });
}

CL_API_ENTRY void* CL_API_CALL clDeviceMemAllocINTEL(cl_context context, cl_device_id device,
                                                     const cl_mem_properties_intel* properties, size_t size, cl_uint alignment,
                                                     cl_int* errcode_ret) {
  return createHandle<void*>(errcode_ret, [&](void** pointer) {
    return allocate(context, device, true, MemoryType::Device, properties, size, alignment, pointer);
  });
}

CL_API_ENTRY void* CL_API_CALL clSharedMemAllocINTEL(cl_context context, cl_device_id device,
                                                     const cl_mem_properties_intel* properties, size_t size, cl_uint alignment,
                                                     cl_int* errcode_ret) {
  return createHandle<void*>(errcode_ret, [&](void** pointer) {
    return allocate(context, device, false, MemoryType::Shared, properties, size, alignment, pointer);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clMemFreeINTEL(cl_context context, void* ptr) {
  Context* owner = objectOf<Context>(context);
  CL_REQUIRE(owner, CL_INVALID_CONTEXT, "not a context");
  if (ptr == nullptr) return CL_SUCCESS;
  CL_REQUIRE(allocationOf(*owner, ptr), CL_INVALID_VALUE, "ptr is not an allocation of this context");
  // Work in flight may still use it: the memory goes once submitted work has completed.
  loom::core::Runtime::get().releaseAfterSubmittedWork([ptr] { loom::core::Runtime::get().memory().free(ptr); });
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clMemBlockingFreeINTEL(cl_context context, void* ptr) {
  Context* owner = objectOf<Context>(context);
  CL_REQUIRE(owner, CL_INVALID_CONTEXT, "not a context");
  if (ptr == nullptr) return CL_SUCCESS;
  auto allocation = allocationOf(*owner, ptr);
  CL_REQUIRE(allocation && allocation->address == ptr, CL_INVALID_VALUE, "ptr is not an allocation of this context");
  loom::core::Runtime::get().memory().free(ptr, allocation->id);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetMemAllocInfoINTEL(cl_context context, const void* ptr, cl_mem_info_intel param_name,
                                                       size_t param_value_size, void* param_value,
                                                       size_t* param_value_size_ret) {
  const InfoRequest out{param_value_size, param_value, param_value_size_ret, __func__};
  return answerInfo<Context>(context, CL_INVALID_CONTEXT, "not a context", out, [&](Context& owner) {
    auto allocation = allocationOf(owner, ptr);
    switch (param_name) {
      case CL_MEM_ALLOC_TYPE_INTEL:
        return out.scalar<cl_unified_shared_memory_type_intel>(allocation ? apiType(allocation->type) : CL_MEM_TYPE_UNKNOWN_INTEL);
      case CL_MEM_ALLOC_BASE_PTR_INTEL: return out.scalar<void*>(allocation ? allocation->address : nullptr);
      case CL_MEM_ALLOC_SIZE_INTEL: return out.scalar<size_t>(allocation ? allocation->size : 0);
      case CL_MEM_ALLOC_DEVICE_INTEL:
        return out.scalar<cl_device_id>(allocation ? apiDevice(owner, allocation->device) : nullptr);
      case CL_MEM_ALLOC_FLAGS_INTEL: return out.scalar<cl_mem_alloc_flags_intel>(0);
      default: return out.unknownName();
    }
  });
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArgMemPointerINTEL(cl_kernel kernel, cl_uint arg_index, const void* arg_value) {
  Kernel* object = objectOf<Kernel>(kernel);
  CL_REQUIRE(object, CL_INVALID_KERNEL, "not a kernel");
  return object->setSvmArgument(arg_index, arg_value);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMemFillINTEL(cl_command_queue command_queue, void* dst_ptr, const void* pattern,
                                                      size_t pattern_size, size_t size, cl_uint num_events_in_wait_list,
                                                      const cl_event* event_wait_list, cl_event* event) {
  const EnqueueArguments arguments{CL_COMMAND_MEMFILL_INTEL, num_events_in_wait_list, event_wait_list, event};
  return enqueuePointerFill(command_queue, arguments, dst_ptr, pattern, pattern_size, size, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMemsetINTEL(cl_command_queue command_queue, void* dst_ptr, cl_int value, size_t size,
                                                     cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                     cl_event* event) {
  const cl_uchar byte = static_cast<cl_uchar>(value);
  const EnqueueArguments arguments{CL_COMMAND_MEMFILL_INTEL, num_events_in_wait_list, event_wait_list, event};
  return enqueuePointerFill(command_queue, arguments, dst_ptr, &byte, 1, size, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMemcpyINTEL(cl_command_queue command_queue, cl_bool blocking, void* dst_ptr,
                                                     const void* src_ptr, size_t size, cl_uint num_events_in_wait_list,
                                                     const cl_event* event_wait_list, cl_event* event) {
  const EnqueueArguments arguments{CL_COMMAND_MEMCPY_INTEL, num_events_in_wait_list, event_wait_list, event,
                                   blocking == CL_TRUE};
  return enqueuePointerCopy(command_queue, arguments, dst_ptr, src_ptr, size, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMigrateMemINTEL(cl_command_queue command_queue, const void* ptr, size_t,
                                                         cl_mem_migration_flags, cl_uint num_events_in_wait_list,
                                                         const cl_event* event_wait_list, cl_event* event) {
  const EnqueueArguments arguments{CL_COMMAND_MIGRATEMEM_INTEL, num_events_in_wait_list, event_wait_list, event};
  return enqueueMemoryHint(command_queue, ptr, arguments, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMemAdviseINTEL(cl_command_queue command_queue, const void* ptr, size_t,
                                                        cl_mem_advice_intel, cl_uint num_events_in_wait_list,
                                                        const cl_event* event_wait_list, cl_event* event) {
  const EnqueueArguments arguments{CL_COMMAND_MEMADVISE_INTEL, num_events_in_wait_list, event_wait_list, event};
  return enqueueMemoryHint(command_queue, ptr, arguments, __func__);
}

}  // extern "C"
