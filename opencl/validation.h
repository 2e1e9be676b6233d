#pragma once
// Argument checks shared by every entry point: a failed check returns the spec's error code and,
// under LOOM_PrintDebugMessages=1, says which function failed and why.
#include <CL/cl.h>

namespace loom::cl {

cl_int reportError(cl_int code, const char* function, const char* message);
const char* errorName(cl_int code);

// For entry points that return an object and report through errcode_ret.
template <typename Handle>
Handle returnHandle(cl_int code, Handle handle, cl_int* errcodeRet) {
  if (errcodeRet) *errcodeRet = code;
  return code == CL_SUCCESS ? handle : nullptr;
}

// For entry points whose `create(&handle)` makes the object and returns the error code.
template <typename Handle, typename Create>
Handle createHandle(cl_int* errcodeRet, Create&& create) {
  Handle handle = nullptr;
  const cl_int code = create(&handle);
  return returnHandle(code, handle, errcodeRet);
}

}  // namespace loom::cl

#define CL_REQUIRE(condition, code, message)                                 \
  do {                                                                        \
    if (!(condition)) return ::loom::cl::reportError(code, __func__, message); \
  } while (0)
// CL_REQUIRE in a helper of an entry point: the failure is reported under `function`, the
// entry point's name, which the helper has in a variable of that name.
#define CL_CHECK(condition, code, message)                                    \
  do {                                                                          \
    if (!(condition)) return ::loom::cl::reportError(code, function, message); \
  } while (0)
#define CL_FAIL(code, message) return ::loom::cl::reportError(code, __func__, message)
