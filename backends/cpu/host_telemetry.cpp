#include "backends/cpu/host_telemetry.h"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace loom::backends::cpu {

namespace {

namespace fs = std::filesystem;

// CPU temperature drivers of hwmon: Intel's and AMD's die sensors.
constexpr const char* kCpuHwmonChips[] = {"coretemp", "k10temp", "zenpower"};

std::optional<std::string> readFile(const std::string& path) {
  std::ifstream file(path);
  if (!file) return std::nullopt;
  std::stringstream text;
  text << file.rdbuf();
  if (file.bad()) return std::nullopt;
  return text.str();
}

std::string_view trim(std::string_view text) {
  const auto begin = text.find_first_not_of(" \t\n");
  if (begin == std::string_view::npos) return {};
  return text.substr(begin, text.find_last_not_of(" \t\n") - begin + 1);
}

// The whole of `text` (spaces aside) as a number; nullopt for anything else.
template <typename Number>
std::optional<Number> parse(std::string_view text) {
  text = trim(text);
  Number value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

template <typename Number>
std::optional<Number> readNumber(const std::string& path) {
  const auto text = readFile(path);
  return text ? parse<Number>(*text) : std::nullopt;
}

// Names in `folder` that start with `prefix`, in natural order (cpu2 before cpu10).
std::vector<std::string> entries(const std::string& folder, std::string_view prefix) {
  std::vector<std::string> names;
  std::error_code error;
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    std::string name = it->path().filename().string();
    if (name.compare(0, prefix.size(), prefix) == 0) names.push_back(std::move(name));
  }
  std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
  });
  return names;
}

bool isNumber(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The value of each "key : value" line of a /proc file whose key is `key`.
std::vector<std::string_view> fieldValues(std::string_view text, std::string_view key) {
  std::vector<std::string_view> values;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    const size_t colon = line.find(':');
    if (colon != std::string_view::npos && trim(line.substr(0, colon)) == key) values.push_back(trim(line.substr(colon + 1)));
  }
  return values;
}

std::optional<double> average(const std::vector<double>& values) {
  if (values.empty()) return std::nullopt;
  double sum = 0;
  for (double value : values) sum += value;
  return sum / double(values.size());
}

uint64_t monotonicMicroseconds() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return uint64_t(now.tv_sec) * 1000000 + uint64_t(now.tv_nsec) / 1000;
}

// The mean "cpu MHz" of /proc/cpuinfo (the clock each core last ran at).
std::optional<double> cpuinfoMHz(const std::string& cpuinfoPath) {
  const auto text = readFile(cpuinfoPath);
  if (!text) return std::nullopt;
  std::vector<double> clocks;
  for (std::string_view value : fieldValues(*text, "cpu MHz"))
    if (auto mhz = parse<double>(value)) clocks.push_back(*mhz);
  return average(clocks);
}

// The "critical" trip point of a thermal zone, in degrees Celsius.
double criticalTrip(const std::string& zone) {
  for (const std::string& name : entries(zone, "trip_point_")) {
    const std::string suffix = "_type";
    if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) continue;
    const auto type = readFile(zone + name);
    if (!type || trim(*type) != "critical") continue;
    const std::string temperature = name.substr(0, name.size() - suffix.size()) + "_temp";
    if (auto millidegrees = readNumber<int64_t>(zone + temperature)) return double(*millidegrees) / 1000;
  }
  return -1;
}

bool namesTheCpu(std::string_view zoneType) {
  return zoneType == "x86_pkg_temp" || zoneType.find("cpu") != std::string_view::npos;
}

}  // namespace

HostTelemetry::HostTelemetry(std::string root) : root_(std::move(root)) {
  if (root_.empty() || root_.back() != '/') root_ += '/';
  findFrequencyDomain();
  findRaplZones();
  findTemperatureSensors();
  hasMeminfo_ = memoryState(0).has_value();
  if (const auto stat = readFile(path("proc/stat"))) {
    std::istringstream lines(*stat);
    std::string line;
    while (std::getline(lines, line))
      if (line.compare(0, 3, "cpu") == 0 && line.size() > 3 && line[3] >= '0' && line[3] <= '9') ++statCpus_;
  }
  if (!engineActivity(0)) statCpus_ = 0;
}

std::vector<std::string> HostTelemetry::cpufreqFolders() const {
  const std::string cpus = path("sys/devices/system/cpu/");
  std::vector<std::string> folders;
  for (const std::string& name : entries(cpus, "cpu")) {
    const std::string folder = cpus + name + "/cpufreq/";
    std::error_code error;
    if (isNumber(std::string_view(name).substr(3)) && fs::is_directory(folder, error)) folders.push_back(folder);
  }
  return folders;
}

