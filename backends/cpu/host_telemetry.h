#pragma once
// The CPU device's telemetry, read from Linux's /proc and /sys under a root folder ("/" for the
// machine, a fake tree in tests). Domains are found once; what the machine does not expose (no
// cpufreq, RAPL or thermal zones on many VMs, RAPL energy readable by root only) is not listed.
#include <mutex>
#include <string>
#include <vector>

#include "loom/core/telemetry.h"

namespace loom::backends::cpu {

class HostTelemetry final : public core::Telemetry {
 public:
  explicit HostTelemetry(std::string root = "/");

  std::optional<bool> resetPending() override { return false; }  // nothing on a CPU asks for a reset

  std::vector<core::FrequencyDomain> frequencyDomains() override;
  std::vector<double> availableClocksMHz(uint32_t domain) override;
  std::optional<core::FrequencyState> frequencyState(uint32_t domain) override;
  std::optional<core::FrequencyLimits> frequencyLimits(uint32_t domain) override;

  std::vector<core::PowerDomain> powerDomains() override;
  std::optional<core::EnergyReading> energy(uint32_t domain) override;

  std::vector<core::TemperatureSensor> temperatureSensors() override;
  std::optional<double> temperatureCelsius(uint32_t sensor) override;

  std::vector<core::MemoryModule> memoryModules() override;
  std::optional<core::MemoryState> memoryState(uint32_t module) override;

  std::vector<core::ActivityKind> engineGroups() override;
  std::optional<core::EngineActivity> engineActivity(uint32_t group) override;

 private:
  struct RaplZone {
    std::string folder;
    core::PowerDomain limits;
    uint64_t range = 0;    // the counter wraps to 0 past this (max_energy_range_uj)
    uint64_t last = 0;     // the previous raw reading
    uint64_t wrapped = 0;  // microjoules lost to wraps so far
  };
  struct Sensor {
    std::string input;  // millidegrees Celsius
    core::TemperatureSensor description;
  };

  std::string path(const std::string& relative) const { return root_ + relative; }
  void findFrequencyDomain();
  void findRaplZones();
  void findTemperatureSensors();
  std::vector<std::string> cpufreqFolders() const;

  std::string root_;
  std::vector<core::FrequencyDomain> frequency_;
  std::vector<RaplZone> rapl_;
  std::mutex raplMutex_;
  std::vector<Sensor> sensors_;
  bool hasMeminfo_ = false;
  uint32_t statCpus_ = 0;  // cpuN lines of /proc/stat; 0 when it is unreadable
};

}  // namespace loom::backends::cpu
