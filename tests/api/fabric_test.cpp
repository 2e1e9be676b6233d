// The fabric topology (ZE_experimental_fabric): a vertex per device and sub-device, found both
// ways, with the device's uuid; edges only where two devices reach each other as peers (never on
// the CPU); and the spec's codes for null and foreign handles. Run with LOOM_CpuSubDevices=2 too
// (loom_ze_api_sub_devices), where the CPU's tiles are sub-vertices.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "ze_test_helpers.h"

namespace loom::test {
namespace {

using FabricTest = ZeTest;

std::vector<ze_device_handle_t> rootDevices(ze_driver_handle_t driver) {
  return listed<ze_device_handle_t>([&](uint32_t* count, ze_device_handle_t* out) { return zeDeviceGet(driver, count, out); });
}

std::vector<ze_device_handle_t> subDevices(ze_device_handle_t device) {
  return listed<ze_device_handle_t>(
      [&](uint32_t* count, ze_device_handle_t* out) { return zeDeviceGetSubDevices(device, count, out); });
}

std::vector<ze_fabric_vertex_handle_t> vertices(ze_driver_handle_t driver) {
  return listed<ze_fabric_vertex_handle_t>(
      [&](uint32_t* count, ze_fabric_vertex_handle_t* out) { return zeFabricVertexGetExp(driver, count, out); });
}

std::vector<ze_fabric_vertex_handle_t> subVertices(ze_fabric_vertex_handle_t vertex) {
  return listed<ze_fabric_vertex_handle_t>(
      [&](uint32_t* count, ze_fabric_vertex_handle_t* out) { return zeFabricVertexGetSubVerticesExp(vertex, count, out); });
}

// Every vertex: the roots, each followed by its sub-vertices.
std::vector<ze_fabric_vertex_handle_t> allVertices(ze_driver_handle_t driver) {
  std::vector<ze_fabric_vertex_handle_t> all;
  for (ze_fabric_vertex_handle_t vertex : vertices(driver)) {
    all.push_back(vertex);
    for (ze_fabric_vertex_handle_t subVertex : subVertices(vertex)) all.push_back(subVertex);
  }
  return all;
}

std::vector<ze_fabric_edge_handle_t> edges(ze_fabric_vertex_handle_t a, ze_fabric_vertex_handle_t b) {
  return listed<ze_fabric_edge_handle_t>(
      [&](uint32_t* count, ze_fabric_edge_handle_t* out) { return zeFabricEdgeGetExp(a, b, count, out); });
}

ze_device_handle_t deviceOf(ze_fabric_vertex_handle_t vertex) {
  ze_device_handle_t device = nullptr;
  EXPECT_ZE(zeFabricVertexGetDeviceExp(vertex, &device));
  return device;
}

ze_fabric_vertex_exp_properties_t vertexProperties(ze_fabric_vertex_handle_t vertex) {
  ze_fabric_vertex_exp_properties_t properties{ZE_STRUCTURE_TYPE_FABRIC_VERTEX_EXP_PROPERTIES};
  EXPECT_ZE(zeFabricVertexGetPropertiesExp(vertex, &properties));
  return properties;
}

ze_device_properties_t deviceProperties(ze_device_handle_t device) {
  ze_device_properties_t properties{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
  EXPECT_ZE(zeDeviceGetProperties(device, &properties));
  return properties;
}

TEST_F(FabricTest, TheDriverListsTheExtension) {
  EXPECT_EQ(listedExtensionVersion(ZE_FABRIC_EXP_NAME), ZE_MAKE_VERSION(1, 0));
}

TEST_F(FabricTest, EachRootDeviceIsOneVertexInTheDevicesOrder) {
  const auto devices = rootDevices(driver);
  const auto found = vertices(driver);
  ASSERT_EQ(found.size(), devices.size());
  for (size_t i = 0; i < found.size(); ++i) {
    EXPECT_EQ(deviceOf(found[i]), devices[i]);
    EXPECT_EQ(vertexProperties(found[i]).type, ZE_FABRIC_VERTEX_EXP_TYPE_DEVICE);
  }
  EXPECT_EQ(vertices(driver), found) << "the same vertices, the same handles, every time";
  // Fewer asked for than there are: as many as asked, the count says how many.
  uint32_t one = 1;
  ze_fabric_vertex_handle_t first = nullptr;
  ASSERT_ZE(zeFabricVertexGetExp(driver, &one, &first));
  EXPECT_EQ(one, 1u);
  EXPECT_EQ(first, found[0]);
}

TEST_F(FabricTest, SubVerticesAreTheSubDevicesInOrder) {
  for (ze_fabric_vertex_handle_t vertex : vertices(driver)) {
    const auto tiles = subDevices(deviceOf(vertex));
    const auto found = subVertices(vertex);
    ASSERT_EQ(found.size(), tiles.size());
    for (size_t i = 0; i < found.size(); ++i) {
      EXPECT_EQ(deviceOf(found[i]), tiles[i]);
      EXPECT_EQ(vertexProperties(found[i]).type, ZE_FABRIC_VERTEX_EXP_TYPE_SUBEVICE);
      EXPECT_TRUE(subVertices(found[i]).empty()) << "tiles have no tiles";
    }
  }
}

TEST_F(FabricTest, DevicesAndVerticesFindEachOther) {
  for (ze_device_handle_t root : rootDevices(driver)) {
    std::vector<ze_device_handle_t> all = subDevices(root);
    all.push_back(root);
    for (ze_device_handle_t device : all) {
      ze_fabric_vertex_handle_t vertex = nullptr;
      ASSERT_ZE(zeDeviceGetFabricVertexExp(device, &vertex));
      ASSERT_NE(vertex, nullptr);
      EXPECT_EQ(deviceOf(vertex), device);
      ze_fabric_vertex_handle_t again = nullptr;
      ASSERT_ZE(zeDeviceGetFabricVertexExp(device, &again));
      EXPECT_EQ(again, vertex);
    }
  }
}

TEST_F(FabricTest, AVertexHasItsDevicesUuidAndIsLocal) {
  for (ze_fabric_vertex_handle_t vertex : allVertices(driver)) {
    const ze_fabric_vertex_exp_properties_t properties = vertexProperties(vertex);
    const ze_device_properties_t device = deviceProperties(deviceOf(vertex));
    EXPECT_EQ(0, std::memcmp(properties.uuid.id, device.uuid.id, sizeof(device.uuid.id)));
    EXPECT_FALSE(properties.remote);
    if (device.type != ZE_DEVICE_TYPE_CPU) continue;
    // The CPU is no PCI function: its address stays zero.
    EXPECT_EQ(properties.address.domain, 0u);
    EXPECT_EQ(properties.address.bus, 0u);
    EXPECT_EQ(properties.address.device, 0u);
    EXPECT_EQ(properties.address.function, 0u);
  }
}

// Edges join two devices that reach each other's memory; they have no direction. The CPU device
// and its tiles share host memory without a link: no edge touches them.
TEST_F(FabricTest, EdgesJoinPeersAndNeverTheCpu) {
  const auto all = allVertices(driver);
  for (ze_fabric_vertex_handle_t a : all) {
    for (ze_fabric_vertex_handle_t b : all) {
      const auto found = edges(a, b);
      auto reverse = edges(b, a);
      EXPECT_TRUE(std::is_permutation(found.begin(), found.end(), reverse.begin(), reverse.end()));
      const bool cpu = deviceProperties(deviceOf(a)).type == ZE_DEVICE_TYPE_CPU ||
                       deviceProperties(deviceOf(b)).type == ZE_DEVICE_TYPE_CPU;
      if (a == b || cpu) {
        EXPECT_TRUE(found.empty());
      }
      for (ze_fabric_edge_handle_t edge : found) {
        ze_fabric_vertex_handle_t endA = nullptr, endB = nullptr;
        ASSERT_ZE(zeFabricEdgeGetVerticesExp(edge, &endA, &endB));
        EXPECT_TRUE((endA == a && endB == b) || (endA == b && endB == a));
        ze_bool_t reaches = false;
        ASSERT_ZE(zeDeviceCanAccessPeer(deviceOf(a), deviceOf(b), &reaches));
        EXPECT_TRUE(reaches);
        ze_fabric_edge_exp_properties_t properties{ZE_STRUCTURE_TYPE_FABRIC_EDGE_EXP_PROPERTIES};
        ASSERT_ZE(zeFabricEdgeGetPropertiesExp(edge, &properties));
        EXPECT_GT(std::strlen(properties.model), 0u);
        RecordProperty("edgeModel", properties.model);  // in --gtest_output's report
        // A figure the driver reports has its unit; one it does not is 0 of the unknown unit.
        if (properties.bandwidthUnit == ZE_BANDWIDTH_UNIT_UNKNOWN) {
          EXPECT_EQ(properties.bandwidth, 0u);
        } else {
          EXPECT_EQ(properties.bandwidthUnit, ZE_BANDWIDTH_UNIT_BYTES_PER_NANOSEC);
          EXPECT_GT(properties.bandwidth, 0u);
        }
        if (properties.latencyUnit == ZE_LATENCY_UNIT_UNKNOWN) {
          EXPECT_EQ(properties.latency, 0u);
        } else {
          EXPECT_EQ(properties.latencyUnit, ZE_LATENCY_UNIT_HOP);
          EXPECT_GE(properties.latency, 1u);
        }
        RecordProperty("edgeBandwidth", int(properties.bandwidth));
      }
    }
  }
}

TEST_F(FabricTest, NullHandlesAndPointersGetTheSpecsCodes) {
  const auto found = vertices(driver);
  ASSERT_FALSE(found.empty());
  ze_fabric_vertex_handle_t vertex = found[0];
  uint32_t count = 0;
  ze_device_handle_t deviceOut = nullptr;
  ze_fabric_vertex_handle_t vertexOut = nullptr;
  ze_fabric_vertex_exp_properties_t properties{ZE_STRUCTURE_TYPE_FABRIC_VERTEX_EXP_PROPERTIES};
  constexpr ze_result_t kNullHandle = ZE_RESULT_ERROR_INVALID_NULL_HANDLE, kNullPointer = ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  EXPECT_EQ(zeFabricVertexGetExp(nullptr, &count, nullptr), kNullHandle);
  EXPECT_EQ(zeFabricVertexGetExp(driver, nullptr, nullptr), kNullPointer);
  EXPECT_EQ(zeFabricVertexGetSubVerticesExp(nullptr, &count, nullptr), kNullHandle);
  EXPECT_EQ(zeFabricVertexGetSubVerticesExp(vertex, nullptr, nullptr), kNullPointer);
  EXPECT_EQ(zeFabricVertexGetPropertiesExp(nullptr, &properties), kNullHandle);
  EXPECT_EQ(zeFabricVertexGetPropertiesExp(vertex, nullptr), kNullPointer);
  EXPECT_EQ(zeFabricVertexGetDeviceExp(nullptr, &deviceOut), kNullHandle);
  EXPECT_EQ(zeFabricVertexGetDeviceExp(vertex, nullptr), kNullPointer);
  EXPECT_EQ(zeDeviceGetFabricVertexExp(nullptr, &vertexOut), kNullHandle);
  EXPECT_EQ(zeDeviceGetFabricVertexExp(device, nullptr), kNullPointer);
  EXPECT_EQ(zeFabricEdgeGetExp(nullptr, vertex, &count, nullptr), kNullHandle);
  EXPECT_EQ(zeFabricEdgeGetExp(vertex, nullptr, &count, nullptr), kNullHandle);
  EXPECT_EQ(zeFabricEdgeGetExp(vertex, vertex, nullptr, nullptr), kNullPointer);
  ze_fabric_edge_exp_properties_t edgeProperties{ZE_STRUCTURE_TYPE_FABRIC_EDGE_EXP_PROPERTIES};
  EXPECT_EQ(zeFabricEdgeGetVerticesExp(nullptr, &vertexOut, &vertexOut), kNullHandle);
  EXPECT_EQ(zeFabricEdgeGetPropertiesExp(nullptr, &edgeProperties), kNullHandle);
}

// A handle of another kind, or one that points at nothing Loom made, is no vertex or edge. Loom
// tells them by their tags without following them, so the calls need no child process.
TEST_F(FabricTest, HandlesOfAnotherKindOrGarbageAreInvalidArguments) {
  constexpr ze_result_t kInvalid = ZE_RESULT_ERROR_INVALID_ARGUMENT;
  const auto notAVertex = reinterpret_cast<ze_fabric_vertex_handle_t>(device);
  const auto garbageVertex = reinterpret_cast<ze_fabric_vertex_handle_t>(uintptr_t{0xdeadbeef});
  const auto notAnEdge = reinterpret_cast<ze_fabric_edge_handle_t>(vertices(driver)[0]);
  uint32_t count = 0;
  ze_device_handle_t deviceOut = nullptr;
  ze_fabric_vertex_handle_t a = nullptr, b = nullptr;
  ze_fabric_vertex_exp_properties_t properties{ZE_STRUCTURE_TYPE_FABRIC_VERTEX_EXP_PROPERTIES};
  ze_fabric_edge_exp_properties_t edgeProperties{ZE_STRUCTURE_TYPE_FABRIC_EDGE_EXP_PROPERTIES};
  EXPECT_EQ(zeFabricVertexGetSubVerticesExp(notAVertex, &count, nullptr), kInvalid);
  EXPECT_EQ(zeFabricVertexGetPropertiesExp(garbageVertex, &properties), kInvalid);
  EXPECT_EQ(zeFabricVertexGetDeviceExp(notAVertex, &deviceOut), kInvalid);
  EXPECT_EQ(zeFabricEdgeGetExp(garbageVertex, vertices(driver)[0], &count, nullptr), kInvalid);
  EXPECT_EQ(zeFabricEdgeGetVerticesExp(notAnEdge, &a, &b), kInvalid);
  EXPECT_EQ(zeFabricEdgeGetPropertiesExp(notAnEdge, &edgeProperties), kInvalid);
  EXPECT_EQ(zeDeviceGetFabricVertexExp(reinterpret_cast<ze_device_handle_t>(vertices(driver)[0]), &a), kInvalid);
}

}  // namespace
}  // namespace loom::test