// One domain for all cores: its range spans every core's, its clock is their mean.
void HostTelemetry::findFrequencyDomain() {
  std::optional<uint64_t> minKHz, maxKHz;
  for (const std::string& folder : cpufreqFolders()) {
    if (auto low = readNumber<uint64_t>(folder + "cpuinfo_min_freq")) minKHz = std::min(*low, minKHz.value_or(*low));
    if (auto high = readNumber<uint64_t>(folder + "cpuinfo_max_freq")) maxKHz = std::max(*high, maxKHz.value_or(*high));
  }
  core::FrequencyDomain domain;
  if (minKHz) domain.minMHz = double(*minKHz) / 1000;
  if (maxKHz) domain.maxMHz = double(*maxKHz) / 1000;
  if (minKHz || maxKHz || cpuinfoMHz(path("proc/cpuinfo"))) frequency_.push_back(domain);
}

std::vector<core::FrequencyDomain> HostTelemetry::frequencyDomains() { return frequency_; }

std::vector<double> HostTelemetry::availableClocksMHz(uint32_t domain) {
  std::vector<double> clocks;
  const auto folders = cpufreqFolders();
  if (domain >= frequency_.size() || folders.empty()) return clocks;
  const auto text = readFile(folders.front() + "scaling_available_frequencies");
  if (!text) return clocks;
  std::istringstream words(*text);
  std::string word;
  while (words >> word)
    if (auto kHz = parse<uint64_t>(word)) clocks.push_back(double(*kHz) / 1000);
  std::sort(clocks.begin(), clocks.end());
  return clocks;
}

std::optional<core::FrequencyState> HostTelemetry::frequencyState(uint32_t domain) {
  if (domain >= frequency_.size()) return std::nullopt;
  std::vector<double> clocks;
  for (const std::string& folder : cpufreqFolders())
    if (auto kHz = readNumber<uint64_t>(folder + "scaling_cur_freq")) clocks.push_back(double(*kHz) / 1000);
  auto actual = average(clocks);
  if (!actual) actual = cpuinfoMHz(path("proc/cpuinfo"));
  core::FrequencyState state;
  state.actualMHz = actual.value_or(-1);
  return state;
}

// cpufreq's scaling limits over all cores: the lowest minimum and the highest maximum, each a limit
// only where it narrows the hardware range. Without cpufreq no software limits the clock.
std::optional<core::FrequencyLimits> HostTelemetry::frequencyLimits(uint32_t domain) {
  if (domain >= frequency_.size()) return std::nullopt;
  const auto folders = cpufreqFolders();
  core::FrequencyLimits limits;
  if (folders.empty()) return limits;
  std::optional<uint64_t> minKHz, maxKHz;
  for (const std::string& folder : folders) {
    if (auto low = readNumber<uint64_t>(folder + "scaling_min_freq")) minKHz = std::min(*low, minKHz.value_or(*low));
    if (auto high = readNumber<uint64_t>(folder + "scaling_max_freq")) maxKHz = std::max(*high, maxKHz.value_or(*high));
  }
  if (!minKHz || !maxKHz) return std::nullopt;
  const double minMHz = double(*minKHz) / 1000, maxMHz = double(*maxKHz) / 1000;
  if (frequency_[domain].minMHz < 0 || minMHz > frequency_[domain].minMHz) limits.minMHz = minMHz;
  if (frequency_[domain].maxMHz < 0 || maxMHz < frequency_[domain].maxMHz) limits.maxMHz = maxMHz;
  return limits;
}

// Package zones (intel-rapl:N, also on AMD); their sub-zones (intel-rapl:N:M) are parts of them.
void HostTelemetry::findRaplZones() {
  const std::string powercap = path("sys/class/powercap/");
  for (const std::string& name : entries(powercap, "intel-rapl:")) {
    if (!isNumber(std::string_view(name).substr(11))) continue;
    RaplZone zone;
    zone.folder = powercap + name + "/";
    const auto energy = readNumber<uint64_t>(zone.folder + "energy_uj");
    if (!energy) continue;  // readable by root only on most systems
    zone.last = *energy;
    zone.range = readNumber<uint64_t>(zone.folder + "max_energy_range_uj").value_or(0);
    if (auto microwatts = readNumber<uint64_t>(zone.folder + "constraint_0_max_power_uw"))
      zone.limits.maxLimitMilliwatts = int32_t(std::min<uint64_t>(*microwatts / 1000, INT32_MAX));
    rapl_.push_back(std::move(zone));
  }
}

std::vector<core::PowerDomain> HostTelemetry::powerDomains() {
  std::vector<core::PowerDomain> domains;
  for (const RaplZone& zone : rapl_) domains.push_back(zone.limits);
  return domains;
}

