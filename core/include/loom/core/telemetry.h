#pragma once
// What a device can report about itself for system management (Level Zero Sysman). Every value is
// read from the system when asked; what the system does not say is absent (an empty list,
// std::nullopt, or -1 where the field says so), never a guess. Backends implement the reads;
// the default reports nothing.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace loom::core {

struct PciAddress {
  uint32_t domain = 0, bus = 0, device = 0, function = 0;
};

// A PCIe link: generation, lanes and bandwidth in bytes per second; -1 where unknown.
struct PciSpeed {
  int32_t generation = -1;
  int32_t width = -1;
  int64_t bandwidth = -1;
};

struct PciBar {
  enum class Type : uint8_t { Mmio, Memory, Rom };  // registers, a memory aperture (prefetchable), the ROM
  Type type = Type::Mmio;
  uint32_t index = 0;
  uint64_t base = 0, size = 0;
};

struct PciDescription {
  PciAddress address;
  PciSpeed maxSpeed;
  std::vector<PciBar> bars;
};

// Strings the system knows about the product besides its name and vendor; empty when it does not.
struct ProductStrings {
  std::string serialNumber, boardNumber, brandName;
};

enum class ClockKind : uint8_t { Compute, Memory };

struct FrequencyDomain {
  ClockKind kind = ClockKind::Compute;
  double minMHz = -1, maxMHz = -1;  // the hardware range
};

// Bits of FrequencyState::throttleReasons, as Level Zero defines them.
enum ThrottleReason : uint32_t {
  kThrottleAveragePower = 1u << 0,
  kThrottleBurstPower = 1u << 1,
  kThrottleCurrent = 1u << 2,
  kThrottleThermal = 1u << 3,
  kThrottlePowerSupply = 1u << 4,
  kThrottleSoftwareRange = 1u << 5,
  kThrottleHardwareRange = 1u << 6,
};

// Limits software set on a domain's clock, in MHz; -1 where none is in effect.
struct FrequencyLimits {
  double minMHz = -1, maxMHz = -1;
};

struct FrequencyState {
  double requestMHz = -1, tdpMHz = -1, efficientMHz = -1, actualMHz = -1;
  uint32_t throttleReasons = 0;
};

// Power limits in milliwatts; -1 where unknown.
struct PowerDomain {
  int32_t defaultLimitMilliwatts = -1, minLimitMilliwatts = -1, maxLimitMilliwatts = -1;
};

struct EnergyReading {
  uint64_t microjoules = 0;    // monotonic
  uint64_t timestampUs = 0;
};

enum class SensorKind : uint8_t { Global, Compute, Memory };

struct TemperatureSensor {
  SensorKind kind = SensorKind::Global;
  double maxCelsius = -1;  // the temperature the hardware protects itself at; -1 when unknown
};

enum class MemoryKind : uint8_t { Ddr, Hbm };

struct MemoryModule {
  MemoryKind kind = MemoryKind::Ddr;
  bool onDevice = false;       // false: system memory
  uint64_t physicalSize = 0;   // 0 when unknown
  int32_t busWidth = -1, channels = -1;
};

struct MemoryState {
  uint64_t free = 0, size = 0;
};

// What an engine group counts: all of the device's work, or its kernels only.
enum class ActivityKind : uint8_t { All, Compute };

struct EngineActivity {
  uint64_t activeUs = 0;     // monotonic time the engines were busy
  uint64_t timestampUs = 0;  // when activeUs was sampled
};

// Error correction of the device's memory: on now, and on once the device is next reset.
struct EccState {
  bool enabled = false;
  bool enabledAfterReset = false;
};

// A process running work on the device, with the device memory it allocated in bytes (0 when unknown).
struct ProcessUsage {
  uint32_t processId = 0;
  uint64_t memoryBytes = 0;
};

// Firmware of the device whose version the system reports.
struct Firmware {
  std::string name;
};

class Telemetry {
 public:
  virtual ~Telemetry() = default;
  virtual ProductStrings productStrings() { return {}; }
  // True when the device must be reset to finish a repair; nullopt when the system cannot say.
  virtual std::optional<bool> resetPending() { return std::nullopt; }

  virtual std::optional<PciDescription> pci() { return std::nullopt; }
  virtual std::optional<PciSpeed> pciLinkSpeed() { return std::nullopt; }

  // Domains are listed once, when the telemetry is created; readings take the domain's index.
  virtual std::vector<FrequencyDomain> frequencyDomains() { return {}; }
  virtual std::vector<double> availableClocksMHz(uint32_t domain) { return {}; }
  virtual std::optional<FrequencyState> frequencyState(uint32_t domain) { return std::nullopt; }
  // nullopt when the system cannot say which limits are in effect.
  virtual std::optional<FrequencyLimits> frequencyLimits(uint32_t domain) { return std::nullopt; }

  virtual std::vector<PowerDomain> powerDomains() { return {}; }
  virtual std::optional<EnergyReading> energy(uint32_t domain) { return std::nullopt; }
  // The limit on the domain's average power in effect now, whoever set it.
  virtual std::optional<int32_t> sustainedPowerLimitMilliwatts(uint32_t domain) { return std::nullopt; }

  virtual std::vector<TemperatureSensor> temperatureSensors() { return {}; }
  virtual std::optional<double> temperatureCelsius(uint32_t sensor) { return std::nullopt; }

  virtual std::vector<MemoryModule> memoryModules() { return {}; }
  virtual std::optional<MemoryState> memoryState(uint32_t module) { return std::nullopt; }

  virtual std::vector<ActivityKind> engineGroups() { return {}; }
  virtual std::optional<EngineActivity> engineActivity(uint32_t group) { return std::nullopt; }

  // nullopt for memory without error correction, or when the system cannot say.
  virtual std::optional<EccState> eccState() { return std::nullopt; }

  // The processes using the device now (none: an empty list); nullopt when the system cannot say.
  virtual std::optional<std::vector<ProcessUsage>> processes() { return std::nullopt; }

  virtual std::vector<Firmware> firmwares() { return {}; }
  virtual std::optional<std::string> firmwareVersion(uint32_t firmware) { return std::nullopt; }
};

}  // namespace loom::core
