// GPU telemetry without a GPU: NVML's values translated into Level Zero's terms, the PCI BARs of a
// fake sysfs file, and the telemetry that remains where NVML is missing.
#include "backends/cuda/nvml_telemetry.h"

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace loom::backends::cuda {
namespace {

TEST(NvmlTelemetry, ThrottleReasonsMapToLevelZerosBits) {
  EXPECT_EQ(0u, translateThrottleReasons(0));
  EXPECT_EQ(0u, translateThrottleReasons(0x1));  // GPU idle is no throttle
  EXPECT_EQ(uint32_t(core::kThrottleAveragePower), translateThrottleReasons(kNvmlThrottleSwPowerCap));
  EXPECT_EQ(uint32_t(core::kThrottleThermal), translateThrottleReasons(kNvmlThrottleSwThermalSlowdown));
  EXPECT_EQ(uint32_t(core::kThrottleThermal), translateThrottleReasons(kNvmlThrottleHwThermalSlowdown));
  EXPECT_EQ(uint32_t(core::kThrottlePowerSupply | core::kThrottleSoftwareRange),
            translateThrottleReasons(kNvmlThrottleHwPowerBrakeSlowdown | kNvmlThrottleApplicationsClocksSetting));
}

TEST(NvmlTelemetry, PcieBandwidthFollowsGenerationAndWidth) {
  EXPECT_EQ(16 * 250000000ll, pcieBandwidth(1, 16));
  EXPECT_EQ(16 * 984615384ll, pcieBandwidth(3, 16));
  EXPECT_EQ(16 * 3938461538ll, pcieBandwidth(5, 16));
  EXPECT_EQ(-1, pcieBandwidth(-1, 16));
  EXPECT_EQ(-1, pcieBandwidth(4, -1));
  EXPECT_EQ(-1, pcieBandwidth(9, 16));
}

TEST(NvmlTelemetry, PciResourcesBecomeBars) {
  const std::string resource =
      "0x00000000fb000000 0x00000000fbffffff 0x0000000000040200\n"  // BAR0: registers
      "0x0000038000000000 0x0000039fffffffff 0x000000000014220c\n"  // BAR1: 128 GiB prefetchable aperture
      "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"  // upper half of BAR1
      "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
      "0x000000000000e000 0x000000000000e07f 0x0000000000040101\n"  // I/O ports: no Level Zero type
      "garbage\n"
      "0x00000000fc000000 0x00000000fc07ffff 0x0000000000046200\n"  // expansion ROM
      "0x0000000000000000 0x0000000000000000 0x0000000000000000\n";
  const std::vector<core::PciBar> bars = parsePciResources(resource);
  ASSERT_EQ(3u, bars.size());
  EXPECT_EQ(core::PciBar::Type::Mmio, bars[0].type);
  EXPECT_EQ(0u, bars[0].index);
  EXPECT_EQ(0xfb000000u, bars[0].base);
  EXPECT_EQ(16u << 20, bars[0].size);
  EXPECT_EQ(core::PciBar::Type::Memory, bars[1].type);
  EXPECT_EQ(1u, bars[1].index);
  EXPECT_EQ(128ull << 30, bars[1].size);
  EXPECT_EQ(core::PciBar::Type::Rom, bars[2].type);
  EXPECT_EQ(6u, bars[2].index);
  EXPECT_TRUE(parsePciResources("").empty());
  EXPECT_TRUE(parsePciResources("\xff\xfe not hex at all\n").empty());
}

TEST(NvmlTelemetry, MemoryBusWidthTellsHbmFromGddr) {
  EXPECT_EQ(core::MemoryKind::Hbm, memoryKindForBusWidth(5120));
  EXPECT_EQ(core::MemoryKind::Ddr, memoryKindForBusWidth(384));
}

TEST(NvmlTelemetry, UtilizationSamplesIntegrateIntoAMonotonicCounter) {
  UtilizationCounter counter;
  counter.add({{2000, 50}, {1000, 100}});  // out of order: the first sample only starts the count
  EXPECT_EQ(500u, counter.activeUs);
  EXPECT_EQ(2000u, counter.lastTimestampUs);
  counter.add({{2000, 100}, {1500, 100}});  // nothing new
  EXPECT_EQ(500u, counter.activeUs);
  counter.add({{3000, 25}, {4000, 250}});  // percentages beyond 100 are clamped
  EXPECT_EQ(500u + 250u + 1000u, counter.activeUs);
  EXPECT_EQ(4000u, counter.lastTimestampUs);
}

TEST(NvmlTelemetry, SampleValuesReadByTheirType) {
  nvmlValue_t value{};
  value.uiVal = 42;
  EXPECT_EQ(42.0, samplePercent(NVML_VALUE_TYPE_UNSIGNED_INT, value));
  value.dVal = 12.5;
  EXPECT_EQ(12.5, samplePercent(NVML_VALUE_TYPE_DOUBLE, value));
  value.ullVal = 7;
  EXPECT_EQ(7.0, samplePercent(NVML_VALUE_TYPE_UNSIGNED_LONG_LONG, value));
  EXPECT_FALSE(samplePercent(99, value));
}

TEST(NvmlTelemetry, AMissingLibraryIsReportedNotFatal) {
  std::string error;
  EXPECT_EQ(nullptr, Nvml::load("libloom-no-such-nvml.so.1", error));
  EXPECT_NE(std::string::npos, error.find("libloom-no-such-nvml.so.1")) << error;
}

TEST(NvmlTelemetry, WithoutNvmlOnlyThePciAddressAndBarsAreKnown) {
  namespace fs = std::filesystem;
  const fs::path sysfs = fs::temp_directory_path() / ("loom-nvml-test-" + std::to_string(getpid()));
  fs::create_directories(sysfs / "0001:3b:00.0");
  std::ofstream(sysfs / "0001:3b:00.0" / "resource") << "0x00000000fb000000 0x00000000fbffffff 0x0000000000040200\n";
  NvmlTelemetry telemetry(nullptr, nullptr, {1, 0x3b, 0, 0}, sysfs.string());
  const auto pci = telemetry.pci();
  fs::remove_all(sysfs);
  ASSERT_TRUE(pci);
  EXPECT_EQ(1u, pci->address.domain);
  EXPECT_EQ(0x3bu, pci->address.bus);
  EXPECT_EQ(-1, pci->maxSpeed.generation);
  EXPECT_EQ(-1, pci->maxSpeed.bandwidth);
  ASSERT_EQ(1u, pci->bars.size());
  EXPECT_FALSE(telemetry.pciLinkSpeed());
  EXPECT_FALSE(telemetry.resetPending());
  EXPECT_TRUE(telemetry.productStrings().serialNumber.empty());
  EXPECT_TRUE(telemetry.frequencyDomains().empty());
  EXPECT_TRUE(telemetry.powerDomains().empty());
  EXPECT_TRUE(telemetry.temperatureSensors().empty());
  EXPECT_TRUE(telemetry.memoryModules().empty());
  EXPECT_TRUE(telemetry.engineGroups().empty());
  EXPECT_FALSE(telemetry.frequencyState(0));
  EXPECT_FALSE(telemetry.energy(0));
  EXPECT_FALSE(telemetry.engineActivity(0));
  EXPECT_FALSE(telemetry.sustainedPowerLimitMilliwatts(0));
  EXPECT_FALSE(telemetry.processes());
  EXPECT_TRUE(telemetry.firmwares().empty());
}

// The fake NVML library: in lib/ beside the test program's bin/.
std::string fakeNvmlPath() {
  return (std::filesystem::read_symlink("/proc/self/exe").parent_path().parent_path() / "lib" / LOOM_FAKE_NVML).string();
}

// The fake NVML library, loaded, and its GPU.
struct FakeNvml {
  std::shared_ptr<const Nvml> nvml;
  nvmlDevice_t device = nullptr;

  // One of the library's setters (fakeNvmlSet...); null when it lacks it.
  template <typename Function>
  Function* setter(const char* name) const {
    return reinterpret_cast<Function*>(dlsym(dlopen(fakeNvmlPath().c_str(), RTLD_NOW | RTLD_NOLOAD), name));
  }
};

FakeNvml loadFakeNvml() {
  FakeNvml fake;
  std::string error;
  fake.nvml = Nvml::load(fakeNvmlPath(), error);
  EXPECT_TRUE(fake.nvml) << error;
  if (fake.nvml) {
    EXPECT_EQ(NVML_SUCCESS, fake.nvml->nvmlDeviceGetHandleByPciBusId_v2("00000000:3b:00.0", &fake.device));
  }
  return fake;
}

constexpr core::PciAddress kFakeGpu{0, 0x3b, 0, 0};

// ECC modes now and after the next reset, read from NVML (a fake library here); a GPU whose
// memory has no error correction (NVML: NOT_SUPPORTED) reports none.
TEST(NvmlTelemetry, EccModesComeFromNvml) {
  const FakeNvml fake = loadFakeNvml();
  ASSERT_TRUE(fake.device);
  auto setEccMode = fake.setter<void(int, int)>("fakeNvmlSetEccMode");
  ASSERT_NE(setEccMode, nullptr);
  NvmlTelemetry telemetry(fake.nvml, fake.device, kFakeGpu, "/nonexistent");
  EXPECT_FALSE(telemetry.eccState());
  setEccMode(NVML_FEATURE_ENABLED, 0);
  std::optional<core::EccState> ecc = telemetry.eccState();
  ASSERT_TRUE(ecc);
  EXPECT_TRUE(ecc->enabled);
  EXPECT_FALSE(ecc->enabledAfterReset);
  setEccMode(0, NVML_FEATURE_ENABLED);
  ecc = telemetry.eccState();
  ASSERT_TRUE(ecc);
  EXPECT_FALSE(ecc->enabled);
  EXPECT_TRUE(ecc->enabledAfterReset);
}

// The power domain's sustained limit is the one NVML enforces, read when asked.
TEST(NvmlTelemetry, SustainedPowerLimitIsTheOneNvmlEnforces) {
  const FakeNvml fake = loadFakeNvml();
  ASSERT_TRUE(fake.device);
  auto setLimit = fake.setter<void(int)>("fakeNvmlSetEnforcedPowerLimit");
  ASSERT_NE(setLimit, nullptr);
  NvmlTelemetry telemetry(fake.nvml, fake.device, kFakeGpu, "/nonexistent");
  ASSERT_EQ(1u, telemetry.powerDomains().size());
  setLimit(-1);
  EXPECT_FALSE(telemetry.sustainedPowerLimitMilliwatts(0));
  setLimit(700000);
  EXPECT_EQ(700000, telemetry.sustainedPowerLimitMilliwatts(0));
  setLimit(450000);
  EXPECT_EQ(450000, telemetry.sustainedPowerLimitMilliwatts(0));
  EXPECT_FALSE(telemetry.sustainedPowerLimitMilliwatts(1)) << "no such domain";
}

// NVML's compute processes, however many there are; memory NVML does not know reads as 0.
TEST(NvmlTelemetry, ProcessesComeFromNvml) {
  const FakeNvml fake = loadFakeNvml();
  ASSERT_TRUE(fake.device);
  auto setProcesses = fake.setter<void(int, const unsigned*, const unsigned long long*)>("fakeNvmlSetProcesses");
  ASSERT_NE(setProcesses, nullptr);
  NvmlTelemetry telemetry(fake.nvml, fake.device, kFakeGpu, "/nonexistent");
  setProcesses(-1, nullptr, nullptr);
  EXPECT_FALSE(telemetry.processes());
  setProcesses(0, nullptr, nullptr);
  std::optional<std::vector<core::ProcessUsage>> processes = telemetry.processes();
  ASSERT_TRUE(processes);
  EXPECT_TRUE(processes->empty());
  const unsigned pids[] = {4242, 4343, 4444};
  const unsigned long long memory[] = {1ull << 30, NVML_VALUE_NOT_AVAILABLE, 0};
  setProcesses(3, pids, memory);
  processes = telemetry.processes();
  ASSERT_TRUE(processes);
  ASSERT_EQ(3u, processes->size());
  EXPECT_EQ(4242u, (*processes)[0].processId);
  EXPECT_EQ(1ull << 30, (*processes)[0].memoryBytes);
  EXPECT_EQ(4343u, (*processes)[1].processId);
  EXPECT_EQ(0u, (*processes)[1].memoryBytes);
  EXPECT_EQ(4444u, (*processes)[2].processId);
}

// A GPU whose VBIOS version NVML reports has one firmware, "VBIOS", whose version is read when asked.
TEST(NvmlTelemetry, TheVbiosIsTheGpusFirmware) {
  const FakeNvml fake = loadFakeNvml();
  ASSERT_TRUE(fake.device);
  auto setVbiosVersion = fake.setter<void(const char*)>("fakeNvmlSetVbiosVersion");
  ASSERT_NE(setVbiosVersion, nullptr);
  setVbiosVersion("");
  NvmlTelemetry without(fake.nvml, fake.device, kFakeGpu, "/nonexistent");
  EXPECT_TRUE(without.firmwares().empty());
  EXPECT_FALSE(without.firmwareVersion(0));
  setVbiosVersion("96.00.A5.00.01");
  NvmlTelemetry telemetry(fake.nvml, fake.device, kFakeGpu, "/nonexistent");
  ASSERT_EQ(1u, telemetry.firmwares().size());
  EXPECT_EQ("VBIOS", telemetry.firmwares()[0].name);
  EXPECT_EQ("96.00.A5.00.01", telemetry.firmwareVersion(0));
  setVbiosVersion("96.00.A5.00.02");
  EXPECT_EQ("96.00.A5.00.02", telemetry.firmwareVersion(0));
  EXPECT_FALSE(telemetry.firmwareVersion(1)) << "no such firmware";
}

// The fabric's edge model: NVLink where NVML says P2P over NVLink works, else PCIe where P2P
// over PCI does; nothing where NVML says neither (the spec's "unknown" then).
TEST(NvmlTelemetry, PeerLinkModelIsWhatNvmlSaysCarriesP2P) {
  const FakeNvml fake = loadFakeNvml();
  ASSERT_TRUE(fake.device);
  auto setP2PStatus = fake.setter<void(int, int)>("fakeNvmlSetP2PStatus");
  ASSERT_NE(setP2PStatus, nullptr);
  constexpr int kOk = 0, kNotSupported = 5;  // nvmlGpuP2PStatus_t
  setP2PStatus(kOk, kOk);
  EXPECT_EQ("NVLink", peerLink(*fake.nvml, fake.device, fake.device, kFakeGpu).model);
  setP2PStatus(kNotSupported, kOk);
  EXPECT_EQ("PCIe", peerLink(*fake.nvml, fake.device, fake.device, kFakeGpu).model);
  setP2PStatus(kNotSupported, kNotSupported);
  EXPECT_EQ("", peerLink(*fake.nvml, fake.device, fake.device, kFakeGpu).model);
  setP2PStatus(-1, -1);  // the queries fail
  EXPECT_EQ("", peerLink(*fake.nvml, fake.device, fake.device, kFakeGpu).model);
}

// Both numberings of NVLink versions: nvmlNvlinkVersion_t's (1.0, 2.0, 2.2, 3.0, 3.1, 4.0, 5.0 as
// 1 to 7) and older drivers' major versions (1 to 4).
TEST(NvmlTelemetry, NvLinkRateFollowsItsVersion) {
  EXPECT_EQ(20u, nvlinkBytesPerNanosecond(1));
  for (unsigned version = 2; version <= 6; ++version) EXPECT_EQ(25u, nvlinkBytesPerNanosecond(version)) << version;
  EXPECT_EQ(50u, nvlinkBytesPerNanosecond(7));
  EXPECT_EQ(0u, nvlinkBytesPerNanosecond(0)) << "NVML_NVLINK_VERSION_INVALID";
  EXPECT_EQ(0u, nvlinkBytesPerNanosecond(8)) << "a version newer than Loom";
}

// The fake NVML's P2P status and NVLinks, set by each test and put back after it.
class NvLinkPeerTest : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(fake.device);
    ASSERT_NE(setP2PStatus, nullptr);
    ASSERT_NE(setNvLinks, nullptr);
    ASSERT_NE(setOtherEnd, nullptr);
  }
  void TearDown() override {
    if (!setP2PStatus || !setNvLinks || !setOtherEnd) return;
    setOtherEnd(0);
    setNvLinks(0, 0, 0, 0);
    setP2PStatus(-1, -1);
  }
  core::PeerLink link() const { return peerLink(*fake.nvml, fake.device, fake.device, kFakeGpu); }

  static constexpr unsigned kNvLink4 = 6;  // nvmlNvlinkVersion_t of NVLink 4.0
  const FakeNvml fake = loadFakeNvml();
  void (*setP2PStatus)(int, int) = fake.setter<void(int, int)>("fakeNvmlSetP2PStatus");
  void (*setNvLinks)(unsigned, unsigned, unsigned, unsigned) =
      fake.setter<void(unsigned, unsigned, unsigned, unsigned)>("fakeNvmlSetNvLinks");
  void (*setOtherEnd)(int) = fake.setter<void(int)>("fakeNvmlSetNvLinkOtherEnd");
};

