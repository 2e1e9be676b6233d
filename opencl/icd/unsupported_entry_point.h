#pragma once
// The implementation of every ICD slot Loom does not provide (GL, D3D, EGL sharing and the
// like): it fails with CL_INVALID_OPERATION, through errcode_ret for entry points that return an
// object, and says which entry point was called.
#include <tuple>
#include <type_traits>

#include "opencl/api_object.h"
#include "opencl/validation.h"

namespace loom::cl {

template <typename Pointer, const char* Name>
struct UnsupportedEntryPoint;

template <typename Result, typename... Arguments, const char* Name>
struct UnsupportedEntryPoint<Result(CL_API_CALL*)(Arguments...), Name> {
  static Result CL_API_CALL call(Arguments... arguments) {
    const cl_int code = reportError(CL_INVALID_OPERATION, Name, "not supported by Loom");
    if constexpr (std::is_same_v<Result, cl_int>) {
      return code;
    } else {
      if constexpr (sizeof...(Arguments) > 0) {
        auto last = std::get<sizeof...(Arguments) - 1>(std::tie(arguments...));
        if constexpr (std::is_same_v<decltype(last), cl_int*>)
          if (last) *last = code;
      }
      return Result{};
    }
  }
};

// Slots of other platforms' interop (D3D on Linux) are plain pointers: they stay empty.
template <const char* Name>
struct UnsupportedEntryPoint<void*, Name> {
  static constexpr void* call = nullptr;
};

}  // namespace loom::cl
