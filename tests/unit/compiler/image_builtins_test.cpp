// The image builtins (compiler/builtins/images.cl) through the real pipeline: OpenCL C kernels
// compiled for the CPU and run on images that are ImageDescriptors over host memory, as the
// runtime makes them (image_abi.h), checked texel by texel against host references written here
// from the OpenCL specification's conversion, addressing and filtering rules.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>

#include "kernel_runner.h"
#include "loom/compiler/image_abi.h"

namespace loom::compiler::test {
namespace {

// The OpenCL API's values (cl.h), which ImageDescriptor carries.
enum ChannelOrder : uint32_t {
  R = 0x10B0, A = 0x10B1, RG = 0x10B2, RA = 0x10B3, RGB = 0x10B4, RGBA = 0x10B5, BGRA = 0x10B6, ARGB = 0x10B7,
  INTENSITY = 0x10B8, LUMINANCE = 0x10B9, Rx = 0x10BA, RGx = 0x10BB, RGBx = 0x10BC, DEPTH = 0x10BD,
  sRGB = 0x10BF, sRGBx = 0x10C0, sRGBA = 0x10C1, sBGRA = 0x10C2, ABGR = 0x10C3,
};
enum ChannelType : uint32_t {
  SNORM_INT8 = 0x10D0, SNORM_INT16 = 0x10D1, UNORM_INT8 = 0x10D2, UNORM_INT16 = 0x10D3, UNORM_SHORT_565 = 0x10D4,
  UNORM_SHORT_555 = 0x10D5, UNORM_INT_101010 = 0x10D6, SIGNED_INT8 = 0x10D7, SIGNED_INT16 = 0x10D8, SIGNED_INT32 = 0x10D9,
  UNSIGNED_INT8 = 0x10DA, UNSIGNED_INT16 = 0x10DB, UNSIGNED_INT32 = 0x10DC, HALF_FLOAT = 0x10DD, FLOAT = 0x10DE,
  UNORM_INT_101010_2 = 0x10E0,
  // Level Zero's (image_abi.h).
  UNORM_INT_2_101010 = kChannelUnormInt2_101010, UNORM_INT32 = kChannelUnormInt32, SNORM_INT32 = kChannelSnormInt32,
  SNORM_INT_2_101010 = kChannelSnormInt2_101010, SIGNED_INT_2_101010 = kChannelSignedInt2_101010,
  UNSIGNED_INT_2_101010 = kChannelUnsignedInt2_101010, UNSIGNED_FLOAT_2_101010 = kChannelUnsignedFloat2_101010,
  UNSIGNED_FLOAT_11_11_10 = kChannelUnsignedFloat11_11_10, UNORM_SHORT_4444 = kChannelUnormShort4444,
  UNORM_SHORT_1555 = kChannelUnormShort1555,
};
enum ImageType : uint32_t {
  IMAGE2D = 0x10F1, IMAGE3D = 0x10F2, IMAGE2D_ARRAY = 0x10F3, IMAGE1D = 0x10F4, IMAGE1D_ARRAY = 0x10F5, IMAGE1D_BUFFER = 0x10F6,
};

using Float4 = std::array<float, 4>;
using Int4 = std::array<int32_t, 4>;

// A field of a packed texel: its lowest bit, its width and what it holds.
enum class Kind { Unorm, Snorm, Unsigned, Signed, UnsignedFloat };
struct Field {
  int shift, width;
  Kind kind;
};
// Packed types: the texel's bytes and its fields, in the memory order of the channel order they
// go with (image_abi.h and the OpenCL specification say where their bits lie).
struct Packed {
  uint32_t bytes;
  std::vector<Field> fields;
};

const Packed* packedOf(uint32_t type) {
  constexpr Kind U = Kind::Unorm, S = Kind::Snorm, UI = Kind::Unsigned, SI = Kind::Signed, F = Kind::UnsignedFloat;
  static const std::map<uint32_t, Packed> packed = {
      {UNORM_SHORT_565, {2, {{11, 5, U}, {5, 6, U}, {0, 5, U}}}},
      {UNORM_SHORT_555, {2, {{10, 5, U}, {5, 5, U}, {0, 5, U}}}},
      {UNORM_INT_101010, {4, {{20, 10, U}, {10, 10, U}, {0, 10, U}}}},
      {UNORM_INT_101010_2, {4, {{22, 10, U}, {12, 10, U}, {2, 10, U}, {0, 2, U}}}},
      {UNORM_INT_2_101010, {4, {{30, 2, U}, {20, 10, U}, {10, 10, U}, {0, 10, U}}}},
      {SNORM_INT_2_101010, {4, {{30, 2, S}, {20, 10, S}, {10, 10, S}, {0, 10, S}}}},
      {UNSIGNED_INT_2_101010, {4, {{30, 2, UI}, {20, 10, UI}, {10, 10, UI}, {0, 10, UI}}}},
      {SIGNED_INT_2_101010, {4, {{30, 2, SI}, {20, 10, SI}, {10, 10, SI}, {0, 10, SI}}}},
      {UNSIGNED_FLOAT_2_101010, {4, {{30, 2, U}, {20, 10, F}, {10, 10, F}, {0, 10, F}}}},
      {UNSIGNED_FLOAT_11_11_10, {4, {{0, 11, F}, {11, 11, F}, {22, 10, F}}}},
      {UNORM_SHORT_4444, {2, {{12, 4, U}, {8, 4, U}, {4, 4, U}, {0, 4, U}}}},
      {UNORM_SHORT_1555, {2, {{15, 1, U}, {10, 5, U}, {5, 5, U}, {0, 5, U}}}},
  };
  const auto found = packed.find(type);
  return found == packed.end() ? nullptr : &found->second;
}

bool isPacked(uint32_t type) { return packedOf(type) != nullptr; }
bool isSignedInteger(uint32_t type) {
  return type == SIGNED_INT8 || type == SIGNED_INT16 || type == SIGNED_INT32 || type == SIGNED_INT_2_101010;
}
bool isInteger(uint32_t type) {
  return (type >= SIGNED_INT8 && type <= UNSIGNED_INT32) || type == SIGNED_INT_2_101010 || type == UNSIGNED_INT_2_101010;
}

uint32_t channelCount(uint32_t order) {
  switch (order) {
    case R: case A: case INTENSITY: case LUMINANCE: case DEPTH: return 1;
    case RG: case RA: case Rx: return 2;
    case RGB: case RGx: case sRGB: return 3;
    default: return 4;
  }
}

uint32_t channelSize(uint32_t type) {
  switch (type) {
    case SNORM_INT8: case UNORM_INT8: case SIGNED_INT8: case UNSIGNED_INT8: return 1;
    case SIGNED_INT32: case UNSIGNED_INT32: case FLOAT: case UNORM_INT32: case SNORM_INT32: return 4;
    default: return 2;
  }
}

uint32_t elementSize(uint32_t order, uint32_t type) {
  if (const Packed* packed = packedOf(type)) return packed->bytes;
  return channelCount(order) * channelSize(type);
}

std::string formatName(uint32_t order, uint32_t type) {
  static const std::map<uint32_t, const char*> names = {
      {R, "R"}, {A, "A"}, {RG, "RG"}, {RA, "RA"}, {RGB, "RGB"}, {RGBA, "RGBA"}, {BGRA, "BGRA"}, {ARGB, "ARGB"},
      {INTENSITY, "INTENSITY"}, {LUMINANCE, "LUMINANCE"}, {Rx, "Rx"}, {RGx, "RGx"}, {RGBx, "RGBx"}, {DEPTH, "DEPTH"},
      {sRGBA, "sRGBA"}, {sBGRA, "sBGRA"}, {ABGR, "ABGR"}, {SNORM_INT8, "SNORM_INT8"}, {SNORM_INT16, "SNORM_INT16"},
      {UNORM_INT8, "UNORM_INT8"}, {UNORM_INT16, "UNORM_INT16"}, {UNORM_SHORT_565, "UNORM_SHORT_565"},
      {UNORM_SHORT_555, "UNORM_SHORT_555"}, {UNORM_INT_101010, "UNORM_INT_101010"}, {SIGNED_INT8, "SIGNED_INT8"},
      {SIGNED_INT16, "SIGNED_INT16"}, {SIGNED_INT32, "SIGNED_INT32"}, {UNSIGNED_INT8, "UNSIGNED_INT8"},
      {UNSIGNED_INT16, "UNSIGNED_INT16"}, {UNSIGNED_INT32, "UNSIGNED_INT32"}, {HALF_FLOAT, "HALF_FLOAT"}, {FLOAT, "FLOAT"},
      {sRGBx, "sRGBx"}, {UNORM_INT_101010_2, "UNORM_INT_101010_2"}, {UNORM_INT_2_101010, "UNORM_INT_2_101010"},
      {UNORM_INT32, "UNORM_INT32"}, {SNORM_INT32, "SNORM_INT32"}, {SNORM_INT_2_101010, "SNORM_INT_2_101010"},
      {SIGNED_INT_2_101010, "SIGNED_INT_2_101010"}, {UNSIGNED_INT_2_101010, "UNSIGNED_INT_2_101010"},
      {UNSIGNED_FLOAT_2_101010, "UNSIGNED_FLOAT_2_101010"}, {UNSIGNED_FLOAT_11_11_10, "UNSIGNED_FLOAT_11_11_10"},
      {UNORM_SHORT_4444, "UNORM_SHORT_4444"}, {UNORM_SHORT_1555, "UNORM_SHORT_1555"}};
  return std::string(names.at(order)) + "_" + names.at(type);
}

// ---- Host image -------------------------------------------------------------------------------

// An image in host memory, with `padding` bytes after each row and each slice (pitches that are
// not tight), filled with a marker byte so that stray writes show.
struct HostImage {
  ImageDescriptor descriptor{};
  std::vector<uint8_t> storage;

