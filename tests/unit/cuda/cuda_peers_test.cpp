// What the GPUs of one driver may do with each other's memory, from what the driver says.
#include "backends/cuda/cuda_peers.h"

#include <gtest/gtest.h>

#include "backends/cuda/cuda_address_space.h"

namespace loom::backends::cuda {
namespace {

TEST(CudaPeers, AccessNeedsTheDriversYesAndEnabledAccess) {
  EXPECT_FALSE(peerAccessOf(false, CUDA_SUCCESS, true).access);
  EXPECT_FALSE(peerAccessOf(true, CUDA_ERROR_INVALID_VALUE, true).access) << "enabling failed";
  const core::PeerAccess enabled = peerAccessOf(true, CUDA_SUCCESS, false);
  EXPECT_TRUE(enabled.access);
  EXPECT_FALSE(enabled.atomics);
  const core::PeerAccess before = peerAccessOf(true, CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, true);
  EXPECT_TRUE(before.access) << "enabled before, by the application's own CUDA code";
  EXPECT_TRUE(before.atomics);
  EXPECT_FALSE(peerAccessOf(false, CUDA_SUCCESS, true).atomics) << "no atomics without access";
}

TEST(CudaPeers, MemoryIsGrantedToItsOwnerAndToPeersThatReachIt) {
  // GPU 1 reaches GPU 0; GPU 2 reaches nobody; GPU 0 reaches GPU 2.
  PeerMatrix peers(3, std::vector<core::PeerAccess>(3));
  for (size_t i = 0; i < 3; ++i) peers[i][i] = {true, true};
  peers[1][0] = {true, false};
  peers[0][2] = {true, true};
  const std::vector<CUdevice> devices{4, 5, 6};
  auto ordinals = [](const std::vector<CUmemAccessDesc>& grants) {
    std::vector<int> ids;
    for (const CUmemAccessDesc& grant : grants) {
      EXPECT_EQ(grant.location.type, CU_MEM_LOCATION_TYPE_DEVICE);
      EXPECT_EQ(grant.flags, CU_MEM_ACCESS_FLAGS_PROT_READ);
      ids.push_back(grant.location.id);
    }
    return ids;
  };
  EXPECT_EQ(ordinals(accessGrants(peers, devices, 0, CU_MEM_ACCESS_FLAGS_PROT_READ)), (std::vector<int>{4, 5}));
  EXPECT_EQ(ordinals(accessGrants(peers, devices, 1, CU_MEM_ACCESS_FLAGS_PROT_READ)), (std::vector<int>{5}));
  EXPECT_EQ(ordinals(accessGrants(peers, devices, 2, CU_MEM_ACCESS_FLAGS_PROT_READ)), (std::vector<int>{6, 4}));
}

}  // namespace
}  // namespace loom::backends::cuda
