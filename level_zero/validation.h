#pragma once
// Argument checks shared by every entry point: each failed check returns the spec's error code
// and, under LOOM_PrintDebugMessages=1, says which function and which argument.
#include <level_zero/ze_api.h>

namespace loom::l0 {

ze_result_t reportError(ze_result_t result, const char* function, const char* message);

// The longest pNext chain Loom walks: a longer one, or one that loops, is invalid.
constexpr int kMaxChainLength = 32;
// ZE_RESULT_ERROR_INVALID_ARGUMENT unless every structure of the chain from `pNext` on can be
// read and the chain ends within kMaxChainLength structures. Structures of unknown types are
// passed over, as the specification asks.
ze_result_t checkChain(const char* function, const void* pNext);
// An input descriptor: its stype must be `expected` (or 0, never a structure type, which is
// taken as `expected`) and its chain must pass checkChain.
ze_result_t checkDescriptor(const char* function, const void* desc, ze_structure_type_t expected);
// Calls `fill` with each structure of an output chain (from `next` on, one checkChain passed)
// whose type is `stype`, as the Properties it is; structures of other types stay as they are.
template <typename Properties, typename Fill>
void fillChained(void* next, ze_structure_type_t stype, Fill&& fill) {
  for (auto* chained = static_cast<ze_base_properties_t*>(next); chained; chained = static_cast<ze_base_properties_t*>(chained->pNext))
    if (chained->stype == stype) fill(*reinterpret_cast<Properties*>(chained));
}
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
#define ZE_REQUIRE_DESCRIPTOR(desc, stype)                                                   \
  do {                                                                                       \
    const ze_result_t descriptorCheck = ::loom::l0::checkDescriptor(__func__, desc, stype);  \
    if (descriptorCheck != ZE_RESULT_SUCCESS) return descriptorCheck;                        \
  } while (0)
#define ZE_REQUIRE_FLAGS(flags, known) \
  ZE_REQUIRE(((flags) & ~(known)) == 0, ZE_RESULT_ERROR_INVALID_ENUMERATION, #flags " has unknown bits")
