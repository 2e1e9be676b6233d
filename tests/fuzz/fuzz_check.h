#pragma once
// What the fuzz targets check besides "no crash": a broken promise ends the run, saying which.
#include <cstdio>
#include <cstdlib>

namespace loom::fuzz {

inline void require(bool holds, const char* promise) {
  if (holds) return;
  std::fprintf(stderr, "fuzz target: broken promise: %s\n", promise);
  std::abort();
}

}  // namespace loom::fuzz
