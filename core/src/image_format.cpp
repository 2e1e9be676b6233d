#include "loom/core/image_format.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace loom::core {
namespace {

bool isPackedRgbType(ChannelType type) {
  return type == ChannelType::UnormShort565 || type == ChannelType::UnormShort555 || type == ChannelType::UnormInt101010;
}

bool isPackedType(ChannelType type) {
  return isPackedRgbType(type) || type == ChannelType::UnormInt101010_2 || type == ChannelType::UnormInt24;
}

bool isEightBitType(ChannelType type) {
  return type == ChannelType::UnormInt8 || type == ChannelType::SnormInt8 || type == ChannelType::SignedInt8 ||
         type == ChannelType::UnsignedInt8;
}

bool isNormalizedOrFloatType(ChannelType type) {
  switch (type) {
    case ChannelType::UnormInt8:
    case ChannelType::UnormInt16:
    case ChannelType::SnormInt8:
    case ChannelType::SnormInt16:
    case ChannelType::HalfFloat:
    case ChannelType::Float: return true;
    default: return false;
  }
}

bool isSrgbOrder(ChannelOrder order) {
  return order == ChannelOrder::sRGB || order == ChannelOrder::sRGBx || order == ChannelOrder::sRGBA ||
         order == ChannelOrder::sBGRA;
}

uint32_t channelBytes(ChannelType type) {
  switch (type) {
    case ChannelType::SnormInt8:
    case ChannelType::UnormInt8:
    case ChannelType::SignedInt8:
    case ChannelType::UnsignedInt8: return 1;
    case ChannelType::SnormInt16:
    case ChannelType::UnormInt16:
    case ChannelType::SignedInt16:
    case ChannelType::UnsignedInt16:
    case ChannelType::HalfFloat: return 2;
    case ChannelType::SignedInt32:
    case ChannelType::UnsignedInt32:
    case ChannelType::Float: return 4;
    default: return 0;  // packed types: the whole texel is one word
  }
}

uint32_t packedTexelBytes(ChannelType type) {
  switch (type) {
    case ChannelType::UnormShort565:
    case ChannelType::UnormShort555: return 2;
    case ChannelType::UnormInt101010:
    case ChannelType::UnormInt101010_2:
    case ChannelType::UnormInt24: return 4;
    default: return 0;
  }
}

// Which color component each stored channel holds, in memory order (0 r, 1 g, 2 b, 3 a; -1 the
// padding of the *x orders, written as zero).
struct Swizzle {
  int count;
  int components[4];
};

Swizzle swizzleOf(ChannelOrder order) {
  switch (order) {
    case ChannelOrder::R:
    case ChannelOrder::Intensity:
    case ChannelOrder::Luminance:
    case ChannelOrder::Depth:
    case ChannelOrder::DepthStencil: return {1, {0}};
    case ChannelOrder::A: return {1, {3}};
    case ChannelOrder::Rx: return {2, {0, -1}};
    case ChannelOrder::RG: return {2, {0, 1}};
    case ChannelOrder::RA: return {2, {0, 3}};
    case ChannelOrder::RGx: return {3, {0, 1, -1}};
    case ChannelOrder::RGB:
    case ChannelOrder::sRGB: return {3, {0, 1, 2}};
    case ChannelOrder::RGBx:
    case ChannelOrder::sRGBx: return {4, {0, 1, 2, -1}};
    case ChannelOrder::RGBA:
    case ChannelOrder::sRGBA: return {4, {0, 1, 2, 3}};
    case ChannelOrder::BGRA:
    case ChannelOrder::sBGRA: return {4, {2, 1, 0, 3}};
    case ChannelOrder::ARGB: return {4, {3, 0, 1, 2}};
    case ChannelOrder::ABGR: return {4, {3, 2, 1, 0}};
  }
  return {0, {}};
}

// convert_<type>_sat_rte(value * scale), NaN to 0, as write_imagef does for normalized types.
int64_t normalize(float value, float scale, int64_t low, int64_t high) {
  if (std::isnan(value)) return 0;
  const float scaled = std::nearbyint(value * scale);  // the default rounding: to nearest even
  return static_cast<int64_t>(std::clamp(scaled, static_cast<float>(low), static_cast<float>(high)));
}

// Round to nearest even, overflow to infinity, subnormals kept.
uint16_t floatToHalf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  const uint32_t magnitude = bits & 0x7FFFFFFF;
  if (magnitude > 0x7F800000) return static_cast<uint16_t>(sign | 0x7E00);  // NaN
  if (magnitude >= 0x477FF000) return static_cast<uint16_t>(sign | 0x7C00);  // rounds to infinity
  if (magnitude < 0x38800000) {  // subnormal half (or zero): scale to units of 2^-24
    const float absolute = std::fabs(value);
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(absolute * 16777216.0f)));
  }
  const uint32_t rebased = magnitude - 0x38000000;  // exponent bias 127 -> 15
  const uint32_t remainder = rebased & 0x1FFF;
  uint32_t half = rebased >> 13;
  if (remainder > 0x1000 || (remainder == 0x1000 && (half & 1))) ++half;
  return static_cast<uint16_t>(sign | half);
}

