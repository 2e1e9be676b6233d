// Sysman (zes*) through the loader, enabled by ZES_ENABLE_SYSMAN=1 before zeInit (CMakeLists.txt
// sets it): device properties, each domain's enumeration and getters, and the spec's error codes.
// Which domains exist depends on the machine (cpufreq, RAPL and thermal zones are often absent on
// VMs), so every domain listed is checked, and only /proc's memory and CPU time are required.
#include <level_zero/zes_api.h>

#include <cstdlib>
#include <cstring>

#include "ze_test_helpers.h"

namespace loom::test {
namespace {

bool sysmanRequested() {
  const char* value = std::getenv("ZES_ENABLE_SYSMAN");
  return value && std::strcmp(value, "1") == 0;
}

// Reads a counter twice through `read(&reading)`: neither its `value` nor its timestamp may go back.
template <typename Reading, typename Value, typename Read>
void expectCountsUp(Value Reading::*value, Read&& read) {
  Reading first{}, second{};
  ASSERT_ZE(read(&first));
  ASSERT_ZE(read(&second));
  EXPECT_GE(second.*value, first.*value);
  EXPECT_GE(second.timestamp, first.timestamp);
}

class SysmanTest : public ZeTest {
 protected:
  void SetUp() override {
    if (!sysmanRequested()) GTEST_SKIP() << "needs ZES_ENABLE_SYSMAN=1";
    ZeTest::SetUp();
    if (HasFatalFailure() || IsSkipped()) return;
  }

  // Every handle of one kind, by the two-call idiom (checked along the way).
  template <typename Handle, typename Enumerate>
  std::vector<Handle> enumerate(Enumerate function) {
    uint32_t count = 0;
    EXPECT_ZE(function(device, &count, nullptr));
    std::vector<Handle> handles(count + 1, nullptr);  // one more than there is
    uint32_t asked = count + 1;
    EXPECT_ZE(function(device, &asked, handles.data()));
    EXPECT_EQ(count, asked) << "the count comes back trimmed to what exists";
    EXPECT_EQ(nullptr, handles[count]) << "nothing written past the count";
    handles.resize(count);
    for (Handle handle : handles) EXPECT_NE(nullptr, handle);
    if (count > 1) {
      uint32_t one = 1;
      Handle first = nullptr;
      EXPECT_ZE(function(device, &one, &first));
      EXPECT_EQ(1u, one);
      EXPECT_EQ(handles[0], first) << "the same order, the same handles";
    }
    return handles;
  }
};

TEST_F(SysmanTest, DevicePropertiesHoldTheCorePropertiesAndTheProductStrings) {
  zes_device_properties_t properties{ZES_STRUCTURE_TYPE_DEVICE_PROPERTIES};
  ASSERT_ZE(zesDeviceGetProperties(device, &properties));
  ze_device_properties_t core{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
  ASSERT_ZE(zeDeviceGetProperties(device, &core));
  EXPECT_STREQ(core.name, properties.core.name);
  EXPECT_EQ(core.type, properties.core.type);
  EXPECT_EQ(0, std::memcmp(core.uuid.id, properties.core.uuid.id, sizeof(core.uuid.id)));
  EXPECT_STREQ(core.name, properties.modelName);
  uint32_t subDevices = 0;
  ASSERT_ZE(zeDeviceGetSubDevices(device, &subDevices, nullptr));
  EXPECT_EQ(subDevices, properties.numSubdevices);
  for (const char* text : {properties.serialNumber, properties.boardNumber, properties.brandName, properties.vendorName,
                           properties.driverVersion}) {
    EXPECT_GT(std::strlen(text), 0u) << "a value or \"unknown\"";
    EXPECT_LT(std::strlen(text), size_t(ZES_STRING_PROPERTY_SIZE));
  }
  EXPECT_STRNE("unknown", properties.driverVersion) << "Loom knows its own version";
}

TEST_F(SysmanTest, TheCpuDeviceNeedsNoResetAndIsNoPciFunction) {
  SKIP_UNLESS_CPU_DEVICE("no PCI address");
  zes_device_state_t state{ZES_STRUCTURE_TYPE_DEVICE_STATE};
  ASSERT_ZE(zesDeviceGetState(device, &state));
  EXPECT_EQ(0u, state.reset);
  EXPECT_EQ(ZES_REPAIR_STATUS_UNSUPPORTED, state.repaired);
  zes_pci_properties_t pci{ZES_STRUCTURE_TYPE_PCI_PROPERTIES};
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, zesDevicePciGetProperties(device, &pci));
  zes_pci_state_t pciState{ZES_STRUCTURE_TYPE_PCI_STATE};
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, zesDevicePciGetState(device, &pciState));
  uint32_t bars = 0;
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, zesDevicePciGetBars(device, &bars, nullptr));
}

