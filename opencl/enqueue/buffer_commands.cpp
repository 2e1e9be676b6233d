// Buffer commands: read, write, copy (and their rectangular forms), fill, map, unmap, migrate.
// Buffers live in memory the host can address, so each is one core copy or fill command.
#include <algorithm>
#include <array>
#include <cstring>

#include "opencl/device/device.h"
#include "opencl/enqueue/enqueue_checks.h"
#include "opencl/enqueue/pointer_commands.h"
#include "opencl/event/event.h"
#include "opencl/mem/memory_object.h"
#include "opencl/queue/command_queue.h"
#include "opencl/validation.h"

namespace loom::cl {
namespace {

using core::CommandStream;

MemoryObject& memoryOf(cl_mem handle) { return *objectOf<MemoryObject>(handle); }

cl_int enqueueCopy(CommandQueue& queue, const EnqueueArguments& arguments, void* destination, const void* source, size_t size,
                   const char* function) {
  return queue.enqueue(arguments, [&](CommandStream& stream) { stream.appendCopy({destination, source, size}); }, function);
}

// A rectangle in a buffer or in host memory, as the *_rect entry points describe it.
struct Rectangle {
  const size_t* origin;
  size_t rowPitch;
  size_t slicePitch;
};

// Applies the default pitches and checks them against the region.
cl_int resolvePitches(Rectangle& rectangle, const size_t* region, const char* function) {
  if (rectangle.rowPitch == 0) rectangle.rowPitch = region[0];
  if (rectangle.rowPitch < region[0]) return reportError(CL_INVALID_VALUE, function, "a row pitch is below region[0]");
  if (rectangle.slicePitch == 0) rectangle.slicePitch = region[1] * rectangle.rowPitch;
  if (rectangle.slicePitch < region[1] * rectangle.rowPitch || rectangle.slicePitch % rectangle.rowPitch != 0)
    return reportError(CL_INVALID_VALUE, function, "a slice pitch is below region[1] rows or not a multiple of the row pitch");
  return CL_SUCCESS;
}

// One past the last byte the rectangle touches.
size_t rectangleEnd(const Rectangle& rectangle, const size_t* region) {
  return (rectangle.origin[2] + region[2] - 1) * rectangle.slicePitch + (rectangle.origin[1] + region[1] - 1) * rectangle.rowPitch +
         rectangle.origin[0] + region[0];
}

cl_int checkRectangleArguments(const size_t* bufferOrigin, const size_t* hostOrigin, const size_t* region, const char* function) {
  if (!bufferOrigin || !hostOrigin || !region) return reportError(CL_INVALID_VALUE, function, "an origin or the region is null");
  if (region[0] == 0 || region[1] == 0 || region[2] == 0) return reportError(CL_INVALID_VALUE, function, "a region size is 0");
  return CL_SUCCESS;
}

core::Region3d regionOf(const Rectangle& rectangle) {
  return {rectangle.origin[0], rectangle.origin[1], rectangle.origin[2], rectangle.rowPitch, rectangle.slicePitch};
}

cl_int enqueueCopyRegion(CommandQueue& queue, const EnqueueArguments& arguments, void* destination, const Rectangle& to,
                         const void* source, const Rectangle& from, const size_t* region, const char* function) {
  core::CopyRegionCommand command{destination, source, regionOf(to), regionOf(from), region[0], region[1], region[2]};
  return queue.enqueue(arguments, [&](CommandStream& stream) { stream.appendCopyRegion(command); }, function);
}

// Host-side rectangle transfers: buffer <-> host memory.
cl_int enqueueHostRectangle(cl_command_queue command_queue, cl_mem buffer, bool read, cl_bool blocking,
                            const size_t* buffer_origin, const size_t* host_origin, const size_t* region,
                            size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
                            size_t host_slice_pitch, void* ptr, cl_uint num_events, const cl_event* wait_list, cl_event* event,
                            const char* function) {
  cl_int error;
  CommandQueue* queue = queueOf(command_queue, error, function);
  if (!queue) return error;
  if ((error = checkBufferRange(*queue, buffer, 0, 0, function)) != CL_SUCCESS) return error;
  if ((error = checkRectangleArguments(buffer_origin, host_origin, region, function)) != CL_SUCCESS) return error;
  if (ptr == nullptr) return reportError(CL_INVALID_VALUE, function, "ptr is null");
  MemoryObject& memory = memoryOf(buffer);
  if ((error = checkHostAccess(memory, read, !read, function)) != CL_SUCCESS) return error;
  Rectangle inBuffer{buffer_origin, buffer_row_pitch, buffer_slice_pitch};
  Rectangle inHost{host_origin, host_row_pitch, host_slice_pitch};
  if ((error = resolvePitches(inBuffer, region, function)) != CL_SUCCESS) return error;
  if ((error = resolvePitches(inHost, region, function)) != CL_SUCCESS) return error;
  if (rectangleEnd(inBuffer, region) > memory.size())
    return reportError(CL_INVALID_VALUE, function, "the region lies outside the buffer");
  const cl_command_type type = read ? CL_COMMAND_READ_BUFFER_RECT : CL_COMMAND_WRITE_BUFFER_RECT;
  const EnqueueArguments arguments{type, num_events, wait_list, event, blocking == CL_TRUE};
  if (read) return enqueueCopyRegion(*queue, arguments, ptr, inHost, memory.storage(), inBuffer, region, function);
  return enqueueCopyRegion(*queue, arguments, memory.storage(), inBuffer, ptr, inHost, region, function);
}

cl_int enqueueHostTransfer(cl_command_queue command_queue, cl_mem buffer, bool read, cl_bool blocking, size_t offset,
                           size_t size, void* ptr, cl_uint num_events, const cl_event* wait_list, cl_event* event,
                           const char* function) {
  cl_int error;
  CommandQueue* queue = queueOf(command_queue, error, function);
  if (!queue) return error;
  if ((error = checkBufferRange(*queue, buffer, offset, size, function)) != CL_SUCCESS) return error;
  if (ptr == nullptr || size == 0) return reportError(CL_INVALID_VALUE, function, "ptr is null or size is 0");
  if ((error = checkPointerRange(ptr, size, "ptr", function)) != CL_SUCCESS) return error;
  MemoryObject& memory = memoryOf(buffer);
  if ((error = checkHostAccess(memory, read, !read, function)) != CL_SUCCESS) return error;
  const cl_command_type type = read ? CL_COMMAND_READ_BUFFER : CL_COMMAND_WRITE_BUFFER;
  const EnqueueArguments arguments{type, num_events, wait_list, event, blocking == CL_TRUE};
  char* inBuffer = memory.storage() + offset;
  if (read) return enqueueCopy(*queue, arguments, ptr, inBuffer, size, function);
  return enqueueCopy(*queue, arguments, inBuffer, ptr, size, function);
}

bool rangesOverlap(size_t first, size_t second, size_t size) { return first < second + size && second < first + size; }

bool rectanglesOverlap(const Rectangle& a, const Rectangle& b, const size_t* region) {
  for (int d = 0; d < 3; ++d)
    if (!rangesOverlap(a.origin[d], b.origin[d], region[d])) return false;
  return true;
}

bool validPatternSize(size_t size) {
  return size != 0 && size <= 128 && (size & (size - 1)) == 0;
}

constexpr cl_map_flags kKnownMapFlags = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;

cl_int mapBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking, cl_map_flags flags, size_t offset,
                 size_t size, cl_uint num_events, const cl_event* wait_list, cl_event* event, void** mapped) {
  const char* function = "clEnqueueMapBuffer";
  cl_int error;
  CommandQueue* queue = queueOf(command_queue, error, function);
  if (!queue) return error;
  if ((error = checkBufferRange(*queue, buffer, offset, size, function)) != CL_SUCCESS) return error;
  CL_REQUIRE(size != 0, CL_INVALID_VALUE, "size is 0");
  CL_REQUIRE((flags & ~kKnownMapFlags) == 0, CL_INVALID_VALUE, "unknown map flags");
  CL_REQUIRE(!((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE))), CL_INVALID_VALUE,
             "CL_MAP_WRITE_INVALIDATE_REGION excludes CL_MAP_READ and CL_MAP_WRITE");
  MemoryObject& memory = memoryOf(buffer);
  const bool writes = flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION);
  if ((error = checkHostAccess(memory, flags & CL_MAP_READ, writes, function)) != CL_SUCCESS) return error;
  const MemoryObject::Mapping mapping = memory.map(offset, size, writes, queue->device().info().unifiedMemory);
  EnqueueArguments arguments{CL_COMMAND_MAP_BUFFER, num_events, wait_list, event, blocking == CL_TRUE};
  arguments.keepAlive = mapping.staging;
  // The host copy receives the data unless the region is mapped to be overwritten.
  const bool fillsHostCopy = mapping.pointer != memory.storage() + offset && !(flags & CL_MAP_WRITE_INVALIDATE_REGION);
  error = queue->enqueue(
      arguments,
      [&](CommandStream& stream) {
        if (fillsHostCopy) stream.appendCopy({mapping.pointer, memory.storage() + offset, size});
      },
      function);
  if (error != CL_SUCCESS) {
    memory.unmap(mapping.pointer);
    return error;
  }
  *mapped = mapping.pointer;
  return CL_SUCCESS;
}

}  // namespace
}  // namespace loom::cl