float linearToSrgb(float value) {
  if (std::isnan(value)) return 0.0f;
  value = std::clamp(value, 0.0f, 1.0f);
  return value <= 0.0031308f ? value * 12.92f : 1.055f * std::pow(value, 1.0f / 2.4f) - 0.055f;
}

template <typename T>
void store(void* at, size_t index, T value) {
  std::memcpy(static_cast<char*>(at) + index * sizeof(T), &value, sizeof(T));
}

// One channel of a non-packed type.
void encodeChannel(ChannelType type, const FillColor& color, int component, void* texel, size_t index) {
  const float f = component < 0 ? 0.0f : color.f[component];
  const int32_t i = component < 0 ? 0 : color.i[component];
  const uint32_t u = component < 0 ? 0 : color.u[component];
  switch (type) {
    case ChannelType::UnormInt8: return store(texel, index, static_cast<uint8_t>(normalize(f, 255.0f, 0, 255)));
    case ChannelType::UnormInt16: return store(texel, index, static_cast<uint16_t>(normalize(f, 65535.0f, 0, 65535)));
    case ChannelType::SnormInt8: return store(texel, index, static_cast<int8_t>(normalize(f, 127.0f, -128, 127)));
    case ChannelType::SnormInt16: return store(texel, index, static_cast<int16_t>(normalize(f, 32767.0f, -32768, 32767)));
    case ChannelType::SignedInt8: return store(texel, index, static_cast<int8_t>(std::clamp<int32_t>(i, INT8_MIN, INT8_MAX)));
    case ChannelType::SignedInt16: return store(texel, index, static_cast<int16_t>(std::clamp<int32_t>(i, INT16_MIN, INT16_MAX)));
    case ChannelType::SignedInt32: return store(texel, index, i);
    case ChannelType::UnsignedInt8: return store(texel, index, static_cast<uint8_t>(std::min<uint32_t>(u, UINT8_MAX)));
    case ChannelType::UnsignedInt16: return store(texel, index, static_cast<uint16_t>(std::min<uint32_t>(u, UINT16_MAX)));
    case ChannelType::UnsignedInt32: return store(texel, index, u);
    case ChannelType::HalfFloat: return store(texel, index, floatToHalf(f));
    case ChannelType::Float: return store(texel, index, f);
    default: return;
  }
}

void encodePacked(ChannelType type, const FillColor& color, void* texel) {
  const float* c = color.f;
  switch (type) {
    case ChannelType::UnormShort565:
      return store(texel, 0, static_cast<uint16_t>(normalize(c[0], 31, 0, 31) << 11 | normalize(c[1], 63, 0, 63) << 5 |
                                                   normalize(c[2], 31, 0, 31)));
    case ChannelType::UnormShort555:
      return store(texel, 0, static_cast<uint16_t>(normalize(c[0], 31, 0, 31) << 10 | normalize(c[1], 31, 0, 31) << 5 |
                                                   normalize(c[2], 31, 0, 31)));
    case ChannelType::UnormInt101010:
      return store(texel, 0, static_cast<uint32_t>(normalize(c[0], 1023, 0, 1023) << 20 |
                                                   normalize(c[1], 1023, 0, 1023) << 10 | normalize(c[2], 1023, 0, 1023)));
    case ChannelType::UnormInt101010_2:
      return store(texel, 0, static_cast<uint32_t>(normalize(c[0], 1023, 0, 1023) << 22 | normalize(c[1], 1023, 0, 1023) << 12 |
                                                   normalize(c[2], 1023, 0, 1023) << 2 | normalize(c[3], 3, 0, 3)));
    case ChannelType::UnormInt24:
      return store(texel, 0, static_cast<uint32_t>(normalize(c[0], 16777215.0f, 0, 16777215)));
    default: return;
  }
}

