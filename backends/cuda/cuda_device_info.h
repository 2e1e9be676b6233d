#pragma once
// What an NVIDIA GPU reports, read from the driver: device attributes translated into
// core::DeviceInfo by a pure function, so that the translation is tested without a GPU.
#include <array>
#include <cstdint>
#include <functional>
#include <string>

#include "backends/cuda/cuda_driver.h"
#include "loom/core/device_info.h"
#include "loom/core/telemetry.h"

namespace loom::backends::cuda {

// What the driver reports besides device attributes.
struct DeviceFacts {
  std::string name;
  uint64_t totalMemory = 0;
  std::array<uint8_t, 16> uuid{};
  uint32_t pciDeviceId = 0;  // the PCI product id, 0 when unknown
};

// An attribute's value; 0 when the driver does not know it.
using AttributeLookup = std::function<int(DeviceAttribute)>;

core::DeviceInfo translateDeviceInfo(const DeviceFacts& facts, const AttributeLookup& attribute);

// The PCI product id of the function at domain:bus:device.0, read from sysfs; 0 when unreadable.
uint32_t readPciDeviceId(int domain, int bus, int device, const std::string& sysfsDevices = "/sys/bus/pci/devices");

// The device's attributes, read from the driver.
AttributeLookup driverAttributes(const Driver& driver, CUdevice device);

// The GPU's PCI address (function 0: the CUDA driver reports no function number).
core::PciAddress pciAddress(const AttributeLookup& attribute);

core::DeviceInfo describeDevice(const Driver& driver, CUdevice device);

}  // namespace loom::backends::cuda
