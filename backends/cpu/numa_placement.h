#pragma once
// The host's NUMA memory nodes, and placing memory on one of them: the colored memory of CPU tiles
// (implicit scaling) goes to the node of the tile that owns each chunk. Through the mbind system
// call itself, with no dependency on libnuma.
#include <cstddef>
#include <string>
#include <vector>

namespace loom::backends::cpu {

// The nodes of a kernel node list ("0", "0-3", "0,2-3"), in order; empty when it is malformed.
std::vector<int> parseNodeList(const std::string& list);
// The nodes that have memory (/sys/devices/system/node/has_memory); {0} when the machine does not
// say, as on a kernel without NUMA.
std::vector<int> memoryNodes();
// The node whose memory tile `tile` of `tiles` uses: the tiles spread in order over `nodes`.
int nodeOfTile(unsigned tile, unsigned tiles, const std::vector<int>& nodes);
// The pages of [address, address + size) not yet touched come from `node` when it has memory left
// (MPOL_PREFERRED); `address` is on a page boundary. False, with the reason in `why`, when the
// kernel refuses.
bool preferNode(void* address, size_t size, int node, std::string& why);

}  // namespace loom::backends::cpu