// An NVLink edge's bandwidth is that of the active links whose other end is the peer, one hop.
TEST_F(NvLinkPeerTest, BandwidthSumsTheLinksToThePeer) {
  setP2PStatus(0, 0);
  setNvLinks(18, 6, kNvLink4, kFakeGpu.bus);  // 6 links to the peer, 12 to other GPUs
  core::PeerLink found = link();
  EXPECT_EQ("NVLink", found.model);
  EXPECT_EQ(6u * 25, found.bytesPerNanosecond);
  EXPECT_EQ(1u, found.hops);
  setNvLinks(18, 18, 7, kFakeGpu.bus);  // NVLink 5.0
  EXPECT_EQ(18u * 50, link().bytesPerNanosecond);

  setNvLinks(4, 4, 99, kFakeGpu.bus);  // a version Loom does not know: nothing made up
  found = link();
  EXPECT_EQ("NVLink", found.model);
  EXPECT_EQ(0u, found.bytesPerNanosecond);
  EXPECT_EQ(0u, found.hops);

  setNvLinks(18, 0, kNvLink4, kFakeGpu.bus);  // NVLinks, none of them to the peer
  found = link();
  EXPECT_EQ(0u, found.bytesPerNanosecond);
  EXPECT_EQ(0u, found.hops);
  setNvLinks(0, 0, kNvLink4, kFakeGpu.bus);  // no active NVLink at all
  EXPECT_EQ(0u, link().bytesPerNanosecond);
}