  HostImage(uint32_t imageType, uint32_t order, uint32_t type, uint32_t width, uint32_t height = 1, uint32_t depth = 1,
            uint32_t arraySize = 1, uint32_t padding = 12) {
    ImageDescriptor& d = descriptor;
    d.imageType = imageType, d.channelOrder = order, d.channelType = type;
    d.width = width, d.height = height, d.depth = depth, d.arraySize = arraySize;
    d.elementSize = elementSize(order, type);
    d.rowPitch = uint64_t(width) * d.elementSize + padding;
    d.slicePitch = imageType == IMAGE1D_ARRAY ? d.rowPitch : d.rowPitch * height + padding;
    d.mipLevels = 1;
    storage.assign(d.slicePitch * std::max(depth, arraySize) + 64, 0xA5);
    d.data = reinterpret_cast<uint64_t>(storage.data());
  }
  // (x, y, z) with z the slice of a 3D image or the layer of an array (y for a 1D array's layer
  // works as well: its layers step by rowPitch).
  uint8_t* texel(uint32_t x, uint32_t y = 0, uint32_t z = 0) {
    return storage.data() + x * descriptor.elementSize + y * descriptor.rowPitch + z * descriptor.slicePitch;
  }
  const ImageDescriptor* argument() const { return &descriptor; }
};

// ---- Host reference of the conversions --------------------------------------------------------

float halfToFloat(uint16_t bits) {
  _Float16 h;
  std::memcpy(&h, &bits, 2);
  return float(h);
}
uint16_t floatToHalf(float f) {
  const _Float16 h = _Float16(f);  // round to nearest even
  uint16_t bits;
  std::memcpy(&bits, &h, 2);
  return bits;
}

// Rounded to nearest even and saturated; NaN gives 0 (convert_<type>_sat_rte).
int64_t saturateRte(float value, int64_t low, int64_t high) {
  if (std::isnan(value)) return 0;
  const double rounded = std::nearbyint(double(value));
  return rounded < low ? low : rounded > high ? high : int64_t(rounded);
}

// Unsigned floats of `mantissaBits` 6 (11-bit) or 5 (10-bit), computed apart from the builtins'
// bit manipulation: value = mantissa * 2^(exponent - 15 - mantissaBits), with the implicit bit for
// normal values; a NaN's mantissa is the top of the float NaN's.
float fromUnsignedFloat(uint32_t bits, int mantissaBits) {
  const uint32_t exponent = bits >> mantissaBits, mantissa = bits & ((1u << mantissaBits) - 1);
  if (exponent == 31) {
    const uint32_t floatBits = 0x7F800000u | mantissa << (23 - mantissaBits);
    float special;
    std::memcpy(&special, &floatBits, 4);
    return special;
  }
  if (exponent == 0) return std::ldexp(float(mantissa), -14 - mantissaBits);
  return std::ldexp(float(mantissa | 1u << mantissaBits), int(exponent) - 15 - mantissaBits);
}

uint32_t toUnsignedFloat(float value, int mantissaBits) {
  const uint32_t infinity = 31u << mantissaBits, largest = infinity - 1;
  if (std::isnan(value)) {
    uint32_t floatBits;
    std::memcpy(&floatBits, &value, 4);
    const uint32_t payload = (floatBits >> (23 - mantissaBits)) & ((1u << mantissaBits) - 1);
    return infinity | (payload ? payload : 1u << (mantissaBits - 1));
  }
  if (!(value > 0)) return 0;
  if (std::isinf(value)) return infinity;
  int exponent = std::ilogb(value);  // value = 1.f * 2^exponent
  if (exponent < -14) return uint32_t(std::nearbyint(std::ldexp(double(value), 14 + mantissaBits)));  // subnormal steps
  double significand = std::nearbyint(std::ldexp(double(value), mantissaBits - exponent));  // in [2^m, 2^(m+1)]
  if (significand == std::ldexp(1.0, mantissaBits + 1)) significand /= 2, ++exponent;
  if (exponent + 15 >= 31) return largest;
  return std::min(largest, uint32_t(exponent + 15) << mantissaBits | (uint32_t(significand) - (1u << mantissaBits)));
}

// A field's value as the conversions of read_imagef see it, and the field write_imagef makes.
float fieldToFloat(const Field& field, uint32_t bits) {
  const uint32_t value = (bits >> field.shift) & ((1u << field.width) - 1);
  const float largest = float((1u << field.width) - 1);
  switch (field.kind) {
    case Kind::Unorm: return float(value) / largest;
    case Kind::Snorm: {
      const int32_t signedValue = int32_t(value << (32 - field.width)) >> (32 - field.width);
      return std::max(float(signedValue) / float((1u << (field.width - 1)) - 1), -1.0f);
    }
    default: return fromUnsignedFloat(value, field.width - 5);
  }
}
uint32_t floatToField(const Field& field, float c) {
  const int64_t largest = (int64_t(1) << field.width) - 1, signedLargest = (int64_t(1) << (field.width - 1)) - 1;
  switch (field.kind) {
    case Kind::Unorm: return uint32_t(saturateRte(c * float(largest), 0, largest)) << field.shift;
    case Kind::Snorm:
      return (uint32_t(saturateRte(c * float(signedLargest), -signedLargest - 1, signedLargest)) & uint32_t(largest)) << field.shift;
    default: return toUnsignedFloat(c, field.width - 5) << field.shift;
  }
}
// write_imagei to signed fields, write_imageui to unsigned ones: saturated.
uint32_t integerToField(const Field& field, int32_t c) {
  const int64_t largest = (int64_t(1) << field.width) - 1, signedLargest = (int64_t(1) << (field.width - 1)) - 1;
  if (field.kind == Kind::Signed)
    return (uint32_t(std::clamp<int64_t>(c, -signedLargest - 1, signedLargest)) & uint32_t(largest)) << field.shift;
  return uint32_t(std::min<uint64_t>(uint32_t(c), uint64_t(largest))) << field.shift;
}
int32_t fieldToInteger(const Field& field, uint32_t bits) {
  const uint32_t value = (bits >> field.shift) & ((1u << field.width) - 1);
  if (field.kind == Kind::Signed) return int32_t(value << (32 - field.width)) >> (32 - field.width);
  return int32_t(value);
}

uint32_t packedBits(const Packed& packed, const uint8_t* at) {
  uint32_t bits = 0;
  std::memcpy(&bits, at, packed.bytes);
  return bits;
}

// Channels in memory order -> (r, g, b, a), `one` for a missing alpha.
template <typename T>
std::array<T, 4> arrange(const std::array<T, 4>& s, uint32_t order, T one) {
  switch (order) {
    case R: case Rx: case DEPTH: return {s[0], 0, 0, one};
    case A: return {0, 0, 0, s[0]};
    case RG: case RGx: return {s[0], s[1], 0, one};
    case RA: return {s[0], 0, 0, s[1]};
    case RGB: case RGBx: case sRGB: case sRGBx: return {s[0], s[1], s[2], one};
    case BGRA: case sBGRA: return {s[2], s[1], s[0], s[3]};
    case ARGB: return {s[1], s[2], s[3], s[0]};
    case ABGR: return {s[3], s[2], s[1], s[0]};
    case INTENSITY: return {s[0], s[0], s[0], s[0]};
    case LUMINANCE: return {s[0], s[0], s[0], one};
    default: return s;
  }
}
template <typename T>
std::array<T, 4> memoryOrder(const std::array<T, 4>& c, uint32_t order) {
  switch (order) {
    case A: return {c[3], 0, 0, 0};
    case RA: return {c[0], c[3], 0, 0};
    case R: case Rx: case INTENSITY: case LUMINANCE: case DEPTH: return {c[0], 0, 0, 0};
    case RG: case RGx: return {c[0], c[1], 0, 0};
    case RGB: case RGBx: case sRGB: case sRGBx: return {c[0], c[1], c[2], 0};
    case BGRA: case sBGRA: return {c[2], c[1], c[0], c[3]};
    case ARGB: return {c[3], c[0], c[1], c[2]};
    case ABGR: return {c[3], c[2], c[1], c[0]};
    default: return c;
  }
}

bool isSrgb(uint32_t order) { return order == sRGB || order == sRGBx || order == sRGBA || order == sBGRA; }
float srgbToLinear(float c) { return c <= 0.04045f ? c / 12.92f : float(std::pow((c + 0.055) / 1.055, 2.4)); }
float linearToSrgb(float c) {
  if (std::isnan(c)) return 0;
  c = std::clamp(c, 0.0f, 1.0f);
  return c <= 0.0031308f ? 12.92f * c : float(1.055 * std::pow(double(c), 1.0 / 2.4) - 0.055);
}

template <typename T>
void put(uint8_t* at, T value) { std::memcpy(at, &value, sizeof(T)); }
template <typename T>
T get(const uint8_t* at) {
  T value;
  std::memcpy(&value, at, sizeof(T));
  return value;
}

// write_imagef's bytes for `color`.
std::vector<uint8_t> encodeFloat(uint32_t order, uint32_t type, Float4 color) {
  if (isSrgb(order))
    for (int i = 0; i < 3; ++i) color[i] = linearToSrgb(color[i]);
  const Float4 c = memoryOrder(color, order);
  std::vector<uint8_t> bytes(elementSize(order, type));
  auto unorm = [&](int i, float scale) { return uint32_t(saturateRte(c[i] * scale, 0, int64_t(scale))); };
  if (const Packed* packed = packedOf(type)) {
    uint32_t bits = 0;
    for (size_t i = 0; i < packed->fields.size(); ++i) bits |= floatToField(packed->fields[i], c[i]);
    std::memcpy(bytes.data(), &bits, packed->bytes);
    return bytes;
  }
  for (uint32_t i = 0; i < channelCount(order); ++i) {
    uint8_t* at = bytes.data() + i * channelSize(type);
    switch (type) {
      case UNORM_INT8: put<uint8_t>(at, uint8_t(unorm(i, 255))); break;
      case UNORM_INT16: put<uint16_t>(at, uint16_t(unorm(i, 65535))); break;
      case SNORM_INT8: put<int8_t>(at, int8_t(saturateRte(c[i] * 127.0f, -128, 127))); break;
      case SNORM_INT16: put<int16_t>(at, int16_t(saturateRte(c[i] * 32767.0f, -32768, 32767))); break;
      case UNORM_INT32: put<uint32_t>(at, uint32_t(saturateRte(c[i] * 4294967295.0f, 0, UINT32_MAX))); break;
      case SNORM_INT32: put<int32_t>(at, int32_t(saturateRte(c[i] * 2147483647.0f, INT32_MIN, INT32_MAX))); break;
      case HALF_FLOAT: put<uint16_t>(at, floatToHalf(c[i])); break;
      default: put<float>(at, c[i]); break;
    }
  }
  return bytes;
}

// write_imagei's and write_imageui's bytes: saturated to the channel type.
std::vector<uint8_t> encodeInteger(uint32_t order, uint32_t type, Int4 color) {
  const Int4 c = memoryOrder(color, order);
  std::vector<uint8_t> bytes(elementSize(order, type));
  if (const Packed* packed = packedOf(type)) {
    uint32_t bits = 0;
    for (size_t i = 0; i < packed->fields.size(); ++i) bits |= integerToField(packed->fields[i], c[i]);
    std::memcpy(bytes.data(), &bits, packed->bytes);
    return bytes;
  }
  for (uint32_t i = 0; i < channelCount(order); ++i) {
    uint8_t* at = bytes.data() + i * channelSize(type);
    const int64_t s = c[i];
    const uint64_t u = uint32_t(c[i]);
    switch (type) {
      case SIGNED_INT8: put<int8_t>(at, int8_t(std::clamp<int64_t>(s, -128, 127))); break;
      case SIGNED_INT16: put<int16_t>(at, int16_t(std::clamp<int64_t>(s, -32768, 32767))); break;
      case UNSIGNED_INT8: put<uint8_t>(at, uint8_t(std::min<uint64_t>(u, 255))); break;
      case UNSIGNED_INT16: put<uint16_t>(at, uint16_t(std::min<uint64_t>(u, 65535))); break;
      default: put<int32_t>(at, c[i]); break;
    }
  }
  return bytes;
}

// read_imagef's value of a texel's bytes.
Float4 decodeFloat(uint32_t order, uint32_t type, const uint8_t* at) {
  Float4 s{0, 0, 0, 0};
  if (const Packed* packed = packedOf(type))
    for (size_t i = 0; i < packed->fields.size(); ++i) s[i] = fieldToFloat(packed->fields[i], packedBits(*packed, at));
  for (uint32_t i = 0; i < channelCount(order) && !isPacked(type); ++i) {
    const uint8_t* channel = at + i * channelSize(type);
    switch (type) {
      case UNORM_INT8: s[i] = float(get<uint8_t>(channel)) / 255.0f; break;
      case UNORM_INT16: s[i] = float(get<uint16_t>(channel)) / 65535.0f; break;
      case SNORM_INT8: s[i] = std::max(float(get<int8_t>(channel)) / 127.0f, -1.0f); break;
      case SNORM_INT16: s[i] = std::max(float(get<int16_t>(channel)) / 32767.0f, -1.0f); break;
      case UNORM_INT32: s[i] = float(get<uint32_t>(channel)) / 4294967295.0f; break;
      case SNORM_INT32: s[i] = std::max(float(get<int32_t>(channel)) / 2147483647.0f, -1.0f); break;
      case HALF_FLOAT: s[i] = halfToFloat(get<uint16_t>(channel)); break;
      default: s[i] = get<float>(channel); break;
    }
  }
  Float4 c = arrange(s, order, 1.0f);
  if (isSrgb(order))
    for (int i = 0; i < 3; ++i) c[i] = srgbToLinear(c[i]);
  return c;
}

Int4 decodeInteger(uint32_t order, uint32_t type, const uint8_t* at) {
  Int4 s{0, 0, 0, 0};
  if (const Packed* packed = packedOf(type)) {
    for (size_t i = 0; i < packed->fields.size(); ++i) s[i] = fieldToInteger(packed->fields[i], packedBits(*packed, at));
    return arrange(s, order, 1);
  }
  for (uint32_t i = 0; i < channelCount(order); ++i) {
    const uint8_t* channel = at + i * channelSize(type);
    switch (type) {
      case SIGNED_INT8: s[i] = get<int8_t>(channel); break;
      case SIGNED_INT16: s[i] = get<int16_t>(channel); break;
      case UNSIGNED_INT8: s[i] = get<uint8_t>(channel); break;
      case UNSIGNED_INT16: s[i] = get<uint16_t>(channel); break;
      default: s[i] = get<int32_t>(channel); break;
    }
  }
  return arrange(s, order, 1);
}

bool sameFloat(float a, float b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

// ---- Running kernels --------------------------------------------------------------------------

// An OpenCL C program built for the CPU once per source.
CpuExecutable* program(const std::string& source) {
  static std::map<std::string, std::unique_ptr<CpuExecutable>> built;
  auto& executable = built[source];
  if (!executable) executable = load(compileOpenClSource({source, "-cl-std=CL2.0", {}}));
  return executable.get();
}

// Runs kernel `name` of `executable` over `items` work-items (one group each), its arguments set
// by `fill`.
template <typename Fill>
void runKernel(CpuExecutable* executable, const std::string& name, std::array<uint64_t, 3> items, Fill fill) {
  ASSERT_NE(executable, nullptr);
  std::string log;
  WorkGroupFunction function = executable->kernel(name, log);
  ASSERT_NE(function, nullptr) << log;
  Arguments arguments(*executable->program().info.findKernel(name));
  fill(arguments);
  Range range;
  range.globalSize = items;
  range.workDim = 3;
  arguments.run(function, range);
}

// The same for a kernel of an OpenCL C program.
template <typename Fill>
void run(const std::string& source, const std::string& name, std::array<uint64_t, 3> items, Fill fill) {
  runKernel(program(source), name, items, fill);
}

// write_f, read_f, write_i, read_i, write_ui, read_ui: texel i of row 0 from or to element i.
constexpr const char* kRoundTripKernels = R"(
  #define ROUND_TRIP(SUFFIX, T)                                                            \
    kernel void write_##SUFFIX(write_only image2d_t image, global const T* in) {           \
      int i = get_global_id(0);                                                            \
      write_image##SUFFIX(image, (int2)(i, 0), in[i]);                                     \
    }                                                                                      \
    kernel void read_##SUFFIX(read_only image2d_t image, global T* out) {                  \
      int i = get_global_id(0);                                                            \
      out[i] = read_image##SUFFIX(image, (int2)(i, 0));                                    \
    }
  ROUND_TRIP(f, float4)
  ROUND_TRIP(i, int4)
  ROUND_TRIP(ui, uint4))";

