#include "backends/cuda/nvml_telemetry.h"

#include <time.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "loom/core/log.h"

namespace loom::backends::cuda {

namespace {

constexpr uint32_t kHbmStackBits = 1024;
constexpr int kPciRomIndex = 6;
// struct resource flags of Linux's sysfs "resource" file.
constexpr uint64_t kIoResourceIo = 0x100, kIoResourceMem = 0x200, kIoResourcePrefetch = 0x2000;
// Processes may start between NVML's count and its listing: a few more tries, with room to spare.
constexpr int kProcessListingTries = 4;
constexpr unsigned int kSpareProcessEntries = 8;

uint64_t monotonicMicroseconds() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return uint64_t(now.tv_sec) * 1000000 + uint64_t(now.tv_nsec) / 1000;
}

std::string text(const char* buffer) { return buffer[0] ? std::string(buffer) : std::string(); }

// NVML's name of the GPU at `address`.
std::string pciBusId(core::PciAddress address) {
  char busId[32];
  std::snprintf(busId, sizeof(busId), "%08x:%02x:%02x.%x", address.domain, address.bus, address.device, address.function);
  return busId;
}

// nvmlGpuP2PCapsIndex_t and nvmlGpuP2PStatus_t values.
constexpr int kP2PNvLink = 2, kP2PPci = 4, kP2PStatusOk = 0;

}  // namespace

uint32_t translateThrottleReasons(unsigned long long nvmlReasons) {
  uint32_t reasons = 0;
  if (nvmlReasons & kNvmlThrottleSwPowerCap) reasons |= core::kThrottleAveragePower;
  if (nvmlReasons & (kNvmlThrottleSwThermalSlowdown | kNvmlThrottleHwThermalSlowdown)) reasons |= core::kThrottleThermal;
  if (nvmlReasons & kNvmlThrottleHwPowerBrakeSlowdown) reasons |= core::kThrottlePowerSupply;
  if (nvmlReasons & kNvmlThrottleApplicationsClocksSetting) reasons |= core::kThrottleSoftwareRange;
  return reasons;
}

// Per-lane rates: 2.5 and 5 GT/s with 8b/10b encoding, then 8, 16 and 32 GT/s with 128b/130b.
int64_t pcieBandwidth(int32_t generation, int32_t width) {
  static constexpr int64_t kLaneBytesPerSecond[] = {250000000, 500000000, 984615384, 1969230769, 3938461538};
  if (generation < 1 || generation > 5 || width < 1) return -1;
  return kLaneBytesPerSecond[generation - 1] * width;
}

std::vector<core::PciBar> parsePciResources(const std::string& text) {
  std::vector<core::PciBar> bars;
  std::istringstream lines(text);
  std::string line;
  for (uint32_t index = 0; index <= kPciRomIndex && std::getline(lines, line); ++index) {
    unsigned long long start = 0, end = 0, flags = 0;
    if (std::sscanf(line.c_str(), "%llx %llx %llx", &start, &end, &flags) != 3) continue;
    if (end <= start || (flags & kIoResourceIo) || !(flags & kIoResourceMem)) continue;
    core::PciBar bar;
    bar.type = index == kPciRomIndex             ? core::PciBar::Type::Rom
               : (flags & kIoResourcePrefetch) ? core::PciBar::Type::Memory
                                               : core::PciBar::Type::Mmio;
    bar.index = index;
    bar.base = start;
    bar.size = end - start + 1;
    bars.push_back(bar);
  }
  return bars;
}

core::MemoryKind memoryKindForBusWidth(uint32_t busWidth) {
  // GDDR is a DDR SDRAM: Level Zero's generic DDR, as its own generation is not reported.
  return busWidth >= kHbmStackBits ? core::MemoryKind::Hbm : core::MemoryKind::Ddr;
}

void UtilizationCounter::add(std::vector<UtilizationSample> samples) {
  std::sort(samples.begin(), samples.end(), [](auto& a, auto& b) { return a.timestampUs < b.timestampUs; });
  for (const UtilizationSample& sample : samples) {
    if (sample.timestampUs <= lastTimestampUs) continue;
    if (lastTimestampUs != 0)
      activeUs += uint64_t(double(sample.timestampUs - lastTimestampUs) * std::clamp(sample.percent, 0.0, 100.0) / 100);
    lastTimestampUs = sample.timestampUs;
  }
}