TEST_F(SysmanTest, FrequencyDomainsReportRangesAndClocksTheyKnow) {
  for (zes_freq_handle_t domain : enumerate<zes_freq_handle_t>(zesDeviceEnumFrequencyDomains)) {
    zes_freq_properties_t properties{ZES_STRUCTURE_TYPE_FREQ_PROPERTIES};
    ASSERT_ZE(zesFrequencyGetProperties(domain, &properties));
    EXPECT_TRUE(properties.type == ZES_FREQ_DOMAIN_GPU || properties.type == ZES_FREQ_DOMAIN_MEMORY);
    EXPECT_FALSE(properties.canControl);
    if (properties.min > 0 && properties.max > 0) { EXPECT_LE(properties.min, properties.max); }
    zes_freq_state_t state{ZES_STRUCTURE_TYPE_FREQ_STATE};
    ASSERT_ZE(zesFrequencyGetState(domain, &state));
    EXPECT_TRUE(state.actual == -1 || state.actual > 0) << state.actual;
    uint32_t count = 0;
    ASSERT_ZE(zesFrequencyGetAvailableClocks(domain, &count, nullptr));
    std::vector<double> clocks(count);
    ASSERT_ZE(zesFrequencyGetAvailableClocks(domain, &count, clocks.data()));
    EXPECT_TRUE(std::is_sorted(clocks.begin(), clocks.end())) << "slowest to fastest";
  }
}

// A limit is a positive clock or negative for none (zes_freq_range_t); the CPU device always knows.
TEST_F(SysmanTest, FrequencyRangesAreLimitsInEffectOrNone) {
  for (zes_freq_handle_t domain : enumerate<zes_freq_handle_t>(zesDeviceEnumFrequencyDomains)) {
    zes_freq_range_t limits{};
    const ze_result_t result = zesFrequencyGetRange(domain, &limits);
    if (deviceType() != ZE_DEVICE_TYPE_CPU && result == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE) continue;
    ASSERT_ZE(result);
    EXPECT_NE(0, limits.min);
    EXPECT_NE(0, limits.max);
    if (limits.min > 0 && limits.max > 0) { EXPECT_LE(limits.min, limits.max); }
    EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zesFrequencyGetRange(domain, nullptr));
  }
  zes_freq_range_t limits{};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zesFrequencyGetRange(nullptr, &limits));
}

TEST_F(SysmanTest, FrequencyDomainsOfferNoOverclocking) {
  for (zes_freq_handle_t domain : enumerate<zes_freq_handle_t>(zesDeviceEnumFrequencyDomains)) {
    zes_oc_capabilities_t capabilities{ZES_STRUCTURE_TYPE_OC_CAPABILITIES};
    capabilities.isOcSupported = true;
    capabilities.isTjMaxSupported = true;
    ASSERT_ZE(zesFrequencyOcGetCapabilities(domain, &capabilities));
    EXPECT_EQ(ZES_STRUCTURE_TYPE_OC_CAPABILITIES, capabilities.stype);
    EXPECT_FALSE(capabilities.isOcSupported);
    EXPECT_FALSE(capabilities.isTjMaxSupported);
    EXPECT_FALSE(capabilities.isIccMaxSupported);
    zes_freq_properties_t properties{ZES_STRUCTURE_TYPE_FREQ_PROPERTIES};
    ASSERT_ZE(zesFrequencyGetProperties(domain, &properties));
    EXPECT_EQ(properties.max, capabilities.maxFactoryDefaultFrequency);
    zes_oc_mode_t mode{};
    EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, zesFrequencyOcGetMode(domain, &mode));
    EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zesFrequencyOcGetCapabilities(domain, nullptr));
  }
}

// Each kind of component Loom manages none of, as its enumeration's function.
template <typename Handle>
using Enumeration = ze_result_t (*)(zes_device_handle_t, uint32_t*, Handle*);

