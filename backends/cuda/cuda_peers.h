#pragma once
// Peer access between the GPUs of one driver: what each can do with the others' memory, found and
// enabled once, when the devices are set up, so that kernels and copies on one GPU reach memory of
// another directly (with unified addressing, plain cuMemcpyAsync then copies between them).
#include <memory>
#include <vector>

#include "backends/cuda/cuda_context.h"
#include "loom/core/backend.h"

namespace loom::backends::cuda {

// [i][j]: how GPU i reaches the memory of GPU j; the diagonal is full access.
using PeerMatrix = std::vector<std::vector<core::PeerAccess>>;

// Asks the driver about every ordered pair of `gpus` and enables peer access in each primary
// context that can reach another GPU. A pair whose enabling fails has no access (and says why
// under PrintDebugMessages).
PeerMatrix enablePeerAccess(const std::vector<std::shared_ptr<const PrimaryContext>>& gpus);

// What one ordered pair comes to: access when the driver says the GPU can reach the peer and
// enabling it worked (or was done before), atomics only with access.
core::PeerAccess peerAccessOf(bool canAccess, CUresult enabled, bool nativeAtomics);

}  // namespace loom::backends::cuda
