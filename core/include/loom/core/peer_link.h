#pragma once
// The link between a device and a peer device (Backend::peerLink), as the system reports
// it: the fabric's edges (Level Zero) describe it. What the system does not say stays empty or 0.
#include <cstdint>
#include <string>

namespace loom::core {

struct PeerLink {
  std::string model;                // the technology: "NVLink", "PCIe"
  uint32_t bytesPerNanosecond = 0;  // design bandwidth in each direction
  uint32_t hops = 0;                // 1: the link joins the two devices with nothing between; 2: through a switch
};

}  // namespace loom::core