// GPUs whose links all end at NVSwitches (an HGX board) reach each other in two hops, through
// as many links as the switches give each of them.
TEST_F(NvLinkPeerTest, PeersBehindSwitchesAreTwoHopsApart) {
  setP2PStatus(0, 0);
  setNvLinks(18, 0, kNvLink4, kFakeGpu.bus);
  setOtherEnd(NVML_NVLINK_DEVICE_TYPE_SWITCH);
  core::PeerLink found = link();
  EXPECT_EQ("NVLink", found.model);
  EXPECT_EQ(18u * 25, found.bytesPerNanosecond);
  EXPECT_EQ(2u, found.hops);
  setNvLinks(18, 2, kNvLink4, kFakeGpu.bus);  // direct links win: one hop
  found = link();
  EXPECT_EQ(2u * 25, found.bytesPerNanosecond);
  EXPECT_EQ(1u, found.hops);
  setOtherEnd(0xff);  // an end NVML does not know: nothing made up
  setNvLinks(18, 0, kNvLink4, kFakeGpu.bus);
  found = link();
  EXPECT_EQ(0u, found.bytesPerNanosecond);
  EXPECT_EQ(0u, found.hops);
}

// P2P over PCIe: its path's bandwidth and length are not NVML's to say, so they stay unknown even
// where the GPU has NVLinks to the peer.
TEST_F(NvLinkPeerTest, PcieFiguresStayUnknown) {
  constexpr int kNotSupported = 5;  // nvmlGpuP2PStatus_t
  setP2PStatus(kNotSupported, 0);
  setNvLinks(4, 4, kNvLink4, kFakeGpu.bus);
  const core::PeerLink found = link();
  EXPECT_EQ("PCIe", found.model);
  EXPECT_EQ(0u, found.bytesPerNanosecond);
  EXPECT_EQ(0u, found.hops);
}

}  // namespace
}  // namespace loom::backends::cuda
