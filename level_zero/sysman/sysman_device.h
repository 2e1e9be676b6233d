#pragma once
// Level Zero Sysman over core::Telemetry. Level Zero 1.4 has no zesInit: sysman is enabled by
// ZES_ENABLE_SYSMAN=1 when zeInit runs, and device handles serve as sysman device handles. Without
// it, and before zeInit, every zes* call fails with ZE_RESULT_ERROR_UNINITIALIZED.
//
// Each device's domains (frequency, power, temperature, memory, engines) and firmwares are
// enumerated once, on first use, as API objects with a handle tag of their kind
// (level_zero/handle/handle.h, firmware's below). A sub-device's handle reports its root device's.
#include <level_zero/zes_api.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "level_zero/handle/handle.h"
#include "level_zero/two_call.h"
#include "level_zero/validation.h"
#include "loom/core/telemetry.h"

namespace loom::l0 {

class Device;

// One domain of a device: which of the telemetry's domains it is, and its description.
template <typename Handle, typename Description>
class SysmanObject : public Handle {
 public:
  SysmanObject(core::Telemetry& telemetry, uint32_t index, Description description)
      : telemetry_(telemetry), index_(index), description_(description) {}
  static SysmanObject* fromHandle(Handle* handle) { return static_cast<SysmanObject*>(handle); }

  core::Telemetry& telemetry() const { return telemetry_; }
  uint32_t index() const { return index_; }
  const Description& description() const { return description_; }

 private:
  core::Telemetry& telemetry_;
  uint32_t index_;
  Description description_;
};

using FrequencyDomain = SysmanObject<_zes_freq_handle_t, core::FrequencyDomain>;
using PowerDomain = SysmanObject<_zes_pwr_handle_t, core::PowerDomain>;
using TemperatureSensor = SysmanObject<_zes_temp_handle_t, core::TemperatureSensor>;
using MemoryModule = SysmanObject<_zes_mem_handle_t, core::MemoryModule>;
using EngineGroup = SysmanObject<_zes_engine_handle_t, core::ActivityKind>;
using Firmware = SysmanObject<_zes_firmware_handle_t, core::Firmware>;

// A device's sysman view: its telemetry and the objects of its domains.
class SysmanDevice {
 public:
  explicit SysmanDevice(core::Telemetry& telemetry);

  core::Telemetry& telemetry() const { return telemetry_; }
  std::vector<std::unique_ptr<FrequencyDomain>> frequencyDomains;
  std::vector<std::unique_ptr<PowerDomain>> powerDomains;
  std::vector<std::unique_ptr<TemperatureSensor>> temperatureSensors;
  std::vector<std::unique_ptr<MemoryModule>> memoryModules;
  std::vector<std::unique_ptr<EngineGroup>> engineGroups;
  std::vector<std::unique_ptr<Firmware>> firmwares;

 private:
  core::Telemetry& telemetry_;
};

// ZE_RESULT_SUCCESS when sysman is enabled and `hDevice` is a Loom device; the failure otherwise.
ze_result_t checkSysmanDevice(zes_device_handle_t hDevice, const char* function);
ze_result_t checkSysmanEnabled(const char* function);
SysmanDevice& sysmanOf(zes_device_handle_t hDevice);

// The handles of `objects`, by the two-call idiom.
template <typename Object, typename Handle>
ze_result_t listHandles(const std::vector<std::unique_ptr<Object>>& objects, uint32_t* pCount, Handle* out) {
  return fillArray(objects, pCount, out, [](Handle& handle, const std::unique_ptr<Object>& object) { handle = object.get(); });
}

// Fills `out` (one of the zes_*_properties_t strings) with `text`, or "unknown" as the spec asks
// when the system does not say.
template <size_t Size>
void copyProperty(char (&out)[Size], const std::string& text) {
  std::memset(out, 0, Size);
  std::strncpy(out, text.empty() ? "unknown" : text.c_str(), Size - 1);
}

// A reading the system did not give this time (a file vanished, NVML failed).
ze_result_t readingFailed(const char* function);

ze_result_t zesDeviceGetProperties(zes_device_handle_t hDevice, zes_device_properties_t* pProperties);
ze_result_t zesDeviceGetState(zes_device_handle_t hDevice, zes_device_state_t* pState);
ze_result_t zesDeviceEccAvailable(zes_device_handle_t hDevice, ze_bool_t* pAvailable);
ze_result_t zesDeviceEccConfigurable(zes_device_handle_t hDevice, ze_bool_t* pConfigurable);
ze_result_t zesDeviceGetEccState(zes_device_handle_t hDevice, zes_device_ecc_properties_t* pState);
ze_result_t zesDeviceSetEccState(zes_device_handle_t hDevice, const zes_device_ecc_desc_t* newState, zes_device_ecc_properties_t* pState);
ze_result_t zesDeviceProcessesGetState(zes_device_handle_t hDevice, uint32_t* pCount, zes_process_state_t* pProcesses);

}  // namespace loom::l0

// Sysman enabled, `handle` not null and a Loom device.
#define ZES_REQUIRE_DEVICE(handle)                                                       \
  do {                                                                                   \
    const ze_result_t deviceCheck = ::loom::l0::checkSysmanDevice(handle, __func__);     \
    if (deviceCheck != ZE_RESULT_SUCCESS) return deviceCheck;                            \
  } while (0)

// Sysman enabled and `handle` not null; declares `object`. The DDI wrappers already checked that
// a handle that is not null is a live object of its kind.
#define ZES_REQUIRE_OBJECT(Object, handle)                                                         \
  do {                                                                                             \
    const ze_result_t enabledCheck = ::loom::l0::checkSysmanEnabled(__func__);                     \
    if (enabledCheck != ZE_RESULT_SUCCESS) return enabledCheck;                                    \
  } while (0);                                                                                     \
  ZE_REQUIRE_HANDLE(handle);                                                                       \
  Object* object = Object::fromHandle(handle)