// Values that meet every conversion's edges: exact steps, ties, saturation, NaN.
std::vector<Float4> floatInputs() {
  std::vector<Float4> inputs = {{0.0f, 1.0f, -1.0f, 0.5f},
                                {2.0f, -2.0f, 1e9f, -1e9f},
                                {NAN, 0.25f, 0.75f, 1.0f / 3},
                                {0.5f / 255, 1.5f / 255, 2.5f / 255, 254.5f / 255},
                                {0.5f / 127, -0.5f / 127, 126.5f / 127, -127.5f / 127},
                                {0.5f / 31, 1.5f / 63, 0.5f / 1023, 30.5f / 31},
                                {65504.0f, 70000.0f, 1e-8f, -0.0f},
                                {1.0009765625f, 0.33325195f, 3.14159f, -6.1e-5f}};
  for (int i = 0; i < 24; ++i) inputs.push_back({i / 23.0f, 1.0f - i / 23.0f, i * 0.37f - 4.0f, std::sin(float(i))});
  return inputs;
}

std::vector<Int4> integerInputs() {
  return {{0, 1, -1, 127},       {128, -128, -129, 255},        {256, 32767, -32768, 65535},
          {65536, -65537, 2147483647, -2147483647 - 1}, {7, 42, -42, 1000}, {12345678, -5, 300, 99}};
}

