#pragma once
// Stops the sample with the failing call, its line and the OpenCL error code.
#include <cstdio>
#include <cstdlib>

#define CL_CHECK(call)                                                                   \
  do {                                                                                   \
    cl_int status_ = (call);                                                             \
    if (status_ != CL_SUCCESS) {                                                         \
      std::fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call, status_); \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)
