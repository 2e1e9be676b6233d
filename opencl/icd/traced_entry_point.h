#pragma once
// The ICD dispatch table and clGetExtensionFunctionAddress hand out Entry through this wrapper,
// so that every call the application makes shows on the LOOM_TraceFile timeline under its name.
#include "loom/core/trace_recorder.h"
#include "opencl/api_object.h"

namespace loom::cl {

template <auto Entry, const char* Name>
struct TracedEntryPoint;

template <typename Result, typename... Arguments, Result(CL_API_CALL* Entry)(Arguments...), const char* Name>
struct TracedEntryPoint<Entry, Name> {
  static Result CL_API_CALL call(Arguments... arguments) {
    const core::TraceScope traced(Name);
    return Entry(arguments...);
  }
};

}  // namespace loom::cl