std::optional<double> samplePercent(int valueType, const nvmlValue_t& value) {
  switch (valueType) {
    case NVML_VALUE_TYPE_DOUBLE:
      return value.dVal;
    case NVML_VALUE_TYPE_UNSIGNED_INT:
      return double(value.uiVal);
    case NVML_VALUE_TYPE_UNSIGNED_LONG:
      return double(value.ulVal);
    case NVML_VALUE_TYPE_UNSIGNED_LONG_LONG:
      return double(value.ullVal);
    default:
      return std::nullopt;
  }
}

core::ProcessUsage processUsage(const nvmlProcessInfo_v2_t& info) {
  return {info.pid, info.usedGpuMemory == NVML_VALUE_NOT_AVAILABLE ? 0 : uint64_t(info.usedGpuMemory)};
}

NvmlTelemetry::NvmlTelemetry(std::shared_ptr<const Nvml> nvml, nvmlDevice_t device, core::PciAddress address,
                             std::string sysfsDevices)
    : nvml_(std::move(nvml)), device_(device), address_(address), sysfsDevices_(std::move(sysfsDevices)) {
  if (hasNvml()) findDomains();
}

std::optional<uint32_t> NvmlTelemetry::unsignedValue(nvmlReturn_t (*function)(nvmlDevice_t, unsigned int*)) const {
  unsigned int value = 0;
  if (!call(function, &value)) return std::nullopt;
  return value;
}

// A domain is listed when its reading works now.
void NvmlTelemetry::findDomains() {
  for (core::ClockKind kind : {core::ClockKind::Compute, core::ClockKind::Memory}) {
    const int clock = kind == core::ClockKind::Compute ? NVML_CLOCK_GRAPHICS : NVML_CLOCK_MEM;
    unsigned int actual = 0, max = 0;
    if (!call(nvml_->nvmlDeviceGetClockInfo, clock, &actual)) continue;
    core::FrequencyDomain domain{kind};
    if (call(nvml_->nvmlDeviceGetMaxClockInfo, clock, &max)) domain.maxMHz = max;
    frequency_.push_back(domain);
    const std::vector<unsigned int> supported = supportedClocks(uint32_t(frequency_.size() - 1));
    if (!supported.empty()) frequency_.back().minMHz = *std::min_element(supported.begin(), supported.end());
  }
  unsigned long long millijoules = 0;
  if (call(nvml_->nvmlDeviceGetTotalEnergyConsumption, &millijoules)) {
    core::PowerDomain domain;
    unsigned int low = 0, high = 0;
    if (call(nvml_->nvmlDeviceGetPowerManagementLimitConstraints, &low, &high)) {
      domain.minLimitMilliwatts = int32_t(low);
      domain.maxLimitMilliwatts = int32_t(high);
    }
    if (auto limit = unsignedValue(nvml_->nvmlDeviceGetPowerManagementDefaultLimit)) domain.defaultLimitMilliwatts = int32_t(*limit);
    power_.push_back(domain);
  }
  unsigned int celsius = 0, shutdown = 0;
  if (call(nvml_->nvmlDeviceGetTemperature, NVML_TEMPERATURE_GPU, &celsius)) {
    const bool known = call(nvml_->nvmlDeviceGetTemperatureThreshold, NVML_TEMPERATURE_THRESHOLD_SHUTDOWN, &shutdown);
    sensors_.push_back({core::SensorKind::Compute, known ? double(shutdown) : -1});
  }
  nvmlMemory_t memory{};
  if (call(nvml_->nvmlDeviceGetMemoryInfo, &memory)) {
    const auto busWidth = unsignedValue(nvml_->nvmlDeviceGetMemoryBusWidth);
    memory_.push_back({busWidth ? memoryKindForBusWidth(*busWidth) : core::MemoryKind::Ddr, true, memory.total,
                       busWidth ? int32_t(*busWidth) : -1, -1});
  }
  int valueType = 0;
  unsigned int count = 0;
  const nvmlReturn_t sampling = nvml_->nvmlDeviceGetSamples
                                    ? nvml_->nvmlDeviceGetSamples(device_, NVML_GPU_UTILIZATION_SAMPLES, 0, &valueType, &count, nullptr)
                                    : NVML_ERROR_NOT_SUPPORTED;
  // Kernels running, as NVML's GPU utilization counts them; no sample yet is not a failure.
  if (sampling == NVML_SUCCESS || sampling == NVML_ERROR_NOT_FOUND) engines_.push_back(core::ActivityKind::Compute);
  if (vbiosVersion()) firmwares_.push_back({"VBIOS"});
}

