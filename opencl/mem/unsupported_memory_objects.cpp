// Pipes are not supported (CL_DEVICE_PIPE_SUPPORT is false): no memory object is a pipe. Other
// pipe entry points reach the dispatch table's CL_INVALID_OPERATION stubs.
#include "opencl/validation.h"

using namespace loom::cl;

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clGetPipeInfo(cl_mem, cl_pipe_info, size_t, void*, size_t*) {
  CL_FAIL(CL_INVALID_MEM_OBJECT, "no device supports pipes, so no memory object is a pipe");
}

}  // extern "C"
