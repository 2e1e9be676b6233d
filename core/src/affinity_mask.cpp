#include "loom/core/affinity_mask.h"

#include <cstdlib>
#include <sstream>
#include <string>

#include "loom/core/log.h"

namespace loom::core {

namespace {
// One index of an entry: digits only, else nullopt.
std::optional<uint32_t> parseIndex(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return static_cast<uint32_t>(std::strtoul(text.c_str(), nullptr, 10));
}
}  // namespace

std::optional<AffinityMask> parseAffinityMask(const char* mask) {
  if (!mask || !*mask) return std::nullopt;
  AffinityMask selected;
  std::set<uint32_t> wholeDevices;  // named without a sub-device: all of theirs stay visible
  std::stringstream entries(mask);
  std::string entry;
  while (std::getline(entries, entry, ',')) {
    const size_t dot = entry.find('.');
    const std::optional<uint32_t> device = parseIndex(entry.substr(0, dot));
    const std::optional<uint32_t> subDevice =
        dot == std::string::npos ? std::nullopt : parseIndex(entry.substr(dot + 1));
    if (!device || (dot != std::string::npos && !subDevice)) {
      debugMessage("ZE_AFFINITY_MASK: entry '%s' ignored (expected 'device' or 'device.subdevice')", entry.c_str());
      continue;
    }
    std::set<uint32_t>& subDevices = selected[*device];
    if (!subDevice) wholeDevices.insert(*device);
    if (subDevice && !wholeDevices.count(*device)) subDevices.insert(*subDevice);
  }
  for (uint32_t device : wholeDevices) selected[device].clear();
  return selected;
}

}  // namespace loom::core