core::ProductStrings NvmlTelemetry::productStrings() {
  core::ProductStrings strings;
  if (!hasNvml()) return strings;
  char buffer[96] = {};
  if (call(nvml_->nvmlDeviceGetSerial, buffer, unsigned(sizeof(buffer)))) strings.serialNumber = text(buffer);
  buffer[0] = '\0';
  if (call(nvml_->nvmlDeviceGetBoardPartNumber, buffer, unsigned(sizeof(buffer)))) strings.boardNumber = text(buffer);
  return strings;
}

// Row remapping waits for a reset to take effect.
std::optional<bool> NvmlTelemetry::resetPending() {
  unsigned int corrected = 0, uncorrected = 0, pending = 0, failed = 0;
  if (!hasNvml() || !call(nvml_->nvmlDeviceGetRemappedRows, &corrected, &uncorrected, &pending, &failed)) return std::nullopt;
  return pending != 0;
}

std::optional<core::PciDescription> NvmlTelemetry::pci() {
  core::PciDescription pci;
  pci.address = address_;
  char folder[32];
  std::snprintf(folder, sizeof(folder), "/%04x:%02x:%02x.%x/resource", address_.domain, address_.bus, address_.device,
                address_.function);
  std::ifstream resources(sysfsDevices_ + folder);
  std::stringstream contents;
  contents << resources.rdbuf();
  pci.bars = parsePciResources(contents.str());
  if (!hasNvml()) return pci;
  const auto generation = unsignedValue(nvml_->nvmlDeviceGetMaxPcieLinkGeneration);
  const auto width = unsignedValue(nvml_->nvmlDeviceGetMaxPcieLinkWidth);
  if (generation) pci.maxSpeed.generation = int32_t(*generation);
  if (width) pci.maxSpeed.width = int32_t(*width);
  pci.maxSpeed.bandwidth = pcieBandwidth(pci.maxSpeed.generation, pci.maxSpeed.width);
  return pci;
}

std::optional<core::PciSpeed> NvmlTelemetry::pciLinkSpeed() {
  if (!hasNvml()) return std::nullopt;
  const auto generation = unsignedValue(nvml_->nvmlDeviceGetCurrPcieLinkGeneration);
  const auto width = unsignedValue(nvml_->nvmlDeviceGetCurrPcieLinkWidth);
  if (!generation && !width) return std::nullopt;
  core::PciSpeed speed;
  if (generation) speed.generation = int32_t(*generation);
  if (width) speed.width = int32_t(*width);
  speed.bandwidth = pcieBandwidth(speed.generation, speed.width);
  return speed;
}

// Graphics clocks are listed for the highest memory clock, the one the GPU runs compute at.
std::vector<unsigned int> NvmlTelemetry::supportedClocks(uint32_t domain) const {
  unsigned int count = 0;
  call(nvml_->nvmlDeviceGetSupportedMemoryClocks, &count, nullptr);  // sets count, then fails for want of room
  if (count == 0) return {};
  std::vector<unsigned int> memoryClocks(count);
  if (!call(nvml_->nvmlDeviceGetSupportedMemoryClocks, &count, memoryClocks.data()) || count == 0) return {};
  memoryClocks.resize(count);
  if (frequency_[domain].kind == core::ClockKind::Memory) return memoryClocks;
  const unsigned int memoryClock = *std::max_element(memoryClocks.begin(), memoryClocks.end());
  count = 0;
  call(nvml_->nvmlDeviceGetSupportedGraphicsClocks, memoryClock, &count, nullptr);
  std::vector<unsigned int> graphicsClocks(count);
  if (count == 0 || !call(nvml_->nvmlDeviceGetSupportedGraphicsClocks, memoryClock, &count, graphicsClocks.data())) return {};
  graphicsClocks.resize(count);
  return graphicsClocks;
}