template <typename Handle>
void expectNoComponents(ze_device_handle_t device, Enumeration<Handle> enumerate) {
  uint32_t count = 5;
  Handle handle = nullptr;
  ASSERT_ZE(enumerate(device, &count, &handle));
  EXPECT_EQ(0u, count);
  EXPECT_EQ(nullptr, handle) << "no handle written";
  count = 0;
  ASSERT_ZE(enumerate(device, &count, nullptr));
  EXPECT_EQ(0u, count);
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, enumerate(device, nullptr, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, enumerate(nullptr, &count, nullptr));
}

TEST_F(SysmanTest, KindsLoomManagesNoneOfEnumerateZeroComponents) {
  expectNoComponents<zes_diag_handle_t>(device, zesDeviceEnumDiagnosticTestSuites);
  expectNoComponents<zes_fabric_port_handle_t>(device, zesDeviceEnumFabricPorts);
  expectNoComponents<zes_fan_handle_t>(device, zesDeviceEnumFans);
  expectNoComponents<zes_led_handle_t>(device, zesDeviceEnumLeds);
  expectNoComponents<zes_perf_handle_t>(device, zesDeviceEnumPerformanceFactorDomains);
  expectNoComponents<zes_psu_handle_t>(device, zesDeviceEnumPsus);
  expectNoComponents<zes_ras_handle_t>(device, zesDeviceEnumRasErrorSets);
  expectNoComponents<zes_sched_handle_t>(device, zesDeviceEnumSchedulers);
  expectNoComponents<zes_standby_handle_t>(device, zesDeviceEnumStandbyDomains);
}

TEST_F(SysmanTest, PowerDomainsCountEnergyMonotonically) {
  for (zes_pwr_handle_t domain : enumerate<zes_pwr_handle_t>(zesDeviceEnumPowerDomains)) {
    zes_power_properties_t properties{ZES_STRUCTURE_TYPE_POWER_PROPERTIES};
    ASSERT_ZE(zesPowerGetProperties(domain, &properties));
    EXPECT_FALSE(properties.canControl);
    expectCountsUp(&zes_power_energy_counter_t::energy,
                   [&](zes_power_energy_counter_t* counter) { return zesPowerGetEnergyCounter(domain, counter); });
  }
}

// The sustained limit is the one in effect (NVML's enforced limit on NVIDIA GPUs), locked: Loom
// sets no limit. No other limit is known. The CPU device reports none.
TEST_F(SysmanTest, PowerLimitsAreReadAndNeverSet) {
  for (zes_pwr_handle_t domain : enumerate<zes_pwr_handle_t>(zesDeviceEnumPowerDomains)) {
    zes_power_sustained_limit_t sustained{};
    zes_power_burst_limit_t burst{true, 0};
    zes_power_peak_limit_t peak{};
    const ze_result_t result = zesPowerGetLimits(domain, &sustained, &burst, &peak);
    uint32_t count = 0;
    if (deviceType() == ZE_DEVICE_TYPE_CPU || result == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE) {
      EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, result);
      EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, zesPowerGetLimitsExt(domain, &count, nullptr));
      continue;
    }
    ASSERT_ZE(result);
    EXPECT_TRUE(sustained.enabled);
    EXPECT_GT(sustained.power, 0);
    EXPECT_FALSE(burst.enabled);
    EXPECT_EQ(-1, peak.powerAC);
    ASSERT_ZE(zesPowerGetLimits(domain, nullptr, nullptr, nullptr));
    ASSERT_ZE(zesPowerGetLimitsExt(domain, &count, nullptr));
    ASSERT_EQ(1u, count);
    zes_power_limit_ext_desc_t limits[2] = {{ZES_STRUCTURE_TYPE_POWER_LIMIT_EXT_DESC}, {ZES_STRUCTURE_TYPE_POWER_LIMIT_EXT_DESC}};
    count = 2;
    ASSERT_ZE(zesPowerGetLimitsExt(domain, &count, limits));
    EXPECT_EQ(1u, count);
    EXPECT_EQ(ZES_POWER_LEVEL_SUSTAINED, limits[0].level);
    EXPECT_EQ(ZES_LIMIT_UNIT_POWER, limits[0].limitUnit);
    EXPECT_TRUE(limits[0].enabled && limits[0].enabledStateLocked && limits[0].limitValueLocked && limits[0].intervalValueLocked);
    EXPECT_EQ(sustained.power, limits[0].limit);
    EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, zesPowerSetLimits(domain, &sustained, nullptr, nullptr));
  }
}

