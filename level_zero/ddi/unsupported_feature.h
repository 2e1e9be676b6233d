#pragma once
#include <level_zero/ze_api.h>

namespace loom::l0 {

// What every Level Zero function Loom does not implement yet returns.
ze_result_t unsupportedFeature(const char* function);

}  // namespace loom::l0
