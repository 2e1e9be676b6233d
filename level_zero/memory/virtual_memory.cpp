#include "level_zero/memory/virtual_memory.h"

#include "level_zero/context/context.h"
#include "level_zero/device/device.h"
#include "level_zero/validation.h"

namespace loom::l0 {

namespace {

using core::MemoryAccess;
using core::VirtualMemoryStatus;

MemoryAccess memoryAccess(ze_memory_access_attribute_t access) {
  switch (access) {
    case ZE_MEMORY_ACCESS_ATTRIBUTE_NONE: return MemoryAccess::None;
    case ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY: return MemoryAccess::ReadOnly;
    default: return MemoryAccess::ReadWrite;
  }
}

ze_memory_access_attribute_t accessAttribute(MemoryAccess access) {
  switch (access) {
    case MemoryAccess::None: return ZE_MEMORY_ACCESS_ATTRIBUTE_NONE;
    case MemoryAccess::ReadOnly: return ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY;
    case MemoryAccess::ReadWrite: return ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE;
  }
  return ZE_MEMORY_ACCESS_ATTRIBUTE_NONE;
}

ze_result_t result(VirtualMemoryStatus status, const char* function) {
  switch (status) {
    case VirtualMemoryStatus::Success: return ZE_RESULT_SUCCESS;
    case VirtualMemoryStatus::UnalignedSize:
      return reportError(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, function, "size is not a nonzero multiple of the page size");
    case VirtualMemoryStatus::UnalignedAddress:
      return reportError(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT, function, "ptr or offset is not page aligned");
    case VirtualMemoryStatus::NotReserved:
      return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, function, "the range is not inside a reservation of the context");
    case VirtualMemoryStatus::ForeignMemory:
      return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, function,
                         "the physical memory's device cannot map into the context's reservations (another address space)");
    case VirtualMemoryStatus::OutOfRange:
      return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, function, "offset and size exceed the physical memory");
    case VirtualMemoryStatus::OutOfMemory:
      return reportError(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY, function, "no address range or mapping left");
    case VirtualMemoryStatus::Unsupported:
      return reportError(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, function, "the device does not support this access");
    case VirtualMemoryStatus::Failed:
      return reportError(ZE_RESULT_ERROR_UNKNOWN, function, "the system refused the change");
  }
  return ZE_RESULT_ERROR_UNKNOWN;
}

#define ZE_REQUIRE_ACCESS(access) \
  ZE_REQUIRE((access) <= ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY, ZE_RESULT_ERROR_INVALID_ENUMERATION, "access is not an attribute")

}  // namespace

ze_result_t zeVirtualMemQueryPageSize(ze_context_handle_t hContext, ze_device_handle_t hDevice, size_t size, size_t* pagesize) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(pagesize);
  const core::AddressSpace* space = Device::fromHandle(hDevice)->core().backend().addressSpace();
  ZE_REQUIRE(space, ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "the device has no virtual memory");
  *pagesize = space->pageSize();
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeVirtualMemReserve(ze_context_handle_t hContext, const void* pStart, size_t size, void** pptr) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_POINTER(pptr);
  Context* context = Context::fromHandle(hContext);
  core::AddressSpace* space = context->addressSpace();
  ZE_REQUIRE(space, ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "the context's device has no virtual memory");
  return result(context->virtualMemory.reserve(*space, pStart, size, pptr), __func__);
}

ze_result_t zeVirtualMemFree(ze_context_handle_t hContext, const void* ptr, size_t size) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_POINTER(ptr);
  return result(Context::fromHandle(hContext)->virtualMemory.free(ptr, size), __func__);
}

ze_result_t zePhysicalMemCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice, ze_physical_mem_desc_t* desc,
                                ze_physical_mem_handle_t* phPhysicalMemory) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(desc);
  ZE_REQUIRE_POINTER(phPhysicalMemory);
  ZE_REQUIRE_DESCRIPTOR(desc, ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC);
  ZE_REQUIRE_FLAGS(desc->flags, ZE_PHYSICAL_MEM_FLAG_TBD);
  core::Backend& backend = Device::fromHandle(hDevice)->core().backend();
  const core::AddressSpace* space = backend.addressSpace();
  ZE_REQUIRE(space, ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "the device has no virtual memory");
  ZE_REQUIRE(desc->size != 0 && desc->size % space->pageSize() == 0, ZE_RESULT_ERROR_UNSUPPORTED_SIZE,
             "size is not a nonzero multiple of the page size");
  std::unique_ptr<core::PhysicalMemory> memory = backend.createPhysicalMemory(desc->size);
  ZE_REQUIRE(memory, ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY, "cannot create physical memory");
  *phPhysicalMemory = new PhysicalMemory(std::move(memory));
  return ZE_RESULT_SUCCESS;
}

ze_result_t zePhysicalMemDestroy(ze_context_handle_t hContext, ze_physical_mem_handle_t hPhysicalMemory) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_HANDLE(hPhysicalMemory);
  delete PhysicalMemory::fromHandle(hPhysicalMemory);  // existing mappings keep their pages alive
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeVirtualMemMap(ze_context_handle_t hContext, const void* ptr, size_t size, ze_physical_mem_handle_t hPhysicalMemory,
                            size_t offset, ze_memory_access_attribute_t access) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_HANDLE(hPhysicalMemory);
  ZE_REQUIRE_POINTER(ptr);
  ZE_REQUIRE_ACCESS(access);
  const core::PhysicalMemory& memory = PhysicalMemory::fromHandle(hPhysicalMemory)->core();
  return result(Context::fromHandle(hContext)->virtualMemory.map(ptr, size, memory, offset, memoryAccess(access)), __func__);
}

ze_result_t zeVirtualMemUnmap(ze_context_handle_t hContext, const void* ptr, size_t size) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_POINTER(ptr);
  return result(Context::fromHandle(hContext)->virtualMemory.unmap(ptr, size), __func__);
}

ze_result_t zeVirtualMemSetAccessAttribute(ze_context_handle_t hContext, const void* ptr, size_t size,
                                           ze_memory_access_attribute_t access) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_POINTER(ptr);
  ZE_REQUIRE_ACCESS(access);
  return result(Context::fromHandle(hContext)->virtualMemory.setAccess(ptr, size, memoryAccess(access)), __func__);
}

ze_result_t zeVirtualMemGetAccessAttribute(ze_context_handle_t hContext, const void* ptr, size_t size,
                                           ze_memory_access_attribute_t* access, size_t* outSize) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_POINTER(ptr);
  ZE_REQUIRE_POINTER(access);
  ZE_REQUIRE_POINTER(outSize);
  MemoryAccess same = MemoryAccess::None;
  const VirtualMemoryStatus status = Context::fromHandle(hContext)->virtualMemory.access(ptr, size, same, *outSize);
  if (status == VirtualMemoryStatus::Success) *access = accessAttribute(same);
  return result(status, __func__);
}

}  // namespace loom::l0
