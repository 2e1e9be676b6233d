#include "level_zero/fabric/fabric_edge.h"

#include <cstring>

#include "level_zero/device/device.h"
#include "level_zero/driver/driver.h"
#include "level_zero/fabric/fabric.h"
#include "level_zero/fabric/fabric_vertex.h"
#include "level_zero/two_call.h"
#include "level_zero/validation.h"

namespace loom::l0 {

namespace {
// "loomedge" in ASCII, then the edge's index: unique among the driver's edges.
constexpr uint8_t kEdgeUuidPrefix[] = {'l', 'o', 'o', 'm', 'e', 'd', 'g', 'e'};
}  // namespace

void FabricEdge::describe(ze_fabric_edge_exp_properties_t& properties) const {
  std::memset(properties.uuid.id, 0, sizeof(properties.uuid.id));
  std::memcpy(properties.uuid.id, kEdgeUuidPrefix, sizeof(kEdgeUuidPrefix));
  std::memcpy(properties.uuid.id + sizeof(kEdgeUuidPrefix), &index_, sizeof(index_));
  std::memset(properties.model, 0, sizeof(properties.model));
  std::strncpy(properties.model, link_.model.c_str(), sizeof(properties.model) - 1);
  // Figures the backend does not report stay 0 with the spec's unknown units, rather than ones
  // Loom would have to make up.
  properties.bandwidth = link_.bytesPerNanosecond;
  properties.bandwidthUnit = link_.bytesPerNanosecond ? ZE_BANDWIDTH_UNIT_BYTES_PER_NANOSEC : ZE_BANDWIDTH_UNIT_UNKNOWN;
  properties.latency = link_.hops;
  properties.latencyUnit = link_.hops ? ZE_LATENCY_UNIT_HOP : ZE_LATENCY_UNIT_UNKNOWN;
  // NVLink and PCIe links carry both directions at once; of an unknown link nothing is known.
  const bool knownModel = link_.model == "NVLink" || link_.model == "PCIe";
  properties.duplexity = knownModel ? ZE_FABRIC_EDGE_EXP_DUPLEXITY_FULL_DUPLEX : ZE_FABRIC_EDGE_EXP_DUPLEXITY_UNKNOWN;
}

ze_result_t zeFabricEdgeGetExp(ze_fabric_vertex_handle_t hVertexA, ze_fabric_vertex_handle_t hVertexB, uint32_t* pCount,
                               ze_fabric_edge_handle_t* phEdges) {
  ZE_REQUIRE_HANDLE(hVertexA);
  ZE_REQUIRE_HANDLE(hVertexB);
  ZE_REQUIRE_POINTER(pCount);
  const FabricVertex& a = *FabricVertex::fromHandle(hVertexA);
  const FabricVertex& b = *FabricVertex::fromHandle(hVertexB);
  return fillArray(a.device().driver().fabric().edgesBetween(a, b), pCount, phEdges,
                   [](ze_fabric_edge_handle_t& handle, FabricEdge* edge) { handle = edge; });
}

ze_result_t zeFabricEdgeGetVerticesExp(ze_fabric_edge_handle_t hEdge, ze_fabric_vertex_handle_t* phVertexA,
                                       ze_fabric_vertex_handle_t* phVertexB) {
  ZE_REQUIRE_HANDLE(hEdge);
  ZE_REQUIRE_POINTER(phVertexA);
  ZE_REQUIRE_POINTER(phVertexB);
  const FabricEdge& edge = *FabricEdge::fromHandle(hEdge);
  *phVertexA = &edge.vertexA();
  *phVertexB = &edge.vertexB();
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeFabricEdgeGetPropertiesExp(ze_fabric_edge_handle_t hEdge, ze_fabric_edge_exp_properties_t* pEdgeProperties) {
  ZE_REQUIRE_HANDLE(hEdge);
  ZE_REQUIRE_POINTER(pEdgeProperties);
  FabricEdge::fromHandle(hEdge)->describe(*pEdgeProperties);
  return ZE_RESULT_SUCCESS;
}

}  // namespace loom::l0
