#include "level_zero/image/image.h"

#include <array>

#include "level_zero/cmdlist/command_list.h"
#include "level_zero/context/context.h"
#include "level_zero/device/device.h"
#include "level_zero/validation.h"
#include "loom/core/device.h"
#include "loom/core/runtime.h"

namespace loom::l0 {
namespace {

using core::ChannelOrder;
using core::ChannelType;
using core::ImageType;
using Triple = std::array<uint64_t, 3>;

bool imageTypeOf(ze_image_type_t type, ImageType& out) {
  switch (type) {
    case ZE_IMAGE_TYPE_1D: out = ImageType::Image1d; return true;
    case ZE_IMAGE_TYPE_1DARRAY: out = ImageType::Image1dArray; return true;
    case ZE_IMAGE_TYPE_2D: out = ImageType::Image2d; return true;
    case ZE_IMAGE_TYPE_2DARRAY: out = ImageType::Image2dArray; return true;
    case ZE_IMAGE_TYPE_3D: out = ImageType::Image3d; return true;
    case ZE_IMAGE_TYPE_BUFFER: out = ImageType::Image1dBuffer; return true;
    default: return false;
  }
}

// Bits of one component of a layout of equal components, and how many there are; 0 for others.
struct Components {
  uint32_t bits;
  uint32_t count;
};

Components componentsOf(ze_image_format_layout_t layout) {
  switch (layout) {
    case ZE_IMAGE_FORMAT_LAYOUT_8: return {8, 1};
    case ZE_IMAGE_FORMAT_LAYOUT_16: return {16, 1};
    case ZE_IMAGE_FORMAT_LAYOUT_32: return {32, 1};
    case ZE_IMAGE_FORMAT_LAYOUT_8_8: return {8, 2};
    case ZE_IMAGE_FORMAT_LAYOUT_16_16: return {16, 2};
    case ZE_IMAGE_FORMAT_LAYOUT_32_32: return {32, 2};
    case ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8: return {8, 4};
    case ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16: return {16, 4};
    case ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32: return {32, 4};
    default: return {0, 0};
  }
}

bool channelTypeOf(ze_image_format_type_t type, uint32_t bits, ChannelType& out) {
  const int index = bits == 8 ? 0 : bits == 16 ? 1 : 2;
  static constexpr ChannelType kUint[] = {ChannelType::UnsignedInt8, ChannelType::UnsignedInt16, ChannelType::UnsignedInt32};
  static constexpr ChannelType kSint[] = {ChannelType::SignedInt8, ChannelType::SignedInt16, ChannelType::SignedInt32};
  static constexpr ChannelType kUnorm[] = {ChannelType::UnormInt8, ChannelType::UnormInt16, ChannelType::UnormInt32};
  static constexpr ChannelType kSnorm[] = {ChannelType::SnormInt8, ChannelType::SnormInt16, ChannelType::SnormInt32};
  switch (type) {
    case ZE_IMAGE_FORMAT_TYPE_UINT: out = kUint[index]; return true;
    case ZE_IMAGE_FORMAT_TYPE_SINT: out = kSint[index]; return true;
    case ZE_IMAGE_FORMAT_TYPE_UNORM: out = kUnorm[index]; return true;
    case ZE_IMAGE_FORMAT_TYPE_SNORM: out = kSnorm[index]; return true;
    case ZE_IMAGE_FORMAT_TYPE_FLOAT:
      out = bits == 16 ? ChannelType::HalfFloat : ChannelType::Float;
      return bits != 8;
    default: return false;
  }
}

// Whether a swizzle names `component` (ZE_IMAGE_FORMAT_SWIZZLE_X: any component, unread).
bool names(ze_image_format_swizzle_t swizzle, ze_image_format_swizzle_t component) {
  return swizzle == component || swizzle == ZE_IMAGE_FORMAT_SWIZZLE_X;
}

// The channel order a swizzle of `count` components names: the memory order of the components.
bool channelOrderOf(const ze_image_format_t& format, uint32_t count, ChannelOrder& out) {
  using S = ze_image_format_swizzle_t;
  const S x = format.x, y = format.y, z = format.z, w = format.w;
  switch (count) {
    case 1:
      out = x == ZE_IMAGE_FORMAT_SWIZZLE_A ? ChannelOrder::A : ChannelOrder::R;
      return true;
    case 2:
      out = y == ZE_IMAGE_FORMAT_SWIZZLE_A ? ChannelOrder::RA : ChannelOrder::RG;
      return true;
    default: {
      // The four-component orders OpenCL has. A swizzle of 0 or 1 names no memory component:
      // Loom would read memory there, so such swizzles are refused.
      struct Named {
        S x, y, z, w;
        ChannelOrder order;
      };
      constexpr S R = ZE_IMAGE_FORMAT_SWIZZLE_R, G = ZE_IMAGE_FORMAT_SWIZZLE_G, B = ZE_IMAGE_FORMAT_SWIZZLE_B,
                  A = ZE_IMAGE_FORMAT_SWIZZLE_A;
      constexpr Named kOrders[] = {{R, G, B, A, ChannelOrder::RGBA},
                                   {B, G, R, A, ChannelOrder::BGRA},
                                   {A, R, G, B, ChannelOrder::ARGB},
                                   {A, B, G, R, ChannelOrder::ABGR}};
      for (const Named& named : kOrders) {
        if (!names(x, named.x) || !names(y, named.y) || !names(z, named.z) || !names(w, named.w)) continue;
        out = named.order;
        return true;
      }
      return false;
    }
  }
}

// The swizzle (R, G, B, A) of a packed layout's components, or (R, G, B, 1) where
// `opaqueAlpha` lets alpha go unread (X counts as any component).
bool namesRgba(const ze_image_format_t& format, bool opaqueAlpha) {
  const bool rgb = names(format.x, ZE_IMAGE_FORMAT_SWIZZLE_R) && names(format.y, ZE_IMAGE_FORMAT_SWIZZLE_G) &&
                   names(format.z, ZE_IMAGE_FORMAT_SWIZZLE_B);
  return rgb && (names(format.w, ZE_IMAGE_FORMAT_SWIZZLE_A) || (opaqueAlpha && format.w == ZE_IMAGE_FORMAT_SWIZZLE_1));
}

// 10_10_10_2 of each type: red in the low bits, alpha in the top two (image_abi.h's *2_101010
// types with CL_ABGR); FLOAT's color channels are 10-bit unsigned floats, its alpha normalized.
bool tenTenTenTwoTypeOf(ze_image_format_type_t type, ChannelType& out) {
  switch (type) {
    case ZE_IMAGE_FORMAT_TYPE_UINT: out = ChannelType::UnsignedInt2_101010; return true;
    case ZE_IMAGE_FORMAT_TYPE_SINT: out = ChannelType::SignedInt2_101010; return true;
    case ZE_IMAGE_FORMAT_TYPE_UNORM: out = ChannelType::UnormInt2_101010; return true;
    case ZE_IMAGE_FORMAT_TYPE_SNORM: out = ChannelType::SnormInt2_101010; return true;
    case ZE_IMAGE_FORMAT_TYPE_FLOAT: out = ChannelType::UnsignedFloat2_101010; return true;
    default: return false;
  }
}

// The format of a layout of unequal components. 5_6_5 is CL_UNORM_SHORT_565 (red in the high
// bits, alpha 1); 5_5_5_1 is CL_UNORM_SHORT_555 when the swizzle leaves its alpha bit unread, else
// UnormShort1555; 4_4_4_4 is UnormShort4444; 11_11_10 holds unsigned floats. False for others.
bool packedFormatOf(const ze_image_format_t& format, core::ImageFormat& out) {
  const bool unorm = format.type == ZE_IMAGE_FORMAT_TYPE_UNORM;
  switch (format.layout) {
    case ZE_IMAGE_FORMAT_LAYOUT_5_6_5:
      out = {ChannelOrder::RGB, ChannelType::UnormShort565};
      return unorm && namesRgba(format, true);
    case ZE_IMAGE_FORMAT_LAYOUT_5_5_5_1: {
      const bool alphaUnread = format.w == ZE_IMAGE_FORMAT_SWIZZLE_1 || format.w == ZE_IMAGE_FORMAT_SWIZZLE_X;
      out = alphaUnread ? core::ImageFormat{ChannelOrder::RGB, ChannelType::UnormShort555}
                        : core::ImageFormat{ChannelOrder::ARGB, ChannelType::UnormShort1555};
      return unorm && namesRgba(format, true);
    }
    case ZE_IMAGE_FORMAT_LAYOUT_4_4_4_4:
      out = {ChannelOrder::ARGB, ChannelType::UnormShort4444};
      return unorm && namesRgba(format, false);
    case ZE_IMAGE_FORMAT_LAYOUT_10_10_10_2:
      out.order = ChannelOrder::ABGR;
      return tenTenTenTwoTypeOf(format.type, out.type) && namesRgba(format, false);
    case ZE_IMAGE_FORMAT_LAYOUT_11_11_10:
      out = {ChannelOrder::RGB, ChannelType::UnsignedFloat11_11_10};
      return format.type == ZE_IMAGE_FORMAT_TYPE_FLOAT && namesRgba(format, true);
    default: return false;
  }
}

// Media layouts whose texels are one pixel each, as the color format that reads their channels
// in memory order (their type and swizzle are ignored): Y8 and Y16 one normalized channel, AYUV
// and Y416 four, Y410 10_10_10_2. False for the planar and chroma-subsampled ones.
bool mediaFormatOf(ze_image_format_layout_t layout, core::ImageFormat& out) {
  switch (layout) {
    case ZE_IMAGE_FORMAT_LAYOUT_Y8: out = {ChannelOrder::R, ChannelType::UnormInt8}; return true;
    case ZE_IMAGE_FORMAT_LAYOUT_Y16: out = {ChannelOrder::R, ChannelType::UnormInt16}; return true;
    case ZE_IMAGE_FORMAT_LAYOUT_AYUV: out = {ChannelOrder::RGBA, ChannelType::UnormInt8}; return true;
    case ZE_IMAGE_FORMAT_LAYOUT_Y416: out = {ChannelOrder::RGBA, ChannelType::UnormInt16}; return true;
    case ZE_IMAGE_FORMAT_LAYOUT_Y410: out = {ChannelOrder::ABGR, ChannelType::UnormInt2_101010}; return true;
    default: return false;
  }
}

bool isMediaLayout(ze_image_format_layout_t layout) {
  return layout >= ZE_IMAGE_FORMAT_LAYOUT_Y8 && layout <= ZE_IMAGE_FORMAT_LAYOUT_BRGP;
}

// The Loom format of a Level Zero one, when Loom supports it for the image type and what the
// flags ask.
bool supportedFormatOf(const ze_image_desc_t& desc, ImageType type, core::ImageFormat& out) {
  const Components components = componentsOf(desc.format.layout);
  const bool known = isMediaLayout(desc.format.layout) ? mediaFormatOf(desc.format.layout, out)
                     : components.count == 0         ? packedFormatOf(desc.format, out)
                                                     : channelTypeOf(desc.format.type, components.bits, out.type) &&
                                                   channelOrderOf(desc.format, components.count, out.order);
  return known && core::isSupportedImageFormat(out, type, desc.flags & ZE_IMAGE_FLAG_KERNEL_WRITE);
}

// The shape of `desc` (tight pitches), or the error that refuses it.
ze_result_t shapeOf(const ze_image_desc_t& desc, const core::ImageLimits& limits, core::ImageShape& shape, const char* function) {
  if (!imageTypeOf(desc.type, shape.type)) return reportError(ZE_RESULT_ERROR_INVALID_ENUMERATION, function, "unknown image type");
  if (!supportedFormatOf(desc, shape.type, shape.format))
    return reportError(ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT, function,
                       isMediaLayout(desc.format.layout)
                           ? "planar and chroma-subsampled media layouts are not supported (Y8, Y16, AYUV, Y410 and Y416 are)"
                           : "the format (layout, type, swizzle) is not supported");
  if (desc.miplevels > 1) return reportError(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, function, "mipmaps are not supported");
  shape.width = desc.width;
  const bool hasHeight = shape.type == ImageType::Image2d || shape.type == ImageType::Image2dArray || shape.type == ImageType::Image3d;
  if (hasHeight) shape.height = desc.height;
  if (shape.type == ImageType::Image3d) shape.depth = desc.depth;
  if (core::isArrayImage(shape.type)) shape.arraySize = desc.arraylevels;
  if (shape.width == 0 || shape.height == 0 || shape.depth == 0 || shape.arraySize == 0)
    return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, function, "a size of the image is 0");
  const bool fits = shape.type == ImageType::Image3d
                        ? shape.width <= limits.max3dWidth && shape.height <= limits.max3dHeight && shape.depth <= limits.max3dDepth
                    : shape.type == ImageType::Image1dBuffer
                        ? shape.width <= maxBufferImageBytes(limits) / core::elementSize(shape.format)
                        : shape.width <= limits.max2dWidth && shape.height <= limits.max2dHeight && shape.arraySize <= limits.maxArraySize;
  if (!fits) return reportError(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, function, "a size is above zeDeviceGetImageProperties' limits");
  shape = core::withTightPitches(shape);
  return ZE_RESULT_SUCCESS;
}

Triple originOf(const ze_image_region_t* region) {
  return region ? Triple{region->originX, region->originY, region->originZ} : Triple{0, 0, 0};
}

// A null region is the whole image.
Triple extentOf(const ze_image_region_t* region, const core::Image& image) {
  if (!region) return image.extent();
  return {region->width, region->height, region->depth == 0 ? 1u : region->depth};
}

ze_result_t checkRegion(const core::Image& image, const ze_image_region_t* region, const char* function, const char* name) {
  if (image.containsRegion(originOf(region), extentOf(region, image))) return ZE_RESULT_SUCCESS;
  return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, function,
                     (std::string(name) + " is empty or lies outside the image, or has a coordinate the image type lacks").c_str());
}

