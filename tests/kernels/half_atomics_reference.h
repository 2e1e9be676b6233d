#pragma once
// What half_atomics (half_atomics.spvasm) computes: its operands, the bits its slots start with,
// and the check of the slots afterwards, for the compiler's and the Level Zero API's tests.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace loom::test::half_atomics {

constexpr size_t kSlots = 12;  // halves per work-item
constexpr uint16_t kNeighbour = 0xabcd;
inline const std::vector<uint16_t> kOperands = {0x4000, 0x7e00, 0xc200, 0x3800};  // 2, NaN, -3, 0.5

// Every updated slot starts at 1 (0x3c00); slots 7, 8, 10 and 11 are written whole.
inline std::vector<uint16_t> startingBits() {
  std::vector<uint16_t> bits;
  for (size_t i = 0; i < kOperands.size(); ++i)
    bits.insert(bits.end(), {0x3c00, kNeighbour, 0x3c00, kNeighbour, 0x3c00, kNeighbour, 0x3c00, 0, 0, kNeighbour, 0, 0});
  return bits;
}

inline void expectResults(const uint16_t* bits) {
  const uint16_t minima[] = {0x3c00, 0x3c00, 0xc200, 0x3800}, maxima[] = {0x4000, 0x3c00, 0x3c00, 0x3c00};
  const uint16_t sums[] = {0x4200, 0x7e00, 0xc000, 0x3e00};  // 3, NaN, -2, 1.5
  for (size_t i = 0; i < kOperands.size(); ++i) {
    const uint16_t* slots = bits + kSlots * i;
    EXPECT_EQ(slots[0], minima[i]) << i << ": min, a NaN operand loses";
    EXPECT_EQ(slots[2], maxima[i]) << i << ": max";
    EXPECT_EQ(slots[4] & 0x7c00, sums[i] & 0x7c00) << i << ": add";
    if (i != 1) {  // any NaN for 1 + NaN
      EXPECT_EQ(slots[4], sums[i]) << i << ": add";
    }
    EXPECT_EQ(slots[6], kOperands[i]) << i << ": exchanged";
    EXPECT_EQ(slots[7], 0x3c00) << i << ": what the exchange returned";
    EXPECT_EQ(slots[8], kOperands[i]) << i << ": stored";
    EXPECT_EQ(slots[10], kOperands[i]) << i << ": loaded";
    EXPECT_EQ(slots[11], 0x3d00) << i << ": 1.5 - 0.25 in local memory";
    for (size_t neighbour : {1, 3, 5, 9}) EXPECT_EQ(slots[neighbour], kNeighbour) << i << " " << neighbour;
  }
}

}  // namespace loom::test::half_atomics
