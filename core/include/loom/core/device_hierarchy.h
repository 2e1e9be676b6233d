#pragma once
// How the devices the backends discover become the root devices and sub-devices both APIs
// expose: Level Zero's ZE_FLAT_DEVICE_HIERARCHY chooses the tree, then ZE_AFFINITY_MASK, whose
// indices count the devices of that tree, chooses what of it is visible.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "loom/core/affinity_mask.h"
#include "loom/core/backend.h"
#include "loom/core/device.h"
#include "loom/core/engine_registry.h"

namespace loom::core {

enum class DeviceHierarchy : uint8_t {
  Default,    // unset: every GPU a root device of its own; a device of several tiles a root over them
  Composite,  // the GPUs one root device over them (implicit scaling); tiles as in Default
  Flat,       // every GPU and every tile a root device; no device has sub-devices
  Combined,   // enumerated as Flat; the composite over them is the tiles' root device, which only
              // zeDeviceGetRootDevice (API 1.7) reaches, so Loom does not build it
};

// ZE_FLAT_DEVICE_HIERARCHY's value: Default when unset or unknown (the debug message says so).
DeviceHierarchy parseDeviceHierarchy(const char* value);
const char* deviceHierarchyName(DeviceHierarchy hierarchy);

// The root backend over several GPUs (createCompositeBackend, composite_backend.h); nullptr when
// it cannot join them, and then each GPU stays a root device of its own.
using CompositeFactory = std::function<std::unique_ptr<Backend>(std::vector<Backend*> tiles)>;

struct DeviceTreeOptions {
  DeviceHierarchy hierarchy = DeviceHierarchy::Default;
  std::optional<AffinityMask> mask;
  CompositeFactory makeComposite;
  // Passed to every Device (device.h).
  std::function<void()> engineCompletion;
  EngineRegistry* registry = nullptr;
};

// What no device shows (a CPU root in Flat mode, what the mask hides) stays alive: a root's
// backend may be a composite over tiles, hidden or not, which must outlive it. Members are
// destroyed in reverse order: hidden roots first, then the devices (each root before its tiles),
// then the hidden tiles.
struct DeviceTree {
  std::vector<std::unique_ptr<Backend>> hiddenTiles;
  std::vector<std::unique_ptr<Device>> roots;
  std::vector<std::unique_ptr<Backend>> hiddenRoots;
};

// `discovered` in the backends' order (GPUs first); the roots keep that order, a composite of
// GPUs standing where its first GPU was. A discovered device of several tiles without a backend
// of its own gets a composite over the tiles the mask leaves it.
DeviceTree buildDeviceTree(std::vector<DiscoveredDevice> discovered, const DeviceTreeOptions& options);

}  // namespace loom::core