// Image <-> memory laid out as `layout` (tight where a pitch is 0).
ze_result_t appendMemoryCopy(const char* function, ze_command_list_handle_t hCommandList, void* memory, Image& image,
                             const ze_image_region_t* region, core::LinearLayout layout, bool toMemory,
                             ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  const core::Image& texels = image.core();
  if (ze_result_t result = checkRegion(texels, region, function, "the image region"); result != ZE_RESULT_SUCCESS) return result;
  const Triple extent = extentOf(region, texels);
  const ImageType type = texels.shape().type;
  layout = core::resolveLayout(layout, type, texels.elementSize(), extent);
  CommandList& list = *CommandList::fromHandle(hCommandList);
  const uint64_t bytes = core::linearBytes(layout, type, texels.elementSize(), extent);
  if (ze_result_t result = list.checkRange(function, toMemory ? "dstptr" : "srcptr", memory, bytes); result != ZE_RESULT_SUCCESS)
    return result;
  const Triple copyExtent = texels.copyExtent(extent);
  const core::CopyRegionCommand toHost{memory, texels.data(), core::linearRegion(layout, type), texels.regionAt(originOf(region)),
                                       copyExtent[0], copyExtent[1], copyExtent[2]};
  const core::CopyRegionCommand copy = toMemory ? toHost : core::reversed(toHost);
  return list.append(function, hSignalEvent, numWaitEvents, phWaitEvents,
                     [&](core::CommandStream& stream) { stream.appendCopyRegion(copy); });
}

}  // namespace

