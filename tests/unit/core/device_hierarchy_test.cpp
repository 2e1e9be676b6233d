// The device tree of each ZE_FLAT_DEVICE_HIERARCHY mode and what ZE_AFFINITY_MASK selects of it,
// built from fake GPUs and a fake CPU of tiles, so that CI without GPUs checks the GPU grouping.
#include "loom/core/device_hierarchy.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "fake_backend.h"

namespace loom::core {
namespace {

// How fake GPU `from` reaches GPU `to`, by their labels, where a test says otherwise than full
// peer access with atomics.
std::map<std::pair<uint32_t, uint32_t>, PeerAccess> peerLimits;

// Names each fake device by its deviceId: GPU g is 100 + g, the CPU 200, its tile t 300 + t, a
// composite 900. `log` records destructions, for the order of the tree's teardown.
class LabeledBackend final : public testing::FakeBackendBase {
 public:
  LabeledBackend(DeviceType type, uint32_t label, std::vector<uint32_t>* log = nullptr)
      : FakeBackendBase(makeInfo(type, label)), log_(log) {}
  ~LabeledBackend() override {
    if (log_) log_->push_back(info().deviceId);
  }
  PeerAccess peerAccess(const Backend& peer) const override {
    auto limited = peerLimits.find({info().deviceId, peer.info().deviceId});
    return limited == peerLimits.end() ? PeerAccess{true, true} : limited->second;
  }

 private:
  static DeviceInfo makeInfo(DeviceType type, uint32_t label) {
    DeviceInfo info;
    info.type = type;
    info.deviceId = label;
    return info;
  }
  std::vector<uint32_t>* log_;
};

constexpr uint32_t kCpu = 200, kComposite = 900;
constexpr uint32_t gpu(uint32_t index) { return 100 + index; }
constexpr uint32_t tile(uint32_t index) { return 300 + index; }

std::vector<DiscoveredDevice> machine(uint32_t gpus, uint32_t cpuTiles, std::vector<uint32_t>* log = nullptr) {
  std::vector<DiscoveredDevice> devices;
  for (uint32_t g = 0; g < gpus; ++g)
    devices.push_back({std::make_unique<LabeledBackend>(DeviceType::Gpu, gpu(g), log), {}});
  DiscoveredDevice cpu{std::make_unique<LabeledBackend>(DeviceType::Cpu, kCpu, log), {}};
  for (uint32_t t = 0; t < cpuTiles; ++t) cpu.subDevices.push_back(std::make_unique<LabeledBackend>(DeviceType::Cpu, tile(t), log));
  devices.push_back(std::move(cpu));
  return devices;
}

class DeviceHierarchyTest : public ::testing::Test {
 protected:
  void TearDown() override { peerLimits.clear(); }
  DeviceTree build(std::vector<DiscoveredDevice> devices, DeviceHierarchy hierarchy, const char* mask = nullptr) {
    DeviceTreeOptions options;
    options.hierarchy = hierarchy;
    options.mask = parseAffinityMask(mask);
    options.makeComposite = [this](std::vector<Backend*> tiles) -> std::unique_ptr<Backend> {
      compositeTiles.push_back(tiles);
      if (!compositesWork) return nullptr;
      return std::make_unique<LabeledBackend>(DeviceType::Gpu, kComposite, destroyed);
    };
    return buildDeviceTree(std::move(devices), options);
  }

  static std::vector<uint32_t> labels(const std::vector<std::unique_ptr<Device>>& devices) {
    std::vector<uint32_t> result;
    for (const auto& device : devices) result.push_back(device->info().deviceId);
    return result;
  }
  static std::vector<int32_t> tileIndices(const std::vector<std::unique_ptr<Device>>& devices) {
    std::vector<int32_t> result;
    for (const auto& device : devices) result.push_back(device->subDeviceIndex());
    return result;
  }

