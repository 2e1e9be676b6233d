#include "level_zero/memory/memory.h"

#include <cstring>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "level_zero/context/context.h"
#include "level_zero/device/device.h"
#include "level_zero/driver/driver.h"
#include "level_zero/validation.h"
#include "loom/core/allocation_limits.h"
#include "loom/core/ipc_handle_reader.h"
#include "loom/core/runtime.h"

namespace loom::l0 {

namespace {

// Whether `allocation` belongs to a live Level Zero context of `driver` (not to OpenCL or a module).
bool isAllocationOfDriver(const core::Allocation& allocation, const Driver& driver) {
  if (!HandleObject::isLive(allocation.owner, HandleKind::Context)) return false;
  const auto* owner = static_cast<const Context*>(static_cast<const _ze_context_handle_t*>(allocation.owner));
  return &owner->driver() == &driver;
}

constexpr ze_driver_memory_free_policy_ext_flags_t kMemoryFreePolicies =
    ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE | ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE;
constexpr ze_device_mem_alloc_flags_t kDeviceAllocFlags =
    ZE_DEVICE_MEM_ALLOC_FLAG_BIAS_CACHED | ZE_DEVICE_MEM_ALLOC_FLAG_BIAS_UNCACHED | ZE_DEVICE_MEM_ALLOC_FLAG_BIAS_INITIAL_PLACEMENT;
constexpr ze_host_mem_alloc_flags_t kHostAllocFlags = ZE_HOST_MEM_ALLOC_FLAG_BIAS_CACHED | ZE_HOST_MEM_ALLOC_FLAG_BIAS_UNCACHED |
                                                      ZE_HOST_MEM_ALLOC_FLAG_BIAS_WRITE_COMBINED |
                                                      ZE_HOST_MEM_ALLOC_FLAG_BIAS_INITIAL_PLACEMENT;

// How large one allocation may be: that of a device fits the device; one without a device
// (host memory, shared memory of no device) fits every device of the context.
uint64_t allocationLimit(const Context& context, const Device* device, bool relaxed) {
  if (device) return core::allocationLimit(device->core().info(), relaxed);
  std::vector<const core::DeviceInfo*> infos;
  for (const Device* member : context.devices()) infos.push_back(&member->core().info());
  return core::allocationLimit(infos, relaxed);
}

// ZE_experimental_relaxed_allocation_limits: a ze_relaxed_allocation_limits_exp_desc_t chained to
// the device description (none for host allocations) lets the size exceed maxMemAllocSize.
ze_result_t relaxedLimits(const char* function, const ze_device_mem_alloc_desc_t* desc, bool& relaxed) {
  relaxed = false;
  if (!desc) return ZE_RESULT_SUCCESS;
  for (auto* chained = static_cast<const ze_base_desc_t*>(desc->pNext); chained;
       chained = static_cast<const ze_base_desc_t*>(chained->pNext)) {
    if (chained->stype != ZE_STRUCTURE_TYPE_RELAXED_ALLOCATION_LIMITS_EXP_DESC) continue;
    const auto* limits = reinterpret_cast<const ze_relaxed_allocation_limits_exp_desc_t*>(chained);
    if (limits->flags & ~ZE_RELAXED_ALLOCATION_LIMITS_EXP_FLAG_MAX_SIZE)
      return reportError(ZE_RESULT_ERROR_INVALID_ENUMERATION, function, "the relaxed allocation limits' flags have unknown bits");
    relaxed = relaxed || (limits->flags & ZE_RELAXED_ALLOCATION_LIMITS_EXP_FLAG_MAX_SIZE);
  }
  return ZE_RESULT_SUCCESS;
}

ze_result_t allocate(const char* function, Context* context, core::MemoryType type, size_t size, size_t alignment,
                     Device* device, const ze_device_mem_alloc_desc_t* deviceDesc, void** pptr) {
  bool relaxed = false;
  if (ze_result_t result = relaxedLimits(function, deviceDesc, relaxed); result != ZE_RESULT_SUCCESS) return result;
  if (size == 0) return reportError(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, function, "size is 0");
  if (size > allocationLimit(*context, device, relaxed))
    return reportError(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, function,
                       relaxed ? "size exceeds the memory of the device, or of a device of the context"
                               : "size exceeds maxMemAllocSize of the device, or of a device of the context "
                                 "(see ZE_experimental_relaxed_allocation_limits)");
  if (alignment & (alignment - 1))
    return reportError(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT, function, "alignment is not a power of two");
  if (device && !context->contains(*device))
    return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, function, "hDevice is not a device of this context");
  auto allocation = core::Runtime::get().memory().allocate(type, size, alignment, device ? &device->core() : nullptr, context);
  if (!allocation) return reportError(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY, function, "out of memory");
  *pptr = allocation->address;
  return ZE_RESULT_SUCCESS;
}

ze_memory_type_t apiMemoryType(core::MemoryType type) {
  switch (type) {
    case core::MemoryType::Host: return ZE_MEMORY_TYPE_HOST;
    case core::MemoryType::Device: return ZE_MEMORY_TYPE_DEVICE;
    case core::MemoryType::Shared: return ZE_MEMORY_TYPE_SHARED;
  }
  return ZE_MEMORY_TYPE_UNKNOWN;
}

}  // namespace

