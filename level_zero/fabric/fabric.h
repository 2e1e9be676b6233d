#pragma once
// The driver's fabric graph (ZE_experimental_fabric): a vertex per device and sub-device, and an
// edge per direct link between two devices. Made once, on the first fabric query, and never
// changed after, so that queries read it without a lock; it lives as long as the driver.
#include <map>
#include <memory>
#include <vector>

#include "level_zero/fabric/fabric_edge.h"
#include "level_zero/fabric/fabric_vertex.h"

namespace loom::l0 {

class Device;

class Fabric {
 public:
  explicit Fabric(const std::vector<Device*>& rootDevices);

  // The root devices' vertices, in the order of zeDeviceGet.
  const std::vector<FabricVertex*>& vertices() const { return roots_; }
  // The vertex of a device or sub-device; nullptr for a device the fabric does not know.
  FabricVertex* vertexOf(const Device& device) const;
  // The edges that join `a` and `b`, in either order.
  std::vector<FabricEdge*> edgesBetween(const FabricVertex& a, const FabricVertex& b) const;

 private:
  FabricVertex* addVertex(Device& device, ze_fabric_vertex_exp_type_t type);
  void linkDevices();

  std::vector<std::unique_ptr<FabricVertex>> allVertices_;
  std::vector<FabricVertex*> roots_;
  std::map<const Device*, FabricVertex*> byDevice_;
  std::vector<std::unique_ptr<FabricEdge>> edges_;
};

}  // namespace loom::l0
