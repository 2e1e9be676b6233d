#pragma once
// Virtual memory: address reservations, physical memory objects and mappings between them, in
// the address space of the context's devices (core::AddressSpace: the host's on the CPU, the
// CUDA driver's on NVIDIA GPUs). The context's core::VirtualMemoryMap keeps track of them.
#include <level_zero/ze_api.h>

#include <memory>

#include "level_zero/handle/handle.h"
#include "loom/core/address_space.h"

namespace loom::l0 {

class PhysicalMemory : public _ze_physical_mem_handle_t {
 public:
  explicit PhysicalMemory(std::unique_ptr<core::PhysicalMemory> memory) : memory_(std::move(memory)) {}
  static PhysicalMemory* fromHandle(ze_physical_mem_handle_t handle) { return static_cast<PhysicalMemory*>(handle); }
  const core::PhysicalMemory& core() const { return *memory_; }

 private:
  std::unique_ptr<core::PhysicalMemory> memory_;
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