uint64_t maxBufferImageBytes(const core::ImageLimits& limits) { return limits.maxBufferTexels; }

ze_result_t zeImageGetProperties(ze_device_handle_t hDevice, const ze_image_desc_t* desc, ze_image_properties_t* pImageProperties) {
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(desc);
  ZE_REQUIRE_POINTER(pImageProperties);
  ZE_REQUIRE_DESCRIPTOR(desc, ZE_STRUCTURE_TYPE_IMAGE_DESC);
  const core::ImageLimits& limits = Device::fromHandle(hDevice)->core().info().images;
  ZE_REQUIRE(limits.supported, ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "the device does not support images");
  core::ImageShape shape;
  if (ze_result_t result = shapeOf(*desc, limits, shape, __func__); result != ZE_RESULT_SUCCESS) return result;
  // Integer texels are read only with nearest filtering (read_imagei/ui with a linear sampler is undefined).
  const bool integer = core::channelClass(shape.format.type) != core::ChannelClass::Float;
  pImageProperties->samplerFilterFlags =
      ZE_IMAGE_SAMPLER_FILTER_FLAG_POINT | (integer ? 0 : ZE_IMAGE_SAMPLER_FILTER_FLAG_LINEAR);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeImageCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice, const ze_image_desc_t* desc,
                          ze_image_handle_t* phImage) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(desc);
  ZE_REQUIRE_POINTER(phImage);
  ZE_REQUIRE_DESCRIPTOR(desc, ZE_STRUCTURE_TYPE_IMAGE_DESC);
  ZE_REQUIRE_FLAGS(desc->flags, ZE_IMAGE_FLAG_KERNEL_WRITE | ZE_IMAGE_FLAG_BIAS_UNCACHED);
  Context& context = *Context::fromHandle(hContext);
  Device& device = *Device::fromHandle(hDevice);
  ZE_REQUIRE(context.contains(device), ZE_RESULT_ERROR_INVALID_ARGUMENT, "the device is not one of the context's");
  const core::ImageLimits& limits = device.core().info().images;
  ZE_REQUIRE(limits.supported, ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "the device does not support images");
  core::ImageShape shape;
  if (ze_result_t result = shapeOf(*desc, limits, shape, __func__); result != ZE_RESULT_SUCCESS) return result;
  ZE_REQUIRE(core::storageBytes(shape) <= device.core().info().maxAllocationSize, ZE_RESULT_ERROR_UNSUPPORTED_SIZE,
             "the image is larger than the device's maxMemAllocSize");
  std::unique_ptr<core::Image> image = core::Image::create(device.core(), shape, nullptr, &context);
  ZE_REQUIRE(image, ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY, "out of device memory");
  *phImage = new Image(context, std::move(image), *desc);
  return ZE_RESULT_SUCCESS;
}

