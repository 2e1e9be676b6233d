#pragma once
// An NVIDIA GPU's telemetry: its PCI address from the CUDA driver, its BARs from sysfs, the rest
// from NVML. Without NVML only the PCI address and BARs are known and no domain is listed. The
// translations from NVML's values are plain functions, tested without a GPU.
#include <mutex>
#include <string>
#include <vector>

#include "backends/cuda/nvml.h"
#include "loom/core/peer_link.h"
#include "loom/core/telemetry.h"

namespace loom::backends::cuda {

// NVML's throttle reason bits as Level Zero's (core::ThrottleReason); reasons without a
// counterpart are left out.
uint32_t translateThrottleReasons(unsigned long long nvmlReasons);

// The bandwidth of a PCIe link in bytes per second after line encoding; -1 for unknown generations.
int64_t pcieBandwidth(int32_t generation, int32_t width);

// The BARs of /sys/bus/pci/devices/<address>/resource ("start end flags" lines; the 7th is the ROM);
// unused and I/O port entries are left out.
std::vector<core::PciBar> parsePciResources(const std::string& text);

// HBM stacks are 1024 bits wide each, GDDR buses at most 512: the width tells them apart.
core::MemoryKind memoryKindForBusWidth(uint32_t busWidth);

// A monotonic busy-time counter integrated from NVML's utilization samples: each sample's percentage
// of the interval since the sample before it.
struct UtilizationSample {
  uint64_t timestampUs;
  double percent;
};
struct UtilizationCounter {
  uint64_t activeUs = 0;
  uint64_t lastTimestampUs = 0;  // 0 before the first sample
  void add(std::vector<UtilizationSample> samples);
};

// A sample's value as a percentage, by NVML's value type; nullopt for types utilization never uses.
std::optional<double> samplePercent(int valueType, const nvmlValue_t& value);

class NvmlTelemetry final : public core::Telemetry {
 public:
  // `nvml` and `device` may be null (no NVML): then only pci() answers.
  NvmlTelemetry(std::shared_ptr<const Nvml> nvml, nvmlDevice_t device, core::PciAddress address,
                std::string sysfsDevices = "/sys/bus/pci/devices");

  core::ProductStrings productStrings() override;
  std::optional<bool> resetPending() override;
  std::optional<core::PciDescription> pci() override;
  std::optional<core::PciSpeed> pciLinkSpeed() override;
  std::vector<core::FrequencyDomain> frequencyDomains() override { return frequency_; }
  std::vector<double> availableClocksMHz(uint32_t domain) override;
  std::optional<core::FrequencyState> frequencyState(uint32_t domain) override;
  std::vector<core::PowerDomain> powerDomains() override { return power_; }
  std::optional<core::EnergyReading> energy(uint32_t domain) override;
  std::optional<int32_t> sustainedPowerLimitMilliwatts(uint32_t domain) override;
  std::vector<core::TemperatureSensor> temperatureSensors() override { return sensors_; }
  std::optional<double> temperatureCelsius(uint32_t sensor) override;
  std::vector<core::MemoryModule> memoryModules() override { return memory_; }
  std::optional<core::MemoryState> memoryState(uint32_t module) override;
  std::vector<core::ActivityKind> engineGroups() override { return engines_; }
  std::optional<core::EngineActivity> engineActivity(uint32_t group) override;
  std::optional<core::EccState> eccState() override;
  std::optional<std::vector<core::ProcessUsage>> processes() override;
  std::vector<core::Firmware> firmwares() override { return firmwares_; }
  std::optional<std::string> firmwareVersion(uint32_t firmware) override;

 private:
  bool hasNvml() const { return nvml_ && device_; }
  // Calls an optional NVML function (hasNvml() first); false when it is absent or fails.
  template <typename Function, typename... Arguments>
  bool call(Function function, Arguments... arguments) const {
    return function && function(device_, arguments...) == NVML_SUCCESS;
  }
  std::optional<uint32_t> unsignedValue(nvmlReturn_t (*function)(nvmlDevice_t, unsigned int*)) const;
  std::vector<unsigned int> supportedClocks(uint32_t domain) const;
  std::optional<std::string> vbiosVersion() const;
  void findDomains();

  std::shared_ptr<const Nvml> nvml_;
  nvmlDevice_t device_;
  core::PciAddress address_;
  std::string sysfsDevices_;
  std::vector<core::FrequencyDomain> frequency_;
  std::vector<core::PowerDomain> power_;
  std::vector<core::TemperatureSensor> sensors_;
  std::vector<core::MemoryModule> memory_;
  std::vector<core::ActivityKind> engines_;
  std::vector<core::Firmware> firmwares_;
  std::mutex utilizationMutex_;
  UtilizationCounter utilization_;
};

// NVML's process entry as Level Zero's: memory NVML does not know is reported as 0.
core::ProcessUsage processUsage(const nvmlProcessInfo_v2_t& info);

// The telemetry of the GPU at `address`: NVML's device of that PCI address, or without NVML (the
// debug message says why) the PCI description alone.
std::unique_ptr<core::Telemetry> createNvmlTelemetry(core::PciAddress address);

// The design rate of one NVLink in each direction, in bytes per nanosecond, by the version NVML
// reports for it; 0 for a version it does not know.
uint32_t nvlinkBytesPerNanosecond(unsigned int version);

// The peer link from GPU `from` to GPU `to` (at PCI address `toAddress`) as NVML reports it: NVLink
// where P2P over NVLink works, with the bandwidth of the active links that join the two directly,
// one hop; PCIe where P2P over PCI works, its figures unknown; nothing where NVML says neither.
core::PeerLink peerLink(const Nvml& nvml, nvmlDevice_t from, nvmlDevice_t to, core::PciAddress toAddress);
// The same for the GPUs at two PCI addresses; nothing without NVML.
core::PeerLink nvmlPeerLink(core::PciAddress from, core::PciAddress to);

}  // namespace loom::backends::cuda