// The processes running kernels on the device, by the two-call idiom; the CPU device lists none.
TEST_F(SysmanTest, ProcessesAreListedWhereTheDeviceSays) {
  uint32_t count = 0;
  const ze_result_t result = zesDeviceProcessesGetState(device, &count, nullptr);
  if (deviceType() == ZE_DEVICE_TYPE_CPU) {
    EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, result);
    return;
  }
  ASSERT_ZE(result);
  std::vector<zes_process_state_t> processes(count + 8, {ZES_STRUCTURE_TYPE_PROCESS_STATE});
  uint32_t room = uint32_t(processes.size());
  ASSERT_ZE(zesDeviceProcessesGetState(device, &room, processes.data()));
  EXPECT_LT(room, processes.size()) << "the count comes back trimmed to what exists";
  for (uint32_t i = 0; i < room; ++i) {
    EXPECT_NE(0u, processes[i].processId);
    EXPECT_EQ(ZES_ENGINE_TYPE_FLAG_COMPUTE, processes[i].engines);
  }
}

// Firmwares are read (an NVIDIA GPU's VBIOS) and never flashed; the CPU device reports none.
TEST_F(SysmanTest, FirmwaresAreReadAndNeverFlashed) {
  const auto firmwares = enumerate<zes_firmware_handle_t>(zesDeviceEnumFirmwares);
  if (deviceType() == ZE_DEVICE_TYPE_CPU) { EXPECT_TRUE(firmwares.empty()); }
  for (zes_firmware_handle_t firmware : firmwares) {
    zes_firmware_properties_t properties{ZES_STRUCTURE_TYPE_FIRMWARE_PROPERTIES};
    ASSERT_ZE(zesFirmwareGetProperties(firmware, &properties));
    EXPECT_FALSE(properties.canControl);
    EXPECT_GT(std::strlen(properties.name), 0u);
    EXPECT_GT(std::strlen(properties.version), 0u) << "a version or \"unknown\"";
    char image[16] = {};
    EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, zesFirmwareFlash(firmware, image, sizeof(image)));
    EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zesFirmwareGetProperties(firmware, nullptr));
  }
}

TEST_F(SysmanTest, TemperatureSensorsReadPlausibleValues) {
  for (zes_temp_handle_t sensor : enumerate<zes_temp_handle_t>(zesDeviceEnumTemperatureSensors)) {
    zes_temp_properties_t properties{ZES_STRUCTURE_TYPE_TEMP_PROPERTIES};
    ASSERT_ZE(zesTemperatureGetProperties(sensor, &properties));
    double celsius = 0;
    ASSERT_ZE(zesTemperatureGetState(sensor, &celsius));
    EXPECT_GT(celsius, -50);
    EXPECT_LT(celsius, 200);
  }
}

TEST_F(SysmanTest, MemoryModulesReportTheirFreeAndTotalSize) {
  const auto modules = enumerate<zes_mem_handle_t>(zesDeviceEnumMemoryModules);
  if (deviceType() == ZE_DEVICE_TYPE_CPU) { ASSERT_EQ(1u, modules.size()) << "system memory, from /proc/meminfo"; }
  for (zes_mem_handle_t module : modules) {
    zes_mem_properties_t properties{ZES_STRUCTURE_TYPE_MEM_PROPERTIES};
    ASSERT_ZE(zesMemoryGetProperties(module, &properties));
    EXPECT_EQ(deviceType() == ZE_DEVICE_TYPE_CPU ? ZES_MEM_LOC_SYSTEM : ZES_MEM_LOC_DEVICE, properties.location);
    zes_mem_state_t state{ZES_STRUCTURE_TYPE_MEM_STATE};
    ASSERT_ZE(zesMemoryGetState(module, &state));
    EXPECT_GT(state.size, 0u);
    EXPECT_LE(state.free, state.size);
    if (properties.physicalSize) { EXPECT_LE(state.size, properties.physicalSize); }
  }
}

TEST_F(SysmanTest, EngineGroupsCountActiveTimeMonotonically) {
  const auto groups = enumerate<zes_engine_handle_t>(zesDeviceEnumEngineGroups);
  if (deviceType() == ZE_DEVICE_TYPE_CPU) { ASSERT_EQ(1u, groups.size()) << "all cores, from /proc/stat"; }
  for (zes_engine_handle_t group : groups) {
    zes_engine_properties_t properties{ZES_STRUCTURE_TYPE_ENGINE_PROPERTIES};
    ASSERT_ZE(zesEngineGetProperties(group, &properties));
    EXPECT_TRUE(properties.type == ZES_ENGINE_GROUP_ALL || properties.type == ZES_ENGINE_GROUP_COMPUTE_ALL);
    expectCountsUp(&zes_engine_stats_t::activeTime, [&](zes_engine_stats_t* stats) { return zesEngineGetActivity(group, stats); });
  }
}

