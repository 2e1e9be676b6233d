#pragma once
// Checks shared by the enqueue entry points.
#include "opencl/api_object.h"

namespace loom::cl {

class CommandQueue;
class MemoryObject;

// The queue behind `handle`, or null after reporting CL_INVALID_COMMAND_QUEUE into `error`.
CommandQueue* queueOf(cl_command_queue handle, cl_int& error, const char* function);
// A memory object (buffer or image) of the queue's context.
cl_int checkMemoryObject(const CommandQueue& queue, cl_mem handle, const char* function);
// A buffer of the queue's context whose [offset, offset + size) is inside it.
cl_int checkBufferRange(const CommandQueue& queue, cl_mem handle, size_t offset, size_t size, const char* function);
// Host access flags: reading from a buffer created CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS
// (or writing to CL_MEM_HOST_READ_ONLY) is CL_INVALID_OPERATION.
cl_int checkHostAccess(const MemoryObject& memory, bool read, bool write, const char* function);

}  // namespace loom::cl
