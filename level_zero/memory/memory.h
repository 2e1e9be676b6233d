#pragma once
// Unified shared memory entry points: host, device and shared allocations, queries, IPC.
#include <level_zero/ze_api.h>

namespace loom::l0 {

ze_result_t zeMemAllocDevice(ze_context_handle_t hContext, const ze_device_mem_alloc_desc_t* device_desc, size_t size,
                             size_t alignment, ze_device_handle_t hDevice, void** pptr);
ze_result_t zeMemAllocHost(ze_context_handle_t hContext, const ze_host_mem_alloc_desc_t* host_desc, size_t size,
                           size_t alignment, void** pptr);
ze_result_t zeMemAllocShared(ze_context_handle_t hContext, const ze_device_mem_alloc_desc_t* device_desc,
                             const ze_host_mem_alloc_desc_t* host_desc, size_t size, size_t alignment,
                             ze_device_handle_t hDevice, void** pptr);
ze_result_t zeMemFree(ze_context_handle_t hContext, void* ptr);
ze_result_t zeMemFreeExt(ze_context_handle_t hContext, const ze_memory_free_ext_desc_t* pMemFreeDesc, void* ptr);
ze_result_t zeMemGetAllocProperties(ze_context_handle_t hContext, const void* ptr,
                                    ze_memory_allocation_properties_t* pMemAllocProperties, ze_device_handle_t* phDevice);
ze_result_t zeMemGetAddressRange(ze_context_handle_t hContext, const void* ptr, void** pBase, size_t* pSize);
ze_result_t zeMemGetIpcHandle(ze_context_handle_t hContext, const void* ptr, ze_ipc_mem_handle_t* pIpcHandle);
ze_result_t zeMemOpenIpcHandle(ze_context_handle_t hContext, ze_device_handle_t hDevice, ze_ipc_mem_handle_t handle,
                               ze_ipc_memory_flags_t flags, void** pptr);
ze_result_t zeMemCloseIpcHandle(ze_context_handle_t hContext, const void* ptr);

}  // namespace loom::l0
