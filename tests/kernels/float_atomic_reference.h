#pragma once
// What float_atomic_sums (float_atomic_kernels.cl) computes, on the host: the API tests of both
// frontends check the device against it. Values are integers, so every order of the additions
// gives the exact sum.
#include <algorithm>
#include <cstddef>
#include <limits>
#include <numeric>
#include <vector>

namespace loom::test {

inline std::vector<float> floatAtomicValues(size_t count) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = float(int((i * 37) % 201) - 100);
  return values;
}

struct FloatAtomicResults {
  std::vector<float> taken;     // the counter's old values, sorted: 0 .. n-1
  std::vector<float> floats;    // sum, minimum, maximum
  std::vector<double> doubles;  // minus the sum, minimum, maximum
  std::vector<double> groups;   // per group: sum, minimum, maximum
};

// The initial values of the kernel's global locations: minima and maxima start as NaN, which loses.
inline std::vector<float> floatAtomicInitialFloats() {
  return {0.0f, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::quiet_NaN()};
}
inline std::vector<double> floatAtomicInitialDoubles() {
  return {0.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN()};
}

inline FloatAtomicResults expectedFloatAtomics(const std::vector<float>& values, size_t groupSize) {
  FloatAtomicResults results;
  results.taken.resize(values.size());
  std::iota(results.taken.begin(), results.taken.end(), 0.0f);
  const float sum = std::accumulate(values.begin(), values.end(), 0.0f);
  const float minimum = *std::min_element(values.begin(), values.end());
  const float maximum = *std::max_element(values.begin(), values.end());
  results.floats = {sum, minimum, maximum};
  results.doubles = {-double(sum), minimum, maximum};
  for (size_t first = 0; first < values.size(); first += groupSize) {
    const auto begin = values.begin() + first, end = begin + std::min(groupSize, values.size() - first);
    results.groups.insert(results.groups.end(), {std::accumulate(begin, end, 0.0), double(*std::min_element(begin, end)),
                                                 double(*std::max_element(begin, end))});
  }
  return results;
}

}  // namespace loom::test
