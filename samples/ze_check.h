#pragma once
// CHECK(call): the Level Zero call must succeed, or the program says which call failed and exits.
#include <level_zero/ze_api.h>

#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                 \
  do {                                                                              \
    ze_result_t result_ = (call);                                                   \
    if (result_ != ZE_RESULT_SUCCESS) {                                             \
      std::fprintf(stderr, "%s failed: 0x%x (line %d)\n", #call, result_, __LINE__); \
      std::exit(1);                                                                 \
    }                                                                               \
  } while (0)
