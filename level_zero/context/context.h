#pragma once
// A Level Zero context: the owner of allocations, and the scope of modules, queues and lists.
#include <level_zero/ze_api.h>

#include <vector>

#include "level_zero/handle/handle.h"
#include "loom/core/virtual_memory_map.h"

namespace loom::l0 {

class Driver;
class Device;

class Context : public _ze_context_handle_t {
 public:
  Context(Driver& driver, std::vector<Device*> devices) : driver_(driver), devices_(std::move(devices)) {}
  ~Context();
  static Context* fromHandle(ze_context_handle_t handle) { return static_cast<Context*>(handle); }

  Driver& driver() const { return driver_; }
  // The devices the context was created for.
  const std::vector<Device*>& devices() const { return devices_; }
  // Whether `device` is one of them or one of their sub-devices.
  bool contains(const Device& device) const;

  // Where the context reserves virtual memory: the address space of its first device (GPUs come
  // first), whose physical memory, and that of devices sharing the space, maps into it. nullptr
  // when that device has no virtual memory.
  core::AddressSpace* addressSpace() const;
  // Its reservations and mappings (memory/virtual_memory.cpp).
  core::VirtualMemoryMap virtualMemory;

 private:
  Driver& driver_;
  std::vector<Device*> devices_;
};

ze_result_t zeContextCreate(ze_driver_handle_t hDriver, const ze_context_desc_t* desc, ze_context_handle_t* phContext);
ze_result_t zeContextCreateEx(ze_driver_handle_t hDriver, const ze_context_desc_t* desc, uint32_t numDevices,
                              ze_device_handle_t* phDevices, ze_context_handle_t* phContext);
ze_result_t zeContextDestroy(ze_context_handle_t hContext);
ze_result_t zeContextGetStatus(ze_context_handle_t hContext);
ze_result_t zeContextSystemBarrier(ze_context_handle_t hContext, ze_device_handle_t hDevice);
ze_result_t zeContextMakeMemoryResident(ze_context_handle_t hContext, ze_device_handle_t hDevice, void* ptr, size_t size);
ze_result_t zeContextEvictMemory(ze_context_handle_t hContext, ze_device_handle_t hDevice, void* ptr, size_t size);

}  // namespace loom::l0