struct Format {
  uint32_t order;
  uint32_t type;
};

class ImageFormatTest : public testing::TestWithParam<Format> {};

// write_image{f,i,ui} stores the bytes the conversion rules give, only inside the texel; the
// matching read_image returns what those bytes mean.
TEST_P(ImageFormatTest, WriteThenReadRoundTrips) {
  const auto [order, type] = GetParam();
  const bool integer = isInteger(type);
  const bool isSigned = isSignedInteger(type);
  const size_t count = integer ? integerInputs().size() : floatInputs().size();
  HostImage image(IMAGE2D, order, type, uint32_t(count), 2);
  const std::string suffix = !integer ? "_f" : isSigned ? "_i" : "_ui";
  std::vector<Float4> floats = floatInputs();
  std::vector<Int4> integers = integerInputs();
  run(kRoundTripKernels, "write" + suffix, {count, 1, 1}, [&](Arguments& a) {
    a.set(0, image.argument());
    a.set(1, integer ? static_cast<void*>(integers.data()) : static_cast<void*>(floats.data()));
  });
  for (size_t i = 0; i < count; ++i) {
    const std::vector<uint8_t> expected = integer ? encodeInteger(order, type, integers[i]) : encodeFloat(order, type, floats[i]);
    const std::vector<uint8_t> written(image.texel(uint32_t(i)), image.texel(uint32_t(i)) + expected.size());
    EXPECT_EQ(written, expected) << "texel " << i;
  }
  for (uint32_t i = 0; i < image.descriptor.rowPitch - count * image.descriptor.elementSize; ++i)
    ASSERT_EQ(image.texel(uint32_t(count))[i], 0xA5) << "the row's padding changed at byte " << i;
  ASSERT_EQ(*image.texel(0, 1), 0xA5) << "the second row changed";

  std::vector<Float4> floatsRead(count);
  std::vector<Int4> integersRead(count);
  run(kRoundTripKernels, "read" + suffix, {count, 1, 1}, [&](Arguments& a) {
    a.set(0, image.argument());
    a.set(1, integer ? static_cast<void*>(integersRead.data()) : static_cast<void*>(floatsRead.data()));
  });
  for (size_t i = 0; i < count; ++i) {
    if (integer) {
      EXPECT_EQ(integersRead[i], decodeInteger(order, type, image.texel(uint32_t(i)))) << "texel " << i;
      continue;
    }
    const Float4 expected = decodeFloat(order, type, image.texel(uint32_t(i)));
    for (int c = 0; c < 4; ++c) {
      if (isSrgb(order)) EXPECT_NEAR(floatsRead[i][c], expected[c], 2e-6f) << "texel " << i << " channel " << c;
      else EXPECT_TRUE(sameFloat(floatsRead[i][c], expected[c])) << "texel " << i << " channel " << c << ": " << floatsRead[i][c] << " != " << expected[c];
    }
  }
}

std::vector<Format> allFormats() {
  std::vector<Format> formats;
  for (uint32_t type : {UNORM_INT8, UNORM_INT16, SNORM_INT8, SNORM_INT16, HALF_FLOAT, FLOAT, SIGNED_INT8, SIGNED_INT16,
                        SIGNED_INT32, UNSIGNED_INT8, UNSIGNED_INT16, UNSIGNED_INT32})
    for (uint32_t order : {R, A, RG, RA, RGBA, Rx, RGx})
      formats.push_back({order, type});
  for (uint32_t type : {UNORM_INT8, UNORM_INT16, SNORM_INT8, SNORM_INT16, HALF_FLOAT, FLOAT})
    for (uint32_t order : {INTENSITY, LUMINANCE})
      formats.push_back({order, type});
  for (uint32_t type : {UNORM_INT8, SNORM_INT8, SIGNED_INT8, UNSIGNED_INT8})
    for (uint32_t order : {BGRA, ARGB, ABGR})
      formats.push_back({order, type});
  for (uint32_t type : {UNORM_SHORT_565, UNORM_SHORT_555, UNORM_INT_101010})
    for (uint32_t order : {RGB, RGBx})
      formats.push_back({order, type});
  formats.push_back({sRGBA, UNORM_INT8});
  formats.push_back({sBGRA, UNORM_INT8});
  formats.push_back({sRGBx, UNORM_INT8});
  formats.push_back({RGBA, UNORM_INT_101010_2});
  // Level Zero's formats.
  for (uint32_t type : {UNORM_INT32, SNORM_INT32})
    for (uint32_t order : {R, A, RG, RA, RGBA}) formats.push_back({order, type});
  for (uint32_t type : {UNORM_INT_2_101010, SNORM_INT_2_101010, SIGNED_INT_2_101010, UNSIGNED_INT_2_101010, UNSIGNED_FLOAT_2_101010})
    formats.push_back({ABGR, type});
  formats.push_back({RGB, UNSIGNED_FLOAT_11_11_10});
  formats.push_back({ARGB, UNORM_SHORT_4444});
  formats.push_back({ARGB, UNORM_SHORT_1555});
  return formats;
}

INSTANTIATE_TEST_SUITE_P(Formats, ImageFormatTest, testing::ValuesIn(allFormats()),
                         [](const testing::TestParamInfo<Format>& format) { return formatName(format.param.order, format.param.type); });

// Every 8-bit sRGB value survives the trip to linear and back.
TEST(ImageBuiltins, SrgbValuesRoundTripExactly) {
  HostImage image(IMAGE2D, sRGBA, UNORM_INT8, 64, 1);
  for (uint32_t x = 0; x < 64; ++x)
    for (uint32_t c = 0; c < 4; ++c) image.texel(x)[c] = uint8_t(x * 4 + c);
  std::vector<Float4> linear(64);
  run(kRoundTripKernels, "read_f", {64, 1, 1}, [&](Arguments& a) { a.set(0, image.argument()).set(1, linear.data()); });
  HostImage copy(IMAGE2D, sRGBA, UNORM_INT8, 64, 1);
  run(kRoundTripKernels, "write_f", {64, 1, 1}, [&](Arguments& a) { a.set(0, copy.argument()).set(1, linear.data()); });
  for (uint32_t x = 0; x < 64; ++x) {
    EXPECT_NEAR(linear[x][0], std::pow((x * 4 / 255.0 + 0.055) / 1.055, 2.4) * (x * 4 > 10) + (x * 4 <= 10) * (x * 4 / 255.0 / 12.92),
                2e-6)
        << x;
    EXPECT_EQ(linear[x][3], float(x * 4 + 3) / 255.0f) << "alpha stays linear";
    for (uint32_t c = 0; c < 4; ++c) EXPECT_EQ(copy.texel(x)[c], image.texel(x)[c]) << x << " channel " << c;
  }
}

// Every 11- and 10-bit unsigned float reads as its value and is written back to the same bits,
// NaNs included; values between them round to the nearest, ties to even.
TEST(ImageBuiltins, UnsignedFloatsRoundTripEveryValue) {
  constexpr uint32_t count = 2048;
  HostImage image(IMAGE2D, RGB, UNSIGNED_FLOAT_11_11_10, count, 1);
  for (uint32_t i = 0; i < count; ++i) put<uint32_t>(image.texel(i), i | (count - 1 - i) << 11 | (i & 1023) << 22);
  std::vector<Float4> values(count);
  run(kRoundTripKernels, "read_f", {count, 1, 1}, [&](Arguments& a) { a.set(0, image.argument()).set(1, values.data()); });
  for (uint32_t i = 0; i < count; ++i) {
    const Float4 expected = {fromUnsignedFloat(i, 6), fromUnsignedFloat(count - 1 - i, 6), fromUnsignedFloat(i & 1023, 5), 1.0f};
    for (int c = 0; c < 4; ++c) {
      uint32_t got, want;
      std::memcpy(&got, &values[i][c], 4);
      std::memcpy(&want, &expected[c], 4);
      ASSERT_EQ(got, want) << "texel " << i << " channel " << c;
    }
  }
  HostImage copy(IMAGE2D, RGB, UNSIGNED_FLOAT_11_11_10, count, 1);
  run(kRoundTripKernels, "write_f", {count, 1, 1}, [&](Arguments& a) { a.set(0, copy.argument()).set(1, values.data()); });
  for (uint32_t i = 0; i < count; ++i) ASSERT_EQ(get<uint32_t>(copy.texel(i)), get<uint32_t>(image.texel(i))) << "texel " << i;
  // Midpoints go to the even neighbour (1 + 2^-7 to 1 in 11 bits, 1 + 3 * 2^-6 to 1 + 2^-4 in 10),
  // values above a midpoint up.
  std::vector<Float4> between = {{1.0f + 0x1p-7f, 1.0f + 0x1p-7f + 0x1p-20f, 1.0f + 3 * 0x1p-6f, 0}};
  run(kRoundTripKernels, "write_f", {1, 1, 1}, [&](Arguments& a) { a.set(0, copy.argument()).set(1, between.data()); });
  EXPECT_EQ(get<uint32_t>(copy.texel(0)), 0x3C0u | 0x3C1u << 11 | (0x1E2u) << 22);
}

