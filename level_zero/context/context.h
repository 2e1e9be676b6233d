#pragma once
// A Level Zero context: the owner of allocations, and the scope of modules, queues and lists.
#include <level_zero/ze_api.h>

#include <map>
#include <mutex>
#include <vector>

#include "loom/core/shared_memory.h"

struct _ze_context_handle_t {};

namespace loom::l0 {

class Driver;
class Device;

class Context : public _ze_context_handle_t {
 public:
  Context(Driver& driver, std::vector<Device*> devices) : driver_(driver), devices_(std::move(devices)) {}
  ~Context();
  static Context* fromHandle(ze_context_handle_t handle) { return static_cast<Context*>(handle); }

  Driver& driver() const { return driver_; }
  // Devices the context was created for (with their sub-devices).
  bool contains(const Device& device) const;

  // Virtual memory of this context (memory/virtual_memory.cpp), guarded by virtualMutex:
  // reservations (base -> size) and the access attribute of each mapped page.
  std::mutex virtualMutex;
  std::map<uintptr_t, size_t> reservations;
  std::map<uintptr_t, ze_memory_access_attribute_t> pageAccess;

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
