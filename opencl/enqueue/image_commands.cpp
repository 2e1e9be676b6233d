// Image commands: read, write, copy, fill, map, and copies between images and buffers. Each is
// one core CopyRegion or FillRegion command over the regions core::Image computes; unmapping is
// clEnqueueUnmapMemObject's (buffer_commands.cpp).
#include <array>
#include <cstring>

#include "loom/core/image.h"
#include "opencl/device/device.h"
#include "opencl/enqueue/enqueue_checks.h"
#include "opencl/event/event.h"
#include "opencl/mem/memory_object.h"
#include "opencl/queue/command_queue.h"
#include "opencl/validation.h"

namespace loom::cl {
namespace {

using core::CommandStream;
using core::ImageType;
using Triple = std::array<uint64_t, 3>;

// The image behind `handle`, of the queue's context, or null after reporting why into `error`.
MemoryObject* imageOf(const CommandQueue& queue, cl_mem handle, cl_int& error, const char* function) {
  error = checkMemoryObject(queue, handle, function);
  if (error != CL_SUCCESS) return nullptr;
  MemoryObject* memory = objectOf<MemoryObject>(handle);
  if (!memory->isImage()) {
    error = reportError(CL_INVALID_MEM_OBJECT, function, "a buffer, not an image");
    return nullptr;
  }
  if (!queue.device().info().images.supported) {
    error = reportError(CL_INVALID_OPERATION, function, "the queue's device does not support images");
    return nullptr;
  }
  return memory;
}

Triple triple(const size_t* values) { return {values[0], values[1], values[2]}; }

// origin and region inside the image, with the coordinates its type lacks at 0 and 1.
cl_int checkImageRegion(const core::Image& image, const size_t* origin, const size_t* region, const char* function) {
  if (!origin || !region) return reportError(CL_INVALID_VALUE, function, "origin or region is null");
  if (!image.containsRegion(triple(origin), triple(region)))
    return reportError(CL_INVALID_VALUE, function,
                       "the region is empty, lies outside the image, or has a coordinate the image type lacks (origin 0, region 1)");
  return CL_SUCCESS;
}

// Host pitches of read and write: 0 or a row of the region at least; a slice pitch only for images
// with slices (or layers), at least one slice of the region.
cl_int checkHostPitches(const core::Image& image, const size_t* region, size_t rowPitch, size_t slicePitch,
                        core::LinearLayout& layout, const char* function) {
  const ImageType type = image.shape().type;
  const uint64_t rowBytes = region[0] * image.elementSize();
  if (rowPitch != 0 && rowPitch < rowBytes) return reportError(CL_INVALID_VALUE, function, "the row pitch is below a row of the region");
  const bool hasSlices = type == ImageType::Image3d || core::isArrayImage(type);
  if (!hasSlices && slicePitch != 0) return reportError(CL_INVALID_VALUE, function, "a slice pitch for an image without slices");
  layout = core::resolveLayout({rowPitch, slicePitch}, type, image.elementSize(), triple(region));
  const uint64_t sliceBytes = type == ImageType::Image1dArray ? layout.rowPitch : layout.rowPitch * region[1];
  if (hasSlices && layout.slicePitch < sliceBytes)
    return reportError(CL_INVALID_VALUE, function, "the slice pitch is below a slice of the region");
  return CL_SUCCESS;
}

cl_int enqueueRegionCopy(CommandQueue& queue, const EnqueueArguments& arguments, const core::CopyRegionCommand& copy,
                         const char* function) {
  return queue.enqueue(arguments, [&](CommandStream& stream) { stream.appendCopyRegion(copy); }, function);
}

struct HostTransfer {
  cl_mem image;
  bool read;
  const size_t* origin;
  const size_t* region;
  size_t rowPitch;
  size_t slicePitch;
  void* pointer;
};

cl_int enqueueHostTransfer(cl_command_queue command_queue, const HostTransfer& transfer, cl_bool blocking, cl_uint numEvents,
                           const cl_event* waitList, cl_event* event, const char* function) {
  cl_int error;
  CommandQueue* queue = queueOf(command_queue, error, function);
  if (!queue) return error;
  MemoryObject* memory = imageOf(*queue, transfer.image, error, function);
  if (!memory) return error;
  const core::Image& image = memory->image();
  if ((error = checkImageRegion(image, transfer.origin, transfer.region, function)) != CL_SUCCESS) return error;
  if (!transfer.pointer) return reportError(CL_INVALID_VALUE, function, "ptr is null");
  core::LinearLayout layout;
  if ((error = checkHostPitches(image, transfer.region, transfer.rowPitch, transfer.slicePitch, layout, function)) != CL_SUCCESS)
    return error;
  if ((error = checkHostAccess(*memory, transfer.read, !transfer.read, function)) != CL_SUCCESS) return error;
  const Triple bytes = image.copyExtent(triple(transfer.region));
  const core::CopyRegionCommand toHost{transfer.pointer, memory->storage(), core::linearRegion(layout, image.shape().type),
                                       image.regionAt(triple(transfer.origin)), bytes[0], bytes[1], bytes[2]};
  const EnqueueArguments arguments{transfer.read ? cl_command_type(CL_COMMAND_READ_IMAGE) : cl_command_type(CL_COMMAND_WRITE_IMAGE),
                                   numEvents, waitList, event, blocking == CL_TRUE};
  return enqueueRegionCopy(*queue, arguments, transfer.read ? toHost : core::reversed(toHost), function);
}

bool rangesOverlap(uint64_t first, uint64_t second, uint64_t size) { return first < second + size && second < first + size; }

bool regionsOverlap(const size_t* a, const size_t* b, const size_t* region) {
  for (int d = 0; d < 3; ++d)
    if (!rangesOverlap(a[d], b[d], region[d])) return false;
  return true;
}

// Image <-> buffer: the buffer holds the region's texels tightly from `offset`.
cl_int enqueueBufferTransfer(cl_command_queue command_queue, cl_mem imageHandle, cl_mem bufferHandle, bool toBuffer,
                             const size_t* origin, const size_t* region, size_t offset, cl_uint numEvents,
                             const cl_event* waitList, cl_event* event, const char* function) {
  cl_int error;
  CommandQueue* queue = queueOf(command_queue, error, function);
  if (!queue) return error;
  MemoryObject* memory = imageOf(*queue, imageHandle, error, function);
  if (!memory) return error;
  if ((error = checkBufferRange(*queue, bufferHandle, 0, 0, function)) != CL_SUCCESS) return error;
  const core::Image& image = memory->image();
  if ((error = checkImageRegion(image, origin, region, function)) != CL_SUCCESS) return error;
  MemoryObject& buffer = *objectOf<MemoryObject>(bufferHandle);
  const ImageType type = image.shape().type;
  const core::LinearLayout layout = core::resolveLayout({}, type, image.elementSize(), triple(region));
  const uint64_t size = core::linearBytes(layout, type, image.elementSize(), triple(region));
  CL_CHECK(offset <= buffer.size() && size <= buffer.size() - offset, CL_INVALID_VALUE, "the region lies outside the buffer");
  if (&buffer == memory->parent()) {
    // The bytes from the region's first texel to the end of its last, against the buffer's range.
    const uint64_t first = image.offsetOf(triple(origin));
    const uint64_t end = image.offsetOf({origin[0] + region[0] - 1, origin[1] + region[1] - 1, origin[2] + region[2] - 1}) +
                         image.elementSize();
    CL_CHECK(!(first < offset + size && offset < end), CL_MEM_COPY_OVERLAP, "the image lies in the buffer and the regions overlap");
  }
  const Triple bytes = image.copyExtent(triple(region));
  const core::CopyRegionCommand toBufferCopy{buffer.storage(), memory->storage(), core::linearRegion(layout, type, offset),
                                             image.regionAt(triple(origin)), bytes[0], bytes[1], bytes[2]};
  const cl_command_type command = toBuffer ? CL_COMMAND_COPY_IMAGE_TO_BUFFER : CL_COMMAND_COPY_BUFFER_TO_IMAGE;
  const EnqueueArguments arguments{command, numEvents, waitList, event};
  return enqueueRegionCopy(*queue, arguments, toBuffer ? toBufferCopy : core::reversed(toBufferCopy), function);
}

core::FillColor fillColorOf(const void* color) {
  core::FillColor fill;
  std::memcpy(&fill, color, sizeof(fill));
  return fill;
}

constexpr cl_map_flags kKnownMapFlags = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;

struct MapRequest {
  cl_mem image;
  cl_map_flags flags;
  const size_t* origin;
  const size_t* region;
  size_t* rowPitch;
  size_t* slicePitch;
};

cl_int mapImage(cl_command_queue command_queue, const MapRequest& request, cl_bool blocking, cl_uint numEvents,
                const cl_event* waitList, cl_event* event, void** mapped) {
  const char* function = "clEnqueueMapImage";
  cl_int error;
  CommandQueue* queue = queueOf(command_queue, error, function);
  if (!queue) return error;
  MemoryObject* memory = imageOf(*queue, request.image, error, function);
  if (!memory) return error;
  const core::Image& image = memory->image();
  if ((error = checkImageRegion(image, request.origin, request.region, function)) != CL_SUCCESS) return error;
  const ImageType type = image.shape().type;
  CL_CHECK(request.rowPitch, CL_INVALID_VALUE, "image_row_pitch is null");
  CL_CHECK(request.slicePitch || !(type == ImageType::Image3d || core::isArrayImage(type)), CL_INVALID_VALUE,
             "image_slice_pitch is null for an image with slices");
  const cl_map_flags flags = request.flags;
  CL_CHECK((flags & ~kKnownMapFlags) == 0, CL_INVALID_VALUE, "unknown map flags");
  CL_CHECK(!((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE))), CL_INVALID_VALUE,
             "CL_MAP_WRITE_INVALIDATE_REGION excludes CL_MAP_READ and CL_MAP_WRITE");
  const bool writes = flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION);
  if ((error = checkHostAccess(*memory, flags & CL_MAP_READ, writes, function)) != CL_SUCCESS) return error;
  const MemoryObject::Mapping mapping =
      memory->mapImage(triple(request.origin), triple(request.region), writes, queue->device().info().unifiedMemory);
  EnqueueArguments arguments{CL_COMMAND_MAP_IMAGE, numEvents, waitList, event, blocking == CL_TRUE};
  arguments.keepAlive = mapping.staging;
  const bool fillsHostView = mapping.imageCopy && !(flags & CL_MAP_WRITE_INVALIDATE_REGION);
  error = queue->enqueue(
      arguments,
      [&](CommandStream& stream) {
        if (fillsHostView) stream.appendCopyRegion(*mapping.imageCopy);
      },
      function);
  if (error != CL_SUCCESS) {
    memory->unmap(mapping.pointer);
    return error;
  }
  *request.rowPitch = mapping.rowPitch;
  if (request.slicePitch) *request.slicePitch = (type == ImageType::Image3d || core::isArrayImage(type)) ? mapping.slicePitch : 0;
  *mapped = mapping.pointer;
  return CL_SUCCESS;
}

}  // namespace
}  // namespace loom::cl