// ECC is read, never changed: a device whose memory reports error correction (NVIDIA GPUs,
// through NVML) gives its mode now and after the next reset; the CPU device's host memory reports
// none. Changing the mode is nvidia-smi's (as root, with a reset).
TEST_F(SysmanTest, EccStateIsReadAndNeverChanged) {
  ze_bool_t available = false, configurable = true;
  ASSERT_ZE(zesDeviceEccAvailable(device, &available));
  ASSERT_ZE(zesDeviceEccConfigurable(device, &configurable));
  EXPECT_FALSE(configurable);
  zes_device_ecc_properties_t state{ZES_STRUCTURE_TYPE_DEVICE_ECC_PROPERTIES};
  zes_device_ecc_desc_t wanted{ZES_STRUCTURE_TYPE_DEVICE_ECC_DESC, nullptr, ZES_DEVICE_ECC_STATE_ENABLED};
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, zesDeviceSetEccState(device, &wanted, &state));
  wanted.state = ZES_DEVICE_ECC_STATE_UNAVAILABLE;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION, zesDeviceSetEccState(device, &wanted, &state));
  if (!available) {
    EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, zesDeviceGetEccState(device, &state));
    return;
  }
  ASSERT_ZE(zesDeviceGetEccState(device, &state));
  for (zes_device_ecc_state_t mode : {state.currentState, state.pendingState})
    EXPECT_TRUE(mode == ZES_DEVICE_ECC_STATE_ENABLED || mode == ZES_DEVICE_ECC_STATE_DISABLED) << mode;
  EXPECT_EQ(state.currentState == state.pendingState ? ZES_DEVICE_ACTION_NONE : ZES_DEVICE_ACTION_WARM_CARD_RESET,
            state.pendingAction);
}

TEST_F(SysmanTest, NullHandlesAndPointersGetTheSpecsCodes) {
  zes_device_properties_t properties{ZES_STRUCTURE_TYPE_DEVICE_PROPERTIES};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zesDeviceGetProperties(nullptr, &properties));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zesDeviceGetProperties(device, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zesDeviceGetState(device, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zesDeviceEnumFrequencyDomains(device, nullptr, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zesDeviceEnumPowerDomains(device, nullptr, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zesDeviceEnumTemperatureSensors(device, nullptr, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zesDeviceEnumMemoryModules(device, nullptr, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zesDeviceEnumEngineGroups(device, nullptr, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zesDevicePciGetBars(device, nullptr, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zesDeviceEccAvailable(device, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zesDeviceEccConfigurable(device, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zesDeviceGetEccState(device, nullptr));
  zes_device_ecc_properties_t ecc{ZES_STRUCTURE_TYPE_DEVICE_ECC_PROPERTIES};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zesDeviceSetEccState(device, nullptr, &ecc));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zesDeviceGetEccState(nullptr, &ecc));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zesDeviceProcessesGetState(device, nullptr, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zesDeviceEnumFirmwares(device, nullptr, nullptr));
  uint32_t count = 0;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zesDeviceProcessesGetState(nullptr, &count, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zesDeviceEnumFirmwares(nullptr, &count, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zesDeviceEnumMemoryModules(nullptr, &count, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zesDeviceEnumEngineGroups(nullptr, &count, nullptr));

  zes_mem_state_t memoryState{ZES_STRUCTURE_TYPE_MEM_STATE};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zesMemoryGetState(nullptr, &memoryState));
  zes_engine_stats_t stats{};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zesEngineGetActivity(nullptr, &stats));
  zes_freq_state_t frequencyState{ZES_STRUCTURE_TYPE_FREQ_STATE};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zesFrequencyGetState(nullptr, &frequencyState));
  zes_power_energy_counter_t energy{};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zesPowerGetEnergyCounter(nullptr, &energy));
  zes_power_sustained_limit_t sustained{};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zesPowerGetLimits(nullptr, &sustained, nullptr, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zesPowerGetLimitsExt(nullptr, &count, nullptr));
  double celsius = 0;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zesTemperatureGetState(nullptr, &celsius));
  zes_firmware_properties_t firmware{ZES_STRUCTURE_TYPE_FIRMWARE_PROPERTIES};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zesFirmwareGetProperties(nullptr, &firmware));

  for (zes_mem_handle_t module : enumerate<zes_mem_handle_t>(zesDeviceEnumMemoryModules)) {
    EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zesMemoryGetProperties(module, nullptr));
    EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zesMemoryGetState(module, nullptr));
  }
  for (zes_engine_handle_t group : enumerate<zes_engine_handle_t>(zesDeviceEnumEngineGroups)) {
    EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zesEngineGetProperties(group, nullptr));
    EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zesEngineGetActivity(group, nullptr));
  }
  for (zes_pwr_handle_t domain : enumerate<zes_pwr_handle_t>(zesDeviceEnumPowerDomains))
    EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zesPowerGetLimitsExt(domain, nullptr, nullptr));
}

