#pragma once
// Image formats as both APIs and the kernels see them: OpenCL's channel orders and types, with
// the values of the OpenCL API (which compiler/image_abi.h hands to kernels as they are; Level
// Zero formats are mapped to them, and to the channel types of image_abi.h where OpenCL has none).
// What a texel of a format holds, which formats are valid, which ones Loom's devices support, and
// how a color becomes a texel (fills, as write_image*).
#include <cstdint>
#include <vector>

#include "loom/compiler/image_abi.h"

namespace loom::core {

enum class ChannelOrder : uint32_t {
  R = 0x10B0,
  A = 0x10B1,
  RG = 0x10B2,
  RA = 0x10B3,
  RGB = 0x10B4,
  RGBA = 0x10B5,
  BGRA = 0x10B6,
  ARGB = 0x10B7,
  Intensity = 0x10B8,
  Luminance = 0x10B9,
  Rx = 0x10BA,
  RGx = 0x10BB,
  RGBx = 0x10BC,
  Depth = 0x10BD,
  DepthStencil = 0x10BE,
  sRGB = 0x10BF,
  sRGBx = 0x10C0,
  sRGBA = 0x10C1,
  sBGRA = 0x10C2,
  ABGR = 0x10C3,
};

enum class ChannelType : uint32_t {
  SnormInt8 = 0x10D0,
  SnormInt16 = 0x10D1,
  UnormInt8 = 0x10D2,
  UnormInt16 = 0x10D3,
  UnormShort565 = 0x10D4,
  UnormShort555 = 0x10D5,
  UnormInt101010 = 0x10D6,
  SignedInt8 = 0x10D7,
  SignedInt16 = 0x10D8,
  SignedInt32 = 0x10D9,
  UnsignedInt8 = 0x10DA,
  UnsignedInt16 = 0x10DB,
  UnsignedInt32 = 0x10DC,
  HalfFloat = 0x10DD,
  Float = 0x10DE,
  UnormInt24 = 0x10DF,
  UnormInt101010_2 = 0x10E0,
  // Level Zero's layouts that OpenCL lacks (image_abi.h says where their bits lie).
  UnormInt2_101010 = compiler::kChannelUnormInt2_101010,
  UnormInt32 = compiler::kChannelUnormInt32,
  SnormInt32 = compiler::kChannelSnormInt32,
  SnormInt2_101010 = compiler::kChannelSnormInt2_101010,
  SignedInt2_101010 = compiler::kChannelSignedInt2_101010,
  UnsignedInt2_101010 = compiler::kChannelUnsignedInt2_101010,
  UnsignedFloat2_101010 = compiler::kChannelUnsignedFloat2_101010,
  UnsignedFloat11_11_10 = compiler::kChannelUnsignedFloat11_11_10,
  UnormShort4444 = compiler::kChannelUnormShort4444,
  UnormShort1555 = compiler::kChannelUnormShort1555,
};

// cl_mem_object_type values, which kernels receive as they are (image_abi.h).
enum class ImageType : uint32_t {
  Image2d = 0x10F1,
  Image3d = 0x10F2,
  Image2dArray = 0x10F3,
  Image1d = 0x10F4,
  Image1dArray = 0x10F5,
  Image1dBuffer = 0x10F6,
};

struct ImageFormat {
  ChannelOrder order = ChannelOrder::RGBA;
  ChannelType type = ChannelType::UnormInt8;
  bool operator==(const ImageFormat&) const = default;
};

// How a kernel reads and writes a channel type: read_imagef/write_imagef, *_imagei or *_imageui.
enum class ChannelClass : uint8_t { Float, SignedInteger, UnsignedInteger };
ChannelClass channelClass(ChannelType type);

// OpenCL's values (Level Zero's own channel types are not among them).
bool isKnownChannelOrder(uint32_t order);
bool isKnownChannelType(uint32_t type);
// The OpenCL specification's rules for which types an order takes (packed types with RGB/RGBx
// only, BGRA-like orders with 8-bit types only, intensity and luminance with normalized and float
// types only, sRGB with UNORM_INT8 only, ...). Both values must be known.
bool isValidFormat(ImageFormat format);
// The formats of Level Zero layouts that OpenCL has no channel type for: 32-bit normalized
// channels (orders R, A, RG, RA, RGBA), the *2_101010 types with ABGR, UnsignedFloat11_11_10 with RGB,
// UnormShort4444 and UnormShort1555 with ARGB. Loom's devices support all of them, for every
// image type, in kernels and copies.
bool isLevelZeroFormat(ImageFormat format);
// Bytes one texel takes; 0 for a format that neither isValidFormat nor isLevelZeroFormat takes.
uint32_t elementSize(ImageFormat format);
uint32_t channelCount(ChannelOrder order);

// The OpenCL formats Loom's devices read and write in images of `type`, in kernels and copies
// (clGetSupportedImageFormats): `kernelWrites` keeps those that kernels may also write (sRGB
// orders are read-only without cl_khr_srgb_image_writes); depth formats are for 2D images and 2D
// arrays (cl_khr_depth_images).
std::vector<ImageFormat> supportedImageFormats(ImageType type, bool kernelWrites);
// One of supportedImageFormats, or a Level Zero format (isLevelZeroFormat).
bool isSupportedImageFormat(ImageFormat format, ImageType type, bool kernelWrites);

// A fill color: four floats for normalized and float types, four signed or unsigned integers for
// integer types, as OpenCL's clEnqueueFillImage and Level Zero take it. Always (r, g, b, a).
union FillColor {
  float f[4];
  int32_t i[4];
  uint32_t u[4];
};
// Writes the texel `color` becomes in OpenCL format `format` to `texel` (elementSize(format)
// bytes), with the conversions write_image* make: saturation, round to nearest even, sRGB
// encoding. (Level Zero has no image fills.)
void encodeTexel(ImageFormat format, const FillColor& color, void* texel);

}  // namespace loom::core