// RAPL counters wrap at max_energy_range_uj; the wraps seen are added back to keep it monotonic.
std::optional<core::EnergyReading> HostTelemetry::energy(uint32_t domain) {
  if (domain >= rapl_.size()) return std::nullopt;
  std::lock_guard lock(raplMutex_);
  RaplZone& zone = rapl_[domain];
  const auto raw = readNumber<uint64_t>(zone.folder + "energy_uj");
  if (!raw) return std::nullopt;
  if (*raw < zone.last) zone.wrapped += zone.range;
  zone.last = *raw;
  return core::EnergyReading{zone.wrapped + *raw, monotonicMicroseconds()};
}

// CPU die sensors: thermal zones that name the CPU, else the hwmon chips of CPU temperature drivers.
void HostTelemetry::findTemperatureSensors() {
  const std::string thermal = path("sys/class/thermal/");
  for (const std::string& name : entries(thermal, "thermal_zone")) {
    const std::string zone = thermal + name + "/";
    const auto type = readFile(zone + "type");
    if (!type || !namesTheCpu(trim(*type)) || !readNumber<int64_t>(zone + "temp")) continue;
    sensors_.push_back({zone + "temp", {core::SensorKind::Compute, criticalTrip(zone)}});
  }
  if (!sensors_.empty()) return;
  const std::string hwmon = path("sys/class/hwmon/");
  for (const std::string& name : entries(hwmon, "hwmon")) {
    const std::string chip = hwmon + name + "/";
    const auto chipName = readFile(chip + "name");
    if (!chipName || std::find(std::begin(kCpuHwmonChips), std::end(kCpuHwmonChips), trim(*chipName)) == std::end(kCpuHwmonChips))
      continue;
    for (const std::string& input : entries(chip, "temp")) {
      const size_t suffix = input.rfind("_input");
      if (suffix == std::string::npos || suffix + 6 != input.size() || !readNumber<int64_t>(chip + input)) continue;
      const auto critical = readNumber<int64_t>(chip + input.substr(0, suffix) + "_crit");
      sensors_.push_back({chip + input, {core::SensorKind::Compute, critical ? double(*critical) / 1000 : -1}});
    }
  }
}

std::vector<core::TemperatureSensor> HostTelemetry::temperatureSensors() {
  std::vector<core::TemperatureSensor> sensors;
  for (const Sensor& sensor : sensors_) sensors.push_back(sensor.description);
  return sensors;
}

std::optional<double> HostTelemetry::temperatureCelsius(uint32_t sensor) {
  if (sensor >= sensors_.size()) return std::nullopt;
  const auto millidegrees = readNumber<int64_t>(sensors_[sensor].input);
  if (!millidegrees) return std::nullopt;
  return double(*millidegrees) / 1000;
}

// System memory as /proc/meminfo counts it; its physical size and bus are not visible.
std::vector<core::MemoryModule> HostTelemetry::memoryModules() {
  if (!hasMeminfo_) return {};
  return {core::MemoryModule{core::MemoryKind::Ddr, false, 0, -1, -1}};
}

std::optional<core::MemoryState> HostTelemetry::memoryState(uint32_t module) {
  const auto text = readFile(path("proc/meminfo"));
  if (module != 0 || !text) return std::nullopt;
  auto kilobytes = [&](std::string_view key) -> std::optional<uint64_t> {
    const auto values = fieldValues(*text, key);
    if (values.empty() || values.front().size() < 3 || values.front().substr(values.front().size() - 3) != " kB")
      return std::nullopt;
    return parse<uint64_t>(values.front().substr(0, values.front().size() - 3));
  };
  const auto total = kilobytes("MemTotal");
  auto available = kilobytes("MemAvailable");
  if (!available) available = kilobytes("MemFree");  // kernels before 3.14
  if (!total || !available) return std::nullopt;
  return core::MemoryState{*available * 1024, *total * 1024};
}

std::vector<core::ActivityKind> HostTelemetry::engineGroups() {
  if (statCpus_ == 0) return {};
  return {core::ActivityKind::All};
}

// The first line of /proc/stat sums every core's time in clock ticks; busy time is everything
// but idle, iowait and steal (time the hypervisor ran something else), averaged over the cores.
std::optional<core::EngineActivity> HostTelemetry::engineActivity(uint32_t group) {
  const auto text = readFile(path("proc/stat"));
  if (group != 0 || !text || text->compare(0, 4, "cpu ") != 0) return std::nullopt;
  std::istringstream fields(text->substr(4, text->find('\n') - 4));
  uint64_t user, nice, system, idle, iowait, irq, softirq;
  if (!(fields >> user >> nice >> system >> idle >> iowait >> irq >> softirq) || statCpus_ == 0) return std::nullopt;
  const long ticksPerSecond = sysconf(_SC_CLK_TCK);
  if (ticksPerSecond <= 0) return std::nullopt;
  const uint64_t busyTicks = user + nice + system + irq + softirq;
  const uint64_t activeUs = busyTicks * 1000000 / uint64_t(ticksPerSecond) / statCpus_;
  return core::EngineActivity{activeUs, monotonicMicroseconds()};
}

}  // namespace loom::backends::cpu