// read_imageh and write_imageh: half values through a half image, rounded to nearest even.
TEST(ImageBuiltins, HalfReadsAndWritesRoundToNearestEven) {
  const char* source = R"(
    #pragma OPENCL EXTENSION cl_khr_fp16 : enable
    kernel void k(read_only image2d_t in, write_only image2d_t out, global half4* values) {
      int i = get_global_id(0);
      values[i] = read_imageh(in, (int2)(i, 0));
      write_imageh(out, (int2)(i, 0), values[i] * (half)2);
    })";
  HostImage in(IMAGE2D, RGBA, FLOAT, 4, 1), out(IMAGE2D, RGBA, HALF_FLOAT, 4, 1);
  const std::vector<float> values = {1.0f, 1.00048828125f, 1.000732421875f, 65519.0f, 65520.0f, -0.1f, 1e-7f, 3.0e-8f,
                                     0.0f, -2.5f, 100.0f, 0.333333f, 2049.0f, 2051.0f, 4097.0f, -65536.0f};
  for (uint32_t i = 0; i < 16; ++i) put<float>(in.texel(i / 4) + (i % 4) * 4, values[i]);
  std::vector<uint16_t> halves(16);
  run(source, "k", {4, 1, 1}, [&](Arguments& a) { a.set(0, in.argument()).set(1, out.argument()).set(2, halves.data()); });
  for (uint32_t i = 0; i < 16; ++i) {
    EXPECT_EQ(halves[i], floatToHalf(values[i])) << values[i];
    EXPECT_EQ(get<uint16_t>(out.texel(i / 4) + (i % 4) * 2), floatToHalf(2.0f * halfToFloat(floatToHalf(values[i])))) << values[i];
  }
}

// ---- Sampling ---------------------------------------------------------------------------------

constexpr uint32_t kNormalized = kSamplerNormalizedCoordsTrue;

// The specification's addressing of one coordinate: the texel indices and, for linear
// filtering, the second index's weight. Indices -1 and size stand for the border.
struct Taps {
  int i0, i1;
  float weight;
};
Taps address(float s, int size, uint32_t sampler) {
  const uint32_t mode = sampler & kSamplerAddressMask;
  const bool linear = sampler & kSamplerFilterLinear;
  const float w = float(size);
  float u;
  if (mode == kSamplerAddressRepeat) u = (s - std::floor(s)) * w;
  else if (mode == kSamplerAddressMirroredRepeat) u = std::fabs(s - 2.0f * std::rint(0.5f * s)) * w;
  else u = (sampler & kNormalized) ? s * w : s;
  auto limit = [&](int i) {
    if (mode == kSamplerAddressClampToEdge) return std::clamp(i, 0, size - 1);
    return std::clamp(i, -1, size);  // clamp, and none where the tests stay near the image
  };
  if (!linear) {
    int i = int(std::floor(u));
    if (mode == kSamplerAddressRepeat && i > size - 1) i -= size;
    if (mode == kSamplerAddressMirroredRepeat) i = std::min(i, size - 1);
    return {limit(i), limit(i), 0.0f};
  }
  const float shifted = u - 0.5f;
  int i0 = int(std::floor(shifted)), i1 = i0 + 1;
  const float a = shifted - std::floor(shifted);
  if (mode == kSamplerAddressRepeat) {
    if (i0 < 0) i0 += size;
    if (i1 > size - 1) i1 -= size;
  } else if (mode == kSamplerAddressMirroredRepeat) {
    i0 = std::max(i0, 0);
    i1 = std::min(i1, size - 1);
  }
  return {limit(i0), limit(i1), a};
}

// A CL_RGBA CL_FLOAT image's texel, or the border color (0, 0, 0, 0).
Float4 texelOrBorder(HostImage& image, int x, int y, int z) {
  const ImageDescriptor& d = image.descriptor;
  if (x < 0 || y < 0 || z < 0 || x >= int(d.width) || y >= int(d.height) || z >= int(d.depth * d.arraySize)) return {0, 0, 0, 0};
  return decodeFloat(d.channelOrder, d.channelType, image.texel(x, y, z));
}

Float4 sampleReference(HostImage& image, uint32_t sampler, float x, float y, float z, int dims) {
  const ImageDescriptor& d = image.descriptor;
  const Taps tx = address(x, int(d.width), sampler);
  const Taps ty = dims >= 2 ? address(y, int(d.height), sampler) : Taps{0, 0, 0};
  const Taps tz = dims == 3 ? address(z, int(d.depth), sampler) : Taps{0, 0, 0};
  Float4 sum{0, 0, 0, 0};
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i) {
        const float weight = (i ? tx.weight : 1 - tx.weight) * (j ? ty.weight : 1 - ty.weight) * (k ? tz.weight : 1 - tz.weight);
        if (weight == 0.0f) continue;
        const Float4 t = texelOrBorder(image, i ? tx.i1 : tx.i0, j ? ty.i1 : ty.i0, k ? tz.i1 : tz.i0);
        for (int c = 0; c < 4; ++c) sum[c] += weight * t[c];
      }
  return sum;
}

// Fills a CL_RGBA CL_FLOAT image with distinct values.
void fillDistinct(HostImage& image) {
  const ImageDescriptor& d = image.descriptor;
  for (uint32_t z = 0; z < d.depth * d.arraySize; ++z)
    for (uint32_t y = 0; y < d.height; ++y)
      for (uint32_t x = 0; x < d.width; ++x)
        for (uint32_t c = 0; c < 4; ++c) put<float>(image.texel(x, y, z) + 4 * c, float(x + 10 * y + 100 * z) + 0.25f * float(c));
}

constexpr const char* kSamplingKernels = R"(
  kernel void sample2d(read_only image2d_t image, sampler_t sampler, global const float2* coords, global float4* out) {
    int i = get_global_id(0);
    out[i] = read_imagef(image, sampler, coords[i]);
  }
  kernel void sample3d(read_only image3d_t image, sampler_t sampler, global const float4* coords, global float4* out) {
    int i = get_global_id(0);
    out[i] = read_imagef(image, sampler, coords[i]);
  }
  kernel void sample1d(read_only image1d_t image, sampler_t sampler, global const float* coords, global float4* out) {
    int i = get_global_id(0);
    out[i] = read_imagef(image, sampler, coords[i]);
  })";

std::string samplerName(uint32_t sampler) {
  static const char* modes[] = {"none", "clamp_to_edge", "clamp", "repeat", "mirrored_repeat"};
  return std::string(sampler & kNormalized ? "normalized " : "") + modes[(sampler & kSamplerAddressMask) >> 1] +
         (sampler & kSamplerFilterLinear ? " linear" : " nearest");
}

// Samplers a test covers: every addressing mode with both filters, repeat modes normalized only.
std::vector<uint32_t> allSamplers() {
  std::vector<uint32_t> samplers;
  for (uint32_t filter : {kSamplerFilterNearest, kSamplerFilterLinear})
    for (uint32_t normalized : {kSamplerNormalizedCoordsFalse, kSamplerNormalizedCoordsTrue})
      for (uint32_t mode : {kSamplerAddressNone, kSamplerAddressClampToEdge, kSamplerAddressClamp, kSamplerAddressRepeat,
                            kSamplerAddressMirroredRepeat}) {
        if (!normalized && (mode == kSamplerAddressRepeat || mode == kSamplerAddressMirroredRepeat)) continue;
        samplers.push_back(filter | normalized | mode);
      }
  return samplers;
}

// Coordinates across the image, its edges and beyond (none keeps within a texel of the edge,
// where its result is still defined by clamping to the border in Loom).
std::vector<float> coordinatesAcross(int size, uint32_t sampler) {
  std::vector<float> coordinates;
  const bool normalized = sampler & kNormalized;
  for (int step = -12; step <= 4 * size + 12; ++step) {
    const float texels = float(step) / 4.0f + 0.13f;
    coordinates.push_back(normalized ? texels / float(size) : texels);
  }
  for (float edge : {0.0f, 0.5f, float(size) - 0.5f, float(size)}) coordinates.push_back(normalized ? edge / float(size) : edge);
  return coordinates;
}

