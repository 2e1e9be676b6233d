#pragma once
// CK(call): the probes' check of a CUDA driver or runtime call; a failure prints the call and its
// error code and ends the probe.
#include <cstdio>
#include <cstdlib>

#define CK(x)                                    \
  do {                                           \
    if (auto e = (x)) {                          \
      std::printf("%s: error %d\n", #x, int(e)); \
      std::exit(1);                              \
    }                                            \
  } while (0)
