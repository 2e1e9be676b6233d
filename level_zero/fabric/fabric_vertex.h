#pragma once
// A fabric vertex (ZE_experimental_fabric): one per root device, typed DEVICE, and one per
// sub-device, typed SUBDEVICE, its parent's sub-vertex. Every vertex is a device of this process:
// none is remote and none is a switch. The driver's Fabric (fabric.h) owns them.
#include <level_zero/ze_api.h>

#include <vector>

#include "level_zero/handle/handle.h"

namespace loom::l0 {

class Device;

class FabricVertex : public _ze_fabric_vertex_handle_t {
 public:
  // `address`: the device's PCI function, zeros where it is none (the CPU).
  FabricVertex(Device& device, ze_fabric_vertex_exp_type_t type, ze_fabric_vertex_pci_exp_address_t address)
      : device_(device), type_(type), address_(address) {}
  static FabricVertex* fromHandle(ze_fabric_vertex_handle_t handle) { return static_cast<FabricVertex*>(handle); }

  Device& device() const { return device_; }
  ze_fabric_vertex_exp_type_t type() const { return type_; }
  const std::vector<FabricVertex*>& subVertices() const { return subVertices_; }
  void addSubVertex(FabricVertex* subVertex) { subVertices_.push_back(subVertex); }
  // The vertex's properties: its device's uuid, its type and PCI address; never remote.
  void describe(ze_fabric_vertex_exp_properties_t& properties) const;

 private:
  Device& device_;
  ze_fabric_vertex_exp_type_t type_;
  ze_fabric_vertex_pci_exp_address_t address_;
  std::vector<FabricVertex*> subVertices_;
};

ze_result_t zeFabricVertexGetExp(ze_driver_handle_t hDriver, uint32_t* pCount, ze_fabric_vertex_handle_t* phVertices);
ze_result_t zeFabricVertexGetSubVerticesExp(ze_fabric_vertex_handle_t hVertex, uint32_t* pCount,
                                            ze_fabric_vertex_handle_t* phSubvertices);
ze_result_t zeFabricVertexGetPropertiesExp(ze_fabric_vertex_handle_t hVertex,
                                           ze_fabric_vertex_exp_properties_t* pVertexProperties);
ze_result_t zeFabricVertexGetDeviceExp(ze_fabric_vertex_handle_t hVertex, ze_device_handle_t* phDevice);
ze_result_t zeDeviceGetFabricVertexExp(ze_device_handle_t hDevice, ze_fabric_vertex_handle_t* phVertex);

}  // namespace loom::l0
