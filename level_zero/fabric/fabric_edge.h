#pragma once
// A fabric edge (ZE_experimental_fabric): a direct link between two GPUs, found where each can
// reach the other's memory (peer access). Its model, design bandwidth and length in hops are the
// link's as the backend reports them (core::PeerLink); what it does not report, the units say is
// unknown. The driver's Fabric (fabric.h) owns the edges.
#include <level_zero/ze_api.h>

#include "level_zero/handle/handle.h"
#include "loom/core/peer_link.h"

namespace loom::l0 {

class FabricVertex;

class FabricEdge : public _ze_fabric_edge_handle_t {
 public:
  // `index` tells the edge apart from the driver's others (its uuid).
  FabricEdge(FabricVertex& a, FabricVertex& b, core::PeerLink link, uint32_t index)
      : a_(a), b_(b), link_(std::move(link)), index_(index) {}
  static FabricEdge* fromHandle(ze_fabric_edge_handle_t handle) { return static_cast<FabricEdge*>(handle); }

  FabricVertex& vertexA() const { return a_; }
  FabricVertex& vertexB() const { return b_; }
  // True when the edge joins `x` and `y`, in either order: edges have no direction.
  bool joins(const FabricVertex& x, const FabricVertex& y) const {
    return (&a_ == &x && &b_ == &y) || (&a_ == &y && &b_ == &x);
  }
  void describe(ze_fabric_edge_exp_properties_t& properties) const;

 private:
  FabricVertex& a_;
  FabricVertex& b_;
  core::PeerLink link_;  // its model the spec's "unkown" where the backend names none
  uint32_t index_;
};

ze_result_t zeFabricEdgeGetExp(ze_fabric_vertex_handle_t hVertexA, ze_fabric_vertex_handle_t hVertexB, uint32_t* pCount,
                               ze_fabric_edge_handle_t* phEdges);
ze_result_t zeFabricEdgeGetVerticesExp(ze_fabric_edge_handle_t hEdge, ze_fabric_vertex_handle_t* phVertexA,
                                       ze_fabric_vertex_handle_t* phVertexB);
ze_result_t zeFabricEdgeGetPropertiesExp(ze_fabric_edge_handle_t hEdge, ze_fabric_edge_exp_properties_t* pEdgeProperties);

}  // namespace loom::l0
