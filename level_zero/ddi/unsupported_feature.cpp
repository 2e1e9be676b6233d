#include "level_zero/ddi/unsupported_feature.h"

#include "loom/core/log.h"

namespace loom::l0 {

ze_result_t unsupportedFeature(const char* function) {
  core::debugMessage("%s: not supported by Loom yet (ZE_RESULT_ERROR_UNSUPPORTED_FEATURE)", function);
  return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
}

}  // namespace loom::l0
