#pragma once
// ZE_AFFINITY_MASK: which devices and sub-devices a process sees. Level Zero defines it; Loom's
// OpenCL honours it too, as Intel's does, so both APIs see the same devices.
#include <cstdint>
#include <map>
#include <optional>
#include <set>

namespace loom::core {

// Comma-separated "device" or "device.subdevice" indices, counted in the devices of the chosen
// hierarchy (device_hierarchy.h). Each device named maps to the sub-devices named with it; an
// empty set selects all of them. nullopt when the mask is unset or empty: everything is visible.
using AffinityMask = std::map<uint32_t, std::set<uint32_t>>;
std::optional<AffinityMask> parseAffinityMask(const char* mask);

}  // namespace loom::core