  std::vector<std::vector<Backend*>> compositeTiles;  // what each composite was asked to join
  bool compositesWork = true;
  std::vector<uint32_t>* destroyed = nullptr;
};

using Labels = std::vector<uint32_t>;
using Indices = std::vector<int32_t>;

TEST_F(DeviceHierarchyTest, DefaultKeepsEachGpuARootAndTheCpuARootOverItsTiles) {
  DeviceTree tree = build(machine(2, 2), DeviceHierarchy::Default);
  EXPECT_EQ(labels(tree.roots), (Labels{gpu(0), gpu(1), kCpu}));
  EXPECT_EQ(tileIndices(tree.roots), (Indices{-1, -1, -1}));
  EXPECT_TRUE(tree.roots[0]->subDevices().empty());
  const Device& cpu = *tree.roots[2];
  EXPECT_EQ(labels(cpu.subDevices()), (Labels{tile(0), tile(1)}));
  EXPECT_EQ(tileIndices(cpu.subDevices()), (Indices{0, 1}));
  for (const auto& sub : cpu.subDevices()) EXPECT_EQ(sub->parent(), &cpu);
  EXPECT_TRUE(compositeTiles.empty());
  EXPECT_TRUE(tree.hiddenRoots.empty());
  EXPECT_TRUE(tree.hiddenTiles.empty());
}

TEST_F(DeviceHierarchyTest, ADeviceOfOneTileHasNoSubDevice) {
  DeviceTree tree = build(machine(0, 1), DeviceHierarchy::Default);
  ASSERT_EQ(labels(tree.roots), (Labels{kCpu}));
  EXPECT_TRUE(tree.roots[0]->subDevices().empty());
  EXPECT_EQ(tree.hiddenTiles.size(), 1u);
}

TEST_F(DeviceHierarchyTest, CompositeMakesOneRootOverEveryGpu) {
  DeviceTree tree = build(machine(3, 4), DeviceHierarchy::Composite);
  ASSERT_EQ(labels(tree.roots), (Labels{kComposite, kCpu}));
  const Device& root = *tree.roots[0];
  EXPECT_EQ(labels(root.subDevices()), (Labels{gpu(0), gpu(1), gpu(2)}));
  EXPECT_EQ(tileIndices(root.subDevices()), (Indices{0, 1, 2}));
  ASSERT_EQ(compositeTiles.size(), 1u);
  ASSERT_EQ(compositeTiles[0].size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(compositeTiles[0][i], &root.subDevices()[i]->backend()) << "the composite joins its sub-devices' backends";
    EXPECT_EQ(root.subDevices()[i]->parent(), &root);
  }
  EXPECT_EQ(labels(tree.roots[1]->subDevices()), (Labels{tile(0), tile(1), tile(2), tile(3)}));
}

TEST_F(DeviceHierarchyTest, CompositeOfOneGpuIsThatGpu) {
  DeviceTree tree = build(machine(1, 2), DeviceHierarchy::Composite);
  EXPECT_EQ(labels(tree.roots), (Labels{gpu(0), kCpu}));
  EXPECT_TRUE(compositeTiles.empty());
}

TEST_F(DeviceHierarchyTest, GpusTheCompositeCannotJoinStayRootsOfTheirOwn) {
  compositesWork = false;
  DeviceTree tree = build(machine(2, 0), DeviceHierarchy::Composite);
  EXPECT_EQ(compositeTiles.size(), 1u);
  EXPECT_EQ(labels(tree.roots), (Labels{gpu(0), gpu(1), kCpu}));
  EXPECT_EQ(tileIndices(tree.roots), (Indices{-1, -1, -1}));
}

TEST_F(DeviceHierarchyTest, CompositeAdmitsOnlyGpusThatArePeersWithNativeAtomicsOfEveryOther) {
  peerLimits[{gpu(1), gpu(0)}] = {true, false};  // GPU 1 reaches GPU 0, without native atomics
  peerLimits[{gpu(3), gpu(2)}] = {false, false};
  DeviceTree tree = build(machine(4, 0), DeviceHierarchy::Composite);
  ASSERT_EQ(labels(tree.roots), (Labels{kComposite, gpu(1), gpu(3), kCpu}));
  EXPECT_EQ(labels(tree.roots[0]->subDevices()), (Labels{gpu(0), gpu(2)}));
  EXPECT_EQ(tileIndices(tree.roots[0]->subDevices()), (Indices{0, 1})) << "the admitted GPUs are numbered anew";
  EXPECT_TRUE(tree.roots[1]->subDevices().empty());
}

TEST_F(DeviceHierarchyTest, CompositeChecksPeerAccessBothWays) {
  peerLimits[{gpu(0), gpu(1)}] = {false, false};
  DeviceTree tree = build(machine(2, 0), DeviceHierarchy::Composite);
  EXPECT_EQ(labels(tree.roots), (Labels{gpu(0), gpu(1), kCpu})) << "one GPU left: no composite";
  EXPECT_TRUE(compositeTiles.empty());
}

TEST_F(DeviceHierarchyTest, FlatMakesEveryGpuAndEveryTileARoot) {
  for (DeviceHierarchy hierarchy : {DeviceHierarchy::Flat, DeviceHierarchy::Combined}) {
    DeviceTree tree = build(machine(2, 2), hierarchy);
    EXPECT_EQ(labels(tree.roots), (Labels{gpu(0), gpu(1), tile(0), tile(1)})) << deviceHierarchyName(hierarchy);
    EXPECT_EQ(tileIndices(tree.roots), (Indices{-1, -1, -1, -1}));
    for (const auto& root : tree.roots) EXPECT_TRUE(root->subDevices().empty());
    ASSERT_EQ(tree.hiddenRoots.size(), 1u) << "the CPU root's backend stays alive, unexposed";
    EXPECT_EQ(tree.hiddenRoots[0]->info().deviceId, kCpu);
  }
  EXPECT_TRUE(compositeTiles.empty());
}

TEST_F(DeviceHierarchyTest, MaskIndicesCountFlatDevices) {
  DeviceTree tree = build(machine(0, 2), DeviceHierarchy::Flat, "1");
  EXPECT_EQ(labels(tree.roots), (Labels{tile(1)}));
  EXPECT_EQ(tileIndices(tree.roots), (Indices{-1}));
}

TEST_F(DeviceHierarchyTest, MaskOfOneGpuOfTheCompositeExposesThatGpuAlone) {
  DeviceTree tree = build(machine(2, 2), DeviceHierarchy::Composite, "0.1");
  EXPECT_EQ(labels(tree.roots), (Labels{gpu(1)}));
  EXPECT_EQ(tileIndices(tree.roots), (Indices{1})) << "it stays tile 1 of its root";
  EXPECT_TRUE(tree.roots[0]->subDevices().empty());
  EXPECT_TRUE(compositeTiles.empty());
}

TEST_F(DeviceHierarchyTest, MaskOfSomeGpusMakesTheCompositeOverThemOnly) {
  DeviceTree tree = build(machine(3, 0), DeviceHierarchy::Composite, "0.2,0.0");
  ASSERT_EQ(labels(tree.roots), (Labels{kComposite}));
  EXPECT_EQ(labels(tree.roots[0]->subDevices()), (Labels{gpu(0), gpu(2)}));
  EXPECT_EQ(tileIndices(tree.roots[0]->subDevices()), (Indices{0, 2}));
  ASSERT_EQ(compositeTiles.size(), 1u);
  EXPECT_EQ(compositeTiles[0].size(), 2u);
}

TEST_F(DeviceHierarchyTest, MaskSelectsRootsWithAllOrSomeTiles) {
  DeviceTree tree = build(machine(2, 4), DeviceHierarchy::Default, "2.3,2.1,0");
  ASSERT_EQ(labels(tree.roots), (Labels{gpu(0), kCpu}));
  EXPECT_EQ(labels(tree.roots[1]->subDevices()), (Labels{tile(1), tile(3)}));
  EXPECT_EQ(tileIndices(tree.roots[1]->subDevices()), (Indices{1, 3}));
}

TEST_F(DeviceHierarchyTest, MaskNamingNothingThatExistsHidesEverything) {
  EXPECT_TRUE(build(machine(1, 2), DeviceHierarchy::Default, "5").roots.empty());
  EXPECT_TRUE(build(machine(1, 2), DeviceHierarchy::Default, "1.7").roots.empty());
  EXPECT_TRUE(build(machine(0, 2), DeviceHierarchy::Flat, "0.1").roots.empty()) << "flat devices have no sub-devices";
}

TEST_F(DeviceHierarchyTest, TheCompositeGoesBeforeTheGpusItJoins) {
  std::vector<uint32_t> log;
  destroyed = &log;
  build(machine(2, 0, &log), DeviceHierarchy::Composite);
  ASSERT_EQ(log.size(), 4u);
  EXPECT_EQ(log[0], kComposite);
}

// The CPU as a backend may give its root as a composite over its tiles, or leave the root to the
// tree (no backend), which then joins the tiles the mask leaves.
DiscoveredDevice cpuOfTiles(uint32_t tiles, bool rootBackend, std::vector<uint32_t>* log) {
  DiscoveredDevice cpu;
  if (rootBackend) cpu.backend = std::make_unique<LabeledBackend>(DeviceType::Cpu, kComposite, log);
  for (uint32_t t = 0; t < tiles; ++t) cpu.subDevices.push_back(std::make_unique<LabeledBackend>(DeviceType::Cpu, tile(t), log));
  return cpu;
}

std::vector<DiscoveredDevice> only(DiscoveredDevice device) {
  std::vector<DiscoveredDevice> devices;
  devices.push_back(std::move(device));
  return devices;
}

TEST_F(DeviceHierarchyTest, TilesWithoutARootBackendGetACompositeOverTheTilesTheMaskLeaves) {
  DeviceTree tree = build(only(cpuOfTiles(3, false, nullptr)), DeviceHierarchy::Default, "0.0,0.2");
  ASSERT_EQ(labels(tree.roots), (Labels{kComposite}));
  EXPECT_EQ(labels(tree.roots[0]->subDevices()), (Labels{tile(0), tile(2)}));
  ASSERT_EQ(compositeTiles.size(), 1u);
  EXPECT_EQ(compositeTiles[0].size(), 2u);
  EXPECT_TRUE(tree.hiddenRoots.empty());
  EXPECT_EQ(tree.hiddenTiles.size(), 1u);
}

TEST_F(DeviceHierarchyTest, OneTileWithoutARootBackendIsTheRoot) {
  DeviceTree tree = build(only(cpuOfTiles(1, false, nullptr)), DeviceHierarchy::Default);
  EXPECT_EQ(labels(tree.roots), (Labels{tile(0)}));
  EXPECT_TRUE(tree.roots[0]->subDevices().empty());
  EXPECT_TRUE(compositeTiles.empty());
}

TEST_F(DeviceHierarchyTest, HiddenCompositeRootsGoBeforeTheirTiles) {
  for (const char* mask : {static_cast<const char*>(nullptr), "0.1"}) {
    std::vector<uint32_t> log;
    const DeviceHierarchy hierarchy = mask ? DeviceHierarchy::Default : DeviceHierarchy::Flat;
    build(only(cpuOfTiles(2, true, &log)), hierarchy, mask);
    ASSERT_EQ(log.size(), 3u);
    EXPECT_EQ(log[0], kComposite) << (mask ? "masked" : "flat");
  }
}

TEST(DeviceHierarchyParseTest, ReadsTheThreeModes) {
  EXPECT_EQ(parseDeviceHierarchy(nullptr), DeviceHierarchy::Default);
  EXPECT_EQ(parseDeviceHierarchy(""), DeviceHierarchy::Default);
  EXPECT_EQ(parseDeviceHierarchy("COMPOSITE"), DeviceHierarchy::Composite);
  EXPECT_EQ(parseDeviceHierarchy("FLAT"), DeviceHierarchy::Flat);
  EXPECT_EQ(parseDeviceHierarchy("COMBINED"), DeviceHierarchy::Combined);
  EXPECT_EQ(parseDeviceHierarchy("flat"), DeviceHierarchy::Default);
}

TEST(AffinityMaskParseTest, ReadsDevicesAndSubDevices) {
  EXPECT_FALSE(parseAffinityMask(nullptr));
  EXPECT_FALSE(parseAffinityMask(""));
  EXPECT_EQ(*parseAffinityMask("0"), (AffinityMask{{0, {}}}));
  EXPECT_EQ(*parseAffinityMask("0.1"), (AffinityMask{{0, {1}}}));
  EXPECT_EQ(*parseAffinityMask("0.0,0.1,2"), (AffinityMask{{0, {0, 1}}, {2, {}}}));
  EXPECT_EQ(*parseAffinityMask("0.1,0"), (AffinityMask{{0, {}}})) << "the whole device wins over its tiles";
  EXPECT_EQ(*parseAffinityMask("x,1.y,3"), (AffinityMask{{3, {}}})) << "malformed entries are ignored";
  EXPECT_TRUE(parseAffinityMask("x")->empty()) << "a mask of nothing valid hides everything";
}

}  // namespace
}  // namespace loom::core