void expectNear(const Float4& actual, const Float4& expected, const std::string& where) {
  for (int c = 0; c < 4; ++c) EXPECT_NEAR(actual[c], expected[c], 1e-4f * (1 + std::fabs(expected[c]))) << where << " channel " << c;
}

TEST(ImageSampling, TwoDimensionsEveryAddressingModeAndFilter) {
  HostImage image(IMAGE2D, RGBA, FLOAT, 5, 4);
  fillDistinct(image);
  for (uint32_t sampler : allSamplers()) {
    std::vector<std::array<float, 2>> coords;
    for (float x : coordinatesAcross(5, sampler))
      for (float y : {-0.7f, 0.0f, 1.3f, 2.5f, 3.9f, 4.6f})
        coords.push_back({x, (sampler & kNormalized) ? y / 4.0f : y});
    std::vector<Float4> out(coords.size());
    run(kSamplingKernels, "sample2d", {coords.size(), 1, 1}, [&](Arguments& a) {
      a.set(0, image.argument()).set(1, uint64_t(sampler)).set(2, coords.data()).set(3, out.data());
    });
    for (size_t i = 0; i < coords.size(); ++i)
      expectNear(out[i], sampleReference(image, sampler, coords[i][0], coords[i][1], 0, 2),
                 samplerName(sampler) + " at (" + std::to_string(coords[i][0]) + ", " + std::to_string(coords[i][1]) + ")");
  }
}

// RGBA 8-bit normalized images take a direct path through the builtins; the same texels in BGRA
// order take the general one. Sampling both, with every sampler, and writing both must give the
// same bits, channels swapped.
TEST(ImageSampling, DirectFormatPathGivesTheGeneralPathsBits) {
  HostImage rgba(IMAGE2D, RGBA, UNORM_INT8, 5, 4), bgra(IMAGE2D, BGRA, UNORM_INT8, 5, 4);
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 5; ++x)
      for (uint32_t c = 0; c < 4; ++c) {
        const uint8_t value = uint8_t(37 * x + 59 * y + 71 * c + 3);
        rgba.texel(x, y)[c] = value;
        bgra.texel(x, y)[c == 3 ? 3 : 2 - c] = value;
      }
  for (uint32_t sampler : allSamplers()) {
    std::vector<std::array<float, 2>> coords;
    for (float x : coordinatesAcross(5, sampler))
      for (float y : {-0.7f, 0.3f, 1.55f, 3.9f, 4.6f}) coords.push_back({x, (sampler & kNormalized) ? y / 4.0f : y});
    std::vector<Float4> direct(coords.size()), general(coords.size());
    for (auto [image, out] : {std::pair{&rgba, &direct}, std::pair{&bgra, &general}})
      run(kSamplingKernels, "sample2d", {coords.size(), 1, 1}, [&](Arguments& a) {
        a.set(0, image->argument()).set(1, uint64_t(sampler)).set(2, coords.data()).set(3, out->data());
      });
    for (size_t i = 0; i < coords.size(); ++i)
      ASSERT_EQ(0, std::memcmp(&direct[i], &general[i], sizeof(Float4)))
          << samplerName(sampler) + " at (" << coords[i][0] << ", " << coords[i][1] << ")";
  }
  const char* writes = R"(
    kernel void k(write_only image2d_t image, global const float4* colors) {
      write_imagef(image, (int2)(get_global_id(0), 0), colors[get_global_id(0)]);
    })";
  const std::vector<Float4> colors = {{0.5f / 255, 1.5f / 255, 2.5f / 255, 0.49999f}, {-1.0f, 2.0f, NAN, 1.0f},
                                      {0.1f, 0.2f, 0.3f, 0.4f}, {1.0f - 0.5f / 255, 0.0f, -0.0f, 0.75f}, {1, 1, 1, 1}};
  for (HostImage* image : {&rgba, &bgra})
    run(writes, "k", {colors.size(), 1, 1}, [&](Arguments& a) { a.set(0, image->argument()).set(1, colors.data()); });
  for (uint32_t x = 0; x < colors.size(); ++x)
    for (uint32_t c = 0; c < 4; ++c) EXPECT_EQ(rgba.texel(x)[c], bgra.texel(x)[c == 3 ? 3 : 2 - c]) << "texel " << x << " channel " << c;
}

// Every 8-bit value of an RGBA image reads as its quotient by 255, correctly rounded.
TEST(ImageSampling, EveryUnorm8ValueReadsAsItsQuotient) {
  HostImage image(IMAGE2D, RGBA, UNORM_INT8, 64, 1);
  for (uint32_t value = 0; value < 256; ++value) image.texel(value / 4)[value % 4] = uint8_t(value);
  const char* source = R"(
    kernel void k(read_only image2d_t image, global float4* out) {
      out[get_global_id(0)] = read_imagef(image, (int2)(get_global_id(0), 0));
    })";
  std::vector<Float4> out(64);
  run(source, "k", {64, 1, 1}, [&](Arguments& a) { a.set(0, image.argument()).set(1, out.data()); });
  for (uint32_t value = 0; value < 256; ++value) {
    const float expected = float(value) / 255.0f;
    EXPECT_EQ(0, std::memcmp(&out[value / 4][value % 4], &expected, sizeof(float))) << value << ": " << out[value / 4][value % 4];
  }
}

TEST(ImageSampling, OneAndThreeDimensions) {
  HostImage line(IMAGE1D, RGBA, FLOAT, 7);
  HostImage volume(IMAGE3D, RGBA, FLOAT, 3, 4, 5);
  fillDistinct(line);
  fillDistinct(volume);
  for (uint32_t sampler : allSamplers()) {
    const std::vector<float> xs = coordinatesAcross(7, sampler);
    std::vector<Float4> out(xs.size());
    run(kSamplingKernels, "sample1d", {xs.size(), 1, 1}, [&](Arguments& a) {
      a.set(0, line.argument()).set(1, uint64_t(sampler)).set(2, xs.data()).set(3, out.data());
    });
    for (size_t i = 0; i < xs.size(); ++i)
      expectNear(out[i], sampleReference(line, sampler, xs[i], 0, 0, 1), samplerName(sampler) + " 1D at " + std::to_string(xs[i]));

    const float scale = (sampler & kNormalized) ? 1.0f : 0.0f;
    std::vector<Float4> coords;
    for (float x : {-0.4f, 0.3f, 1.7f, 2.9f, 3.2f})
      for (float y : {0.1f, 2.2f, 4.4f})
        for (float z : {-1.0f, 0.6f, 2.5f, 4.75f, 5.5f})
          coords.push_back({scale ? x / 3 : x, scale ? y / 4 : y, scale ? z / 5 : z, 0});
    out.assign(coords.size(), Float4{});
    run(kSamplingKernels, "sample3d", {coords.size(), 1, 1}, [&](Arguments& a) {
      a.set(0, volume.argument()).set(1, uint64_t(sampler)).set(2, coords.data()).set(3, out.data());
    });
    for (size_t i = 0; i < coords.size(); ++i)
      expectNear(out[i], sampleReference(volume, sampler, coords[i][0], coords[i][1], coords[i][2], 3),
                 samplerName(sampler) + " 3D at " + std::to_string(i));
  }
}

// The border color of CLK_ADDRESS_CLAMP: opaque black for orders whose reads fill in alpha,
// transparent black for the rest; integers get integer 1.
TEST(ImageSampling, BorderColorFollowsTheChannelOrder) {
  const char* source = R"(
    kernel void k(read_only image2d_t f, read_only image2d_t i, global float4* fout, global int4* iout) {
      const sampler_t clamp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
      fout[0] = read_imagef(f, clamp, (float2)(-3.0f, 0.5f));
      fout[1] = read_imagef(f, clamp, (int2)(0, 7));
      iout[0] = read_imagei(i, clamp, (float2)(0.5f, 9.0f));
      iout[1] = read_imagei(i, clamp, (int2)(-1, 0));
    })";
  const std::vector<std::pair<uint32_t, bool>> orders = {{R, true}, {RG, true}, {LUMINANCE, true}, {A, false}, {RA, false},
                                                         {RGBA, false}, {BGRA, false}, {INTENSITY, false}, {Rx, false}};
  for (const auto& [order, opaque] : orders) {
    HostImage f(IMAGE2D, order, UNORM_INT8, 2, 2), i(IMAGE2D, order == BGRA ? RGBA : order, SIGNED_INT8, 2, 2);
    std::vector<Float4> fout(2);
    std::vector<Int4> iout(2);
    run(source, "k", {1, 1, 1}, [&](Arguments& a) { a.set(0, f.argument()).set(1, i.argument()).set(2, fout.data()).set(3, iout.data()); });
    const float alpha = opaque ? 1.0f : 0.0f;
    for (int n = 0; n < 2; ++n) {
      EXPECT_EQ(fout[n], (Float4{0, 0, 0, alpha})) << formatName(order, UNORM_INT8);
      EXPECT_EQ(iout[n], (Int4{0, 0, 0, int(alpha)})) << formatName(order, SIGNED_INT8);
    }
  }
}

