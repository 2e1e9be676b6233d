#include "backends/cpu/tile_cores.h"

#include <sched.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "backends/cpu/numa_placement.h"

namespace loom::backends::cpu {

namespace {

// Part `part` of `parts` consecutive parts of `cores`; one shared core where there are fewer
// cores than parts.
std::vector<int> partOf(const std::vector<int>& cores, size_t part, size_t parts) {
  if (cores.empty()) return {};
  if (cores.size() < parts) return {cores[part % cores.size()]};
  return {cores.begin() + part * cores.size() / parts, cores.begin() + (part + 1) * cores.size() / parts};
}

std::vector<int> intersection(const std::vector<int>& sorted, const std::vector<int>& others) {
  std::vector<int> sortedOthers = others, both;
  std::sort(sortedOthers.begin(), sortedOthers.end());
  std::set_intersection(sorted.begin(), sorted.end(), sortedOthers.begin(), sortedOthers.end(), std::back_inserter(both));
  return both;
}

}  // namespace

std::vector<int> allowedCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return {};
  std::vector<int> cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  return cpus;
}

std::vector<int> cpusOfNode(int node) {
  std::ifstream file("/sys/devices/system/node/node" + std::to_string(node) + "/cpulist");
  std::string list;
  if (!std::getline(file, list)) return {};
  return parseNodeList(list);
}

std::vector<std::vector<int>> coresOfTiles(unsigned tiles, const std::vector<int>& allowed,
                                           const std::vector<std::vector<int>>& nodeCpus) {
  std::vector<int> sortedAllowed = allowed;
  std::sort(sortedAllowed.begin(), sortedAllowed.end());
  std::vector<std::vector<int>> cores(tiles);
  if (nodeCpus.size() > 1) {
    // Tile t is on node t * nodes / tiles, as nodeOfTile places its memory: the tiles of a node
    // are consecutive.
    const auto nodeOf = [&](unsigned tile) { return size_t(tile) * nodeCpus.size() / tiles; };
    bool everyTileHasCores = true;
    for (unsigned tile = 0; tile < tiles; ++tile) {
      unsigned first = tile, last = tile;
      while (first > 0 && nodeOf(first - 1) == nodeOf(tile)) --first;
      while (last + 1 < tiles && nodeOf(last + 1) == nodeOf(tile)) ++last;
      cores[tile] = partOf(intersection(sortedAllowed, nodeCpus[nodeOf(tile)]), tile - first, last - first + 1);
      everyTileHasCores = everyTileHasCores && !cores[tile].empty();
    }
    if (everyTileHasCores) return cores;
  }
  for (unsigned tile = 0; tile < tiles; ++tile) cores[tile] = partOf(sortedAllowed, tile, tiles);
  return cores;
}

}  // namespace loom::backends::cpu
