#pragma once
// The peer of ze_benchmark's kernel figures: the same OpenCL C kernels on PoCL, if installed.
#include <cstdint>

// Seconds of the best of `repetitions` triad runs over `n` floats on PoCL's CPU device, or a
// negative value when PoCL is not available.
double poclTriadSeconds(uint32_t n, int repetitions);
