#include "level_zero/fabric/fabric.h"

#include "level_zero/device/device.h"

namespace loom::l0 {

namespace {

// The spec's word, spelled as the spec spells it, for a link whose technology nobody reports.
constexpr const char* kUnknownModel = "unkown";

// True when `a` and `b` are joined by a direct link: each reaches the other's memory as a peer.
// Devices whose memory is host memory (CPU tiles) share it without any link, so the backends are
// asked rather than Device::peerAccess, which counts that sharing as access.
bool linked(core::Device& a, core::Device& b) {
  return a.backend().peerAccess(b.backend()).access && b.backend().peerAccess(a.backend()).access;
}

// A link ends at one piece of hardware: a device without sub-devices, or a sub-device. A root
// made of tiles (several GPUs) is no end of a link; its tiles are.
bool endsLinks(const FabricVertex& vertex) { return vertex.subVertices().empty(); }

}  // namespace

Fabric::Fabric(const std::vector<Device*>& rootDevices) {
  for (Device* root : rootDevices) {
    FabricVertex* vertex = addVertex(*root, ZE_FABRIC_VERTEX_EXP_TYPE_DEVICE);
    roots_.push_back(vertex);
    for (Device* subDevice : root->subDevices()) vertex->addSubVertex(addVertex(*subDevice, ZE_FABRIC_VERTEX_EXP_TYPE_SUBEVICE));
  }
  linkDevices();
}

FabricVertex* Fabric::addVertex(Device& device, ze_fabric_vertex_exp_type_t type) {
  ze_fabric_vertex_pci_exp_address_t address{};  // zeros: the device is no PCI function
  if (const auto pci = device.pciFunction())
    address = {pci->address.domain, pci->address.bus, pci->address.device, pci->address.function};
  allVertices_.push_back(std::make_unique<FabricVertex>(device, type, address));
  byDevice_[&device] = allVertices_.back().get();
  return allVertices_.back().get();
}

// One edge for each pair of link ends that reach each other.
void Fabric::linkDevices() {
  for (size_t i = 0; i < allVertices_.size(); ++i) {
    for (size_t j = i + 1; j < allVertices_.size(); ++j) {
      FabricVertex& a = *allVertices_[i];
      FabricVertex& b = *allVertices_[j];
      if (!endsLinks(a) || !endsLinks(b)) continue;
      core::Device& deviceA = a.device().core();
      core::Device& deviceB = b.device().core();
      if (!linked(deviceA, deviceB)) continue;
      core::PeerLink link = deviceA.backend().peerLink(deviceB.backend());
      if (link.model.empty()) link.model = kUnknownModel;
      edges_.push_back(std::make_unique<FabricEdge>(a, b, std::move(link), uint32_t(edges_.size())));
    }
  }
}

FabricVertex* Fabric::vertexOf(const Device& device) const {
  auto found = byDevice_.find(&device);
  return found == byDevice_.end() ? nullptr : found->second;
}

std::vector<FabricEdge*> Fabric::edgesBetween(const FabricVertex& a, const FabricVertex& b) const {
  std::vector<FabricEdge*> joining;
  for (const auto& edge : edges_)
    if (edge->joins(a, b)) joining.push_back(edge.get());
  return joining;
}

}  // namespace loom::l0
