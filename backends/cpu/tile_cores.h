#pragma once
// Which cores the workers of each CPU tile run on: the tiles of a CPU device share one thread
// pool, and each tile's workers are pinned to a set of cores of its own, so that tiles do not
// compete for cores and a tile's threads stay near its memory (its NUMA node where the machine
// has several). Only cores the process may run on (its affinity mask, as taskset or a container
// sets it) are handed out.
#include <vector>

namespace loom::backends::cpu {

// The CPUs the calling thread may run on (sched_getaffinity), in order; empty when the kernel
// does not say.
std::vector<int> allowedCpus();
// The CPUs of NUMA node `node` (/sys/devices/system/node/node<N>/cpulist); empty when unknown.
std::vector<int> cpusOfNode(int node);

// The cores of each of `tiles` tiles, out of `allowed`. `nodeCpus`: the CPUs of each memory node
// in order (at most one node: no NUMA). With several nodes, tile t belongs to the node
// nodeOfTile (numa_placement.h) gives it and shares that node's allowed cores with the other
// tiles of the node, each a consecutive part; without NUMA, or where a node has no allowed core,
// the allowed cores are split in consecutive parts. Parts are disjoint while there are at least
// as many cores as tiles (else tile t has core t modulo their number, shared).
std::vector<std::vector<int>> coresOfTiles(unsigned tiles, const std::vector<int>& allowed,
                                           const std::vector<std::vector<int>>& nodeCpus);

}  // namespace loom::backends::cpu