constexpr ChannelOrder kSupportedOrders[] = {
    ChannelOrder::R,         ChannelOrder::A,         ChannelOrder::RG,    ChannelOrder::RA,    ChannelOrder::RGB,
    ChannelOrder::RGBx,      ChannelOrder::RGBA,      ChannelOrder::BGRA,  ChannelOrder::ARGB,  ChannelOrder::ABGR,
    ChannelOrder::Intensity, ChannelOrder::Luminance, ChannelOrder::Depth, ChannelOrder::sRGB,  ChannelOrder::sRGBA,
    ChannelOrder::sBGRA};
// CL_Rx and CL_sRGBx are valid but not listed: the specification calls them two- and
// four-channel formats, while OpenCL-CTS (v2023-05-16) stores one and three channels for them.
constexpr ChannelType kSupportedTypes[] = {
    ChannelType::SnormInt8,     ChannelType::SnormInt16,   ChannelType::UnormInt8,      ChannelType::UnormInt16,
    ChannelType::UnormShort565, ChannelType::UnormShort555, ChannelType::UnormInt101010, ChannelType::UnormInt101010_2,
    ChannelType::SignedInt8,    ChannelType::SignedInt16,  ChannelType::SignedInt32,    ChannelType::UnsignedInt8,
    ChannelType::UnsignedInt16, ChannelType::UnsignedInt32, ChannelType::HalfFloat,     ChannelType::Float};

// Level Zero's formats that OpenCL lacks, with the bytes of a texel.
struct LevelZeroFormat {
  ImageFormat format;
  uint32_t bytes;
};
constexpr LevelZeroFormat kLevelZeroFormats[] = {
    {{ChannelOrder::R, ChannelType::UnormInt32}, 4},
    {{ChannelOrder::A, ChannelType::UnormInt32}, 4},
    {{ChannelOrder::RG, ChannelType::UnormInt32}, 8},
    {{ChannelOrder::RA, ChannelType::UnormInt32}, 8},
    {{ChannelOrder::RGBA, ChannelType::UnormInt32}, 16},
    {{ChannelOrder::R, ChannelType::SnormInt32}, 4},
    {{ChannelOrder::A, ChannelType::SnormInt32}, 4},
    {{ChannelOrder::RG, ChannelType::SnormInt32}, 8},
    {{ChannelOrder::RA, ChannelType::SnormInt32}, 8},
    {{ChannelOrder::RGBA, ChannelType::SnormInt32}, 16},
    {{ChannelOrder::ABGR, ChannelType::UnormInt2_101010}, 4},
    {{ChannelOrder::ABGR, ChannelType::SnormInt2_101010}, 4},
    {{ChannelOrder::ABGR, ChannelType::SignedInt2_101010}, 4},
    {{ChannelOrder::ABGR, ChannelType::UnsignedInt2_101010}, 4},
    {{ChannelOrder::ABGR, ChannelType::UnsignedFloat2_101010}, 4},
    {{ChannelOrder::RGB, ChannelType::UnsignedFloat11_11_10}, 4},
    {{ChannelOrder::ARGB, ChannelType::UnormShort4444}, 2},
    {{ChannelOrder::ARGB, ChannelType::UnormShort1555}, 2},
};

const LevelZeroFormat* levelZeroFormatOf(ImageFormat format) {
  for (const LevelZeroFormat& known : kLevelZeroFormats)
    if (known.format == format) return &known;
  return nullptr;
}

bool supportsDepth(ImageType type) { return type == ImageType::Image2d || type == ImageType::Image2dArray; }

}  // namespace