TEST_F(SysmanTest, HandlesOfAnotherKindAreRejected) {
  const auto modules = enumerate<zes_mem_handle_t>(zesDeviceEnumMemoryModules);
  const auto groups = enumerate<zes_engine_handle_t>(zesDeviceEnumEngineGroups);
  if (modules.empty() || groups.empty()) GTEST_SKIP() << "needs a memory module and an engine group";
  zes_engine_stats_t stats{};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zesEngineGetActivity(reinterpret_cast<zes_engine_handle_t>(modules[0]), &stats));
  zes_mem_state_t state{ZES_STRUCTURE_TYPE_MEM_STATE};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zesMemoryGetState(reinterpret_cast<zes_mem_handle_t>(groups[0]), &state));
  zes_freq_state_t frequency{ZES_STRUCTURE_TYPE_FREQ_STATE};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zesFrequencyGetState(reinterpret_cast<zes_freq_handle_t>(groups[0]), &frequency));
}

TEST_F(SysmanTest, SubDevicesReportTheirRootDevicesDomains) {
  uint32_t count = 0;
  ASSERT_ZE(zeDeviceGetSubDevices(device, &count, nullptr));
  if (count == 0) GTEST_SKIP() << "no sub-devices (LOOM_CpuSubDevices)";
  std::vector<ze_device_handle_t> subDevices(count);
  ASSERT_ZE(zeDeviceGetSubDevices(device, &count, subDevices.data()));
  uint32_t rootModules = 0, subModules = 0;
  ASSERT_ZE(zesDeviceEnumMemoryModules(device, &rootModules, nullptr));
  ASSERT_ZE(zesDeviceEnumMemoryModules(subDevices[0], &subModules, nullptr));
  EXPECT_EQ(rootModules, subModules);
  zes_device_properties_t properties{ZES_STRUCTURE_TYPE_DEVICE_PROPERTIES};
  ASSERT_ZE(zesDeviceGetProperties(subDevices[0], &properties));
  EXPECT_TRUE(properties.core.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE);
  EXPECT_EQ(0u, properties.numSubdevices);
}

// Run by loom_ze_api_sysman_disabled, without ZES_ENABLE_SYSMAN.
TEST(SysmanDisabledTest, EverySysmanCallIsUninitialized) {
  if (sysmanRequested()) GTEST_SKIP() << "runs without ZES_ENABLE_SYSMAN=1";
  if (forcedOntoAbsentCuda()) GTEST_SKIP() << "LOOM_ForceBackend=cuda without libcuda.so.1";
  ASSERT_ZE(zeInit(0));
  uint32_t count = 1;
  ze_driver_handle_t driver = nullptr;
  ASSERT_ZE(zeDriverGet(&count, &driver));
  ze_device_handle_t device = nullptr;
  ASSERT_ZE(zeDeviceGet(driver, &count, &device));
  zes_device_properties_t properties{ZES_STRUCTURE_TYPE_DEVICE_PROPERTIES};
  EXPECT_EQ(ZE_RESULT_ERROR_UNINITIALIZED, zesDeviceGetProperties(device, &properties));
  count = 0;
  EXPECT_EQ(ZE_RESULT_ERROR_UNINITIALIZED, zesDeviceEnumMemoryModules(device, &count, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_UNINITIALIZED, zesDeviceEnumEngineGroups(device, &count, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_UNINITIALIZED, zesDeviceEnumFans(device, &count, nullptr));
  zes_engine_stats_t stats{};
  EXPECT_EQ(ZE_RESULT_ERROR_UNINITIALIZED, zesEngineGetActivity(nullptr, &stats));
}

}  // namespace
}  // namespace loom::test