namespace {

// The shape of a view over `viewed`: the view's type, format and size over the viewed image's
// rows and slices (for a 1D array view, its layers are the rows), or the error that refuses it.
ze_result_t viewShapeOf(const ze_image_desc_t& desc, const core::Image& viewed, const core::ImageLimits& limits,
                        core::ImageShape& shape, const char* function) {
  if (ze_result_t result = shapeOf(desc, limits, shape, function); result != ZE_RESULT_SUCCESS) return result;
  const core::ImageShape& under = viewed.shape();
  const uint64_t rowBytes = shape.width * core::elementSize(shape.format);
  const uint64_t rows = shape.type == ImageType::Image1dArray ? shape.arraySize : shape.height;
  const uint64_t slices = shape.type == ImageType::Image3d ? shape.depth : shape.type == ImageType::Image2dArray ? shape.arraySize : 1;
  shape.rowPitch = under.rowPitch;
  shape.slicePitch = shape.type == ImageType::Image1dArray ? under.rowPitch : under.slicePitch;
  shape = core::withTightPitches(shape);
  if (rows > 1 && rowBytes > under.rowPitch)
    return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, function, "a row of the view is longer than a row of the image");
  if (slices > 1 && shape.height * under.rowPitch > under.slicePitch)
    return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, function, "a slice of the view is larger than a slice of the image");
  if (core::storageBytes(shape) > viewed.sizeInBytes())
    return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, function, "the view reaches past the image's texels");
  return ZE_RESULT_SUCCESS;
}