using namespace loom::cl;

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
                                                    size_t offset, size_t size, void* ptr, cl_uint num_events_in_wait_list,
                                                    const cl_event* event_wait_list, cl_event* event) {
  return enqueueHostTransfer(command_queue, buffer, true, blocking_read, offset, size, ptr, num_events_in_wait_list,
                             event_wait_list, event, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
                                                     size_t offset, size_t size, const void* ptr,
                                                     cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                     cl_event* event) {
  return enqueueHostTransfer(command_queue, buffer, false, blocking_write, offset, size, const_cast<void*>(ptr),
                             num_events_in_wait_list, event_wait_list, event, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
                                                        const size_t* buffer_origin, const size_t* host_origin,
                                                        const size_t* region, size_t buffer_row_pitch,
                                                        size_t buffer_slice_pitch, size_t host_row_pitch,
                                                        size_t host_slice_pitch, void* ptr, cl_uint num_events_in_wait_list,
                                                        const cl_event* event_wait_list, cl_event* event) {
  return enqueueHostRectangle(command_queue, buffer, true, blocking_read, buffer_origin, host_origin, region, buffer_row_pitch,
                              buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr, num_events_in_wait_list,
                              event_wait_list, event, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
                                                         const size_t* buffer_origin, const size_t* host_origin,
                                                         const size_t* region, size_t buffer_row_pitch,
                                                         size_t buffer_slice_pitch, size_t host_row_pitch,
                                                         size_t host_slice_pitch, const void* ptr,
                                                         cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                         cl_event* event) {
  return enqueueHostRectangle(command_queue, buffer, false, blocking_write, buffer_origin, host_origin, region,
                              buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch, const_cast<void*>(ptr),
                              num_events_in_wait_list, event_wait_list, event, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
                                                    size_t src_offset, size_t dst_offset, size_t size,
                                                    cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                    cl_event* event) {
  cl_int error;
  CommandQueue* queue = queueOf(command_queue, error, __func__);
  if (!queue) return error;
  if ((error = checkBufferRange(*queue, src_buffer, src_offset, size, __func__)) != CL_SUCCESS) return error;
  if ((error = checkBufferRange(*queue, dst_buffer, dst_offset, size, __func__)) != CL_SUCCESS) return error;
  CL_REQUIRE(size != 0, CL_INVALID_VALUE, "size is 0");
  MemoryObject& source = memoryOf(src_buffer);
  MemoryObject& destination = memoryOf(dst_buffer);
  const char* sourceStart = source.storage() + src_offset;
  const char* destinationStart = destination.storage() + dst_offset;
  CL_REQUIRE(!(sourceStart < destinationStart + size && destinationStart < sourceStart + size), CL_MEM_COPY_OVERLAP,
             "the source and destination regions overlap");
  const EnqueueArguments arguments{CL_COMMAND_COPY_BUFFER, num_events_in_wait_list, event_wait_list, event};
  return enqueueCopy(*queue, arguments, destination.storage() + dst_offset, sourceStart, size, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
                                                        const size_t* src_origin, const size_t* dst_origin,
                                                        const size_t* region, size_t src_row_pitch, size_t src_slice_pitch,
                                                        size_t dst_row_pitch, size_t dst_slice_pitch,
                                                        cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                        cl_event* event) {
  cl_int error;
  CommandQueue* queue = queueOf(command_queue, error, __func__);
  if (!queue) return error;
  if ((error = checkBufferRange(*queue, src_buffer, 0, 0, __func__)) != CL_SUCCESS) return error;
  if ((error = checkBufferRange(*queue, dst_buffer, 0, 0, __func__)) != CL_SUCCESS) return error;
  if ((error = checkRectangleArguments(src_origin, dst_origin, region, __func__)) != CL_SUCCESS) return error;
  Rectangle from{src_origin, src_row_pitch, src_slice_pitch};
  Rectangle to{dst_origin, dst_row_pitch, dst_slice_pitch};
  if ((error = resolvePitches(from, region, __func__)) != CL_SUCCESS) return error;
  if ((error = resolvePitches(to, region, __func__)) != CL_SUCCESS) return error;
  MemoryObject& source = memoryOf(src_buffer);
  MemoryObject& destination = memoryOf(dst_buffer);
  CL_REQUIRE(rectangleEnd(from, region) <= source.size() && rectangleEnd(to, region) <= destination.size(), CL_INVALID_VALUE,
             "a region lies outside its buffer");
  if (&source == &destination) {
    CL_REQUIRE(from.rowPitch == to.rowPitch && from.slicePitch == to.slicePitch, CL_INVALID_VALUE,
               "copies within one buffer need equal pitches");
    CL_REQUIRE(!rectanglesOverlap(from, to, region), CL_MEM_COPY_OVERLAP, "the source and destination regions overlap");
  }
  const EnqueueArguments arguments{CL_COMMAND_COPY_BUFFER_RECT, num_events_in_wait_list, event_wait_list, event};
  return enqueueCopyRegion(*queue, arguments, destination.storage(), to, source.storage(), from, region, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer, const void* pattern,
                                                    size_t pattern_size, size_t offset, size_t size,
                                                    cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                    cl_event* event) {
  cl_int error;
  CommandQueue* queue = queueOf(command_queue, error, __func__);
  if (!queue) return error;
  if ((error = checkBufferRange(*queue, buffer, offset, size, __func__)) != CL_SUCCESS) return error;
  CL_REQUIRE(pattern && validPatternSize(pattern_size), CL_INVALID_VALUE,
             "pattern is null or pattern_size is not a power of two up to 128");
  CL_REQUIRE(offset % pattern_size == 0 && size % pattern_size == 0, CL_INVALID_VALUE,
             "offset and size must be multiples of pattern_size");
  char* destination = memoryOf(buffer).storage() + offset;
  const EnqueueArguments arguments{CL_COMMAND_FILL_BUFFER, num_events_in_wait_list, event_wait_list, event};
  return queue->enqueue(
      arguments, [&](loom::core::CommandStream& stream) { stream.appendFill({destination, size, pattern_size}, pattern); },
      __func__);
}

CL_API_ENTRY void* CL_API_CALL clEnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_map,
                                                  cl_map_flags map_flags, size_t offset, size_t size,
                                                  cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                  cl_event* event, cl_int* errcode_ret) {
  return createHandle<void*>(errcode_ret, [&](void** mapped) {
    return mapBuffer(command_queue, buffer, blocking_map, map_flags, offset, size, num_events_in_wait_list, event_wait_list, event,
                     mapped);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue command_queue, cl_mem memobj, void* mapped_ptr,
                                                        cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                        cl_event* event) {
  cl_int error;
  CommandQueue* queue = queueOf(command_queue, error, __func__);
  if (!queue) return error;
  if ((error = checkMemoryObject(*queue, memobj, __func__)) != CL_SUCCESS) return error;
  if ((error = checkWaitList(queue->context(), num_events_in_wait_list, event_wait_list, __func__)) != CL_SUCCESS) return error;
  MemoryObject& memory = memoryOf(memobj);
  const auto mapping = memory.unmap(mapped_ptr);
  CL_REQUIRE(mapping, CL_INVALID_VALUE, "mapped_ptr is not a mapping of this memory object");
  EnqueueArguments arguments{CL_COMMAND_UNMAP_MEM_OBJECT, num_events_in_wait_list, event_wait_list, event};
  arguments.keepAlive = mapping->staging;
  // A host copy mapped for writing goes back to the storage.
  char* storage = memory.storage() + mapping->offset;
  const bool writesBack = mapping->writes && (mapping->imageCopy || mapping->pointer != storage);
  return queue->enqueue(
      arguments,
      [&](loom::core::CommandStream& stream) {
        if (!writesBack) return;
        if (mapping->imageCopy)
          stream.appendCopyRegion(loom::core::reversed(*mapping->imageCopy));
        else
          stream.appendCopy({storage, mapping->pointer, mapping->size});
      },
      __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue command_queue, cl_uint num_mem_objects,
                                                           const cl_mem* mem_objects, cl_mem_migration_flags flags,
                                                           cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                           cl_event* event) {
  cl_int error;
  CommandQueue* queue = queueOf(command_queue, error, __func__);
  if (!queue) return error;
  CL_REQUIRE(num_mem_objects != 0 && mem_objects != nullptr, CL_INVALID_VALUE, "no memory objects");
  CL_REQUIRE((flags & ~(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)) == 0, CL_INVALID_VALUE,
             "unknown migration flags");
  for (cl_uint i = 0; i < num_mem_objects; ++i)
    if ((error = checkMemoryObject(*queue, mem_objects[i], __func__)) != CL_SUCCESS) return error;
  // Memory is shared by the host and the device: migration only orders the queue.
  const EnqueueArguments arguments{CL_COMMAND_MIGRATE_MEM_OBJECTS, num_events_in_wait_list, event_wait_list, event};
  return queue->enqueue(arguments, [](loom::core::CommandStream&) {}, __func__);
}

}  // extern "C"