std::vector<double> NvmlTelemetry::availableClocksMHz(uint32_t domain) {
  if (domain >= frequency_.size()) return {};
  const std::vector<unsigned int> supported = supportedClocks(domain);
  std::vector<double> clocks(supported.begin(), supported.end());
  std::sort(clocks.begin(), clocks.end());
  return clocks;
}

std::optional<core::FrequencyState> NvmlTelemetry::frequencyState(uint32_t domain) {
  if (domain >= frequency_.size()) return std::nullopt;
  const int clock = frequency_[domain].kind == core::ClockKind::Compute ? NVML_CLOCK_GRAPHICS : NVML_CLOCK_MEM;
  unsigned int actual = 0;
  if (!call(nvml_->nvmlDeviceGetClockInfo, clock, &actual)) return std::nullopt;
  core::FrequencyState state;
  state.actualMHz = actual;
  unsigned long long reasons = 0;
  if (clock == NVML_CLOCK_GRAPHICS && call(nvml_->nvmlDeviceGetCurrentClocksThrottleReasons, &reasons))
    state.throttleReasons = translateThrottleReasons(reasons);
  return state;
}

// NVML counts millijoules since the driver loaded.
std::optional<core::EnergyReading> NvmlTelemetry::energy(uint32_t domain) {
  unsigned long long millijoules = 0;
  if (domain >= power_.size() || !call(nvml_->nvmlDeviceGetTotalEnergyConsumption, &millijoules)) return std::nullopt;
  return core::EnergyReading{millijoules * 1000, monotonicMicroseconds()};
}

// The limit the driver enforces once every limiter (nvidia-smi -pl, the board, out-of-band settings)
// is taken into account.
std::optional<int32_t> NvmlTelemetry::sustainedPowerLimitMilliwatts(uint32_t domain) {
  if (domain >= power_.size()) return std::nullopt;
  const auto limit = unsignedValue(nvml_->nvmlDeviceGetEnforcedPowerLimit);
  if (!limit) return std::nullopt;
  return int32_t(*limit);
}

std::optional<double> NvmlTelemetry::temperatureCelsius(uint32_t sensor) {
  unsigned int celsius = 0;
  if (sensor >= sensors_.size() || !call(nvml_->nvmlDeviceGetTemperature, NVML_TEMPERATURE_GPU, &celsius)) return std::nullopt;
  return double(celsius);
}

std::optional<core::MemoryState> NvmlTelemetry::memoryState(uint32_t module) {
  nvmlMemory_t memory{};
  if (module >= memory_.size() || !call(nvml_->nvmlDeviceGetMemoryInfo, &memory)) return std::nullopt;
  return core::MemoryState{memory.free, memory.total};
}

// The samples NVML took since the last call extend the counter; none new leaves it as it was.
std::optional<core::EngineActivity> NvmlTelemetry::engineActivity(uint32_t group) {
  if (group >= engines_.size()) return std::nullopt;
  std::lock_guard lock(utilizationMutex_);
  int valueType = 0;
  unsigned int count = 0;
  const unsigned long long since = utilization_.lastTimestampUs;
  if (call(nvml_->nvmlDeviceGetSamples, NVML_GPU_UTILIZATION_SAMPLES, since, &valueType, &count, nullptr) && count > 0) {
    std::vector<nvmlSample_t> raw(count);
    if (call(nvml_->nvmlDeviceGetSamples, NVML_GPU_UTILIZATION_SAMPLES, since, &valueType, &count, raw.data())) {
      std::vector<UtilizationSample> samples;
      for (unsigned int i = 0; i < std::min<size_t>(count, raw.size()); ++i)
        if (auto percent = samplePercent(valueType, raw[i].sampleValue)) samples.push_back({raw[i].timeStamp, *percent});
      utilization_.add(std::move(samples));
    }
  }
  if (utilization_.lastTimestampUs == 0) return std::nullopt;
  return core::EngineActivity{utilization_.activeUs, utilization_.lastTimestampUs};
}

