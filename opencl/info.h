#pragma once
// The clGet*Info protocol: copy a value out when the caller's buffer is large enough, report its
// size, and return CL_INVALID_VALUE for a buffer that is too small.
#include <CL/cl.h>

#include <cstring>
#include <string>
#include <vector>

namespace loom::cl {

struct InfoRequest {
  size_t size;
  void* value;
  size_t* sizeRet;

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
};

}  // namespace loom::cl
