#pragma once
// The clRetain* and clRelease* entry points of every reference-counted object.
#include "opencl/api_object.h"
#include "opencl/validation.h"

namespace loom::cl {

// `invalid` is the error code for a handle that is not a live T.
template <typename T, typename Handle>
cl_int retainHandle(Handle handle, cl_int invalid, const char* function) {
  T* object = objectOf<T>(handle);
  if (object == nullptr) return reportError(invalid, function, "not a valid handle of its type");
  object->retain();
  return CL_SUCCESS;
}

// `release` drops one reference and destroys the object with the last one.
template <typename T, typename Handle>
cl_int releaseHandle(Handle handle, cl_int invalid, const char* function, void (*release)(T&)) {
  T* object = objectOf<T>(handle);
  if (object == nullptr) return reportError(invalid, function, "not a valid handle of its type");
  release(*object);
  return CL_SUCCESS;
}

}  // namespace loom::cl
