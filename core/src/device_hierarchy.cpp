#include "loom/core/device_hierarchy.h"

#include <cstring>
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

// A root device to be: its own backend (none yet for a composite of GPUs, made over its tiles
// last, once the mask has chosen them) and its tiles.
struct PlannedRoot {
  std::unique_ptr<Backend> backend;
  std::vector<Tile> tiles;
  int32_t tileIndex = -1;  // a tile standing in for its root (the mask selected it alone)
};

bool isGpu(const Backend& backend) { return backend.info().type == DeviceType::Gpu; }

void hide(PlannedRoot& root, std::vector<std::unique_ptr<Backend>>& hidden) {
  if (root.backend) hidden.push_back(std::move(root.backend));
  for (Tile& tile : root.tiles) hidden.push_back(std::move(tile.backend));
}

// The roots the hierarchy mode makes of what the backends found, before the affinity mask.
std::vector<PlannedRoot> planRoots(std::vector<DiscoveredDevice> discovered, DeviceHierarchy hierarchy,
                                   std::vector<std::unique_ptr<Backend>>& hidden) {
  const bool flat = hierarchy == DeviceHierarchy::Flat || hierarchy == DeviceHierarchy::Combined;
  std::vector<PlannedRoot> roots;
  std::vector<Tile> gpus;  // COMPOSITE: the GPUs without tiles of their own, joined below
  size_t gpusPosition = 0;
  for (DiscoveredDevice& device : discovered) {
    // A device of one tile is that tile: it has no sub-device.
    if (device.subDevices.size() <= 1) {
      for (auto& tile : device.subDevices) hidden.push_back(std::move(tile));
      if (hierarchy == DeviceHierarchy::Composite && isGpu(*device.backend)) {
        if (gpus.empty()) gpusPosition = roots.size();
        gpus.push_back({uint32_t(gpus.size()), std::move(device.backend)});
        continue;
      }
      roots.push_back({std::move(device.backend)});
      continue;
    }
    if (flat) {
      hidden.push_back(std::move(device.backend));
      for (auto& tile : device.subDevices) roots.push_back({std::move(tile)});
      continue;
    }
    PlannedRoot root{std::move(device.backend)};
    for (auto& tile : device.subDevices) root.tiles.push_back({uint32_t(root.tiles.size()), std::move(tile)});
    roots.push_back(std::move(root));
  }
  if (gpus.size() == 1) roots.insert(roots.begin() + gpusPosition, PlannedRoot{std::move(gpus.front().backend)});
  if (gpus.size() > 1) roots.insert(roots.begin() + gpusPosition, PlannedRoot{nullptr, std::move(gpus)});
  return roots;
}

// `root` as the mask's entry for it selects it: with all its tiles (`wanted` empty), some of
// them, or one tile alone, which then stands in for its root. False when nothing of it remains.
bool selectTiles(PlannedRoot& root, uint32_t index, const std::set<uint32_t>& wanted,
                 std::vector<std::unique_ptr<Backend>>& hidden) {
  if (wanted.empty()) return true;
  std::vector<Tile> kept;
  for (Tile& tile : root.tiles) {
    if (wanted.count(tile.index))
      kept.push_back(std::move(tile));
    else
      hidden.push_back(std::move(tile.backend));
  }
  root.tiles = std::move(kept);
  if (root.tiles.size() < wanted.size())
    debugMessage("ZE_AFFINITY_MASK: device %u has %zu of the sub-devices it names", index, root.tiles.size());
  if (root.tiles.empty()) return false;
  if (root.tiles.size() > 1) return true;
  if (root.backend) hidden.push_back(std::move(root.backend));
  Tile alone = std::move(root.tiles.front());
  root = PlannedRoot{std::move(alone.backend), {}, int32_t(alone.index)};
  return true;
}

std::vector<PlannedRoot> applyMask(std::vector<PlannedRoot> roots, const AffinityMask& mask,
                                   std::vector<std::unique_ptr<Backend>>& hidden) {
  std::vector<PlannedRoot> visible;
  for (uint32_t index = 0; index < roots.size(); ++index) {
    auto entry = mask.find(index);
    if (entry != mask.end() && selectTiles(roots[index], index, entry->second, hidden))
      visible.push_back(std::move(roots[index]));
    else
      hide(roots[index], hidden);
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

// The composite root over a planned root's GPUs; false (each GPU then a root of its own) when
// the factory cannot join them.
bool makeComposite(PlannedRoot& root, const DeviceTreeOptions& options) {
  std::vector<Backend*> tiles;
  for (const Tile& tile : root.tiles) tiles.push_back(tile.backend.get());
  if (options.makeComposite) root.backend = options.makeComposite(tiles);
  if (root.backend) return true;
  debugMessage("no composite device over %zu GPUs: each is a root device of its own", tiles.size());
  return false;
}

}  // namespace

DeviceTree buildDeviceTree(std::vector<DiscoveredDevice> discovered, const DeviceTreeOptions& options) {
  DeviceTree tree;
  std::vector<PlannedRoot> roots = planRoots(std::move(discovered), options.hierarchy, tree.hidden);
  if (options.mask) roots = applyMask(std::move(roots), *options.mask, tree.hidden);
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
