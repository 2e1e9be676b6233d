#pragma once
// The host side the Level Zero and the OpenCL sample share: the inputs of the vector add and of
// the reduction, and the check of each result on the host, printed the same way in both.
#include <cstddef>
#include <cstdio>

// a[i] = i and b[i] = i / 2, so that every sum[i] must be 1.5 i.
inline void fillVectorAddInputs(float* a, float* b, size_t n) {
  for (size_t i = 0; i < n; ++i) a[i] = float(i), b[i] = 0.5f * float(i);
}

// Checks sum = a + b and prints the verdict; `kernelMicroseconds` is printed when not negative.
inline bool vectorAddIsCorrect(const float* sum, size_t n, double kernelMicroseconds = -1) {
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i) wrong += sum[i] != 1.5f * float(i);
  std::printf("vector add of %zu floats: %s (sum[%zu] = %.1f", n, wrong ? "WRONG" : "correct", n - 1, sum[n - 1]);
  if (kernelMicroseconds >= 0) std::printf(", kernel %.0f us", kernelMicroseconds);
  std::printf(")\n");
  return wrong == 0;
}

// Fills `values` with numbers from -300 to 699 and returns their sum.
inline long long fillReductionInput(int* values, size_t n) {
  long long sum = 0;
  for (size_t i = 0; i < n; ++i) values[i] = int(i % 1000) - 300, sum += values[i];
  return sum;
}

inline bool reductionIsCorrect(int result, long long expected, size_t n, size_t groupSize) {
  const bool right = result == expected;
  std::printf("reduction of %zu ints in groups of %zu (local memory, barriers, atomic add): %d (expected %lld): %s\n", n,
              groupSize, result, expected, right ? "correct" : "WRONG");
  return right;
}

// Prints the sample's verdict and returns its exit status.
inline int sampleVerdict(bool passed) {
  std::printf("%s\n", passed ? "PASSED" : "FAILED");
  return passed ? 0 : 1;
}