// ZE_experimental_image_view_planar: Loom has no planar formats, so no image has planes to view.
ze_result_t checkNoPlane(const ze_image_desc_t& desc, const char* function) {
  for (auto* chained = static_cast<const ze_base_desc_t*>(desc.pNext); chained;
       chained = static_cast<const ze_base_desc_t*>(chained->pNext)) {
    if (chained->stype == ZE_STRUCTURE_TYPE_IMAGE_VIEW_PLANAR_EXP_DESC)
      return reportError(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, function, "planar views need a planar image; Loom has no planar formats");
  }
  return ZE_RESULT_SUCCESS;
}

}  // namespace

ze_result_t zeImageViewCreateExp(ze_context_handle_t hContext, ze_device_handle_t hDevice, const ze_image_desc_t* desc,
                                 ze_image_handle_t hImage, ze_image_handle_t* phImageView) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_HANDLE(hImage);
  ZE_REQUIRE_POINTER(desc);
  ZE_REQUIRE_POINTER(phImageView);
  ZE_REQUIRE_DESCRIPTOR(desc, ZE_STRUCTURE_TYPE_IMAGE_DESC);
  ZE_REQUIRE_FLAGS(desc->flags, ZE_IMAGE_FLAG_KERNEL_WRITE | ZE_IMAGE_FLAG_BIAS_UNCACHED);
  if (ze_result_t result = checkNoPlane(*desc, __func__); result != ZE_RESULT_SUCCESS) return result;
  Context& context = *Context::fromHandle(hContext);
  Device& device = *Device::fromHandle(hDevice);
  const Image& viewed = *Image::fromHandle(hImage);
  ZE_REQUIRE(&viewed.context() == &context, ZE_RESULT_ERROR_INVALID_ARGUMENT, "the image belongs to another context");
  ZE_REQUIRE(&viewed.core().device() == &device.core(), ZE_RESULT_ERROR_INVALID_ARGUMENT, "the image is not on this device");
  core::ImageShape shape;
  if (ze_result_t result = viewShapeOf(*desc, viewed.core(), device.core().info().images, shape, __func__); result != ZE_RESULT_SUCCESS)
    return result;
  std::unique_ptr<core::Image> view = core::Image::create(device.core(), shape, viewed.core().data(), &context);
  ZE_REQUIRE(view, ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY, "out of device memory");
  *phImageView = new Image(context, std::move(view), *desc, viewed.shared());
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeImageDestroy(ze_image_handle_t hImage) {
  ZE_REQUIRE_HANDLE(hImage);
  Image* image = Image::fromHandle(hImage);
  image->retireHandle();
  // Work in flight may still read or write its texels.
  core::Runtime::get().releaseAfterSubmittedWork([image] { delete image; });
  return ZE_RESULT_SUCCESS;
}

