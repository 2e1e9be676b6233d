#pragma once
// What half_kernels.cl computes, on the host: the API tests of both frontends check the device
// against it. Halves are carried as their bits (cl_half); the host computes with _Float16, where
// float arithmetic rounded once to half is the correctly rounded half result (float has more
// than twice half's precision).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace loom::test {

constexpr size_t kHalfResults = 5;  // halves per input of half_arithmetic

inline float halfToFloat(uint16_t bits) {
  _Float16 h;
  std::memcpy(&h, &bits, 2);
  return float(h);
}
inline uint16_t halfBits(float value) {
  const _Float16 h = _Float16(value);
  uint16_t bits;
  std::memcpy(&bits, &h, 2);
  return bits;
}
inline bool isHalfNan(uint16_t bits) { return (bits & 0x7c00) == 0x7c00 && (bits & 0x3ff) != 0; }
// Equal bits, or both NaN (whose payload is free).
inline bool sameHalf(uint16_t got, uint16_t expected) { return got == expected || (isHalfNan(got) && isHalfNan(expected)); }

// Zeros, denormals, the normal range's ends, infinities and NaN, then a sweep of bit patterns.
inline std::vector<uint16_t> halfInputs(size_t count, uint16_t start) {
  std::vector<uint16_t> values = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x7bff, 0xfbff,
                                  0x7c00, 0xfc00, 0x7e00, 0x3555, 0x4900, 0x5bd0};
  for (uint32_t bits = start; values.size() < count; bits += 0x3d7) values.push_back(uint16_t(bits));
  values.resize(count);
  return values;
}

inline std::vector<uint16_t> expectedHalfResults(const std::vector<uint16_t>& x, const std::vector<uint16_t>& y, uint16_t scale) {
  std::vector<uint16_t> expected;
  for (size_t i = 0; i < x.size(); ++i) {
    const float a = halfToFloat(x[i]), b = halfToFloat(y[i]), s = halfToFloat(scale);
    const float grown = a * 1.0009765625f;
    uint16_t towardZero = halfBits(grown);
    if (std::fabs(halfToFloat(towardZero)) > std::fabs(grown)) --towardZero;  // one step toward zero
    for (uint16_t bits : {halfBits(a + b), halfBits(a * s), halfBits(a / b), halfBits(std::sqrt(a)), towardZero})
      expected.push_back(bits);
  }
  return expected;
}

// convert_short_sat: NaN is 0, the rest truncated and clamped.
inline std::vector<int16_t> expectedSaturated(const std::vector<uint16_t>& x) {
  std::vector<int16_t> expected;
  for (uint16_t bits : x) {
    const float value = halfToFloat(bits);
    expected.push_back(std::isnan(value) ? 0 : int16_t(std::clamp(std::trunc(value), -32768.0f, 32767.0f)));
  }
  return expected;
}

inline std::vector<uint16_t> expectedScaled(const std::vector<uint16_t>& x, uint16_t scale) {
  std::vector<uint16_t> expected;
  for (uint16_t bits : x) expected.push_back(halfBits(halfToFloat(bits) * halfToFloat(scale)));
  return expected;
}

// half_collectives over groups of `groupSize`: small integers, each group's sum, running maximum
// and (every sub-group being within its group) a minimum no larger than the group's.
inline std::vector<uint16_t> halfIntegers(size_t count) {
  std::vector<uint16_t> values;
  for (size_t i = 0; i < count; ++i) values.push_back(halfBits(float(int((i * 7) % 17) - 8)));
  return values;
}
struct HalfCollectives {
  std::vector<float> sums, runningMaxima, groupMinima;
};
inline HalfCollectives expectedHalfCollectives(const std::vector<uint16_t>& x, size_t groupSize) {
  HalfCollectives expected;
  for (size_t first = 0; first < x.size(); first += groupSize) {
    float sum = 0, maximum = -INFINITY, minimum = INFINITY;
    for (size_t i = first; i < first + groupSize; ++i) sum += halfToFloat(x[i]), minimum = std::min(minimum, halfToFloat(x[i]));
    for (size_t i = first; i < first + groupSize; ++i) {
      maximum = std::max(maximum, halfToFloat(x[i]));
      expected.sums.push_back(sum);
      expected.runningMaxima.push_back(maximum);
      expected.groupMinima.push_back(minimum);
    }
  }
  return expected;
}

}  // namespace loom::test