// A sampler literal in the source is the same sampler as the argument with its bits.
TEST(ImageSampling, SamplerLiteralsEqualSamplerArguments) {
  const char* source = R"(
    constant sampler_t program_scope = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_LINEAR;
    kernel void k(read_only image2d_t image, sampler_t argument, global const float2* coords, global float4* out) {
      const sampler_t local_literal = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
      int i = get_global_id(0);
      out[3 * i] = read_imagef(image, program_scope, coords[i]);
      out[3 * i + 1] = read_imagef(image, local_literal, coords[i] * 5.0f);
      out[3 * i + 2] = read_imagef(image, argument, coords[i]);
    })";
  HostImage image(IMAGE2D, RGBA, FLOAT, 5, 3);
  fillDistinct(image);
  const uint32_t argument = kSamplerNormalizedCoordsTrue | kSamplerAddressRepeat | kSamplerFilterLinear;
  std::vector<std::array<float, 2>> coords = {{-0.3f, 0.2f}, {0.45f, 0.9f}, {1.7f, -1.1f}, {0.1f, 0.5f}};
  std::vector<Float4> out(3 * coords.size());
  run(source, "k", {coords.size(), 1, 1}, [&](Arguments& a) {
    a.set(0, image.argument()).set(1, uint64_t(argument)).set(2, coords.data()).set(3, out.data());
  });
  const uint32_t programScope = kSamplerNormalizedCoordsTrue | kSamplerAddressMirroredRepeat | kSamplerFilterLinear;
  const uint32_t local = kSamplerAddressClamp | kSamplerFilterNearest;
  for (size_t i = 0; i < coords.size(); ++i) {
    expectNear(out[3 * i], sampleReference(image, programScope, coords[i][0], coords[i][1], 0, 2), "program-scope literal");
    expectNear(out[3 * i + 1], sampleReference(image, local, coords[i][0] * 5, coords[i][1] * 5, 0, 2), "kernel literal");
    expectNear(out[3 * i + 2], sampleReference(image, argument, coords[i][0], coords[i][1], 0, 2), "argument");
  }
}

// Integer coordinates with a sampler: clamp to edge clamps, clamp gives the border.
TEST(ImageSampling, IntegerCoordinatesWithASampler) {
  const char* source = R"(
    kernel void k(read_only image2d_t image, sampler_t sampler, global const int2* coords, global float4* out) {
      int i = get_global_id(0);
      out[i] = read_imagef(image, sampler, coords[i]);
    })";
  HostImage image(IMAGE2D, RGBA, FLOAT, 4, 3);
  fillDistinct(image);
  std::vector<std::array<int, 2>> coords = {{0, 0}, {3, 2}, {-1, 1}, {4, 0}, {2, -5}, {1, 3}, {-100, 100}};
  for (uint32_t mode : {kSamplerAddressClampToEdge, kSamplerAddressClamp}) {
    std::vector<Float4> out(coords.size());
    run(source, "k", {coords.size(), 1, 1}, [&](Arguments& a) {
      a.set(0, image.argument()).set(1, uint64_t(mode | kSamplerFilterNearest)).set(2, coords.data()).set(3, out.data());
    });
    for (size_t i = 0; i < coords.size(); ++i) {
      int x = coords[i][0], y = coords[i][1];
      if (mode == kSamplerAddressClampToEdge) x = std::clamp(x, 0, 3), y = std::clamp(y, 0, 2);
      EXPECT_EQ(out[i], texelOrBorder(image, x, y, 0)) << "mode " << mode << " at " << coords[i][0] << ", " << coords[i][1];
    }
  }
}

// Image code as other SPIR-V producers write it (kernels/other_producer_images.spvasm) reads,
// writes, samples and queries as the translator's does.
TEST(ImageSampling, SpirvOfOtherProducers) {
  const std::unique_ptr<CpuExecutable> executable = loadBuilt(compile(readSpirv("other_producer_images")));
  HostImage in(IMAGE2D, RGBA, FLOAT, 4, 2), out(IMAGE2D, RGBA, FLOAT, 4, 2);
  fillDistinct(in);
  const uint32_t sampler = kSamplerAddressClamp | kSamplerFilterLinear;
  std::vector<Float4> values(8);
  std::vector<uint32_t> info(4);
  runKernel(executable.get(), "other_producer", {4, 1, 1}, [&](Arguments& a) {
    a.set(0, in.argument()).set(1, out.argument()).set(2, uint64_t(sampler)).set(3, values.data()).set(4, info.data());
  });
  const uint32_t literal = kSamplerAddressClampToEdge | kSamplerFilterNearest;
  for (int x = 0; x < 4; ++x) {
    EXPECT_EQ(texelOrBorder(out, x, 0, 0), texelOrBorder(in, x, 0, 0)) << x;
    expectNear(values[2 * x], sampleReference(in, sampler, float(x) + 0.75f, 0.5f, 0, 2), "argument sampler");
    expectNear(values[2 * x + 1], sampleReference(in, literal, float(x) + 0.75f, 0.5f, 0, 2), "OpConstantSampler");
  }
  EXPECT_EQ(info, (std::vector<uint32_t>{4, 2, RGBA - 0x10B0, FLOAT - 0x10D0}));
}

// ---- Image types, pitches and queries ---------------------------------------------------------

// Every image type reads and writes the texel its coordinates name, with pitches that are not
// tight; array layers come from the last coordinate (rounded and clamped with a sampler).
TEST(ImageBuiltins, EveryImageTypeAddressesItsTexels) {
  const char* source = R"(
    kernel void k(read_only image1d_t a, write_only image1d_t a_out, read_only image1d_array_t b, write_only image1d_array_t b_out,
                  read_only image2d_array_t c, write_only image2d_array_t c_out, read_only image3d_t d, write_only image3d_t d_out,
                  read_only image1d_buffer_t e, write_only image1d_buffer_t e_out, global uint4* layered) {
      const sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
      int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
      if (y == 0 && z == 0) {
        write_imageui(a_out, x, read_imageui(a, x) + 1);
        write_imageui(e_out, x, read_imageui(e, x) + 1);
      }
      if (z == 0) write_imageui(b_out, (int2)(x, y), read_imageui(b, (int2)(x, y)) + 1);
      write_imageui(c_out, (int4)(x, y, z, 0), read_imageui(c, (int4)(x, y, z, 0)) + 1);
      write_imageui(d_out, (int4)(x, y, z, 0), read_imageui(d, nearest, (float4)(x + 0.5f, y + 0.5f, z + 0.5f, 0)) + 1);
      if (x == 0 && y == 0 && z == 0) {
        layered[0] = read_imageui(c, nearest, (float4)(1.2f, 0.7f, 1.4f, 0.0f));   // layer 1
        layered[1] = read_imageui(c, nearest, (float4)(1.2f, 0.7f, 1.6f, 0.0f));   // layer 2
        layered[2] = read_imageui(c, nearest, (float4)(1.2f, 0.7f, 9.0f, 0.0f));   // the last layer
        layered[3] = read_imageui(b, nearest, (float2)(2.0f, -3.0f));              // the first layer
      }
    })";
  const uint32_t w = 5, h = 3, layers = 4;
  std::vector<HostImage> images;
  images.reserve(10);
  for (int copy = 0; copy < 2; ++copy) {
    images.emplace_back(IMAGE1D, RGBA, UNSIGNED_INT16, w);
    images.emplace_back(IMAGE1D_ARRAY, RGBA, UNSIGNED_INT16, w, 1, 1, h);
    images.emplace_back(IMAGE2D_ARRAY, RGBA, UNSIGNED_INT16, w, h, 1, layers);
    images.emplace_back(IMAGE3D, RGBA, UNSIGNED_INT16, w, h, layers);
    images.emplace_back(IMAGE1D_BUFFER, RGBA, UNSIGNED_INT16, w, 1, 1, 1, 0);
  }
  // Every channel of every texel of image n, its layers or slices included.
  auto forEachChannel = [&](int n, auto visit) {
    const ImageDescriptor& d = images[n].descriptor;
    for (uint32_t z = 0; z < d.depth * d.arraySize; ++z)
      for (uint32_t y = 0; y < d.height; ++y)
        for (uint32_t x = 0; x < d.width; ++x)
          for (uint32_t c = 0; c < 4; ++c) visit(x, y, z, c);
  };
  for (int n = 0; n < 5; ++n)
    forEachChannel(n, [&](uint32_t x, uint32_t y, uint32_t z, uint32_t c) {
      put<uint16_t>(images[n].texel(x, y, z) + 2 * c, uint16_t(1000 * n + 100 * z + 10 * y + x + c));
    });
  std::vector<std::array<uint32_t, 4>> layered(4);
  run(source, "k", {w, h, layers}, [&](Arguments& a) {
    for (int n = 0; n < 5; ++n) a.set(2 * n, images[n].argument()).set(2 * n + 1, images[5 + n].argument());
    a.set(10, layered.data());
  });
  for (int n = 0; n < 5; ++n)
    forEachChannel(n, [&](uint32_t x, uint32_t y, uint32_t z, uint32_t c) {
      EXPECT_EQ(get<uint16_t>(images[5 + n].texel(x, y, z) + 2 * c), get<uint16_t>(images[n].texel(x, y, z) + 2 * c) + 1)
          << "image " << n << " at " << x << ", " << y << ", " << z;
    });
  EXPECT_EQ(layered[0][0], 2000u + 100 + 0 + 1);
  EXPECT_EQ(layered[1][0], 2000u + 200 + 0 + 1);
  EXPECT_EQ(layered[2][0], 2000u + 300 + 0 + 1);
  EXPECT_EQ(layered[3][0], 1000u + 0 + 2);
}