ze_result_t zeMemAllocDevice(ze_context_handle_t hContext, const ze_device_mem_alloc_desc_t* device_desc, size_t size,
                             size_t alignment, ze_device_handle_t hDevice, void** pptr) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(device_desc);
  ZE_REQUIRE_POINTER(pptr);
  ZE_REQUIRE_DESCRIPTOR(device_desc, ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC);
  ZE_REQUIRE_FLAGS(device_desc->flags, kDeviceAllocFlags);
  return allocate(__func__, Context::fromHandle(hContext), core::MemoryType::Device, size, alignment,
                  Device::fromHandle(hDevice), device_desc, pptr);
}

ze_result_t zeMemAllocHost(ze_context_handle_t hContext, const ze_host_mem_alloc_desc_t* host_desc, size_t size,
                           size_t alignment, void** pptr) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_POINTER(host_desc);
  ZE_REQUIRE_POINTER(pptr);
  ZE_REQUIRE_DESCRIPTOR(host_desc, ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC);
  ZE_REQUIRE_FLAGS(host_desc->flags, kHostAllocFlags);
  return allocate(__func__, Context::fromHandle(hContext), core::MemoryType::Host, size, alignment, nullptr, nullptr, pptr);
}

ze_result_t zeMemAllocShared(ze_context_handle_t hContext, const ze_device_mem_alloc_desc_t* device_desc,
                             const ze_host_mem_alloc_desc_t* host_desc, size_t size, size_t alignment,
                             ze_device_handle_t hDevice, void** pptr) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_POINTER(device_desc);
  ZE_REQUIRE_POINTER(host_desc);
  ZE_REQUIRE_POINTER(pptr);
  ZE_REQUIRE_DESCRIPTOR(device_desc, ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC);
  ZE_REQUIRE_DESCRIPTOR(host_desc, ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC);
  ZE_REQUIRE_FLAGS(device_desc->flags, kDeviceAllocFlags);
  ZE_REQUIRE_FLAGS(host_desc->flags, kHostAllocFlags);
  Device* device = hDevice ? Device::fromHandle(hDevice) : nullptr;
  return allocate(__func__, Context::fromHandle(hContext), core::MemoryType::Shared, size, alignment, device, device_desc,
                  pptr);
}

namespace {

// Frees the Level Zero allocation at `ptr` once the work submitted until now is done (copies and
// kernels in flight may still use it), and calls `freed` then; an error where `ptr` is none.
ze_result_t freeAfterSubmittedWork(const char* function, ze_context_handle_t hContext, void* ptr, std::function<void()> freed) {
  auto& memory = core::Runtime::get().memory();
  auto allocation = memory.find(ptr);
  if (!allocation || allocation->address != ptr)
    return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, function, "ptr is not the base of an allocation");
  // As in the model runtime, any context of the driver frees the driver's allocations.
  if (!isAllocationOfDriver(*allocation, Context::fromHandle(hContext)->driver()))
    return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, function,
                       "ptr is no Level Zero allocation of this driver (a module variable, OpenCL memory, or its context is destroyed)");
  // The id keeps a repeated free from releasing a later allocation at the same address.
  core::Runtime::get().releaseAfterSubmittedWork([&memory, ptr, id = allocation->id, freed = std::move(freed)] {
    memory.free(ptr, id);
    freed();
  });
  return ZE_RESULT_SUCCESS;
}

}  // namespace

ze_result_t zeMemFree(ze_context_handle_t hContext, void* ptr) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_POINTER(ptr);
  return freeAfterSubmittedWork(__func__, hContext, ptr, [] {});
}

// ZE_extension_memory_free_policies. zeMemFree already defers (DEFER_FREE); BLOCKING_FREE waits
// until the work submitted before the call is done and the memory is free.
ze_result_t zeMemFreeExt(ze_context_handle_t hContext, const ze_memory_free_ext_desc_t* pMemFreeDesc, void* ptr) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_POINTER(pMemFreeDesc);
  ZE_REQUIRE_POINTER(ptr);
  ZE_REQUIRE_DESCRIPTOR(pMemFreeDesc, ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC);
  ZE_REQUIRE_FLAGS(pMemFreeDesc->freePolicy, kMemoryFreePolicies);
  if (!(pMemFreeDesc->freePolicy & ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE))
    return freeAfterSubmittedWork(__func__, hContext, ptr, [] {});
  auto done = std::make_shared<std::promise<void>>();
  std::future<void> freed = done->get_future();
  const ze_result_t result = freeAfterSubmittedWork(__func__, hContext, ptr, [done] { done->set_value(); });
  if (result == ZE_RESULT_SUCCESS) freed.wait();
  return result;
}

