#include "level_zero/sysman/pci.h"

#include "level_zero/sysman/sysman_device.h"

namespace loom::l0 {

namespace {
zes_pci_speed_t translate(const core::PciSpeed& speed) { return {speed.generation, speed.width, speed.bandwidth}; }
}  // namespace

ze_result_t zesDevicePciGetProperties(zes_device_handle_t hDevice, zes_pci_properties_t* pProperties) {
  ZES_REQUIRE_DEVICE(hDevice);
  ZE_REQUIRE_POINTER(pProperties);
  const auto pci = sysmanOf(hDevice).telemetry().pci();
  ZE_REQUIRE(pci.has_value(), ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "the device is not a PCI function");
  pProperties->address = {pci->address.domain, pci->address.bus, pci->address.device, pci->address.function};
  pProperties->maxSpeed = translate(pci->maxSpeed);
  pProperties->haveBandwidthCounters = false;
  pProperties->havePacketCounters = false;
  pProperties->haveReplayCounters = false;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zesDevicePciGetState(zes_device_handle_t hDevice, zes_pci_state_t* pState) {
  ZES_REQUIRE_DEVICE(hDevice);
  ZE_REQUIRE_POINTER(pState);
  const auto speed = sysmanOf(hDevice).telemetry().pciLinkSpeed();
  ZE_REQUIRE(speed.has_value(), ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "the device does not report its PCI link");
  // Link health is not measured: the status stays unknown rather than claimed good.
  pState->status = ZES_PCI_LINK_STATUS_UNKNOWN;
  pState->qualityIssues = 0;
  pState->stabilityIssues = 0;
  pState->speed = translate(*speed);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zesDevicePciGetBars(zes_device_handle_t hDevice, uint32_t* pCount, zes_pci_bar_properties_t* pProperties) {
  ZES_REQUIRE_DEVICE(hDevice);
  ZE_REQUIRE_POINTER(pCount);
  const auto pci = sysmanOf(hDevice).telemetry().pci();
  ZE_REQUIRE(pci.has_value(), ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "the device is not a PCI function");
  return fillArray(pci->bars, pCount, pProperties, [](zes_pci_bar_properties_t& p, const core::PciBar& bar) {
    p.type = bar.type == core::PciBar::Type::Rom      ? ZES_PCI_BAR_TYPE_ROM
             : bar.type == core::PciBar::Type::Memory ? ZES_PCI_BAR_TYPE_MEM
                                                      : ZES_PCI_BAR_TYPE_MMIO;
    p.index = bar.index;
    p.base = bar.base;
    p.size = bar.size;
  });
}

}  // namespace loom::l0
