#include "opencl/enqueue/pointer_commands.h"

#include <cstdint>
#include <string>

#include "opencl/enqueue/enqueue_checks.h"
#include "opencl/queue/command_queue.h"
#include "opencl/validation.h"
#include "loom/core/runtime.h"

namespace loom::cl {

cl_int checkPointerRange(const void* pointer, size_t size, const char* name, const char* function) {
  const core::RangeCheck check = core::Runtime::get().memory().checkRange(pointer, size);
  if (check == core::RangeCheck::Valid) return CL_SUCCESS;
  return reportError(CL_INVALID_VALUE, function, (std::string(name) + ": " + core::describe(check)).c_str());
}

cl_int enqueuePointerCopy(cl_command_queue handle, const EnqueueArguments& arguments, void* destination, const void* source,
                          size_t size, const char* function) {
  cl_int error;
  CommandQueue* queue = queueOf(handle, error, function);
  if (!queue) return error;
  if (!destination || !source) return reportError(CL_INVALID_VALUE, function, "a pointer is null");
  if (cl_int result = checkPointerRange(destination, size, "dst_ptr", function); result != CL_SUCCESS) return result;
  if (cl_int result = checkPointerRange(source, size, "src_ptr", function); result != CL_SUCCESS) return result;
  const char* from = static_cast<const char*>(source);
  const char* to = static_cast<const char*>(destination);
  if (from < to + size && to < from + size) return reportError(CL_MEM_COPY_OVERLAP, function, "the regions overlap");
  return queue->enqueue(
      arguments, [&](core::CommandStream& stream) { stream.appendCopy({destination, source, size}); }, function);
}

cl_int enqueuePointerFill(cl_command_queue handle, const EnqueueArguments& arguments, void* destination, const void* pattern,
                          size_t patternSize, size_t size, const char* function) {
  cl_int error;
  CommandQueue* queue = queueOf(handle, error, function);
  if (!queue) return error;
  if (!destination || !pattern) return reportError(CL_INVALID_VALUE, function, "the destination or the pattern is null");
  if (patternSize == 0 || patternSize > 128 || (patternSize & (patternSize - 1)) != 0)
    return reportError(CL_INVALID_VALUE, function, "pattern_size is not a power of two up to 128");
  if (reinterpret_cast<uintptr_t>(destination) % patternSize != 0 || size % patternSize != 0)
    return reportError(CL_INVALID_VALUE, function, "the destination and size must be multiples of pattern_size");
  if (cl_int result = checkPointerRange(destination, size, "the destination", function); result != CL_SUCCESS) return result;
  if (cl_int result = checkPointerRange(pattern, patternSize, "pattern", function); result != CL_SUCCESS) return result;
  return queue->enqueue(
      arguments, [&](core::CommandStream& stream) { stream.appendFill({destination, size, patternSize}, pattern); }, function);
}

cl_int enqueueOrderingOnly(cl_command_queue handle, const EnqueueArguments& arguments, const char* function) {
  cl_int error;
  CommandQueue* queue = queueOf(handle, error, function);
  if (!queue) return error;
  return queue->enqueue(arguments, [](core::CommandStream&) {}, function);
}

}  // namespace loom::cl
