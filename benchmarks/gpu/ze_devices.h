#pragma once
// Every device of every Level Zero driver the loader finds, with its driver.
#include <level_zero/ze_api.h>

#include <utility>
#include <vector>

namespace loom::benchmarks {

inline std::vector<std::pair<ze_driver_handle_t, ze_device_handle_t>> levelZeroDevices() {
  std::vector<std::pair<ze_driver_handle_t, ze_device_handle_t>> found;
  uint32_t drivers = 0;
  if (zeInit(0) != ZE_RESULT_SUCCESS || zeDriverGet(&drivers, nullptr) != ZE_RESULT_SUCCESS) return found;
  std::vector<ze_driver_handle_t> driverHandles(drivers);
  zeDriverGet(&drivers, driverHandles.data());
  for (ze_driver_handle_t driver : driverHandles) {
    uint32_t count = 0;
    zeDeviceGet(driver, &count, nullptr);
    std::vector<ze_device_handle_t> devices(count);
    zeDeviceGet(driver, &count, devices.data());
    for (ze_device_handle_t device : devices) found.emplace_back(driver, device);
  }
  return found;
}

}  // namespace loom::benchmarks
