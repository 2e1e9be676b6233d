#include "level_zero/validation.h"

#include "loom/core/log.h"
#include "loom/core/readable_memory.h"

namespace loom::l0 {

const char* resultName(ze_result_t result) {
  switch (result) {
#define LOOM_RESULT(name) \
  case name: return #name;
    LOOM_RESULT(ZE_RESULT_SUCCESS)
    LOOM_RESULT(ZE_RESULT_NOT_READY)
    LOOM_RESULT(ZE_RESULT_ERROR_UNINITIALIZED)
    LOOM_RESULT(ZE_RESULT_ERROR_DEVICE_LOST)
    LOOM_RESULT(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY)
    LOOM_RESULT(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)
    LOOM_RESULT(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE)
    LOOM_RESULT(ZE_RESULT_ERROR_MODULE_LINK_FAILURE)
    LOOM_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_VERSION)
    LOOM_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE)
    LOOM_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT)
    LOOM_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE)
    LOOM_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER)
    LOOM_RESULT(ZE_RESULT_ERROR_INVALID_SIZE)
    LOOM_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_SIZE)
    LOOM_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT)
    LOOM_RESULT(ZE_RESULT_ERROR_INVALID_ENUMERATION)
    LOOM_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION)
    LOOM_RESULT(ZE_RESULT_ERROR_INVALID_NATIVE_BINARY)
    LOOM_RESULT(ZE_RESULT_ERROR_INVALID_GLOBAL_NAME)
    LOOM_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_NAME)
    LOOM_RESULT(ZE_RESULT_ERROR_INVALID_FUNCTION_NAME)
    LOOM_RESULT(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION)
    LOOM_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX)
    LOOM_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE)
    LOOM_RESULT(ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE)
    LOOM_RESULT(ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT)
    LOOM_RESULT(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE)
    LOOM_RESULT(ZE_RESULT_ERROR_OVERLAPPING_REGIONS)
    LOOM_RESULT(ZE_RESULT_ERROR_INVALID_GLOBAL_WIDTH_DIMENSION)
    LOOM_RESULT(ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED)
    LOOM_RESULT(ZE_RESULT_ERROR_NOT_AVAILABLE)
    LOOM_RESULT(ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE)
    LOOM_RESULT(ZE_RESULT_ERROR_DEVICE_IN_LOW_POWER_STATE)
    LOOM_RESULT(ZE_RESULT_ERROR_DEVICE_REQUIRES_RESET)
    LOOM_RESULT(ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS)
    LOOM_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_ATTRIBUTE_VALUE)
    LOOM_RESULT(ZE_RESULT_ERROR_UNKNOWN)
    LOOM_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT)
    LOOM_RESULT(ZE_RESULT_EXP_ERROR_DEVICE_IS_NOT_VERTEX)
    LOOM_RESULT(ZE_RESULT_EXP_ERROR_REMOTE_DEVICE)
    LOOM_RESULT(ZE_RESULT_EXP_ERROR_VERTEX_IS_NOT_DEVICE)
    LOOM_RESULT(ZE_RESULT_WARNING_ACTION_REQUIRED)
    LOOM_RESULT(ZE_RESULT_WARNING_DROPPED_DATA)
#undef LOOM_RESULT
    default: return "a result ze_api.h does not name";
  }
}

ze_result_t reportError(ze_result_t result, const char* function, const char* message) {
  core::debugMessage("%s: %s (%s)", function, message, resultName(result));
  return result;
}

ze_result_t checkChain(const char* function, const void* pNext) {
  int length = 0;
  for (const void* next = pNext; next != nullptr; ++length) {
    if (length == kMaxChainLength)
      return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, function, "the pNext chain loops or is longer than 32 structures");
    ze_base_desc_t header;
    if (!core::copyIfReadable(&header, next, sizeof(header)))
      return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, function, "a pNext in the chain points to memory that cannot be read");
    next = header.pNext;
  }
  return ZE_RESULT_SUCCESS;
}

ze_result_t checkDescriptor(const char* function, const void* desc, ze_structure_type_t expected) {
  const auto* base = static_cast<const ze_base_desc_t*>(desc);
  // No structure type is 0: a zeroed stype was never filled in (level-zero-tests' perf programs
  // zero their event descriptors after setting it), and the parameter says which structure it is.
  if (base->stype == 0)
    core::debugMessage("%s: a descriptor's stype is 0; read as the parameter's own type", function);
  else if (base->stype != expected)
    return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, function, "a descriptor's stype is not the one of its type");
  return checkChain(function, base->pNext);
}

ze_result_t deviceFailureResult(int32_t failure, const char* function) {
  if (failure == 0) return ZE_RESULT_SUCCESS;
  core::debugMessage("%s: the device failed to run the work (execution status %d)", function, failure);
  return ZE_RESULT_ERROR_DEVICE_LOST;
}

}  // namespace loom::l0
