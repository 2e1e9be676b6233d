#include "backends/cuda/cuda_peers.h"

#include "loom/core/log.h"

namespace loom::backends::cuda {

namespace {

// How `from` reaches the memory of `to`, with access enabled in `from`'s context where it can.
core::PeerAccess connect(const PrimaryContext& from, const PrimaryContext& to) {
  const Driver& driver = from.driver();
  int canAccess = 0;
  if (CUresult result = driver.cuDeviceCanAccessPeer(&canAccess, from.device(), to.device()); result != CUDA_SUCCESS) {
    core::debugMessage("GPU %d and GPU %d: %s", from.device(), to.device(), driver.describe("cuDeviceCanAccessPeer", result).c_str());
    return {};
  }
  if (!canAccess) return {};
  CUresult enabled = CUDA_SUCCESS;
  {
    auto scope = from.makeCurrent();
    enabled = driver.cuCtxEnablePeerAccess(to.handle(), 0);
  }
  if (enabled != CUDA_SUCCESS && enabled != CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED)
    core::debugMessage("GPU %d cannot reach GPU %d: %s", from.device(), to.device(),
                       driver.describe("cuCtxEnablePeerAccess", enabled).c_str());
  int atomics = 0;
  if (driver.cuDeviceGetP2PAttribute(&atomics, P2PAttribute::NativeAtomicSupported, from.device(), to.device()) != CUDA_SUCCESS)
    atomics = 0;
  return peerAccessOf(true, enabled, atomics != 0);
}

}  // namespace

core::PeerAccess peerAccessOf(bool canAccess, CUresult enabled, bool nativeAtomics) {
  const bool access = canAccess && (enabled == CUDA_SUCCESS || enabled == CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED);
  return {access, access && nativeAtomics};
}

PeerMatrix enablePeerAccess(const std::vector<std::shared_ptr<const PrimaryContext>>& gpus) {
  PeerMatrix peers(gpus.size(), std::vector<core::PeerAccess>(gpus.size()));
  for (size_t i = 0; i < gpus.size(); ++i)
    for (size_t j = 0; j < gpus.size(); ++j) peers[i][j] = i == j ? core::PeerAccess{true, true} : connect(*gpus[i], *gpus[j]);
  return peers;
}

}  // namespace loom::backends::cuda
