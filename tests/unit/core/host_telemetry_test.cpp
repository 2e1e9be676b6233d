// The CPU device's telemetry over a fake /proc and /sys tree written into a temporary folder:
// values parsed right, absent sources list no domain, garbage never crashes and reads as absent.
#include "backends/cpu/host_telemetry.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace loom::backends::cpu {
namespace {

namespace fs = std::filesystem;

class HostTelemetryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("loom-host-telemetry-" + std::to_string(getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  void write(const std::string& relative, const std::string& contents) {
    const fs::path file = root_ / relative;
    fs::create_directories(file.parent_path());
    std::ofstream(file) << contents;
  }
  HostTelemetry telemetry() { return HostTelemetry(root_.string()); }

  fs::path root_;
};

constexpr const char* kCpuinfo = "processor\t: 0\ncpu MHz\t\t: 2000.000\nprocessor\t: 1\ncpu MHz\t\t: 3000.500\n";

void expectNoDomains(HostTelemetry& host) {
  EXPECT_TRUE(host.frequencyDomains().empty());
  EXPECT_TRUE(host.powerDomains().empty());
  EXPECT_TRUE(host.temperatureSensors().empty());
  EXPECT_TRUE(host.memoryModules().empty());
  EXPECT_TRUE(host.engineGroups().empty());
}

TEST_F(HostTelemetryTest, AnEmptyTreeListsNoDomain) {
  HostTelemetry host = telemetry();
  expectNoDomains(host);
  EXPECT_FALSE(host.frequencyState(0));
  EXPECT_FALSE(host.energy(0));
  EXPECT_FALSE(host.temperatureCelsius(0));
  EXPECT_FALSE(host.memoryState(0));
  EXPECT_FALSE(host.engineActivity(0));
  EXPECT_FALSE(host.pci());  // a CPU is no PCI function
}

TEST_F(HostTelemetryTest, WithoutCpufreqTheClockComesFromCpuinfoAndTheRangeIsUnknown) {
  write("proc/cpuinfo", kCpuinfo);
  HostTelemetry host = telemetry();
  ASSERT_EQ(1u, host.frequencyDomains().size());
  EXPECT_EQ(core::ClockKind::Compute, host.frequencyDomains()[0].kind);
  EXPECT_EQ(-1, host.frequencyDomains()[0].minMHz);
  EXPECT_EQ(-1, host.frequencyDomains()[0].maxMHz);
  const auto state = host.frequencyState(0);
  ASSERT_TRUE(state);
  EXPECT_DOUBLE_EQ(2500.25, state->actualMHz);
  EXPECT_EQ(-1, state->requestMHz);
  EXPECT_TRUE(host.availableClocksMHz(0).empty());
  EXPECT_FALSE(host.frequencyState(1));
  const auto limits = host.frequencyLimits(0);
  ASSERT_TRUE(limits) << "without cpufreq no software limits the clock";
  EXPECT_EQ(-1, limits->minMHz);
  EXPECT_EQ(-1, limits->maxMHz);
  EXPECT_FALSE(host.frequencyLimits(1));
}

TEST_F(HostTelemetryTest, CpufreqGivesTheRangeTheClockAndTheAvailableClocks) {
  write("proc/cpuinfo", kCpuinfo);
  for (const char* cpu : {"cpu0", "cpu1"}) {
    const std::string folder = std::string("sys/devices/system/cpu/") + cpu + "/cpufreq/";
    write(folder + "cpuinfo_min_freq", std::string(cpu) == "cpu0" ? "800000\n" : "1000000\n");
    write(folder + "cpuinfo_max_freq", std::string(cpu) == "cpu0" ? "3600000\n" : "4200000\n");
    write(folder + "scaling_cur_freq", std::string(cpu) == "cpu0" ? "1200000\n" : "1800000\n");
  }
  write("sys/devices/system/cpu/cpu0/cpufreq/scaling_available_frequencies", "2200000 800000 1600000 \n");
  write("sys/devices/system/cpu/cpufreq/policy0", "");  // not a cpuN folder
  HostTelemetry host = telemetry();
  ASSERT_EQ(1u, host.frequencyDomains().size());
  EXPECT_EQ(800, host.frequencyDomains()[0].minMHz);
  EXPECT_EQ(4200, host.frequencyDomains()[0].maxMHz);
  EXPECT_EQ(1500, host.frequencyState(0)->actualMHz);  // cpufreq wins over cpuinfo
  EXPECT_EQ((std::vector<double>{800, 1600, 2200}), host.availableClocksMHz(0));
  EXPECT_FALSE(host.frequencyLimits(0)) << "cpufreq without its scaling limits cannot say";
}

TEST_F(HostTelemetryTest, CpufreqScalingLimitsAreLimitsWhereTheyNarrowTheHardwareRange) {
  for (const char* cpu : {"cpu0", "cpu1"}) {
    const std::string folder = std::string("sys/devices/system/cpu/") + cpu + "/cpufreq/";
    write(folder + "cpuinfo_min_freq", "800000\n");
    write(folder + "cpuinfo_max_freq", "4200000\n");
    write(folder + "scaling_min_freq", std::string(cpu) == "cpu0" ? "800000\n" : "1000000\n");
    write(folder + "scaling_max_freq", std::string(cpu) == "cpu0" ? "3000000\n" : "3500000\n");
  }
  HostTelemetry host = telemetry();
  auto limits = host.frequencyLimits(0);
  ASSERT_TRUE(limits);
  EXPECT_EQ(-1, limits->minMHz) << "cpu0 may go down to the hardware minimum";
  EXPECT_EQ(3500, limits->maxMHz) << "no core may go past 3.5 GHz";
  write("sys/devices/system/cpu/cpu1/cpufreq/scaling_max_freq", "4200000\n");
  limits = host.frequencyLimits(0);
  ASSERT_TRUE(limits);
  EXPECT_EQ(-1, limits->maxMHz) << "cpu1 may reach the hardware maximum";
}

TEST_F(HostTelemetryTest, RaplPackagesArePowerDomainsWithMonotonicEnergy) {
  const std::string zone = "sys/class/powercap/intel-rapl:0/";
  write(zone + "energy_uj", "1000\n");
  write(zone + "max_energy_range_uj", "5000\n");
  write(zone + "constraint_0_max_power_uw", "125000000\n");
  write("sys/class/powercap/intel-rapl:0:0/energy_uj", "10\n");  // a sub-zone: part of package 0
  write("sys/class/powercap/intel-rapl:1/energy_uj", "unreadable\n");
  HostTelemetry host = telemetry();
  ASSERT_EQ(1u, host.powerDomains().size());
  EXPECT_EQ(125000, host.powerDomains()[0].maxLimitMilliwatts);
  EXPECT_EQ(-1, host.powerDomains()[0].defaultLimitMilliwatts);
  EXPECT_EQ(1000u, host.energy(0)->microjoules);
  write(zone + "energy_uj", "4000\n");
  EXPECT_EQ(4000u, host.energy(0)->microjoules);
  write(zone + "energy_uj", "200\n");  // wrapped past 5000
  EXPECT_EQ(5200u, host.energy(0)->microjoules);
  write(zone + "energy_uj", "garbage\n");
  EXPECT_FALSE(host.energy(0));
  EXPECT_FALSE(host.energy(1));
}

TEST_F(HostTelemetryTest, CpuThermalZonesAreSensorsWithTheirCriticalTrip) {
  write("sys/class/thermal/thermal_zone0/type", "acpitz\n");  // the board, not the CPU
  write("sys/class/thermal/thermal_zone0/temp", "30000\n");
  write("sys/class/thermal/thermal_zone1/type", "x86_pkg_temp\n");
  write("sys/class/thermal/thermal_zone1/temp", "45500\n");
  write("sys/class/thermal/thermal_zone1/trip_point_0_type", "passive\n");
  write("sys/class/thermal/thermal_zone1/trip_point_0_temp", "90000\n");
  write("sys/class/thermal/thermal_zone1/trip_point_1_type", "critical\n");
  write("sys/class/thermal/thermal_zone1/trip_point_1_temp", "105000\n");
  write("sys/class/hwmon/hwmon0/name", "k10temp\n");  // not used while thermal zones answer
  write("sys/class/hwmon/hwmon0/temp1_input", "50000\n");
  HostTelemetry host = telemetry();
  ASSERT_EQ(1u, host.temperatureSensors().size());
  EXPECT_EQ(core::SensorKind::Compute, host.temperatureSensors()[0].kind);
  EXPECT_EQ(105, host.temperatureSensors()[0].maxCelsius);
  EXPECT_EQ(45.5, host.temperatureCelsius(0));
  EXPECT_FALSE(host.temperatureCelsius(1));
}

TEST_F(HostTelemetryTest, CpuHwmonChipsAreSensorsWhenNoThermalZoneNamesTheCpu) {
  write("sys/class/hwmon/hwmon0/name", "nvme\n");
  write("sys/class/hwmon/hwmon0/temp1_input", "40000\n");
  write("sys/class/hwmon/hwmon1/name", "k10temp\n");
  write("sys/class/hwmon/hwmon1/temp1_input", "-1500\n");
  write("sys/class/hwmon/hwmon1/temp1_crit", "100000\n");
  write("sys/class/hwmon/hwmon1/temp2_input", "61000\n");
  write("sys/class/hwmon/hwmon1/temp3_label", "Tccd1\n");
  HostTelemetry host = telemetry();
  ASSERT_EQ(2u, host.temperatureSensors().size());
  EXPECT_EQ(100, host.temperatureSensors()[0].maxCelsius);
  EXPECT_EQ(-1, host.temperatureSensors()[1].maxCelsius);
  EXPECT_EQ(-1.5, host.temperatureCelsius(0));
  EXPECT_EQ(61, host.temperatureCelsius(1));
}

TEST_F(HostTelemetryTest, MeminfoIsTheSystemMemoryModule) {
  write("proc/meminfo", "MemTotal:       16000000 kB\nMemFree:         1000000 kB\nMemAvailable:    8000000 kB\n");
  HostTelemetry host = telemetry();
  ASSERT_EQ(1u, host.memoryModules().size());
  const core::MemoryModule module = host.memoryModules()[0];
  EXPECT_EQ(core::MemoryKind::Ddr, module.kind);
  EXPECT_FALSE(module.onDevice);
  EXPECT_EQ(0u, module.physicalSize);  // not visible to user space
  EXPECT_EQ(-1, module.busWidth);
  const auto state = host.memoryState(0);
  ASSERT_TRUE(state);
  EXPECT_EQ(16000000ull * 1024, state->size);
  EXPECT_EQ(8000000ull * 1024, state->free);
  EXPECT_FALSE(host.memoryState(1));
}

TEST_F(HostTelemetryTest, ProcStatGivesBusyTimePerCoreInMicroseconds) {
  const long ticks = sysconf(_SC_CLK_TCK);
  // user nice system idle iowait irq softirq steal: busy = 100 + 20 + 60 + 10 + 10 = 200 ticks on 2 cores.
  write("proc/stat", "cpu  100 20 60 5000 300 10 10 7 0 0\ncpu0 50 10 30 2500 150 5 5 3 0 0\ncpu1 50 10 30 2500 150 5 5 4 0 0\nintr 1\n");
  HostTelemetry host = telemetry();
  ASSERT_EQ(1u, host.engineGroups().size());
  EXPECT_EQ(core::ActivityKind::All, host.engineGroups()[0]);
  const auto activity = host.engineActivity(0);
  ASSERT_TRUE(activity);
  EXPECT_EQ(uint64_t(200) * 1000000 / uint64_t(ticks) / 2, activity->activeUs);
  EXPECT_FALSE(host.engineActivity(1));
}

TEST_F(HostTelemetryTest, GarbageFilesReadAsAbsent) {
  write("proc/cpuinfo", "cpu MHz : fast\n\0\xff");
  write("proc/meminfo", "MemTotal: lots\nMemAvailable: 12 MB\n");
  write("proc/stat", "cpu  1 2\n");
  write("sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_min_freq", "-5\n");
  write("sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "99999999999999999999999\n");
  write("sys/class/thermal/thermal_zone0/type", "cpu-thermal\n");
  write("sys/class/thermal/thermal_zone0/temp", "12.5.7\n");
  write("sys/class/powercap/intel-rapl:0/energy_uj", "");
  HostTelemetry host = telemetry();
  expectNoDomains(host);
}

TEST_F(HostTelemetryTest, FilesThatVanishAfterDiscoveryGiveNoReading) {
  write("proc/meminfo", "MemTotal: 1000 kB\nMemAvailable: 500 kB\n");
  write("sys/class/thermal/thermal_zone0/type", "x86_pkg_temp\n");
  write("sys/class/thermal/thermal_zone0/temp", "40000\n");
  HostTelemetry host = telemetry();
  ASSERT_EQ(1u, host.memoryModules().size());
  ASSERT_EQ(1u, host.temperatureSensors().size());
  fs::remove_all(root_ / "proc");
  fs::remove_all(root_ / "sys");
  EXPECT_FALSE(host.memoryState(0));
  EXPECT_FALSE(host.temperatureCelsius(0));
}

TEST(HostTelemetry, TheMachineAnswersWhatItLists) {
  HostTelemetry host;
  for (uint32_t i = 0; i < host.frequencyDomains().size(); ++i) EXPECT_TRUE(host.frequencyState(i)) << i;
  for (uint32_t i = 0; i < host.memoryModules().size(); ++i) EXPECT_TRUE(host.memoryState(i)) << i;
  for (uint32_t i = 0; i < host.engineGroups().size(); ++i) EXPECT_TRUE(host.engineActivity(i)) << i;
  for (uint32_t i = 0; i < host.temperatureSensors().size(); ++i) EXPECT_TRUE(host.temperatureCelsius(i)) << i;
  for (uint32_t i = 0; i < host.powerDomains().size(); ++i) EXPECT_TRUE(host.energy(i)) << i;
}

}  // namespace
}  // namespace loom::backends::cpu