// NVML's mode now and after the next reset (nvidia-smi -e sets the latter). A GPU whose memory has
// no error correction answers NOT_SUPPORTED.
std::optional<core::EccState> NvmlTelemetry::eccState() {
  int current = 0, pending = 0;
  if (!hasNvml() || !call(nvml_->nvmlDeviceGetEccMode, &current, &pending)) return std::nullopt;
  return core::EccState{current == NVML_FEATURE_ENABLED, pending == NVML_FEATURE_ENABLED};
}

// NVML answers too small an array with INSUFFICIENT_SIZE and the count it needs.
std::optional<std::vector<core::ProcessUsage>> NvmlTelemetry::processes() {
  if (!hasNvml() || !nvml_->nvmlDeviceGetComputeRunningProcesses_v2) return std::nullopt;
  std::vector<nvmlProcessInfo_v2_t> infos;
  unsigned int count = 0;
  nvmlReturn_t result = NVML_ERROR_INSUFFICIENT_SIZE;
  for (int tries = 0; result == NVML_ERROR_INSUFFICIENT_SIZE && tries < kProcessListingTries; ++tries) {
    infos.resize(count == 0 ? 0 : count + kSpareProcessEntries);
    count = unsigned(infos.size());
    result = nvml_->nvmlDeviceGetComputeRunningProcesses_v2(device_, &count, infos.data());
  }
  if (result != NVML_SUCCESS) return std::nullopt;
  std::vector<core::ProcessUsage> processes;
  for (unsigned int i = 0; i < std::min<size_t>(count, infos.size()); ++i) processes.push_back(processUsage(infos[i]));
  return processes;
}

std::optional<std::string> NvmlTelemetry::vbiosVersion() const {
  char version[NVML_DEVICE_VBIOS_VERSION_BUFFER_SIZE] = {};
  if (!call(nvml_->nvmlDeviceGetVbiosVersion, version, unsigned(sizeof(version))) || !version[0]) return std::nullopt;
  return std::string(version);
}

std::optional<std::string> NvmlTelemetry::firmwareVersion(uint32_t firmware) {
  if (firmware >= firmwares_.size()) return std::nullopt;
  return vbiosVersion();
}

std::unique_ptr<core::Telemetry> createNvmlTelemetry(core::PciAddress address) {
  std::string error;
  std::shared_ptr<const Nvml> nvml = Nvml::shared(error);
  nvmlDevice_t device = nullptr;
  const std::string busId = pciBusId(address);
  if (!nvml) {
    core::debugMessage("no GPU telemetry: %s", error.c_str());
  } else if (nvml->nvmlDeviceGetHandleByPciBusId_v2(busId.c_str(), &device) != NVML_SUCCESS) {
    core::debugMessage("no GPU telemetry: NVML does not know the GPU at %s", busId.c_str());
    device = nullptr;
  }
  return std::make_unique<NvmlTelemetry>(std::move(nvml), device, address);
}

// nvmlNvlinkVersion_t numbers the versions 1.0, 2.0, 2.2, 3.0, 3.1, 4.0 and 5.0 as 1 to 7, while
// older drivers answered the major version (1 to 4); both readings give the same rate. Each link
// carries 20 GB/s a direction in NVLink 1.0, 25 GB/s in 2.0 to 4.0 and 50 GB/s in 5.0: NVIDIA's
// figures of 300, 600, 900 and 1800 GB/s both ways for V100 (6 links), A100 (12), H100 (18) and
// B200 (18).
uint32_t nvlinkBytesPerNanosecond(unsigned int version) {
  switch (version) {
    case 1:
      return 20;
    case 2:
    case 3:
    case 4:
    case 5:
    case 6:
      return 25;
    case 7:
      return 50;
    default:
      return 0;
  }
}

