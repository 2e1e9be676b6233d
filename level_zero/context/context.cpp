#include "level_zero/context/context.h"

#include <algorithm>

#include "level_zero/device/device.h"
#include "level_zero/driver/driver.h"
#include "level_zero/validation.h"
#include "loom/core/runtime.h"

namespace loom::l0 {

Context::~Context() { core::Runtime::get().memory().freeAllOf(this); }

core::AddressSpace* Context::addressSpace() const {
  return devices_.empty() ? nullptr : devices_.front()->core().backend().addressSpace();
}

bool Context::contains(const Device& device) const {
  return std::any_of(devices_.begin(), devices_.end(), [&](Device* mine) { return mine->isRelated(device); });
}

ze_result_t zeContextCreate(ze_driver_handle_t hDriver, const ze_context_desc_t* desc, ze_context_handle_t* phContext) {
  ZE_REQUIRE_HANDLE(hDriver);
  Driver* driver = Driver::fromHandle(hDriver);
  std::vector<ze_device_handle_t> all(driver->devices().begin(), driver->devices().end());
  return l0::zeContextCreateEx(hDriver, desc, static_cast<uint32_t>(all.size()), all.data(), phContext);
}

ze_result_t zeContextCreateEx(ze_driver_handle_t hDriver, const ze_context_desc_t* desc, uint32_t numDevices,
                              ze_device_handle_t* phDevices, ze_context_handle_t* phContext) {
  ZE_REQUIRE_HANDLE(hDriver);
  ZE_REQUIRE_POINTER(desc);
  ZE_REQUIRE_POINTER(phContext);
  ZE_REQUIRE_DESCRIPTOR(desc, ZE_STRUCTURE_TYPE_CONTEXT_DESC);
  ZE_REQUIRE(numDevices == 0 || phDevices != nullptr, ZE_RESULT_ERROR_INVALID_SIZE, "numDevices > 0 but phDevices is null");
  ZE_REQUIRE_FLAGS(desc->flags, ZE_CONTEXT_FLAG_TBD);
  Driver* driver = Driver::fromHandle(hDriver);
  std::vector<Device*> devices;
  ZE_REQUIRE_HANDLES(numDevices, phDevices);
  for (uint32_t i = 0; i < numDevices; ++i) devices.push_back(Device::fromHandle(phDevices[i]));
  if (devices.empty()) devices = driver->devices();
  *phContext = new Context(*driver, std::move(devices));
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeContextDestroy(ze_context_handle_t hContext) {
  ZE_REQUIRE_HANDLE(hContext);
  // The context's allocations and reservations go once work in flight no longer uses them.
  Context* context = Context::fromHandle(hContext);
  context->retireHandle();
  core::Runtime::get().releaseAfterSubmittedWork([context] { delete context; });
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeContextGetStatus(ze_context_handle_t hContext) {
  ZE_REQUIRE_HANDLE(hContext);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeContextSystemBarrier(ze_context_handle_t hContext, ze_device_handle_t hDevice) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_HANDLE(hDevice);
  // Every engine completes its commands in order and memory is coherent on the CPU: a full fence suffices.
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  return ZE_RESULT_SUCCESS;
}

namespace {
ze_result_t checkResidencyRange(Context* context, void* ptr, size_t size) {
  auto allocation = core::Runtime::get().memory().find(ptr);
  ZE_REQUIRE(allocation && allocation->owner == context, ZE_RESULT_ERROR_INVALID_ARGUMENT, "ptr is not an allocation of this context");
  const size_t offset = static_cast<char*>(ptr) - static_cast<char*>(allocation->address);
  ZE_REQUIRE(size <= allocation->size - offset, ZE_RESULT_ERROR_INVALID_SIZE, "range goes past the allocation");
  return ZE_RESULT_SUCCESS;
}
}  // namespace

// Loom's memory is always resident (host memory on the CPU), so residency calls only validate.
ze_result_t zeContextMakeMemoryResident(ze_context_handle_t hContext, ze_device_handle_t hDevice, void* ptr, size_t size) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(ptr);
  return checkResidencyRange(Context::fromHandle(hContext), ptr, size);
}

ze_result_t zeContextEvictMemory(ze_context_handle_t hContext, ze_device_handle_t hDevice, void* ptr, size_t size) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(ptr);
  return checkResidencyRange(Context::fromHandle(hContext), ptr, size);
}

}  // namespace loom::l0