using namespace loom::cl;

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_read,
                                                   const size_t* origin, const size_t* region, size_t row_pitch,
                                                   size_t slice_pitch, void* ptr, cl_uint num_events_in_wait_list,
                                                   const cl_event* event_wait_list, cl_event* event) {
  return enqueueHostTransfer(command_queue, {image, true, origin, region, row_pitch, slice_pitch, ptr}, blocking_read,
                             num_events_in_wait_list, event_wait_list, event, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_write,
                                                    const size_t* origin, const size_t* region, size_t input_row_pitch,
                                                    size_t input_slice_pitch, const void* ptr, cl_uint num_events_in_wait_list,
                                                    const cl_event* event_wait_list, cl_event* event) {
  return enqueueHostTransfer(command_queue,
                             {image, false, origin, region, input_row_pitch, input_slice_pitch, const_cast<void*>(ptr)},
                             blocking_write, num_events_in_wait_list, event_wait_list, event, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_image,
                                                   const size_t* src_origin, const size_t* dst_origin, const size_t* region,
                                                   cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                   cl_event* event) {
  cl_int error;
  CommandQueue* queue = queueOf(command_queue, error, __func__);
  if (!queue) return error;
  MemoryObject* source = imageOf(*queue, src_image, error, __func__);
  if (!source) return error;
  MemoryObject* destination = imageOf(*queue, dst_image, error, __func__);
  if (!destination) return error;
  CL_REQUIRE(source->image().format() == destination->image().format(), CL_IMAGE_FORMAT_MISMATCH,
             "the images have different formats");
  if ((error = checkImageRegion(source->image(), src_origin, region, __func__)) != CL_SUCCESS) return error;
  if ((error = checkImageRegion(destination->image(), dst_origin, region, __func__)) != CL_SUCCESS) return error;
  CL_REQUIRE(source != destination || !regionsOverlap(src_origin, dst_origin, region), CL_MEM_COPY_OVERLAP,
             "the source and destination regions overlap");
  const Triple bytes = source->image().copyExtent(triple(region));
  const loom::core::CopyRegionCommand copy{destination->storage(), source->storage(),
                                           destination->image().regionAt(triple(dst_origin)),
                                           source->image().regionAt(triple(src_origin)), bytes[0], bytes[1], bytes[2]};
  const EnqueueArguments arguments{CL_COMMAND_COPY_IMAGE, num_events_in_wait_list, event_wait_list, event};
  return enqueueRegionCopy(*queue, arguments, copy, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_buffer,
                                                           const size_t* src_origin, const size_t* region, size_t dst_offset,
                                                           cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                           cl_event* event) {
  return enqueueBufferTransfer(command_queue, src_image, dst_buffer, true, src_origin, region, dst_offset,
                               num_events_in_wait_list, event_wait_list, event, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_image,
                                                           size_t src_offset, const size_t* dst_origin, const size_t* region,
                                                           cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                           cl_event* event) {
  return enqueueBufferTransfer(command_queue, dst_image, src_buffer, false, dst_origin, region, src_offset,
                               num_events_in_wait_list, event_wait_list, event, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue command_queue, cl_mem image, const void* fill_color,
                                                   const size_t* origin, const size_t* region, cl_uint num_events_in_wait_list,
                                                   const cl_event* event_wait_list, cl_event* event) {
  cl_int error;
  CommandQueue* queue = queueOf(command_queue, error, __func__);
  if (!queue) return error;
  MemoryObject* memory = imageOf(*queue, image, error, __func__);
  if (!memory) return error;
  CL_REQUIRE(fill_color, CL_INVALID_VALUE, "fill_color is null");
  const loom::core::Image& target = memory->image();
  if ((error = checkImageRegion(target, origin, region, __func__)) != CL_SUCCESS) return error;
  uint8_t texel[16] = {};
  loom::core::encodeTexel(target.format(), fillColorOf(fill_color), texel);
  const Triple bytes = target.copyExtent(triple(region));
  const loom::core::FillRegionCommand fill{memory->storage(), target.regionAt(triple(origin)), bytes[0], bytes[1], bytes[2],
                                           target.elementSize()};
  const EnqueueArguments arguments{CL_COMMAND_FILL_IMAGE, num_events_in_wait_list, event_wait_list, event};
  return queue->enqueue(arguments, [&](CommandStream& stream) { stream.appendFillRegion(fill, texel); }, __func__);
}

CL_API_ENTRY void* CL_API_CALL clEnqueueMapImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_map,
                                                 cl_map_flags map_flags, const size_t* origin, const size_t* region,
                                                 size_t* image_row_pitch, size_t* image_slice_pitch,
                                                 cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                 cl_event* event, cl_int* errcode_ret) {
  return createHandle<void*>(errcode_ret, [&](void** mapped) {
    return mapImage(command_queue, {image, map_flags, origin, region, image_row_pitch, image_slice_pitch}, blocking_map,
                    num_events_in_wait_list, event_wait_list, event, mapped);
  });
}

}  // extern "C"
