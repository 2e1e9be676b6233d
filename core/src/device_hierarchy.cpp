#include "loom/core/device_hierarchy.h"

#include <cstring>
#include <iterator>
#include <utility>

#include "loom/core/log.h"

namespace loom::core {

DeviceHierarchy parseDeviceHierarchy(const char* value) {
  if (!value || !*value) return DeviceHierarchy::Default;
  if (!std::strcmp(value, "COMPOSITE")) return DeviceHierarchy::Composite;
  if (!std::strcmp(value, "FLAT")) return DeviceHierarchy::Flat;
  if (!std::strcmp(value, "COMBINED")) return DeviceHierarchy::Combined;
  debugMessage("ZE_FLAT_DEVICE_HIERARCHY=%s is not COMPOSITE, FLAT or COMBINED: the default hierarchy is used", value);
  return DeviceHierarchy::Default;
}

const char* deviceHierarchyName(DeviceHierarchy hierarchy) {
  switch (hierarchy) {
    case DeviceHierarchy::Composite: return "COMPOSITE";
    case DeviceHierarchy::Flat: return "FLAT";
    case DeviceHierarchy::Combined: return "COMBINED";
    case DeviceHierarchy::Default: break;
  }
  return "default";
}

namespace {

struct Tile {
  uint32_t index;  // its position among its root's tiles, which the mask and subdeviceId name
  std::unique_ptr<Backend> backend;
};

// A root device to be: its own backend (none yet for a composite, made over its tiles last,
// once the mask has chosen them) and its tiles.
struct PlannedRoot {
  std::unique_ptr<Backend> backend;
  std::vector<Tile> tiles;
  int32_t tileIndex = -1;  // a tile standing in for its root (the mask selected it alone)
};

bool isGpu(const Backend& backend) { return backend.info().type == DeviceType::Gpu; }

void hideRoot(std::unique_ptr<Backend> backend, DeviceTree& tree) {
  if (backend) tree.hiddenRoots.push_back(std::move(backend));
}

void hideTile(std::unique_ptr<Backend> backend, DeviceTree& tree) {
  if (backend) tree.hiddenTiles.push_back(std::move(backend));
}

void hide(PlannedRoot& root, DeviceTree& tree) {
  hideRoot(std::move(root.backend), tree);
  for (Tile& tile : root.tiles) hideTile(std::move(tile.backend), tree);
}

// A device of one tile is that tile, with no sub-device: its own backend, else its tile's.
std::unique_ptr<Backend> soleBackend(DiscoveredDevice& device, DeviceTree& tree) {
  std::unique_ptr<Backend> backend = std::move(device.backend);
  for (auto& tile : device.subDevices) {
    if (!backend) std::swap(backend, tile);
    hideTile(std::move(tile), tree);
  }
  return backend;
}

// Why `gpu` cannot join `member` in one composite, or nullptr when it can: each must reach the
// other's memory with native atomics, as colored memory and split launches need.
const char* whyNotJoined(const Backend& gpu, const Backend& member) {
  const PeerAccess there = gpu.peerAccess(member);
  const PeerAccess back = member.peerAccess(gpu);
  if (!there.access || !back.access) return "no peer access";
  if (!there.atomics || !back.atomics) return "no native atomics over the link";
  return nullptr;
}

// COMPOSITE: the GPUs joined in one root, each admitted when it is a full peer of every GPU admitted
// before it; the others stay root devices of their own, after the composite.
void joinGpus(std::vector<Tile> gpus, size_t position, std::vector<PlannedRoot>& roots) {
  std::vector<Tile> joined;
  std::vector<uint32_t> joinedGpus;  // the position of each among `gpus`, which messages name
  std::vector<PlannedRoot> alone;
  for (Tile& gpu : gpus) {
    const char* why = nullptr;
    size_t refusing = 0;
    for (; refusing < joined.size(); ++refusing)
      if ((why = whyNotJoined(*gpu.backend, *joined[refusing].backend))) break;
    if (!why) {
      joined.push_back({uint32_t(joined.size()), std::move(gpu.backend)});
      joinedGpus.push_back(gpu.index);
      continue;
    }
    debugMessage("ZE_FLAT_DEVICE_HIERARCHY=COMPOSITE: GPU %u (%s) stays a root device of its own: %s with GPU %u", gpu.index,
                 gpu.backend->info().name.c_str(), why, joinedGpus[refusing]);
    alone.push_back(PlannedRoot{std::move(gpu.backend)});
  }
  if (joined.size() == 1)
    alone.insert(alone.begin(), PlannedRoot{std::move(joined.front().backend)});
  else if (!joined.empty())
    alone.insert(alone.begin(), PlannedRoot{nullptr, std::move(joined)});
  roots.insert(roots.begin() + position, std::make_move_iterator(alone.begin()), std::make_move_iterator(alone.end()));
}

// The roots the hierarchy mode makes of what the backends found, before the affinity mask.
std::vector<PlannedRoot> planRoots(std::vector<DiscoveredDevice> discovered, DeviceHierarchy hierarchy, DeviceTree& tree) {
  const bool flat = hierarchy == DeviceHierarchy::Flat || hierarchy == DeviceHierarchy::Combined;
  std::vector<PlannedRoot> roots;
  std::vector<Tile> gpus;  // COMPOSITE: the GPUs without tiles of their own, joined below
  size_t gpusPosition = 0;
  for (DiscoveredDevice& device : discovered) {
    if (device.subDevices.size() <= 1) {
      std::unique_ptr<Backend> backend = soleBackend(device, tree);
      if (!backend) continue;
      if (hierarchy == DeviceHierarchy::Composite && isGpu(*backend)) {
        if (gpus.empty()) gpusPosition = roots.size();
        gpus.push_back({uint32_t(gpus.size()), std::move(backend)});
        continue;
      }
      roots.push_back({std::move(backend)});
      continue;
    }
    if (flat) {
      hideRoot(std::move(device.backend), tree);
      for (auto& tile : device.subDevices) roots.push_back({std::move(tile)});
      continue;
    }
    PlannedRoot root{std::move(device.backend)};
    for (auto& tile : device.subDevices) root.tiles.push_back({uint32_t(root.tiles.size()), std::move(tile)});
    roots.push_back(std::move(root));
  }
  joinGpus(std::move(gpus), gpusPosition, roots);
  return roots;
}

// `root` as the mask's entry for it selects it: with all its tiles (`wanted` empty), some of
// them, or one tile alone, which then stands in for its root. False when nothing of it remains.
bool selectTiles(PlannedRoot& root, uint32_t index, const std::set<uint32_t>& wanted, DeviceTree& tree) {
  if (wanted.empty()) return true;
  std::vector<Tile> kept;
  for (Tile& tile : root.tiles) {
    if (wanted.count(tile.index))
      kept.push_back(std::move(tile));
    else
      hideTile(std::move(tile.backend), tree);
  }
  root.tiles = std::move(kept);
  if (root.tiles.size() < wanted.size())
    debugMessage("ZE_AFFINITY_MASK: device %u has %zu of the sub-devices it names", index, root.tiles.size());
  if (root.tiles.empty()) return false;
  if (root.tiles.size() > 1) return true;
  hideRoot(std::move(root.backend), tree);
  Tile alone = std::move(root.tiles.front());
  root = PlannedRoot{std::move(alone.backend), {}, int32_t(alone.index)};
  return true;
}

std::vector<PlannedRoot> applyMask(std::vector<PlannedRoot> roots, const AffinityMask& mask, DeviceTree& tree) {
  std::vector<PlannedRoot> visible;
  for (uint32_t index = 0; index < roots.size(); ++index) {
    auto entry = mask.find(index);
    if (entry != mask.end() && selectTiles(roots[index], index, entry->second, tree))
      visible.push_back(std::move(roots[index]));
    else
      hide(roots[index], tree);
  }
  if (!mask.empty() && mask.rbegin()->first >= roots.size())
    debugMessage("ZE_AFFINITY_MASK: device %u does not exist (%zu devices)", mask.rbegin()->first, roots.size());
  return visible;
}

std::unique_ptr<Device> makeDevice(std::unique_ptr<Backend> backend, Device* parent, int32_t tileIndex,
                                   const DeviceTreeOptions& options) {
  auto device = std::make_unique<Device>(std::move(backend), parent, options.engineCompletion, options.registry);
  if (tileIndex >= 0) device->setSubDeviceIndex(uint32_t(tileIndex));
  return device;
}

// The composite root over a planned root's tiles; false (each tile then a root of its own) when
// the factory cannot join them.
bool makeComposite(PlannedRoot& root, const DeviceTreeOptions& options) {
  std::vector<Backend*> tiles;
  for (const Tile& tile : root.tiles) tiles.push_back(tile.backend.get());
  if (options.makeComposite) root.backend = options.makeComposite(tiles);
  if (root.backend) return true;
  debugMessage("no composite device over %zu tiles: each is a root device of its own", tiles.size());
  return false;
}

}  // namespace

DeviceTree buildDeviceTree(std::vector<DiscoveredDevice> discovered, const DeviceTreeOptions& options) {
  DeviceTree tree;
  std::vector<PlannedRoot> roots = planRoots(std::move(discovered), options.hierarchy, tree);
  if (options.mask) roots = applyMask(std::move(roots), *options.mask, tree);
  for (PlannedRoot& planned : roots) {
    if (!planned.backend && !makeComposite(planned, options)) {
      for (Tile& tile : planned.tiles) tree.roots.push_back(makeDevice(std::move(tile.backend), nullptr, -1, options));
      continue;
    }
    auto root = makeDevice(std::move(planned.backend), nullptr, planned.tileIndex, options);
    for (Tile& tile : planned.tiles)
      root->addSubDevice(makeDevice(std::move(tile.backend), root.get(), int32_t(tile.index), options));
    tree.roots.push_back(std::move(root));
  }
  return tree;
}

}  // namespace loom::core