ChannelClass channelClass(ChannelType type) {
  switch (type) {
    case ChannelType::SignedInt8:
    case ChannelType::SignedInt16:
    case ChannelType::SignedInt32:
    case ChannelType::SignedInt2_101010: return ChannelClass::SignedInteger;
    case ChannelType::UnsignedInt8:
    case ChannelType::UnsignedInt16:
    case ChannelType::UnsignedInt32:
    case ChannelType::UnsignedInt2_101010: return ChannelClass::UnsignedInteger;
    default: return ChannelClass::Float;
  }
}

bool isKnownChannelOrder(uint32_t order) {
  return order >= static_cast<uint32_t>(ChannelOrder::R) && order <= static_cast<uint32_t>(ChannelOrder::ABGR);
}

bool isKnownChannelType(uint32_t type) {
  return type >= static_cast<uint32_t>(ChannelType::SnormInt8) && type <= static_cast<uint32_t>(ChannelType::UnormInt101010_2);
}

bool isValidFormat(ImageFormat format) {
  if (!isKnownChannelOrder(static_cast<uint32_t>(format.order)) || !isKnownChannelType(static_cast<uint32_t>(format.type)))
    return false;
  const ChannelType type = format.type;
  switch (format.order) {
    case ChannelOrder::RGB:
    case ChannelOrder::RGBx: return isPackedRgbType(type);
    case ChannelOrder::BGRA:
    case ChannelOrder::ARGB:
    case ChannelOrder::ABGR: return isEightBitType(type);
    case ChannelOrder::Intensity:
    case ChannelOrder::Luminance: return isNormalizedOrFloatType(type);
    case ChannelOrder::RGx: return false;  // three channels: no type makes the texel's bits a power of two
    case ChannelOrder::Depth: return type == ChannelType::UnormInt16 || type == ChannelType::Float;
    case ChannelOrder::DepthStencil: return type == ChannelType::UnormInt24 || type == ChannelType::Float;
    case ChannelOrder::RGBA: return !isPackedType(type) || type == ChannelType::UnormInt101010_2;
    default:
      if (isSrgbOrder(format.order)) return type == ChannelType::UnormInt8;
      return !isPackedType(type);
  }
}

bool isLevelZeroFormat(ImageFormat format) { return levelZeroFormatOf(format) != nullptr; }

uint32_t channelCount(ChannelOrder order) { return static_cast<uint32_t>(swizzleOf(order).count); }

uint32_t elementSize(ImageFormat format) {
  if (const LevelZeroFormat* levelZero = levelZeroFormatOf(format)) return levelZero->bytes;
  if (!isValidFormat(format)) return 0;
  if (format.order == ChannelOrder::DepthStencil) return format.type == ChannelType::Float ? 8 : 4;
  if (isPackedType(format.type)) return packedTexelBytes(format.type);
  return channelCount(format.order) * channelBytes(format.type);
}

std::vector<ImageFormat> supportedImageFormats(ImageType type, bool kernelWrites) {
  std::vector<ImageFormat> formats;
  for (ChannelOrder order : kSupportedOrders) {
    if (kernelWrites && isSrgbOrder(order)) continue;
    if (order == ChannelOrder::Depth && !supportsDepth(type)) continue;
    for (ChannelType channelType : kSupportedTypes)
      if (isValidFormat({order, channelType})) formats.push_back({order, channelType});
  }
  return formats;
}

bool isSupportedImageFormat(ImageFormat format, ImageType type, bool kernelWrites) {
  if (isLevelZeroFormat(format)) return true;
  const std::vector<ImageFormat> formats = supportedImageFormats(type, kernelWrites);
  return std::find(formats.begin(), formats.end(), format) != formats.end();
}

void encodeTexel(ImageFormat format, const FillColor& color, void* texel) {
  if (isPackedType(format.type)) return encodePacked(format.type, color, texel);
  FillColor converted = color;
  if (isSrgbOrder(format.order))
    for (int c = 0; c < 3; ++c) converted.f[c] = linearToSrgb(color.f[c]);
  const Swizzle swizzle = swizzleOf(format.order);
  for (int channel = 0; channel < swizzle.count; ++channel)
    encodeChannel(format.type, converted, swizzle.components[channel], texel, static_cast<size_t>(channel));
}

}  // namespace loom::core
