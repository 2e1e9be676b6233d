#include "level_zero/memory/virtual_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <mutex>

#include "level_zero/context/context.h"
#include "level_zero/validation.h"
#include "loom/core/shared_memory.h"

namespace loom::l0 {

namespace {

bool pageAligned(uintptr_t value) { return value % core::pageSize() == 0; }

int protection(ze_memory_access_attribute_t access) {
  switch (access) {
    case ZE_MEMORY_ACCESS_ATTRIBUTE_NONE: return PROT_NONE;
    case ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY: return PROT_READ;
    default: return PROT_READ | PROT_WRITE;
  }
}

// True when [ptr, ptr + size) lies inside one reservation of the context. Caller holds virtualMutex.
bool insideReservation(Context* context, const void* ptr, size_t size) {
  const uintptr_t start = reinterpret_cast<uintptr_t>(ptr);
  auto it = context->reservations.upper_bound(start);
  if (it == context->reservations.begin()) return false;
  --it;
  return start >= it->first && start + size <= it->first + it->second;
}

void setPageAttributes(Context* context, uintptr_t start, size_t size, ze_memory_access_attribute_t access) {
  for (uintptr_t page = start; page < start + size; page += core::pageSize()) context->pageAccess[page] = access;
}

void forgetPages(Context* context, uintptr_t start, size_t size) {
  context->pageAccess.erase(context->pageAccess.lower_bound(start), context->pageAccess.lower_bound(start + size));
}

ze_result_t checkRange(Context* context, const void* ptr, size_t size) {
  ZE_REQUIRE(size != 0 && pageAligned(size), ZE_RESULT_ERROR_UNSUPPORTED_SIZE, "size is not a multiple of the page size");
  ZE_REQUIRE(pageAligned(reinterpret_cast<uintptr_t>(ptr)), ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT, "ptr is not page aligned");
  ZE_REQUIRE(insideReservation(context, ptr, size), ZE_RESULT_ERROR_INVALID_ARGUMENT, "range is not inside a reservation");
  return ZE_RESULT_SUCCESS;
}

}  // namespace

PhysicalMemory::~PhysicalMemory() { close(fd_); }

ze_result_t zeVirtualMemQueryPageSize(ze_context_handle_t hContext, ze_device_handle_t hDevice, size_t size, size_t* pagesize) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(pagesize);
  *pagesize = core::pageSize();
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeVirtualMemReserve(ze_context_handle_t hContext, const void* pStart, size_t size, void** pptr) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_POINTER(pptr);
  ZE_REQUIRE(size != 0 && pageAligned(size), ZE_RESULT_ERROR_UNSUPPORTED_SIZE, "size is not a multiple of the page size");
  void* address = mmap(const_cast<void*>(pStart), size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  ZE_REQUIRE(address != MAP_FAILED, ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY, "cannot reserve the address range");
  Context* context = Context::fromHandle(hContext);
  std::lock_guard lock(context->virtualMutex);
  context->reservations[reinterpret_cast<uintptr_t>(address)] = size;
  *pptr = address;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeVirtualMemFree(ze_context_handle_t hContext, const void* ptr, size_t size) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_POINTER(ptr);
  Context* context = Context::fromHandle(hContext);
  std::lock_guard lock(context->virtualMutex);
  auto it = context->reservations.find(reinterpret_cast<uintptr_t>(ptr));
  ZE_REQUIRE(it != context->reservations.end() && it->second == size, ZE_RESULT_ERROR_INVALID_ARGUMENT,
             "ptr and size do not name a reservation");
  munmap(const_cast<void*>(ptr), size);
  forgetPages(context, it->first, size);
  context->reservations.erase(it);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zePhysicalMemCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice, ze_physical_mem_desc_t* desc,
                                ze_physical_mem_handle_t* phPhysicalMemory) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(desc);
  ZE_REQUIRE_POINTER(phPhysicalMemory);
  ZE_REQUIRE_FLAGS(desc->flags, ZE_PHYSICAL_MEM_FLAG_TBD);
  ZE_REQUIRE(desc->size != 0 && pageAligned(desc->size), ZE_RESULT_ERROR_UNSUPPORTED_SIZE, "size is not a multiple of the page size");
  int fd = memfd_create("loom-physical-memory", MFD_CLOEXEC);
  ZE_REQUIRE(fd >= 0, ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY, "cannot create physical memory");
  if (ftruncate(fd, static_cast<off_t>(desc->size)) != 0) {
    close(fd);
    return reportError(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY, __func__, "cannot size physical memory");
  }
  *phPhysicalMemory = new PhysicalMemory(fd, desc->size);
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
  ZE_REQUIRE(access <= ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY, ZE_RESULT_ERROR_INVALID_ENUMERATION, "access is not an attribute");
  Context* context = Context::fromHandle(hContext);
  PhysicalMemory* physical = PhysicalMemory::fromHandle(hPhysicalMemory);
  std::lock_guard lock(context->virtualMutex);
  if (ze_result_t result = checkRange(context, ptr, size); result != ZE_RESULT_SUCCESS) return result;
  ZE_REQUIRE(pageAligned(offset) && offset + size <= physical->size(), ZE_RESULT_ERROR_INVALID_ARGUMENT,
             "offset and size exceed the physical memory");
  void* mapped = mmap(const_cast<void*>(ptr), size, protection(access), MAP_SHARED | MAP_FIXED, physical->fd(),
                      static_cast<off_t>(offset));
  ZE_REQUIRE(mapped != MAP_FAILED, ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY, "mapping failed");
  setPageAttributes(context, reinterpret_cast<uintptr_t>(ptr), size, access);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeVirtualMemUnmap(ze_context_handle_t hContext, const void* ptr, size_t size) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_POINTER(ptr);
  Context* context = Context::fromHandle(hContext);
  std::lock_guard lock(context->virtualMutex);
  if (ze_result_t result = checkRange(context, ptr, size); result != ZE_RESULT_SUCCESS) return result;
  // Back to a reserved, inaccessible range.
  mmap(const_cast<void*>(ptr), size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
  forgetPages(context, reinterpret_cast<uintptr_t>(ptr), size);  // unmapped pages read as NONE
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeVirtualMemSetAccessAttribute(ze_context_handle_t hContext, const void* ptr, size_t size,
                                           ze_memory_access_attribute_t access) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_POINTER(ptr);
  ZE_REQUIRE(access <= ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY, ZE_RESULT_ERROR_INVALID_ENUMERATION, "access is not an attribute");
  Context* context = Context::fromHandle(hContext);
  std::lock_guard lock(context->virtualMutex);
  if (ze_result_t result = checkRange(context, ptr, size); result != ZE_RESULT_SUCCESS) return result;
  ZE_REQUIRE(mprotect(const_cast<void*>(ptr), size, protection(access)) == 0, ZE_RESULT_ERROR_INVALID_ARGUMENT,
             "cannot change the protection of the range");
  setPageAttributes(context, reinterpret_cast<uintptr_t>(ptr), size, access);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeVirtualMemGetAccessAttribute(ze_context_handle_t hContext, const void* ptr, size_t size,
                                           ze_memory_access_attribute_t* access, size_t* outSize) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_POINTER(ptr);
  ZE_REQUIRE_POINTER(access);
  ZE_REQUIRE_POINTER(outSize);
  Context* context = Context::fromHandle(hContext);
  std::lock_guard lock(context->virtualMutex);
  if (ze_result_t result = checkRange(context, ptr, size); result != ZE_RESULT_SUCCESS) return result;
  auto attributeOf = [&](uintptr_t page) {
    auto it = context->pageAccess.find(page);
    return it == context->pageAccess.end() ? ZE_MEMORY_ACCESS_ATTRIBUTE_NONE : it->second;
  };
  const uintptr_t start = reinterpret_cast<uintptr_t>(ptr);
  *access = attributeOf(start);
  // The size of the leading run of pages that share the first page's attribute.
  uintptr_t page = start;
  while (page < start + size && attributeOf(page) == *access) page += core::pageSize();
  *outSize = page - start;
  return ZE_RESULT_SUCCESS;
}

}  // namespace loom::l0
