#pragma once
// What group_collectives (collective_kernels.cl) computes, on the host: the API tests of both
// frontends check the device against it.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace loom::test {

struct CollectiveResults {
  std::vector<int64_t> out;  // five blocks of one value per work-item, as the kernel writes them
  std::vector<float> maxima;
};

// Work-items by group, in local linear order, for `global` work-items in groups of `local` (the
// last group in a dimension may be smaller); each entry is a global linear id.
inline std::vector<std::vector<size_t>> workGroups(const std::array<size_t, 3>& global, const std::array<size_t, 3>& local,
                                                   std::vector<std::array<size_t, 3>>* sizes = nullptr) {
  std::array<size_t, 3> count;
  for (int d = 0; d < 3; ++d) count[d] = (global[d] + local[d] - 1) / local[d];
  std::vector<std::vector<size_t>> groups(count[0] * count[1] * count[2]);
  std::vector<std::array<size_t, 3>> groupSizes(groups.size());
  for (size_t z = 0; z < global[2]; ++z)
    for (size_t y = 0; y < global[1]; ++y)
      for (size_t x = 0; x < global[0]; ++x) {
        const size_t id[3] = {x, y, z};
        std::array<size_t, 3> group, size;
        for (int d = 0; d < 3; ++d) group[d] = id[d] / local[d], size[d] = std::min(local[d], global[d] - group[d] * local[d]);
        const size_t g = (group[2] * count[1] + group[1]) * count[0] + group[0];
        groups[g].resize(size[0] * size[1] * size[2]);
        groupSizes[g] = size;
        const size_t localLinear = ((z % local[2]) * size[1] + y % local[1]) * size[0] + x % local[0];
        groups[g][localLinear] = (z * global[1] + y) * global[0] + x;
      }
  if (sizes) *sizes = groupSizes;
  return groups;
}

// Inputs for group_collectives over `groups` (workGroups): in group 1 one work-item votes false
// for work_group_all, in group 2 none votes true for work_group_any, elsewhere both vote true.
inline std::vector<int> collectiveInputs(const std::vector<std::vector<size_t>>& groups, size_t n) {
  std::vector<int> in(n);
  for (size_t i = 0; i < n; ++i) in[i] = int(i * 37 % 140) - 40;
  if (groups.size() > 1) in[groups[1].back()] = -77;
  if (groups.size() > 2)
    for (size_t item : groups[2]) in[item] = int(item % 50);
  return in;
}

inline CollectiveResults expectedCollectives(const std::vector<int>& in, const std::array<size_t, 3>& global,
                                             const std::array<size_t, 3>& local) {
  const size_t n = global[0] * global[1] * global[2];
  CollectiveResults expected{std::vector<int64_t>(5 * n), std::vector<float>(n)};
  std::vector<std::array<size_t, 3>> sizes;
  const auto groups = workGroups(global, local, &sizes);
  for (size_t g = 0; g < groups.size(); ++g) {
    const std::vector<size_t>& items = groups[g];
    int sum = 0, maximum = items.empty() ? 0 : in[items[0]];
    bool all = true, any = false;
    for (size_t item : items)
      sum += in[item], maximum = std::max(maximum, in[item]), all = all && in[item] > -50, any = any || in[item] > 95;
    const std::array<size_t, 3>& size = sizes[g];
    const int broadcast = in[items[((size[2] - 1) * size[1]) * size[0] + size[0] - 1]];
    int64_t running = 0;
    int minimum = in[items[0]];
    for (size_t item : items) {
      minimum = std::min(minimum, in[item]);
      expected.out[item] = sum;
      expected.out[n + item] = running;
      expected.out[2 * n + item] = minimum;
      expected.out[3 * n + item] = broadcast;
      expected.out[4 * n + item] = int(all) + 2 * int(any);
      expected.maxima[item] = 0.5f * float(maximum);
      running += in[item];
    }
  }
  return expected;
}

}  // namespace loom::test