namespace {

std::string peerLinkModel(const Nvml& nvml, nvmlDevice_t from, nvmlDevice_t to) {
  if (!nvml.nvmlDeviceGetP2PStatus) return {};
  const auto works = [&](int capability) {
    int status = -1;
    return nvml.nvmlDeviceGetP2PStatus(from, to, capability, &status) == NVML_SUCCESS && status == kP2PStatusOk;
  };
  if (works(kP2PNvLink)) return "NVLink";
  if (works(kP2PPci)) return "PCIe";
  return {};
}

// NVML names no function: a GPU is function 0.
bool isAt(const nvmlPciInfo_t& pci, core::PciAddress address) {
  return pci.domain == address.domain && pci.bus == address.bus && pci.device == address.device;
}

// The summed rate of the active NVLinks of `device` whose other end `reaches`; 0 where there are
// none, or where one's version is unknown (a part of the sum would be missing).
template <typename LinkTest>
uint32_t nvLinkBandwidth(const Nvml& nvml, nvmlDevice_t device, const LinkTest& reaches) {
  if (!nvml.nvmlDeviceGetNvLinkState || !nvml.nvmlDeviceGetNvLinkVersion) return 0;
  uint32_t bandwidth = 0;
  for (unsigned int link = 0; link < NVML_NVLINK_MAX_LINKS; ++link) {
    int active = 0;
    if (nvml.nvmlDeviceGetNvLinkState(device, link, &active) != NVML_SUCCESS || active != NVML_FEATURE_ENABLED ||
        !reaches(link))
      continue;
    unsigned int version = 0;
    const uint32_t rate =
        nvml.nvmlDeviceGetNvLinkVersion(device, link, &version) == NVML_SUCCESS ? nvlinkBytesPerNanosecond(version) : 0;
    if (rate == 0) return 0;
    bandwidth += rate;
  }
  return bandwidth;
}

// The links of `from` whose other end is the GPU at `to`.
uint32_t directNvLinkBandwidth(const Nvml& nvml, nvmlDevice_t from, core::PciAddress to) {
  if (!nvml.nvmlDeviceGetNvLinkRemotePciInfo_v2) return 0;
  return nvLinkBandwidth(nvml, from, [&](unsigned int link) {
    nvmlPciInfo_t remote{};
    return nvml.nvmlDeviceGetNvLinkRemotePciInfo_v2(from, link, &remote) == NVML_SUCCESS && isAt(remote, to);
  });
}

// The links of `device` that end at an NVSwitch.
uint32_t switchNvLinkBandwidth(const Nvml& nvml, nvmlDevice_t device) {
  if (!nvml.nvmlDeviceGetNvLinkRemoteDeviceType) return 0;
  return nvLinkBandwidth(nvml, device, [&](unsigned int link) {
    int type = -1;
    return nvml.nvmlDeviceGetNvLinkRemoteDeviceType(device, link, &type) == NVML_SUCCESS && type == NVML_NVLINK_DEVICE_TYPE_SWITCH;
  });
}

}  // namespace

// NVLinks that join the two GPUs directly are one hop. Where the GPUs' links end at NVSwitches
// (an HGX board: every pair reaches each other through them, non-blocking), the path is two hops
// and carries what the narrower of the two GPUs' switch links carry. A PCIe path's bandwidth is
// not the GPUs' own links' (switches and the root complex between them set it), nor is its
// length in hops known: they stay unknown.
core::PeerLink peerLink(const Nvml& nvml, nvmlDevice_t from, nvmlDevice_t to, core::PciAddress toAddress) {
  core::PeerLink link;
  link.model = peerLinkModel(nvml, from, to);
  if (link.model != "NVLink") return link;
  if (const uint32_t direct = directNvLinkBandwidth(nvml, from, toAddress); direct != 0) {
    link.bytesPerNanosecond = direct;
    link.hops = 1;
    return link;
  }
  link.bytesPerNanosecond = std::min(switchNvLinkBandwidth(nvml, from), switchNvLinkBandwidth(nvml, to));
  if (link.bytesPerNanosecond != 0) link.hops = 2;
  return link;
}

core::PeerLink nvmlPeerLink(core::PciAddress from, core::PciAddress to) {
  std::string error;
  const std::shared_ptr<const Nvml> nvml = Nvml::shared(error);
  nvmlDevice_t fromDevice = nullptr, toDevice = nullptr;
  if (!nvml || nvml->nvmlDeviceGetHandleByPciBusId_v2(pciBusId(from).c_str(), &fromDevice) != NVML_SUCCESS ||
      nvml->nvmlDeviceGetHandleByPciBusId_v2(pciBusId(to).c_str(), &toDevice) != NVML_SUCCESS)
    return {};
  return peerLink(*nvml, fromDevice, toDevice, to);
}

}  // namespace loom::backends::cuda
