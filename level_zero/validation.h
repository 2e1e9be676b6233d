#pragma once
// Argument checks shared by every entry point: each failed check returns the spec's error code
// and, under LOOM_PrintDebugMessages=1, says which function and which argument.
#include <level_zero/ze_api.h>

namespace loom::l0 {

ze_result_t reportError(ze_result_t result, const char* function, const char* message);
const char* resultName(ze_result_t result);
// ZE_RESULT_ERROR_DEVICE_LOST when `failure`, a negative execution status, says the device
// refused or faulted on the work (its results are not to be trusted); else ZE_RESULT_SUCCESS.
ze_result_t deviceFailureResult(int32_t failure, const char* function);

// The result of a host synchronization: ZE_RESULT_NOT_READY when the work is not complete, else
// deviceFailureResult of what `failure()` reads once the work is complete.
template <typename ReadFailure>
ze_result_t synchronizationResult(bool completed, ReadFailure&& failure, const char* function) {
  return completed ? deviceFailureResult(failure(), function) : ZE_RESULT_NOT_READY;
}

}  // namespace loom::l0

#define ZE_REQUIRE(condition, result, message) \
  do {                                         \
    if (!(condition)) return ::loom::l0::reportError(result, __func__, message); \
  } while (0)
#define ZE_REQUIRE_HANDLE(handle) ZE_REQUIRE((handle) != nullptr, ZE_RESULT_ERROR_INVALID_NULL_HANDLE, #handle " is null")
#define ZE_REQUIRE_POINTER(pointer) ZE_REQUIRE((pointer) != nullptr, ZE_RESULT_ERROR_INVALID_NULL_POINTER, #pointer " is null")
#define ZE_REQUIRE_FLAGS(flags, known) \
  ZE_REQUIRE(((flags) & ~(known)) == 0, ZE_RESULT_ERROR_INVALID_ENUMERATION, #flags " has unknown bits")