TEST(ImageBuiltins, QueriesAnswerFromTheDescriptor) {
  const char* source = R"(
    kernel void k(read_only image1d_t a, write_only image1d_buffer_t b, read_write image1d_array_t c, read_only image2d_t d,
                  write_only image2d_array_t e, read_only image3d_t f, read_only image2d_depth_t g, global int* out) {
      int n = 0;
      out[n++] = get_image_width(a);
      out[n++] = get_image_width(b);
      out[n++] = get_image_width(c); out[n++] = (int)get_image_array_size(c);
      out[n++] = get_image_width(d); out[n++] = get_image_height(d); out[n++] = get_image_dim(d).y;
      out[n++] = get_image_dim(e).x; out[n++] = get_image_height(e); out[n++] = (int)get_image_array_size(e);
      int4 dims = get_image_dim(f);
      out[n++] = dims.x; out[n++] = dims.y; out[n++] = dims.z; out[n++] = dims.w; out[n++] = get_image_depth(f);
      out[n++] = get_image_width(g); out[n++] = get_image_height(g);
      out[n++] = get_image_channel_order(a); out[n++] = get_image_channel_data_type(a);
      out[n++] = get_image_channel_order(f); out[n++] = get_image_channel_data_type(f);
      out[n++] = get_image_channel_order(g); out[n++] = get_image_channel_data_type(g);
    })";
  HostImage a(IMAGE1D, RGBA, UNORM_INT8, 9), b(IMAGE1D_BUFFER, R, FLOAT, 33), c(IMAGE1D_ARRAY, RG, SIGNED_INT16, 6, 1, 1, 7),
      d(IMAGE2D, RGBA, FLOAT, 11, 12), e(IMAGE2D_ARRAY, BGRA, UNORM_INT8, 13, 14, 1, 15), f(IMAGE3D, LUMINANCE, HALF_FLOAT, 16, 17, 18),
      g(IMAGE2D, DEPTH, UNORM_INT16, 19, 20);
  std::vector<int> out(23, -1);
  run(source, "k", {1, 1, 1}, [&](Arguments& args) {
    int n = 0;
    for (HostImage* image : {&a, &b, &c, &d, &e, &f, &g}) args.set(n++, image->argument());
    args.set(n, out.data());
  });
  const std::vector<int> expected = {9,  33, 6,  7,    11,     12,  12,   13,    14,          15,   16,          17,
                                     18, 0,  18, 19,   20,     RGBA, UNORM_INT8, LUMINANCE, HALF_FLOAT, DEPTH, UNORM_INT16};
  EXPECT_EQ(out, expected);
}

// Depth images: one float channel, read as a float and written from one.
TEST(ImageBuiltins, DepthImagesReadAndWriteOneFloat) {
  const char* source = R"(
    kernel void k(read_only image2d_depth_t in, write_only image2d_depth_t out, global float* values) {
      const sampler_t linear = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;
      int x = get_global_id(0);
      values[x] = read_imagef(in, (int2)(x, 1));
      write_imagef(out, (int2)(x, 0), values[x] * 0.5f);
      if (x == 0) values[4] = read_imagef(in, linear, (float2)(1.0f, 1.5f));
    })";
  HostImage in(IMAGE2D, DEPTH, FLOAT, 4, 2), out(IMAGE2D, DEPTH, UNORM_INT16, 4, 1);
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 4; ++x) put<float>(in.texel(x, y), 0.125f * float(x + 4 * y));
  std::vector<float> values(5);
  run(source, "k", {4, 1, 1}, [&](Arguments& a) { a.set(0, in.argument()).set(1, out.argument()).set(2, values.data()); });
  for (uint32_t x = 0; x < 4; ++x) {
    EXPECT_EQ(values[x], 0.125f * float(x + 4));
    EXPECT_EQ(get<uint16_t>(out.texel(x)), uint16_t(saturateRte(values[x] * 0.5f * 65535.0f, 0, 65535)));
  }
  EXPECT_FLOAT_EQ(values[4], 0.5f * (0.125f * 4 + 0.125f * 5));
}

// read_write images: a kernel reads a texel and writes it back changed.
TEST(ImageBuiltins, ReadWriteImagesReadAndWrite) {
  const char* source = R"(
    kernel void k(read_write image2d_t image) {
      int2 at = (int2)(get_global_id(0), get_global_id(1));
      write_imagei(image, at, read_imagei(image, at) * -2);
    })";
  HostImage image(IMAGE2D, RG, SIGNED_INT32, 3, 2);
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 3; ++x) put<int32_t>(image.texel(x, y), int32_t(x + 3 * y)), put<int32_t>(image.texel(x, y) + 4, -7);
  run(source, "k", {3, 2, 1}, [&](Arguments& a) { a.set(0, image.argument()); });
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 3; ++x) {
      EXPECT_EQ(get<int32_t>(image.texel(x, y)), -2 * int32_t(x + 3 * y));
      EXPECT_EQ(get<int32_t>(image.texel(x, y) + 4), 14);
    }
}

// Writing a texel with the function for another kind of format is undefined; the write stays
// inside the texel all the same.
TEST(ImageBuiltins, MismatchedWritesStayInsideTheTexel) {
  const char* source = R"(
    kernel void k(write_only image2d_t integers, write_only image2d_t normalized, write_only image2d_t packed) {
      write_imagef(integers, (int2)(1, 0), (float4)(1e6f));
      write_imagei(normalized, (int2)(1, 0), (int4)(-7));
      write_imageui(packed, (int2)(1, 0), (uint4)(9));
    })";
  HostImage integers(IMAGE2D, RGBA, SIGNED_INT8, 3, 1), normalized(IMAGE2D, RGBA, UNORM_INT8, 3, 1),
      packed(IMAGE2D, RGB, UNORM_SHORT_565, 3, 1);
  run(source, "k", {1, 1, 1}, [&](Arguments& a) { a.set(0, integers.argument()).set(1, normalized.argument()).set(2, packed.argument()); });
  for (HostImage* image : {&integers, &normalized, &packed}) {
    const uint32_t size = image->descriptor.elementSize;
    for (uint32_t byte = 0; byte < size; ++byte) {
      EXPECT_EQ(image->texel(0)[byte], 0xA5) << formatName(image->descriptor.channelOrder, image->descriptor.channelType);
      EXPECT_EQ(image->texel(2)[byte], 0xA5) << formatName(image->descriptor.channelOrder, image->descriptor.channelType);
    }
  }
}

// Kernels describe image and sampler arguments for the runtime and clGetKernelArgInfo.
TEST(ImageBuiltins, KernelDescriptorsDescribeImagesAndSamplers) {
  const char* source = R"(
    kernel void k(read_only image2d_t a, write_only image3d_t b, read_write image1d_array_t c, sampler_t s,
                  read_only image2d_depth_t d, global int* out) {
      out[0] = get_image_width(a) + get_image_width(b) + get_image_width(c) + get_image_width(d);
    })";
  CpuExecutable* executable = program(source);
  ASSERT_NE(executable, nullptr);
  const KernelDescriptor* kernel = executable->program().info.findKernel("k");
  ASSERT_NE(kernel, nullptr);
  ASSERT_EQ(kernel->arguments.size(), 6u);
  struct Expected {
    ArgumentKind kind;
    const char* typeName;
    AccessQualifier access;
  };
  const Expected expected[] = {{ArgumentKind::Image, "image2d_t", AccessQualifier::ReadOnly},
                               {ArgumentKind::Image, "image3d_t", AccessQualifier::WriteOnly},
                               {ArgumentKind::Image, "image1d_array_t", AccessQualifier::ReadWrite},
                               {ArgumentKind::Sampler, "sampler_t", AccessQualifier::None},
                               {ArgumentKind::Image, "image2d_depth_t", AccessQualifier::ReadOnly},
                               {ArgumentKind::GlobalPointer, "int*", AccessQualifier::None}};
  for (size_t i = 0; i < 6; ++i) {
    const KernelArgument& argument = kernel->arguments[i];
    EXPECT_EQ(argument.kind, expected[i].kind) << i;
    EXPECT_EQ(argument.typeName, expected[i].typeName) << i;
    EXPECT_EQ(argument.accessQualifier, expected[i].access) << i;
    EXPECT_EQ(argument.size, 8u) << i;
    EXPECT_EQ(argument.offset, 8u * i) << i;
  }
  EXPECT_EQ(kernel->arguments[0].addressQualifier, AddressQualifier::Global);
  EXPECT_EQ(kernel->arguments[3].addressQualifier, AddressQualifier::Private);
}

}  // namespace
}  // namespace loom::compiler::test
