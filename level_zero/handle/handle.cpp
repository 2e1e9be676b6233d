#include "level_zero/handle/handle.h"

#include <string>

namespace loom::l0 {

ze_result_t reportDeadHandle(const char* function, const char* argument) {
  const std::string message =
      std::string(argument) + " is not a live handle of its kind (destroyed, of another kind, or no handle at all)";
  return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, function, message.c_str());
}

ze_result_t reportNullHandleIn(const char* function, const char* array) {
  return reportError(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, function, (std::string(array) + " has a null handle").c_str());
}

}  // namespace loom::l0