ze_result_t zeMemGetAllocProperties(ze_context_handle_t hContext, const void* ptr,
                                    ze_memory_allocation_properties_t* pMemAllocProperties, ze_device_handle_t* phDevice) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_POINTER(ptr);
  ZE_REQUIRE_POINTER(pMemAllocProperties);
  auto allocation = core::Runtime::get().memory().find(ptr);
  if (!allocation || allocation->owner != Context::fromHandle(hContext)) {
    pMemAllocProperties->type = ZE_MEMORY_TYPE_UNKNOWN;
    pMemAllocProperties->id = 0;
    pMemAllocProperties->pageSize = 0;
    if (phDevice) *phDevice = nullptr;
    return ZE_RESULT_SUCCESS;
  }
  pMemAllocProperties->type = apiMemoryType(allocation->type);
  pMemAllocProperties->id = allocation->id;
  pMemAllocProperties->pageSize = core::pageSize();
  if (phDevice) *phDevice = allocation->device ? Context::fromHandle(hContext)->driver().device(allocation->device) : nullptr;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeMemGetAddressRange(ze_context_handle_t hContext, const void* ptr, void** pBase, size_t* pSize) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_POINTER(ptr);
  auto allocation = core::Runtime::get().memory().find(ptr);
  ZE_REQUIRE(allocation && allocation->owner == Context::fromHandle(hContext), ZE_RESULT_ERROR_NOT_AVAILABLE,
             "ptr is not inside an allocation of this context");
  if (pBase) *pBase = allocation->address;
  if (pSize) *pSize = allocation->size;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeMemGetIpcHandle(ze_context_handle_t hContext, const void* ptr, ze_ipc_mem_handle_t* pIpcHandle) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_POINTER(ptr);
  ZE_REQUIRE_POINTER(pIpcHandle);
  auto& memory = core::Runtime::get().memory();
  auto allocation = memory.find(ptr);
  // As zeMemFree, and as in the model runtime: any context of the driver exports the driver's allocations.
  ZE_REQUIRE(allocation && isAllocationOfDriver(*allocation, Context::fromHandle(hContext)->driver()),
             ZE_RESULT_ERROR_INVALID_ARGUMENT,
             "ptr is not inside a Level Zero allocation of this driver (a module variable, OpenCL memory, or its "
             "context is destroyed)");
  const std::optional<core::IpcMemoryHandle> handle = memory.exportIpc(*allocation, ptr);
  ZE_REQUIRE(handle.has_value(), ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
             "the device's driver cannot share this allocation with other processes (a GPU shares device and host "
             "allocations, not shared ones)");
  static_assert(sizeof(pIpcHandle->data) == core::kIpcHandleSize);
  const core::IpcHandleBytes bytes = core::encodeIpcHandle(*handle);
  std::memcpy(pIpcHandle->data, bytes.data(), bytes.size());
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeMemOpenIpcHandle(ze_context_handle_t hContext, ze_device_handle_t hDevice, ze_ipc_mem_handle_t handle,
                               ze_ipc_memory_flags_t flags, void** pptr) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(pptr);
  ZE_REQUIRE_FLAGS(flags, ZE_IPC_MEMORY_FLAG_BIAS_CACHED | ZE_IPC_MEMORY_FLAG_BIAS_UNCACHED);
  std::string why;
  const std::optional<core::IpcMemoryHandle> ipc =
      core::readIpcMemoryHandle(reinterpret_cast<const uint8_t*>(handle.data), sizeof(handle.data), why);
  if (!ipc) return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, __func__, why.c_str());
  auto allocation =
      core::Runtime::get().memory().importIpc(*ipc, &Device::fromHandle(hDevice)->core(), Context::fromHandle(hContext), why);
  if (!allocation) return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, __func__, why.c_str());
  *pptr = static_cast<char*>(allocation->address) + ipc->offset;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeMemCloseIpcHandle(ze_context_handle_t hContext, const void* ptr) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_POINTER(ptr);
  ZE_REQUIRE(core::Runtime::get().memory().closeIpc(ptr, Context::fromHandle(hContext)), ZE_RESULT_ERROR_INVALID_ARGUMENT,
             "ptr was not opened from an IPC handle in this context, or is closed already");
  return ZE_RESULT_SUCCESS;
}

}  // namespace loom::l0
