// Images: clCreateImage (every type, 1D buffer images and 2D images from a buffer included) and
// its OpenCL 1.1 forms, clGetSupportedImageFormats and clGetImageInfo. An image is a memory
// object (memory_object.h) over a core::Image.
#include <algorithm>

#include "loom/core/command_executor.h"
#include "loom/core/image.h"
#include "opencl/context/context.h"
#include "opencl/device/device.h"
#include "opencl/info.h"
#include "opencl/mem/memory_object.h"
#include "opencl/validation.h"

namespace loom::cl {
namespace {

using core::ImageType;

constexpr const char* kCreateImage = "clCreateImage";

bool isImageType(cl_mem_object_type type) {
  switch (type) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    case CL_MEM_OBJECT_IMAGE2D:
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    case CL_MEM_OBJECT_IMAGE3D: return true;
    default: return false;
  }
}

// The limits every device of the context meets; unsupported when one lacks images.
core::ImageLimits contextImageLimits(const Context& context) {
  core::ImageLimits limits = context.devices().front()->info().images;
  for (const Device* device : context.devices()) {
    const core::ImageLimits& other = device->info().images;
    limits.supported = limits.supported && other.supported;
    limits.max2dWidth = std::min(limits.max2dWidth, other.max2dWidth);
    limits.max2dHeight = std::min(limits.max2dHeight, other.max2dHeight);
    limits.max3dWidth = std::min(limits.max3dWidth, other.max3dWidth);
    limits.max3dHeight = std::min(limits.max3dHeight, other.max3dHeight);
    limits.max3dDepth = std::min(limits.max3dDepth, other.max3dDepth);
    limits.maxArraySize = std::min(limits.maxArraySize, other.maxArraySize);
    limits.maxBufferTexels = std::min(limits.maxBufferTexels, other.maxBufferTexels);
    limits.pitchAlignment = std::max(limits.pitchAlignment, other.pitchAlignment);
    limits.baseAddressAlignment = std::max(limits.baseAddressAlignment, other.baseAddressAlignment);
  }
  return limits;
}

// Kernels may write images of these flags (the formats' lists differ for them).
bool kernelWrites(cl_mem_flags flags) { return !(flags & CL_MEM_READ_ONLY); }

cl_int checkFormat(const cl_image_format* format, cl_mem_object_type type, cl_mem_flags flags) {
  const char* function = kCreateImage;
  CL_CHECK(format, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "image_format is null");
  const core::ImageFormat coreFormat{static_cast<core::ChannelOrder>(format->image_channel_order),
                                     static_cast<core::ChannelType>(format->image_channel_data_type)};
  CL_CHECK(core::isValidFormat(coreFormat), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
             "unknown channel order or type, or a type the order does not take");
  CL_CHECK(core::isSupportedImageFormat(coreFormat, static_cast<ImageType>(type), kernelWrites(flags)), CL_IMAGE_FORMAT_NOT_SUPPORTED,
             "the device does not support this format for these flags (clGetSupportedImageFormats lists those it does)");
  return CL_SUCCESS;
}

// The sizes of `desc` within the device's limits for its type; zero sizes are bad descriptors.
cl_int checkSizes(const cl_image_desc& desc, const core::ImageLimits& limits) {
  const char* function = kCreateImage;
  const core::ImageShape shape{static_cast<ImageType>(desc.image_type)};
  CL_CHECK(desc.image_width != 0, CL_INVALID_IMAGE_DESCRIPTOR, "image_width is 0");
  const bool hasHeight = desc.image_type == CL_MEM_OBJECT_IMAGE2D || desc.image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                         desc.image_type == CL_MEM_OBJECT_IMAGE3D;
  CL_CHECK(!hasHeight || desc.image_height != 0, CL_INVALID_IMAGE_DESCRIPTOR, "image_height is 0");
  CL_CHECK(desc.image_type != CL_MEM_OBJECT_IMAGE3D || desc.image_depth != 0, CL_INVALID_IMAGE_DESCRIPTOR, "image_depth is 0");
  CL_CHECK(!core::isArrayImage(shape.type) || desc.image_array_size != 0, CL_INVALID_IMAGE_DESCRIPTOR, "image_array_size is 0");
  switch (desc.image_type) {
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
      CL_CHECK(desc.image_width <= limits.maxBufferTexels, CL_INVALID_IMAGE_SIZE, "image_width is above CL_DEVICE_IMAGE_MAX_BUFFER_SIZE");
      break;
    case CL_MEM_OBJECT_IMAGE3D:
      CL_CHECK(desc.image_width <= limits.max3dWidth && desc.image_height <= limits.max3dHeight &&
                     desc.image_depth <= limits.max3dDepth,
                 CL_INVALID_IMAGE_SIZE, "a size is above the device's CL_DEVICE_IMAGE3D_MAX_* limits");
      break;
    default:
      CL_CHECK(desc.image_width <= limits.max2dWidth && (!hasHeight || desc.image_height <= limits.max2dHeight),
                 CL_INVALID_IMAGE_SIZE, "a size is above the device's CL_DEVICE_IMAGE2D_MAX_* limits");
      CL_CHECK(!core::isArrayImage(shape.type) || desc.image_array_size <= limits.maxArraySize, CL_INVALID_IMAGE_SIZE,
                 "image_array_size is above CL_DEVICE_IMAGE_MAX_ARRAY_SIZE");
  }
  return CL_SUCCESS;
}

// The shape `desc` describes, pitches as given.
core::ImageShape shapeOf(const cl_image_desc& desc, const cl_image_format& format) {
  core::ImageShape shape;
  shape.type = static_cast<ImageType>(desc.image_type);
  shape.format = {static_cast<core::ChannelOrder>(format.image_channel_order),
                  static_cast<core::ChannelType>(format.image_channel_data_type)};
  shape.width = desc.image_width;
  if (shape.type == ImageType::Image2d || shape.type == ImageType::Image2dArray || shape.type == ImageType::Image3d)
    shape.height = desc.image_height;
  if (shape.type == ImageType::Image3d) shape.depth = desc.image_depth;
  if (core::isArrayImage(shape.type)) shape.arraySize = desc.image_array_size;
  shape.rowPitch = desc.image_row_pitch;
  shape.slicePitch = desc.image_slice_pitch;
  return shape;
}

// Pitches the application gives for its host pointer or buffer: none without one, else at least
// a row (or a slice) of texels, and whole texels.
cl_int checkPitches(const cl_image_desc& desc, const core::ImageShape& shape, bool hasMemory) {
  const char* function = kCreateImage;
  const uint64_t element = core::elementSize(shape.format);
  if (!hasMemory) {
    CL_CHECK(desc.image_row_pitch == 0 && desc.image_slice_pitch == 0, CL_INVALID_IMAGE_DESCRIPTOR,
               "pitches are given without host_ptr or a buffer");
    return CL_SUCCESS;
  }
  const uint64_t rowBytes = shape.width * element;
  CL_CHECK(desc.image_row_pitch == 0 || (desc.image_row_pitch >= rowBytes && desc.image_row_pitch % element == 0),
             CL_INVALID_IMAGE_DESCRIPTOR, "image_row_pitch is below a row of texels or not a whole number of texels");
  const uint64_t rowPitch = desc.image_row_pitch ? desc.image_row_pitch : rowBytes;
  const bool hasSlices = shape.type == ImageType::Image3d || core::isArrayImage(shape.type);
  if (!hasSlices) {
    CL_CHECK(desc.image_slice_pitch == 0 || shape.type == ImageType::Image1d || shape.type == ImageType::Image2d ||
                   shape.type == ImageType::Image1dBuffer,
               CL_INVALID_IMAGE_DESCRIPTOR, "image_slice_pitch is given for an image without slices");
    return CL_SUCCESS;
  }
  const uint64_t sliceBytes = shape.type == ImageType::Image1dArray ? rowPitch : rowPitch * shape.height;
  CL_CHECK(desc.image_slice_pitch == 0 || (desc.image_slice_pitch >= sliceBytes && desc.image_slice_pitch % rowPitch == 0),
             CL_INVALID_IMAGE_DESCRIPTOR, "image_slice_pitch is below a slice of rows or not a multiple of the row pitch");
  return CL_SUCCESS;
}

// An image over a buffer: a 1D buffer image, or a 2D image (cl_khr_image2d_from_buffer). Its
// flags inherit the buffer's and may not widen them; it has no host pointer flags of its own.
cl_int checkBufferSource(const cl_image_desc& desc, const core::ImageShape& shape, cl_mem_flags& flags,
                         const core::ImageLimits& limits, const Context& context, MemoryObject*& buffer) {
  const char* function = kCreateImage;
  buffer = nullptr;
  if (desc.mem_object == nullptr) {
    CL_CHECK(shape.type != ImageType::Image1dBuffer, CL_INVALID_IMAGE_DESCRIPTOR, "a 1D buffer image needs a buffer");
    return CL_SUCCESS;
  }
  CL_CHECK(shape.type == ImageType::Image1dBuffer || shape.type == ImageType::Image2d, CL_INVALID_IMAGE_DESCRIPTOR,
             "only 1D buffer images and 2D images are made over a buffer");
  buffer = objectOf<MemoryObject>(desc.mem_object);
  CL_CHECK(buffer && !buffer->isImage(), CL_INVALID_IMAGE_DESCRIPTOR, "mem_object is not a buffer");
  CL_CHECK(&buffer->context() == &context, CL_INVALID_IMAGE_DESCRIPTOR, "mem_object belongs to another context");
  CL_CHECK(!(flags & kHostPointerFlags), CL_INVALID_VALUE, "an image over a buffer takes no host pointer flags");
  const cl_mem_flags parent = buffer->flags();
  const bool widens = ((parent & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
                      ((parent & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
                      ((parent & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)) ||
                      ((parent & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)) ||
                      ((parent & CL_MEM_HOST_NO_ACCESS) && (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)));
  CL_CHECK(!widens, CL_INVALID_VALUE, "the flags allow an access the buffer does not");
  if (!(flags & kAccessFlags)) flags |= parent & kAccessFlags;
  if (!(flags & kHostAccessFlags)) flags |= parent & kHostAccessFlags;
  flags |= parent & kHostPointerFlags;
  const uint64_t element = core::elementSize(shape.format);
  if (shape.type == ImageType::Image2d) {
    const uint64_t rowPitch = desc.image_row_pitch ? desc.image_row_pitch : shape.width * element;
    CL_CHECK(rowPitch % (limits.pitchAlignment * element) == 0, CL_INVALID_IMAGE_DESCRIPTOR,
               "image_row_pitch is not a multiple of CL_DEVICE_IMAGE_PITCH_ALIGNMENT texels");
    CL_CHECK(reinterpret_cast<uintptr_t>(buffer->storage()) % (limits.baseAddressAlignment * element) == 0,
               CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "the buffer's address is not aligned to CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT");
  }
  CL_CHECK(core::storageBytes(shape) <= buffer->size(), CL_INVALID_IMAGE_SIZE, "the buffer is smaller than the image");
  return CL_SUCCESS;
}

// What clGetImageInfo reports: the sizes as given, the pitches of the image (its host pointer's,
// when it has one), no slice pitch for images without slices.
cl_image_desc reportedDescription(const cl_image_desc& desc, const core::ImageShape& resolved) {
  cl_image_desc reported = desc;
  if (reported.image_row_pitch == 0) reported.image_row_pitch = resolved.width * core::elementSize(resolved.format);
  const bool hasSlices = resolved.type == ImageType::Image3d || core::isArrayImage(resolved.type);
  reported.image_slice_pitch = hasSlices ? resolved.slicePitch : 0;
  if (resolved.type != ImageType::Image3d) reported.image_depth = 0;
  if (!core::isArrayImage(resolved.type)) reported.image_array_size = 0;
  if (resolved.type == ImageType::Image1d || resolved.type == ImageType::Image1dBuffer || resolved.type == ImageType::Image1dArray)
    reported.image_height = 0;
  return reported;
}

// Copies the application's texels, laid out as `layout`, into the new image's storage, through
// the device (its memory may not be the host's).
void copyInitialContents(core::Image& image, const void* hostPtr, const core::LinearLayout& layout) {
  const core::ImageShape& shape = image.shape();
  const std::array<uint64_t, 3> extent{shape.width, shape.type == ImageType::Image1dArray ? shape.arraySize : shape.height,
                                       shape.type == ImageType::Image2dArray ? shape.arraySize : shape.depth};
  const auto bytes = image.copyExtent(extent);
  core::CommandStream stream;
  stream.appendCopyRegion({image.data(), hostPtr, image.regionAt({0, 0, 0}), core::linearRegion(layout, shape.type), bytes[0],
                           bytes[1], bytes[2]});
  core::executeCommandStream(stream.bytes(), image.device().backend());
}

struct ImageRequest {
  cl_mem_flags flags;
  const cl_image_format* format;
  const cl_image_desc* desc;
  void* hostPtr;
  const cl_mem_properties* properties;
};

cl_int createImage(cl_context context, ImageRequest request, cl_mem* image) {
  const char* function = kCreateImage;
  Context* owner = objectOf<Context>(context);
  CL_CHECK(owner, CL_INVALID_CONTEXT, "not a context");
  std::vector<cl_mem_properties> properties;
  if (request.properties) {
    CL_CHECK(request.properties[0] == 0, CL_INVALID_PROPERTY, "images take no properties");
    properties.push_back(0);
  }
  cl_mem_flags flags = request.flags;
  if (cl_int error = checkMemoryFlags(flags, function); error != CL_SUCCESS) return error;
  const core::ImageLimits limits = contextImageLimits(*owner);
  CL_CHECK(limits.supported, CL_INVALID_OPERATION, "a device of the context does not support images");
  CL_CHECK(request.desc, CL_INVALID_IMAGE_DESCRIPTOR, "image_desc is null");
  const cl_image_desc& desc = *request.desc;
  CL_CHECK(isImageType(desc.image_type), CL_INVALID_IMAGE_DESCRIPTOR, "image_type is not an image type");
  CL_CHECK(desc.num_mip_levels == 0 && desc.num_samples == 0, CL_INVALID_IMAGE_DESCRIPTOR,
             "mipmaps and multisampled images are not supported");
  if (cl_int error = checkFormat(request.format, desc.image_type, flags); error != CL_SUCCESS) return error;
  if (cl_int error = checkSizes(desc, limits); error != CL_SUCCESS) return error;
  core::ImageShape shape = shapeOf(desc, *request.format);
  MemoryObject* buffer = nullptr;
  if (cl_int error = checkBufferSource(desc, shape, flags, limits, *owner, buffer); error != CL_SUCCESS) return error;
  const bool needsHostPtr = request.flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  CL_CHECK(needsHostPtr == (request.hostPtr != nullptr), CL_INVALID_HOST_PTR,
             "host_ptr must be given exactly with CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR");
  if (cl_int error = checkPitches(desc, shape, request.hostPtr || buffer); error != CL_SUCCESS) return error;
  if (!(flags & kAccessFlags)) flags |= CL_MEM_READ_WRITE;
  const core::ImageShape given = core::withTightPitches(shape);
  CL_CHECK(core::storageBytes(given) <= owner->allocationLimit(), CL_INVALID_IMAGE_SIZE,
             "the image is larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE");

  // Where the texels live: in the buffer, at the host pointer (USE_HOST_PTR on a device that
  // shares the host's memory), else in storage of the image's own, with tight pitches.
  core::Device& device = owner->devices().front()->core();
  const bool atHostPointer = (flags & CL_MEM_USE_HOST_PTR) && allDevicesShareHostMemory(*owner);
  void* storage = buffer ? buffer->storage() : atHostPointer ? request.hostPtr : nullptr;
  core::ImageShape stored = given;
  if (!storage) stored.rowPitch = stored.slicePitch = 0;  // its own storage: tight
  stored = core::withTightPitches(stored);
  std::unique_ptr<core::Image> coreImage = core::Image::create(device, stored, storage, owner, !(flags & CL_MEM_WRITE_ONLY));
  CL_CHECK(coreImage, CL_MEM_OBJECT_ALLOCATION_FAILURE, "out of memory");
  const core::LinearLayout hostLayout{given.rowPitch, given.slicePitch};
  if (request.hostPtr && !atHostPointer) copyInitialContents(*coreImage, request.hostPtr, hostLayout);

  if (buffer) buffer->retain();
  void* hostPointer = (flags & CL_MEM_USE_HOST_PTR) ? request.hostPtr : buffer ? buffer->hostPointer() : nullptr;
  MemoryObject::Description description{flags,  coreImage->sizeInBytes(), hostPointer, coreImage->data(), 0, buffer, 0,
                                        false, std::move(properties)};
  auto* object = new MemoryObject(*owner, std::move(description));
  object->attachImage({std::move(coreImage), reportedDescription(desc, given), hostLayout});
  *image = object;
  return CL_SUCCESS;
}

// The deprecated 2D and 3D forms, as descriptions of clCreateImage.
cl_image_desc describe(cl_mem_object_type type, size_t width, size_t height, size_t depth, size_t rowPitch, size_t slicePitch) {
  cl_image_desc desc{};
  desc.image_type = type;
  desc.image_width = width;
  desc.image_height = height;
  desc.image_depth = depth;
  desc.image_row_pitch = rowPitch;
  desc.image_slice_pitch = slicePitch;
  return desc;
}

cl_int supportedFormats(cl_context context, cl_mem_flags flags, cl_mem_object_type type, cl_uint count,
                        cl_image_format* formats, cl_uint* countRet) {
  const char* function = "clGetSupportedImageFormats";
  Context* owner = objectOf<Context>(context);
  CL_CHECK(owner, CL_INVALID_CONTEXT, "not a context");
  if (cl_int error = checkMemoryFlags(flags, function); error != CL_SUCCESS) return error;
  CL_CHECK(isImageType(type), CL_INVALID_VALUE, "image_type is not an image type");
  CL_CHECK(count != 0 || formats == nullptr, CL_INVALID_VALUE, "num_entries is 0 and image_formats is not null");
  std::vector<core::ImageFormat> list;
  if (contextImageLimits(*owner).supported) list = core::supportedImageFormats(static_cast<ImageType>(type), kernelWrites(flags));
  for (cl_uint i = 0; formats && i < count && i < list.size(); ++i)
    formats[i] = {static_cast<cl_channel_order>(list[i].order), static_cast<cl_channel_type>(list[i].type)};
  if (countRet) *countRet = static_cast<cl_uint>(list.size());
  return CL_SUCCESS;
}

}  // namespace
}  // namespace loom::cl

using namespace loom::cl;

extern "C" {

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags flags, const cl_image_format* image_format,
                                              const cl_image_desc* image_desc, void* host_ptr, cl_int* errcode_ret) {
  return createHandle<cl_mem>(errcode_ret, [&](cl_mem* image) {
    return createImage(context, {flags, image_format, image_desc, host_ptr, nullptr}, image);
  });
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImageWithProperties(cl_context context, const cl_mem_properties* properties,
                                                            cl_mem_flags flags, const cl_image_format* image_format,
                                                            const cl_image_desc* image_desc, void* host_ptr,
                                                            cl_int* errcode_ret) {
  return createHandle<cl_mem>(errcode_ret, [&](cl_mem* image) {
    return createImage(context, {flags, image_format, image_desc, host_ptr, properties}, image);
  });
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags flags, const cl_image_format* image_format,
                                                size_t image_width, size_t image_height, size_t image_row_pitch,
                                                void* host_ptr, cl_int* errcode_ret) {
  const cl_image_desc desc = describe(CL_MEM_OBJECT_IMAGE2D, image_width, image_height, 0, image_row_pitch, 0);
  return createHandle<cl_mem>(errcode_ret, [&](cl_mem* image) {
    return createImage(context, {flags, image_format, &desc, host_ptr, nullptr}, image);
  });
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags flags, const cl_image_format* image_format,
                                                size_t image_width, size_t image_height, size_t image_depth,
                                                size_t image_row_pitch, size_t image_slice_pitch, void* host_ptr,
                                                cl_int* errcode_ret) {
  const cl_image_desc desc =
      describe(CL_MEM_OBJECT_IMAGE3D, image_width, image_height, image_depth, image_row_pitch, image_slice_pitch);
  return createHandle<cl_mem>(errcode_ret, [&](cl_mem* image) {
    // OpenCL 1.1: a 3D image has a depth above 1.
    if (image_depth <= 1) return reportError(CL_INVALID_IMAGE_SIZE, "clCreateImage3D", "image_depth is below 2");
    return createImage(context, {flags, image_format, &desc, host_ptr, nullptr}, image);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context, cl_mem_flags flags, cl_mem_object_type image_type,
                                                           cl_uint num_entries, cl_image_format* image_formats,
                                                           cl_uint* num_image_formats) {
  return supportedFormats(context, flags, image_type, num_entries, image_formats, num_image_formats);
}

CL_API_ENTRY cl_int CL_API_CALL clGetImageInfo(cl_mem image, cl_image_info param_name, size_t param_value_size,
                                               void* param_value, size_t* param_value_size_ret) {
  const InfoRequest out{param_value_size, param_value, param_value_size_ret, __func__};
  MemoryObject* object = objectOf<MemoryObject>(image);
  if (!object || !object->isImage()) return out.fail(CL_INVALID_MEM_OBJECT, "not an image");
  const cl_image_desc& desc = object->imageDescription();
  const loom::core::ImageFormat format = object->image().format();
  switch (param_name) {
    case CL_IMAGE_FORMAT:
      return out.scalar(cl_image_format{static_cast<cl_channel_order>(format.order), static_cast<cl_channel_type>(format.type)});
    case CL_IMAGE_ELEMENT_SIZE: return out.scalar<size_t>(object->image().elementSize());
    case CL_IMAGE_ROW_PITCH: return out.scalar(desc.image_row_pitch);
    case CL_IMAGE_SLICE_PITCH: return out.scalar(desc.image_slice_pitch);
    case CL_IMAGE_WIDTH: return out.scalar(desc.image_width);
    case CL_IMAGE_HEIGHT: return out.scalar(desc.image_height);
    case CL_IMAGE_DEPTH: return out.scalar(desc.image_depth);
    case CL_IMAGE_ARRAY_SIZE: return out.scalar(desc.image_array_size);
    case CL_IMAGE_BUFFER:
      return out.scalar<cl_mem>(desc.image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER ? object->parent() : nullptr);
    case CL_IMAGE_NUM_MIP_LEVELS:
    case CL_IMAGE_NUM_SAMPLES: return out.scalar<cl_uint>(0);
    default: return out.unknownName();
  }
}

}  // extern "C"
