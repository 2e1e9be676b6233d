#include "backends/cpu/numa_placement.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace loom::backends::cpu {

namespace {
constexpr int kPreferred = 1;  // MPOL_PREFERRED of <linux/mempolicy.h>
constexpr size_t kBitsPerWord = sizeof(unsigned long) * 8;

bool parseNumber(const std::string& text, int& number) {
  if (text.empty() || text.size() > 6 || text.find_first_not_of("0123456789") != std::string::npos) return false;
  number = std::stoi(text);
  return true;
}
}  // namespace

std::vector<int> parseNodeList(const std::string& list) {
  std::vector<int> nodes;
  std::stringstream ranges(list);
  std::string range;
  while (std::getline(ranges, range, ',')) {
    const size_t dash = range.find('-');
    int first = 0, last = 0;
    if (!parseNumber(range.substr(0, dash), first)) return {};
    last = first;
    if (dash != std::string::npos && !parseNumber(range.substr(dash + 1), last)) return {};
    if (last < first) return {};
    for (int node = first; node <= last; ++node) nodes.push_back(node);
  }
  return nodes;
}

std::vector<int> memoryNodes() {
  std::ifstream file("/sys/devices/system/node/has_memory");
  std::string list;
  if (!std::getline(file, list)) return {0};
  std::vector<int> nodes = parseNodeList(list);
  return nodes.empty() ? std::vector<int>{0} : nodes;
}

int nodeOfTile(unsigned tile, unsigned tiles, const std::vector<int>& nodes) {
  if (nodes.empty() || tiles == 0) return 0;
  return nodes[size_t(tile % tiles) * nodes.size() / tiles];
}

bool preferNode(void* address, size_t size, int node, std::string& why) {
  if (node < 0) {
    why = "no such node";
    return false;
  }
  std::vector<unsigned long> mask(size_t(node) / kBitsPerWord + 1, 0);
  mask[size_t(node) / kBitsPerWord] = 1ul << (size_t(node) % kBitsPerWord);
  // The kernel reads one bit fewer than maxnode says.
  const unsigned long maxNode = mask.size() * kBitsPerWord + 1;
  if (syscall(SYS_mbind, address, size, kPreferred, mask.data(), maxNode, 0u) == 0) return true;
  why = "mbind: " + std::string(std::strerror(errno));
  return false;
}

}  // namespace loom::backends::cpu
