#pragma once
// The clGet*Info protocol: copy a value out when the caller's buffer is large enough, report its
// size, and return CL_INVALID_VALUE for a buffer that is too small.
#include <CL/cl.h>

#include <cstring>
#include <string>
#include <vector>

#include "opencl/api_object.h"
#include "opencl/validation.h"

namespace loom::cl {

struct InfoRequest {
  size_t size;
  void* value;
  size_t* sizeRet;
  const char* function = "clGet*Info";  // the entry point, named in debug messages

  cl_int bytes(const void* data, size_t dataSize) const {
    if (value != nullptr) {
      if (size < dataSize) return CL_INVALID_VALUE;
      if (dataSize != 0) std::memcpy(value, data, dataSize);
    }
    if (sizeRet != nullptr) *sizeRet = dataSize;
    return CL_SUCCESS;
  }
  template <typename T>
  cl_int scalar(const T& data) const {
    return bytes(&data, sizeof(T));
  }
  cl_int string(const std::string& text) const { return bytes(text.c_str(), text.size() + 1); }
  template <typename T>
  cl_int array(const std::vector<T>& items) const {
    return bytes(items.data(), items.size() * sizeof(T));
  }

  // A query the entry point refuses, reported under its name.
  cl_int fail(cl_int code, const char* message) const { return reportError(code, function, message); }
  cl_int unknownName() const { return fail(CL_INVALID_VALUE, "unknown param_name"); }
};

// What every clGet<Object>Info does first: find the live object behind `handle` (else fail with
// `invalidHandle`), then let `answer(object)` write the value param_name asks for to `out`.
template <typename Object, typename Handle, typename Answer>
cl_int answerInfo(Handle handle, cl_int invalidHandle, const char* notAnObject, const InfoRequest& out, Answer&& answer) {
  Object* object = objectOf<Object>(handle);
  if (!object) return out.fail(invalidHandle, notAnObject);
  return answer(*object);
}

}  // namespace loom::cl