// ZE_experimental_image_memory_properties: the bytes from the first texel to the end of the
// last row, and the pitches (a 1D array's layers step by both).
ze_result_t zeImageGetMemoryPropertiesExp(ze_image_handle_t hImage, ze_image_memory_properties_exp_t* pMemoryProperties) {
  ZE_REQUIRE_HANDLE(hImage);
  ZE_REQUIRE_POINTER(pMemoryProperties);
  const core::Image& image = Image::fromHandle(hImage)->core();
  pMemoryProperties->size = image.sizeInBytes();
  pMemoryProperties->rowPitch = image.shape().rowPitch;
  pMemoryProperties->slicePitch = image.shape().slicePitch;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeImageGetAllocPropertiesExt(ze_context_handle_t hContext, ze_image_handle_t hImage,
                                         ze_image_allocation_ext_properties_t* pImageAllocProperties) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_HANDLE(hImage);
  ZE_REQUIRE_POINTER(pImageAllocProperties);
  Image& image = *Image::fromHandle(hImage);
  ZE_REQUIRE(&image.context() == Context::fromHandle(hContext), ZE_RESULT_ERROR_INVALID_ARGUMENT,
             "the image belongs to another context");
  const auto allocation = core::Runtime::get().memory().find(image.core().data());
  pImageAllocProperties->id = allocation ? allocation->id : 0;
  return ZE_RESULT_SUCCESS;
}

namespace {
// Loom's images are always resident (as its memory is), so residency calls only validate.
ze_result_t checkResidency(ze_context_handle_t hContext, ze_device_handle_t hDevice, ze_image_handle_t hImage, const char* function) {
  const Context& context = *Context::fromHandle(hContext);
  if (&Image::fromHandle(hImage)->context() != &context)
    return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, function, "the image belongs to another context");
  if (!context.contains(*Device::fromHandle(hDevice)))
    return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, function, "the device is not one of the context's");
  return ZE_RESULT_SUCCESS;
}
}  // namespace

ze_result_t zeContextMakeImageResident(ze_context_handle_t hContext, ze_device_handle_t hDevice, ze_image_handle_t hImage) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_HANDLE(hImage);
  return checkResidency(hContext, hDevice, hImage, __func__);
}

ze_result_t zeContextEvictImage(ze_context_handle_t hContext, ze_device_handle_t hDevice, ze_image_handle_t hImage) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_HANDLE(hImage);
  return checkResidency(hContext, hDevice, hImage, __func__);
}

ze_result_t zeCommandListAppendImageCopy(ze_command_list_handle_t hCommandList, ze_image_handle_t hDstImage,
                                         ze_image_handle_t hSrcImage, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                                         ze_event_handle_t* phWaitEvents) {
  return loom::l0::zeCommandListAppendImageCopyRegion(hCommandList, hDstImage, hSrcImage, nullptr, nullptr, hSignalEvent, numWaitEvents,
                                            phWaitEvents);
}

