#pragma once
// Copies and fills between plain pointers (SVM and USM allocations, host memory): what
// clEnqueueSVMMemcpy/MemFill and their cl_intel_unified_shared_memory twins share.
#include "opencl/api_object.h"

namespace loom::cl {

struct EnqueueArguments;

// CL_SUCCESS when a copy or fill may touch [pointer, pointer + size) (core::MemoryManager::checkRange),
// else CL_INVALID_VALUE; `name` is the argument's, for the message.
cl_int checkPointerRange(const void* pointer, size_t size, const char* name, const char* function);

cl_int enqueuePointerCopy(cl_command_queue queue, const EnqueueArguments& arguments, void* destination, const void* source,
                          size_t size, const char* function);
// `destination` and `size` must be multiples of `patternSize`, a power of two up to 128.
cl_int enqueuePointerFill(cl_command_queue queue, const EnqueueArguments& arguments, void* destination, const void* pattern,
                          size_t patternSize, size_t size, const char* function);
// A command that only orders the queue (maps, migrations, advice on memory the host shares).
cl_int enqueueOrderingOnly(cl_command_queue queue, const EnqueueArguments& arguments, const char* function);

}  // namespace loom::cl
