// The NUMA placement of CPU tiles' colored memory: the kernel's node lists, which node each tile
// uses, and the mbind call itself on this machine.
#include "backends/cpu/numa_placement.h"

#include <gtest/gtest.h>
#include <sys/mman.h>

namespace loom::backends::cpu {
namespace {

TEST(NumaPlacement, ReadsTheKernelsNodeLists) {
  EXPECT_EQ(parseNodeList("0"), (std::vector<int>{0}));
  EXPECT_EQ(parseNodeList("0-3"), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(parseNodeList("0,2-3,5"), (std::vector<int>{0, 2, 3, 5}));
  EXPECT_TRUE(parseNodeList("").empty());
  EXPECT_TRUE(parseNodeList("3-1").empty());
  EXPECT_TRUE(parseNodeList("a").empty());
  EXPECT_FALSE(memoryNodes().empty()) << "a machine has at least node 0";
}

TEST(NumaPlacement, SpreadsTilesInOrderOverTheNodes) {
  const std::vector<int> nodes{0, 2};
  EXPECT_EQ(nodeOfTile(0, 2, nodes), 0);
  EXPECT_EQ(nodeOfTile(1, 2, nodes), 2);
  EXPECT_EQ(nodeOfTile(0, 4, nodes), 0);
  EXPECT_EQ(nodeOfTile(1, 4, nodes), 0);
  EXPECT_EQ(nodeOfTile(2, 4, nodes), 2);
  EXPECT_EQ(nodeOfTile(3, 4, nodes), 2);
  EXPECT_EQ(nodeOfTile(1, 3, {0}), 0) << "one node serves every tile";
}

TEST(NumaPlacement, PrefersAnExistingNodeAndRefusesOneThatIsNot) {
  const size_t size = size_t(1) << 20;
  void* memory = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(memory, MAP_FAILED);
  std::string why;
  const bool placed = preferNode(memory, size, memoryNodes().front(), why);
  if (!placed && why.find("not permitted") != std::string::npos) {
    munmap(memory, size);
    GTEST_SKIP() << "this sandbox forbids mbind: " << why;
  }
  EXPECT_TRUE(placed) << why;
  static_cast<char*>(memory)[0] = 1;
  EXPECT_FALSE(preferNode(memory, size, 1000, why)) << "no machine here has node 1000";
  EXPECT_NE(why.find("mbind"), std::string::npos) << why;
  EXPECT_FALSE(preferNode(memory, size, -1, why));
  munmap(memory, size);
}

}  // namespace
}  // namespace loom::backends::cpu