ze_result_t zeCommandListAppendImageCopyRegion(ze_command_list_handle_t hCommandList, ze_image_handle_t hDstImage,
                                               ze_image_handle_t hSrcImage, const ze_image_region_t* pDstRegion,
                                               const ze_image_region_t* pSrcRegion, ze_event_handle_t hSignalEvent,
                                               uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  ZE_REQUIRE_HANDLE(hCommandList);
  ZE_REQUIRE_HANDLE(hDstImage);
  ZE_REQUIRE_HANDLE(hSrcImage);
  const core::Image& destination = Image::fromHandle(hDstImage)->core();
  const core::Image& source = Image::fromHandle(hSrcImage)->core();
  ZE_REQUIRE(destination.format() == source.format(), ZE_RESULT_ERROR_INVALID_ARGUMENT, "the images have different formats");
  if (ze_result_t result = checkRegion(source, pSrcRegion, __func__, "pSrcRegion"); result != ZE_RESULT_SUCCESS) return result;
  if (ze_result_t result = checkRegion(destination, pDstRegion, __func__, "pDstRegion"); result != ZE_RESULT_SUCCESS) return result;
  const Triple extent = extentOf(pSrcRegion, source);
  ZE_REQUIRE(extent == extentOf(pDstRegion, destination), ZE_RESULT_ERROR_INVALID_ARGUMENT,
             "the source and destination regions differ in size");
  const Triple srcOrigin = originOf(pSrcRegion), dstOrigin = originOf(pDstRegion);
  bool overlaps = &source == &destination;
  for (int d = 0; d < 3 && overlaps; ++d)
    overlaps = srcOrigin[d] < dstOrigin[d] + extent[d] && dstOrigin[d] < srcOrigin[d] + extent[d];
  ZE_REQUIRE(!overlaps, ZE_RESULT_ERROR_OVERLAPPING_REGIONS, "the source and destination regions overlap");
  const Triple bytes = source.copyExtent(extent);
  const core::CopyRegionCommand copy{destination.data(), source.data(), destination.regionAt(dstOrigin), source.regionAt(srcOrigin),
                                     bytes[0], bytes[1], bytes[2]};
  return CommandList::fromHandle(hCommandList)->append(__func__, hSignalEvent, numWaitEvents, phWaitEvents,
                                                       [&](core::CommandStream& stream) { stream.appendCopyRegion(copy); });
}

ze_result_t zeCommandListAppendImageCopyToMemory(ze_command_list_handle_t hCommandList, void* dstptr, ze_image_handle_t hSrcImage,
                                                 const ze_image_region_t* pSrcRegion, ze_event_handle_t hSignalEvent,
                                                 uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  return loom::l0::zeCommandListAppendImageCopyToMemoryExt(hCommandList, dstptr, hSrcImage, pSrcRegion, 0, 0, hSignalEvent, numWaitEvents,
                                                 phWaitEvents);
}

ze_result_t zeCommandListAppendImageCopyFromMemory(ze_command_list_handle_t hCommandList, ze_image_handle_t hDstImage,
                                                   const void* srcptr, const ze_image_region_t* pDstRegion,
                                                   ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                                                   ze_event_handle_t* phWaitEvents) {
  return loom::l0::zeCommandListAppendImageCopyFromMemoryExt(hCommandList, hDstImage, srcptr, pDstRegion, 0, 0, hSignalEvent, numWaitEvents,
                                                   phWaitEvents);
}

ze_result_t zeCommandListAppendImageCopyToMemoryExt(ze_command_list_handle_t hCommandList, void* dstptr,
                                                    ze_image_handle_t hSrcImage, const ze_image_region_t* pSrcRegion,
                                                    uint32_t destRowPitch, uint32_t destSlicePitch, ze_event_handle_t hSignalEvent,
                                                    uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  ZE_REQUIRE_HANDLE(hCommandList);
  ZE_REQUIRE_HANDLE(hSrcImage);
  ZE_REQUIRE_POINTER(dstptr);
  return appendMemoryCopy(__func__, hCommandList, dstptr, *Image::fromHandle(hSrcImage), pSrcRegion, {destRowPitch, destSlicePitch},
                          true, hSignalEvent, numWaitEvents, phWaitEvents);
}

ze_result_t zeCommandListAppendImageCopyFromMemoryExt(ze_command_list_handle_t hCommandList, ze_image_handle_t hDstImage,
                                                      const void* srcptr, const ze_image_region_t* pDstRegion,
                                                      uint32_t srcRowPitch, uint32_t srcSlicePitch, ze_event_handle_t hSignalEvent,
                                                      uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  ZE_REQUIRE_HANDLE(hCommandList);
  ZE_REQUIRE_HANDLE(hDstImage);
  ZE_REQUIRE_POINTER(srcptr);
  return appendMemoryCopy(__func__, hCommandList, const_cast<void*>(srcptr), *Image::fromHandle(hDstImage), pDstRegion,
                          {srcRowPitch, srcSlicePitch}, false, hSignalEvent, numWaitEvents, phWaitEvents);
}

}  // namespace loom::l0
