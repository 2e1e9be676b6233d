#pragma once
// Virtual memory: address reservations, physical memory objects and mappings between them.
// On the CPU a reservation is an inaccessible mapping and a physical object is an anonymous file.
#include <level_zero/ze_api.h>

#include <cstddef>

struct _ze_physical_mem_handle_t {};

namespace loom::l0 {

class PhysicalMemory : public _ze_physical_mem_handle_t {
 public:
  PhysicalMemory(int fd, size_t size) : fd_(fd), size_(size) {}
  ~PhysicalMemory();
  static PhysicalMemory* fromHandle(ze_physical_mem_handle_t handle) { return static_cast<PhysicalMemory*>(handle); }
  int fd() const { return fd_; }
  size_t size() const { return size_; }

 private:
  int fd_;
  size_t size_;
};

ze_result_t zeVirtualMemQueryPageSize(ze_context_handle_t hContext, ze_device_handle_t hDevice, size_t size, size_t* pagesize);
ze_result_t zeVirtualMemReserve(ze_context_handle_t hContext, const void* pStart, size_t size, void** pptr);
ze_result_t zeVirtualMemFree(ze_context_handle_t hContext, const void* ptr, size_t size);
ze_result_t zePhysicalMemCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice, ze_physical_mem_desc_t* desc,
                                ze_physical_mem_handle_t* phPhysicalMemory);
ze_result_t zePhysicalMemDestroy(ze_context_handle_t hContext, ze_physical_mem_handle_t hPhysicalMemory);
ze_result_t zeVirtualMemMap(ze_context_handle_t hContext, const void* ptr, size_t size, ze_physical_mem_handle_t hPhysicalMemory,
                            size_t offset, ze_memory_access_attribute_t access);
ze_result_t zeVirtualMemUnmap(ze_context_handle_t hContext, const void* ptr, size_t size);
ze_result_t zeVirtualMemSetAccessAttribute(ze_context_handle_t hContext, const void* ptr, size_t size,
                                           ze_memory_access_attribute_t access);
ze_result_t zeVirtualMemGetAccessAttribute(ze_context_handle_t hContext, const void* ptr, size_t size,
                                           ze_memory_access_attribute_t* access, size_t* outSize);

}  // namespace loom::l0
