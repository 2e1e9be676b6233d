#include "opencl/enqueue/enqueue_checks.h"

#include "opencl/mem/memory_object.h"
#include "opencl/queue/command_queue.h"
#include "opencl/validation.h"

namespace loom::cl {

CommandQueue* queueOf(cl_command_queue handle, cl_int& error, const char* function) {
  CommandQueue* queue = objectOf<CommandQueue>(handle);
  error = queue ? CL_SUCCESS : reportError(CL_INVALID_COMMAND_QUEUE, function, "not a command queue");
  return queue;
}

cl_int checkMemoryObject(const CommandQueue& queue, cl_mem handle, const char* function) {
  MemoryObject* memory = objectOf<MemoryObject>(handle);
  if (memory == nullptr) return reportError(CL_INVALID_MEM_OBJECT, function, "not a memory object");
  if (&memory->context() != &queue.context())
    return reportError(CL_INVALID_CONTEXT, function, "the memory object and the queue belong to different contexts");
  return CL_SUCCESS;
}

cl_int checkBufferRange(const CommandQueue& queue, cl_mem handle, size_t offset, size_t size, const char* function) {
  if (cl_int error = checkMemoryObject(queue, handle, function); error != CL_SUCCESS) return error;
  MemoryObject* memory = objectOf<MemoryObject>(handle);
  if (memory->isImage()) return reportError(CL_INVALID_MEM_OBJECT, function, "an image, not a buffer");
  if (offset > memory->size() || size > memory->size() - offset)
    return reportError(CL_INVALID_VALUE, function, "the region lies outside the buffer");
  return CL_SUCCESS;
}

cl_int checkHostAccess(const MemoryObject& memory, bool read, bool write, const char* function) {
  const cl_mem_flags flags = memory.flags();
  if (read && (flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)))
    return reportError(CL_INVALID_OPERATION, function, "the memory object does not allow host reads");
  if (write && (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)))
    return reportError(CL_INVALID_OPERATION, function, "the memory object does not allow host writes");
  return CL_SUCCESS;
}

}  // namespace loom::cl
