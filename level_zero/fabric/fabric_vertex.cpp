#include "level_zero/fabric/fabric_vertex.h"

#include <cstring>

#include "level_zero/device/device.h"
#include "level_zero/driver/driver.h"
#include "level_zero/fabric/fabric.h"
#include "level_zero/two_call.h"
#include "level_zero/validation.h"

namespace loom::l0 {

void FabricVertex::describe(ze_fabric_vertex_exp_properties_t& properties) const {
  const core::DeviceInfo& info = device_.core().info();
  static_assert(sizeof(properties.uuid.id) == sizeof(info.uuid));
  std::memcpy(properties.uuid.id, info.uuid.data(), sizeof(properties.uuid.id));
  properties.type = type_;
  properties.remote = false;
  properties.address = address_;
}

ze_result_t zeFabricVertexGetExp(ze_driver_handle_t hDriver, uint32_t* pCount, ze_fabric_vertex_handle_t* phVertices) {
  ZE_REQUIRE_HANDLE(hDriver);
  ZE_REQUIRE_POINTER(pCount);
  return fillArray(Driver::fromHandle(hDriver)->fabric().vertices(), pCount, phVertices,
                   [](ze_fabric_vertex_handle_t& handle, FabricVertex* vertex) { handle = vertex; });
}

ze_result_t zeFabricVertexGetSubVerticesExp(ze_fabric_vertex_handle_t hVertex, uint32_t* pCount,
                                            ze_fabric_vertex_handle_t* phSubvertices) {
  ZE_REQUIRE_HANDLE(hVertex);
  ZE_REQUIRE_POINTER(pCount);
  return fillArray(FabricVertex::fromHandle(hVertex)->subVertices(), pCount, phSubvertices,
                   [](ze_fabric_vertex_handle_t& handle, FabricVertex* vertex) { handle = vertex; });
}

ze_result_t zeFabricVertexGetPropertiesExp(ze_fabric_vertex_handle_t hVertex,
                                           ze_fabric_vertex_exp_properties_t* pVertexProperties) {
  ZE_REQUIRE_HANDLE(hVertex);
  ZE_REQUIRE_POINTER(pVertexProperties);
  FabricVertex::fromHandle(hVertex)->describe(*pVertexProperties);
  return ZE_RESULT_SUCCESS;
}

// Every vertex of Loom's is a local device, so neither VERTEX_IS_NOT_DEVICE nor REMOTE_DEVICE arises.
ze_result_t zeFabricVertexGetDeviceExp(ze_fabric_vertex_handle_t hVertex, ze_device_handle_t* phDevice) {
  ZE_REQUIRE_HANDLE(hVertex);
  ZE_REQUIRE_POINTER(phDevice);
  *phDevice = &FabricVertex::fromHandle(hVertex)->device();
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDeviceGetFabricVertexExp(ze_device_handle_t hDevice, ze_fabric_vertex_handle_t* phVertex) {
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(phVertex);
  const Device& device = *Device::fromHandle(hDevice);
  FabricVertex* vertex = device.driver().fabric().vertexOf(device);
  ZE_REQUIRE(vertex != nullptr, ZE_RESULT_EXP_ERROR_DEVICE_IS_NOT_VERTEX, "the device has no fabric vertex");
  *phVertex = vertex;
  return ZE_RESULT_SUCCESS;
}

}  // namespace loom::l0
