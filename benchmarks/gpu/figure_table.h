#pragma once
// The table the GPU benchmarks print: one row per figure, its values side by side, and the aim.
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace loom::benchmarks {

struct Row {
  std::string figure;
  std::string unit;
  std::vector<std::pair<std::string, double>> values;  // label, value (negative: not measured)
  std::string aim;
};

inline void print(const std::vector<Row>& rows) {
  std::printf("\n%-34s %-6s %s\n", "figure", "unit", "values (aim)");
  for (const Row& row : rows) {
    std::printf("%-34s %-6s", row.figure.c_str(), row.unit.c_str());
    for (const auto& [label, value] : row.values) {
      if (value < 0)
        std::printf("  %s: n/a", label.c_str());
      else
        std::printf("  %s: %.4g", label.c_str(), value);
    }
    std::printf("%s%s\n", row.aim.empty() ? "" : "   aim: ", row.aim.c_str());
  }
}

inline double ratio(double a, double b) { return a > 0 && b > 0 ? a / b : -1; }

}  // namespace loom::benchmarks
