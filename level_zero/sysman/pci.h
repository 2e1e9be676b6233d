#pragma once
// PCI of a sysman device: address, link speeds and BARs, where the device is a PCI function (a
// GPU); the CPU device has none and answers ZE_RESULT_ERROR_UNSUPPORTED_FEATURE.
#include <level_zero/zes_api.h>

namespace loom::l0 {

ze_result_t zesDevicePciGetProperties(zes_device_handle_t hDevice, zes_pci_properties_t* pProperties);
ze_result_t zesDevicePciGetState(zes_device_handle_t hDevice, zes_pci_state_t* pState);
ze_result_t zesDevicePciGetBars(zes_device_handle_t hDevice, uint32_t* pCount, zes_pci_bar_properties_t* pProperties);

}  // namespace loom::l0
