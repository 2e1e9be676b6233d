// Image and sampler functions. An image argument is the address of an ImageDescriptor and a
// sampler argument the sampler_t literal's bits (compiler/include/loom/compiler/image_abi.h): the
// functions read the descriptor, address texels in plain memory and convert them as the OpenCL
// specification says, so the same code serves every target.

// ImageDescriptor, field for field.
typedef struct {
  ulong data;
  ulong rowPitch;
  ulong slicePitch;
  uint width;
  uint height;
  uint depth;
  uint arraySize;
  uint channelOrder;
  uint channelType;
  uint imageType;
  uint elementSize;
  uint mipLevels;
  uint samples;
  ulong textures[20];
} ImageDescriptor;
typedef __global const ImageDescriptor* Image;

#define DESCRIPTOR(image) __builtin_astype(image, Image)
#define SAMPLER_BITS(sampler) ((uint)__builtin_astype(sampler, ulong))

// ---- Formats ----------------------------------------------------------------------------------

// Channels a texel stores, in memory order (packed types count their three channels).
static uint imageChannelCount(uint order) {
  switch (order) {
    case CLK_R: case CLK_A: case CLK_INTENSITY: case CLK_LUMINANCE: case CLK_DEPTH: return 1;
    case CLK_RG: case CLK_RA: case CLK_Rx: return 2;
    case CLK_RGB: case CLK_RGx: case CLK_sRGB: return 3;
    default: return 4;
  }
}

static bool imageIsSrgb(uint order) {
  return order == CLK_sRGB || order == CLK_sRGBx || order == CLK_sRGBA || order == CLK_sBGRA;
}

// The border color of CLK_ADDRESS_CLAMP has alpha 1 exactly for the orders without alpha whose
// reads fill it in (the specification's list).
static bool imageBorderIsOpaque(uint order) {
  return order == CLK_R || order == CLK_RG || order == CLK_RGB || order == CLK_LUMINANCE || order == CLK_sRGB;
}

// Channels in memory order -> (r, g, b, a), with 0 for missing colour channels and `one` for a
// missing alpha.
#define IMAGE_ARRANGE(T)                                                         \
  static T##4 OVL imageArrange(T##4 s, uint order, T one) {                     \
    switch (order) {                                                             \
      case CLK_R: case CLK_Rx: case CLK_DEPTH: return (T##4)(s.x, 0, 0, one);    \
      case CLK_A: return (T##4)(0, 0, 0, s.x);                                   \
      case CLK_RG: case CLK_RGx: return (T##4)(s.x, s.y, 0, one);                \
      case CLK_RA: return (T##4)(s.x, 0, 0, s.y);                                \
      case CLK_RGB: case CLK_RGBx: case CLK_sRGB: case CLK_sRGBx:                \
        return (T##4)(s.x, s.y, s.z, one);                                       \
      case CLK_BGRA: case CLK_sBGRA: return s.zyxw;                              \
      case CLK_ARGB: return s.yzwx;                                              \
      case CLK_ABGR: return s.wzyx;                                              \
      case CLK_INTENSITY: return s.xxxx;                                         \
      case CLK_LUMINANCE: return (T##4)(s.x, s.x, s.x, one);                     \
      default: return s;                                                         \
    }                                                                            \
  }                                                                              \
  /* (r, g, b, a) -> channels in memory order; padding channels get 0. */        \
  static T##4 OVL imageDisarrange(T##4 c, uint order) {                          \
    switch (order) {                                                             \
      case CLK_A: return (T##4)(c.w, 0, 0, 0);                                   \
      case CLK_RA: return (T##4)(c.x, c.w, 0, 0);                                \
      case CLK_R: case CLK_Rx: case CLK_INTENSITY: case CLK_LUMINANCE:           \
      case CLK_DEPTH: return (T##4)(c.x, 0, 0, 0);                               \
      case CLK_RG: case CLK_RGx: return (T##4)(c.x, c.y, 0, 0);                  \
      case CLK_RGB: case CLK_RGBx: case CLK_sRGB: case CLK_sRGBx:                \
        return (T##4)(c.x, c.y, c.z, 0);                                         \
      case CLK_BGRA: case CLK_sBGRA: return c.zyxw;                              \
      case CLK_ARGB: return c.wxyz;                                              \
      case CLK_ABGR: return c.wzyx;                                              \
      default: return c;                                                         \
    }                                                                            \
  }
IMAGE_ARRANGE(float)
IMAGE_ARRANGE(int)

// `count` channels of type T at p, widened to int (sign- or zero-extended as T is).
#define IMAGE_LOAD_CHANNELS(T, p, count)                                                       \
  ((count) == 4   ? convert_int4(vload4(0, (const __global T*)(p)))                           \
   : (count) == 3 ? (int4)(convert_int3(vload3(0, (const __global T*)(p))), 0)               \
   : (count) == 2 ? (int4)(convert_int2(vload2(0, (const __global T*)(p))), 0, 0)            \
                  : (int4)(*(const __global T*)(p), 0, 0, 0))
#define IMAGE_STORE_CHANNELS(v, T, p, count)                           \
  do {                                                                 \
    __global T* at = (__global T*)(p);                                 \
    if ((count) == 4) vstore4(v, 0, at);                               \
    else if ((count) == 3) vstore3((v).xyz, 0, at);                    \
    else if ((count) == 2) vstore2((v).xy, 0, at);                     \
    else *at = (v).x;                                                  \
  } while (0)

// CL_UNORM_INT_101010_2, which OpenCL C's headers lack, and the channel types of Level Zero
// layouts that OpenCL lacks: image_abi.h's LevelZeroChannelType, which says where their bits lie.
#define IMAGE_UNORM_INT_101010_2 0x10E0
#define IMAGE_UNORM_INT_2_101010 0x10E5
#define IMAGE_UNORM_INT32 0x4C000
#define IMAGE_SNORM_INT32 0x4C001
#define IMAGE_SNORM_INT_2_101010 0x4C002
#define IMAGE_SIGNED_INT_2_101010 0x4C003
#define IMAGE_UNSIGNED_INT_2_101010 0x4C004
#define IMAGE_UNSIGNED_FLOAT_2_101010 0x4C005
#define IMAGE_UNSIGNED_FLOAT_11_11_10 0x4C006
#define IMAGE_UNORM_SHORT_4444 0x4C007
#define IMAGE_UNORM_SHORT_1555 0x4C008

static bool imageHasIntegers(uint type) {
  return (type >= CLK_SIGNED_INT8 && type <= CLK_UNSIGNED_INT32) || type == IMAGE_SIGNED_INT_2_101010 ||
         type == IMAGE_UNSIGNED_INT_2_101010;
}

// A 2_101010 word's fields from the most significant bits down: 2, 10, 10 and 10 bits (with
// CL_ABGR, alpha, blue, green, red).
static uint4 imageFields2_101010(uint bits) {
  return (uint4)(bits >> 30, (bits >> 20) & 1023, (bits >> 10) & 1023, bits & 1023);
}
static int4 imageSignedFields2_101010(uint bits) {
  return (int4)(as_int(bits) >> 30, as_int(bits << 2) >> 22, as_int(bits << 12) >> 22, as_int(bits << 22) >> 22);
}
// Fields already within their widths.
static uint imageJoin2_101010(uint4 f) { return f.x << 30 | f.y << 20 | f.z << 10 | f.w; }

// The integer channels of a texel, in memory order (read_imagei and read_imageui).
static int4 imageLoadIntegers(__global const uchar* p, uint type, uint count) {
  switch (type) {
    case CLK_SIGNED_INT8: return IMAGE_LOAD_CHANNELS(char, p, count);
    case CLK_UNSIGNED_INT8: return IMAGE_LOAD_CHANNELS(uchar, p, count);
    case CLK_SIGNED_INT16: return IMAGE_LOAD_CHANNELS(short, p, count);
    case CLK_UNSIGNED_INT16: return IMAGE_LOAD_CHANNELS(ushort, p, count);
    case IMAGE_SIGNED_INT_2_101010: return imageSignedFields2_101010(*(const __global uint*)p);
    case IMAGE_UNSIGNED_INT_2_101010: return as_int4(imageFields2_101010(*(const __global uint*)p));
    default: return IMAGE_LOAD_CHANNELS(int, p, count);
  }
}

// Unsigned floats of 11 and 10 bits (`mantissaBits` 6 or 5): a 5-bit exponent of bias 15 above
// the mantissa, no sign; exponent 31 is infinity or NaN, 0 subnormal (Vulkan's and OpenGL's
// unsigned 11- and 10-bit floats). Every one is a float exactly; a NaN's mantissa becomes the top
// of the float NaN's, so that NaNs come back as they were.
static float imageFromUnsignedFloat(uint bits, uint mantissaBits) {
  const uint exponent = bits >> mantissaBits, mantissa = bits & ((1u << mantissaBits) - 1);
  if (exponent == 31) return as_float(0x7F800000u | mantissa << (23 - mantissaBits));
  if (exponent == 0) return (float)mantissa * (mantissaBits == 6 ? 0x1p-20f : 0x1p-19f);
  return as_float((exponent + 112) << 23 | mantissa << (23 - mantissaBits));
}
// Float to those: finite values round to the nearest (ties to even) and saturate to the largest
// finite one; negative values and -infinity give 0, infinity infinity, NaN a NaN with the top of
// its mantissa (the quiet bit where that is all 0).
static uint imageToUnsignedFloat(float value, uint mantissaBits) {
  const uint infinity = 31u << mantissaBits, largest = infinity - 1;
  if (isnan(value)) {
    const uint payload = (as_uint(value) >> (23 - mantissaBits)) & ((1u << mantissaBits) - 1);
    return infinity | (payload ? payload : 1u << (mantissaBits - 1));
  }
  if (!(value > 0.0f)) return 0;
  if (isinf(value)) return infinity;
  if (value < 0x1p-14f)  // subnormal, in units of its step (rounding to 1 << mantissaBits gives the smallest normal)
    return convert_uint_rte(value * (mantissaBits == 6 ? 0x1p20f : 0x1p19f));
  const uint dropped = 23 - mantissaBits;
  const uint rebased = as_uint(value) - (112u << 23);  // exponent bias 127 -> 15
  const uint remainder = rebased & ((1u << dropped) - 1), tie = 1u << (dropped - 1);
  uint result = rebased >> dropped;
  if (remainder > tie || (remainder == tie && (result & 1))) ++result;
  return min(result, largest);
}

// A packed channel of `scale` + 1 steps: scaled, rounded to nearest even, saturated (NaN gives 0).
static uint imagePackChannel(float c, float scale) { return min(convert_uint_sat_rte(c * scale), (uint)scale); }

// Packed texels, their channels in the memory order of the channel order they go with (image_abi.h).
static float4 imageUnpack(uint bits, uint type) {
  switch (type) {
    case CLK_UNORM_SHORT_565:
      return (float4)((float)((bits >> 11) & 31) / 31.0f, (float)((bits >> 5) & 63) / 63.0f, (float)(bits & 31) / 31.0f, 0.0f);
    case CLK_UNORM_SHORT_555:
      return (float4)((float)((bits >> 10) & 31) / 31.0f, (float)((bits >> 5) & 31) / 31.0f, (float)(bits & 31) / 31.0f, 0.0f);
    case CLK_UNORM_INT_101010:
      return (float4)((float)((bits >> 20) & 1023) / 1023.0f, (float)((bits >> 10) & 1023) / 1023.0f,
                      (float)(bits & 1023) / 1023.0f, 0.0f);
    case IMAGE_UNORM_INT_101010_2:
      return convert_float4((uint4)(bits >> 22, (bits >> 12) & 1023, (bits >> 2) & 1023, bits & 3)) /
             (float4)(1023.0f, 1023.0f, 1023.0f, 3.0f);
    case IMAGE_UNORM_INT_2_101010:
      return convert_float4(imageFields2_101010(bits)) / (float4)(3.0f, 1023.0f, 1023.0f, 1023.0f);
    case IMAGE_SNORM_INT_2_101010:
      return fmax(convert_float4(imageSignedFields2_101010(bits)) / (float4)(1.0f, 511.0f, 511.0f, 511.0f), -1.0f);
    case IMAGE_UNSIGNED_FLOAT_2_101010: {
      const uint4 f = imageFields2_101010(bits);
      return (float4)((float)f.x / 3.0f, imageFromUnsignedFloat(f.y, 5), imageFromUnsignedFloat(f.z, 5), imageFromUnsignedFloat(f.w, 5));
    }
    case IMAGE_UNSIGNED_FLOAT_11_11_10:
      return (float4)(imageFromUnsignedFloat(bits & 0x7FF, 6), imageFromUnsignedFloat((bits >> 11) & 0x7FF, 6),
                      imageFromUnsignedFloat(bits >> 22, 5), 0.0f);
    case IMAGE_UNORM_SHORT_4444:
      return convert_float4((uint4)(bits >> 12, (bits >> 8) & 15, (bits >> 4) & 15, bits & 15)) / 15.0f;
    default:  // IMAGE_UNORM_SHORT_1555
      return convert_float4((uint4)(bits >> 15, (bits >> 10) & 31, (bits >> 5) & 31, bits & 31)) / (float4)(1.0f, 31.0f, 31.0f, 31.0f);
  }
}

static uint imagePack(float4 v, uint type) {
  switch (type) {
    case CLK_UNORM_SHORT_565:
      return imagePackChannel(v.x, 31.0f) << 11 | imagePackChannel(v.y, 63.0f) << 5 | imagePackChannel(v.z, 31.0f);
    case CLK_UNORM_SHORT_555:
      return imagePackChannel(v.x, 31.0f) << 10 | imagePackChannel(v.y, 31.0f) << 5 | imagePackChannel(v.z, 31.0f);
    case CLK_UNORM_INT_101010:
      return imagePackChannel(v.x, 1023.0f) << 20 | imagePackChannel(v.y, 1023.0f) << 10 | imagePackChannel(v.z, 1023.0f);
    case IMAGE_UNORM_INT_101010_2:
      return imagePackChannel(v.x, 1023.0f) << 22 | imagePackChannel(v.y, 1023.0f) << 12 | imagePackChannel(v.z, 1023.0f) << 2 |
             imagePackChannel(v.w, 3.0f);
    case IMAGE_UNORM_INT_2_101010:
      return imageJoin2_101010((uint4)(imagePackChannel(v.x, 3.0f), imagePackChannel(v.y, 1023.0f), imagePackChannel(v.z, 1023.0f),
                                       imagePackChannel(v.w, 1023.0f)));
    case IMAGE_SNORM_INT_2_101010: {
      const int4 f = clamp(convert_int4_sat_rte(v * (float4)(1.0f, 511.0f, 511.0f, 511.0f)), (int4)(-2, -512, -512, -512),
                           (int4)(1, 511, 511, 511));
      return imageJoin2_101010(as_uint4(f) & (uint4)(3, 1023, 1023, 1023));
    }
    case IMAGE_UNSIGNED_FLOAT_2_101010:
      return imageJoin2_101010((uint4)(imagePackChannel(v.x, 3.0f), imageToUnsignedFloat(v.y, 5), imageToUnsignedFloat(v.z, 5),
                                       imageToUnsignedFloat(v.w, 5)));
    case IMAGE_UNSIGNED_FLOAT_11_11_10:
      return imageToUnsignedFloat(v.x, 6) | imageToUnsignedFloat(v.y, 6) << 11 | imageToUnsignedFloat(v.z, 5) << 22;
    case IMAGE_UNORM_SHORT_4444:
      return imagePackChannel(v.x, 15.0f) << 12 | imagePackChannel(v.y, 15.0f) << 8 | imagePackChannel(v.z, 15.0f) << 4 |
             imagePackChannel(v.w, 15.0f);
    default:  // IMAGE_UNORM_SHORT_1555
      return imagePackChannel(v.x, 1.0f) << 15 | imagePackChannel(v.y, 31.0f) << 10 | imagePackChannel(v.z, 31.0f) << 5 |
             imagePackChannel(v.w, 31.0f);
  }
}

// Packed types of 16-bit texels (the others have 32).
static bool imageIsPacked16(uint type) {
  return type == CLK_UNORM_SHORT_565 || type == CLK_UNORM_SHORT_555 || type == IMAGE_UNORM_SHORT_4444 ||
         type == IMAGE_UNORM_SHORT_1555;
}
static bool imageIsPacked(uint type) {
  switch (type) {
    case CLK_UNORM_INT_101010: case IMAGE_UNORM_INT_101010_2: case IMAGE_UNORM_INT_2_101010: case IMAGE_SNORM_INT_2_101010:
    case IMAGE_UNSIGNED_FLOAT_2_101010: case IMAGE_UNSIGNED_FLOAT_11_11_10: return true;
    default: return imageIsPacked16(type);
  }
}

// The float channels of a texel, in memory order (read_imagef and read_imageh).
static float4 imageLoadFloats(__global const uchar* p, uint type, uint count) {
  if (imageIsPacked(type))
    return imageUnpack(imageIsPacked16(type) ? *(const __global ushort*)p : *(const __global uint*)p, type);
  switch (type) {
    case CLK_UNORM_INT8: return convert_float4(IMAGE_LOAD_CHANNELS(uchar, p, count)) / 255.0f;
    case CLK_UNORM_INT16: return convert_float4(IMAGE_LOAD_CHANNELS(ushort, p, count)) / 65535.0f;
    case CLK_SNORM_INT8: return fmax(convert_float4(IMAGE_LOAD_CHANNELS(char, p, count)) / 127.0f, -1.0f);
    case CLK_SNORM_INT16: return fmax(convert_float4(IMAGE_LOAD_CHANNELS(short, p, count)) / 32767.0f, -1.0f);
    case IMAGE_UNORM_INT32: return convert_float4(as_uint4(IMAGE_LOAD_CHANNELS(int, p, count))) / 4294967295.0f;
    case IMAGE_SNORM_INT32: return fmax(convert_float4(IMAGE_LOAD_CHANNELS(int, p, count)) / 2147483647.0f, -1.0f);
    case CLK_HALF_FLOAT: {
      const __global half* h = (const __global half*)p;
      if (count == 4) return vload_half4(0, h);
      if (count == 3) return (float4)(vload_half3(0, h), 0.0f);
      if (count == 2) return (float4)(vload_half2(0, h), 0.0f, 0.0f);
      return (float4)(vload_half(0, h), 0.0f, 0.0f, 0.0f);
    }
    default: return as_float4(IMAGE_LOAD_CHANNELS(int, p, count));  // CLK_FLOAT
  }
}

static float imageSrgbToLinear(float c) { return c <= 0.04045f ? c / 12.92f : powr((c + 0.055f) / 1.055f, 2.4f); }
static float imageLinearToSrgb(float c) {
  if (isnan(c)) return 0.0f;
  c = clamp(c, 0.0f, 1.0f);
  return c <= 0.0031308f ? 12.92f * c : 1.055f * powr(c, 1.0f / 2.4f) - 0.055f;
}

static void imageStoreFloats(__global uchar* p, uint type, uint count, float4 v) {
  if (imageIsPacked16(type)) {
    *(__global ushort*)p = imagePack(v, type);
    return;
  }
  if (imageIsPacked(type)) {
    *(__global uint*)p = imagePack(v, type);
    return;
  }
  switch (type) {
    case CLK_UNORM_INT8: IMAGE_STORE_CHANNELS(convert_uchar4_sat_rte(v * 255.0f), uchar, p, count); return;
    case CLK_UNORM_INT16: IMAGE_STORE_CHANNELS(convert_ushort4_sat_rte(v * 65535.0f), ushort, p, count); return;
    case CLK_SNORM_INT8: IMAGE_STORE_CHANNELS(convert_char4_sat_rte(v * 127.0f), char, p, count); return;
    case CLK_SNORM_INT16: IMAGE_STORE_CHANNELS(convert_short4_sat_rte(v * 32767.0f), short, p, count); return;
    case IMAGE_UNORM_INT32: IMAGE_STORE_CHANNELS(convert_uint4_sat_rte(v * 4294967295.0f), uint, p, count); return;
    case IMAGE_SNORM_INT32: IMAGE_STORE_CHANNELS(convert_int4_sat_rte(v * 2147483647.0f), int, p, count); return;
    case CLK_HALF_FLOAT: IMAGE_STORE_CHANNELS(convert_half4(v), half, p, count); return;  // to nearest even
    default: IMAGE_STORE_CHANNELS(v, float, p, count); return;  // CLK_FLOAT
  }
}

// write_imagei and write_imageui: converted to the channel type with saturation, from signed or
// unsigned values.
#define IMAGE_STORE_SATURATED(T, p, count, v, fromSigned) \
  IMAGE_STORE_CHANNELS((fromSigned) ? convert_##T##4_sat(v) : convert_##T##4_sat(as_uint4(v)), T, p, count)
static void imageStoreIntegers(__global uchar* p, uint type, uint count, int4 v, bool fromSigned) {
  switch (type) {
    case CLK_SIGNED_INT8: IMAGE_STORE_SATURATED(char, p, count, v, fromSigned); return;
    case CLK_UNSIGNED_INT8: IMAGE_STORE_SATURATED(uchar, p, count, v, fromSigned); return;
    case CLK_SIGNED_INT16: IMAGE_STORE_SATURATED(short, p, count, v, fromSigned); return;
    case CLK_UNSIGNED_INT16: IMAGE_STORE_SATURATED(ushort, p, count, v, fromSigned); return;
    case IMAGE_SIGNED_INT_2_101010: {
      const int4 low = (int4)(-2, -512, -512, -512), high = (int4)(1, 511, 511, 511);
      const int4 f = fromSigned ? clamp(v, low, high) : as_int4(min(as_uint4(v), as_uint4(high)));
      *(__global uint*)p = imageJoin2_101010(as_uint4(f) & (uint4)(3, 1023, 1023, 1023));
      return;
    }
    case IMAGE_UNSIGNED_INT_2_101010: {
      const uint4 high = (uint4)(3, 1023, 1023, 1023);
      *(__global uint*)p = imageJoin2_101010(fromSigned ? as_uint4(clamp(v, 0, as_int4(high))) : min(as_uint4(v), high));
      return;
    }
    default: IMAGE_STORE_CHANNELS(v, int, p, count); return;
  }
}

// ---- Texels -----------------------------------------------------------------------------------

// Whether the target has texture units (compiler/src/texture_reads.h); false on the CPU.
bool __loom_texture_units(void);

// The runtime makes an image's texture objects all or none (image_abi.h): textures[0] says which.
// Texture objects need their memory aligned, so an image that has them has its texels aligned.
static bool imageHasTextures(Image d) { return __loom_texture_units() && d->textures[0] != 0; }

// Texels along x, y and z, where z counts the slices of a 3D image or the layers of an array
// (descriptors give 1 for the dimensions an image lacks).
static int4 imageExtent(Image d) { return (int4)(d->width, d->height, d->depth * d->arraySize, 1); }

static bool imageInside(Image d, int4 i) {
  const int4 extent = imageExtent(d);
  return i.x >= 0 && i.y >= 0 && i.z >= 0 && i.x < extent.x && i.y < extent.y && i.z < extent.z;
}

static __global uchar* imageTexel(Image d, int4 i) {
  return (__global uchar*)d->data + (ulong)i.x * d->elementSize + (ulong)i.y * d->rowPitch + (ulong)i.z * d->slicePitch;
}

// A texel's channels in memory order. Reading integers as floats or floats as integers is
// undefined; these reads convert, so that no access leaves the texel.
static float4 imageLoadAsFloats(__global const uchar* p, uint type, uint count) {
  return imageHasIntegers(type) ? convert_float4(imageLoadIntegers(p, type, count)) : imageLoadFloats(p, type, count);
}
static int4 imageLoadAsIntegers(__global const uchar* p, uint type, uint count) {
  return imageHasIntegers(type) ? imageLoadIntegers(p, type, count) : convert_int4_sat(imageLoadFloats(p, type, count));
}
static void imageStoreAsFloats(__global uchar* p, uint type, uint count, float4 v) {
  if (imageHasIntegers(type)) imageStoreIntegers(p, type, count, convert_int4_sat_rte(v), true);
  else imageStoreFloats(p, type, count, v);
}
static void imageStoreAsIntegers(__global uchar* p, uint type, uint count, int4 v, bool fromSigned) {
  if (imageHasIntegers(type)) imageStoreIntegers(p, type, count, v, fromSigned);
  else imageStoreFloats(p, type, count, fromSigned ? convert_float4(v) : convert_float4(as_uint4(v)));
}

// 8-bit normalized channels as floats: the quotient by 255, correctly rounded.
static float4 imageUnorm8ToFloat(uchar4 v) { return convert_float4(v) / 255.0f; }

// convert_uchar4_sat_rte(v * 255.0f) in whole-vector operations: NaN and values below 0 give 0.
static uchar4 imageFloatToUnorm8(float4 v) { return convert_uchar4(rint(fmin(fmax(v * 255.0f, 0.0f), 255.0f))); }

// A texel inside the image as read_imagef sees it. RGBA 8-bit normalized and float, the commonest
// formats, take a direct path that computes what the general one does.
static float4 imageLoadFloatTexel(__global const uchar* p, uint order, uint type) {
  if (order == CLK_RGBA && type == CLK_UNORM_INT8) return imageUnorm8ToFloat(vload4(0, p));
  if (order == CLK_RGBA && type == CLK_FLOAT) return vload4(0, (const __global float*)p);
  float4 c = imageArrange(imageLoadAsFloats(p, type, imageChannelCount(order)), order, 1.0f);
  if (imageIsSrgb(order)) c.xyz = (float3)(imageSrgbToLinear(c.x), imageSrgbToLinear(c.y), imageSrgbToLinear(c.z));
  return c;
}

// A texel as read_imagef sees it; outside the image, the border color.
static float4 imageReadFloatTexel(Image d, int4 i) {
  const uint order = d->channelOrder;
  if (!imageInside(d, i)) return (float4)(0.0f, 0.0f, 0.0f, imageBorderIsOpaque(order) ? 1.0f : 0.0f);
  return imageLoadFloatTexel(imageTexel(d, i), order, d->channelType);
}

static int4 imageReadIntegerTexel(Image d, int4 i) {
  const uint order = d->channelOrder;
  if (!imageInside(d, i)) return (int4)(0, 0, 0, imageBorderIsOpaque(order) ? 1 : 0);
  return imageArrange(imageLoadAsIntegers(imageTexel(d, i), d->channelType, imageChannelCount(order)), order, 1);
}

// Writes outside the image are dropped (their result is undefined).
static void imageWriteFloatTexel(Image d, int4 i, float4 color) {
  if (!imageInside(d, i)) return;
  const uint order = d->channelOrder;
  const uint type = d->channelType;
  __global uchar* p = imageTexel(d, i);
  // The commonest formats directly, as the general path stores them; whole texels at once where
  // the texels are known to be aligned.
  const bool aligned = imageHasTextures(d);
  if (order == CLK_RGBA && type == CLK_UNORM_INT8) {
    const uchar4 texel = imageFloatToUnorm8(color);
    if (aligned) *(__global uint*)p = as_uint(texel);
    else vstore4(texel, 0, p);
    return;
  }
  if (order == CLK_RGBA && type == CLK_FLOAT) {
    if (aligned) *(__global float4*)p = color;
    else vstore4(color, 0, (__global float*)p);
    return;
  }
  if (imageIsSrgb(order))
    color.xyz = (float3)(imageLinearToSrgb(color.x), imageLinearToSrgb(color.y), imageLinearToSrgb(color.z));
  imageStoreAsFloats(p, type, imageChannelCount(order), imageDisarrange(color, order));
}
static void imageWriteIntegerTexel(Image d, int4 i, int4 color, bool fromSigned) {
  if (!imageInside(d, i)) return;
  const uint order = d->channelOrder;
  imageStoreAsIntegers(imageTexel(d, i), d->channelType, imageChannelCount(order), imageDisarrange(color, order), fromSigned);
}

// ---- Addressing and filtering -----------------------------------------------------------------
// Coordinates come as (x, y, z) with `dims` of them filtered; the rest are 0. Indices stay in
// float until they are known to lie in [-1, size], so that no conversion overflows (NaN becomes
// an index too, never an address).

// The addressing mode's bits of a sampler (CLK_ADDRESS_*).
#define IMAGE_ADDRESS_MASK 0xE

// An index kept within [-1, size], the border on either side (NaN becomes -1).
static float4 imageBorderClamp(float4 i, float4 size) { return fmin(fmax(i, -1.0f), size); }

// Coordinates in texels for the non-repeating modes, mirrored ones for mirrored repeat and the
// fraction of the image for repeat.
static float4 imageUnnormalized(float4 s, float4 size, uint sampler) {
  const uint mode = sampler & IMAGE_ADDRESS_MASK;
  if (mode == CLK_ADDRESS_REPEAT) return (s - floor(s)) * size;
  if (mode == CLK_ADDRESS_MIRRORED_REPEAT) return fabs(s - 2.0f * rint(0.5f * s)) * size;
  return (sampler & CLK_NORMALIZED_COORDS_TRUE) ? s * size : s;
}

// The index a nearest-filter read uses along each axis (-1 or size: the border).
static int4 imageNearestIndex(float4 s, int4 extent, uint sampler) {
  const float4 size = convert_float4(extent);
  const uint mode = sampler & IMAGE_ADDRESS_MASK;
  float4 i = floor(imageUnnormalized(s, size, sampler));
  if (mode == CLK_ADDRESS_REPEAT) i = select(i, i - size, i > size - 1.0f);
  if (mode == CLK_ADDRESS_MIRRORED_REPEAT) i = fmin(i, size - 1.0f);
  if (mode == CLK_ADDRESS_CLAMP_TO_EDGE) i = clamp(i, 0.0f, size - 1.0f);
  return convert_int4(imageBorderClamp(i, size));
}

// The two indices a linear-filter read blends along each axis, and the second one's weight.
static void imageLinearIndices(float4 s, int4 extent, uint sampler, int4* i0, int4* i1, float4* weight) {
  const float4 size = convert_float4(extent);
  const uint mode = sampler & IMAGE_ADDRESS_MASK;
  const float4 u = imageUnnormalized(s, size, sampler) - 0.5f;
  float4 first = floor(u), second = first + 1.0f;
  *weight = u - first;
  if (mode == CLK_ADDRESS_REPEAT) {
    first = select(first, first + size, first < 0.0f);
    second = select(second, second - size, second > size - 1.0f);
  } else if (mode == CLK_ADDRESS_MIRRORED_REPEAT) {
    first = fmax(first, 0.0f);
    second = fmin(second, size - 1.0f);
  } else if (mode == CLK_ADDRESS_CLAMP_TO_EDGE) {  // inside the image: no border clamp to follow
    *i0 = convert_int4(clamp(first, 0.0f, size - 1.0f));
    *i1 = convert_int4(clamp(second, 0.0f, size - 1.0f));
    return;
  }
  *i0 = convert_int4(imageBorderClamp(first, size));
  *i1 = convert_int4(imageBorderClamp(second, size));
}

// The layer of an array image a read uses.
static int imageLayer(Image d, float layer) { return (int)clamp(rint(layer), 0.0f, (float)(d->arraySize - 1)); }
static int imageIntegerLayer(Image d, int layer) { return clamp(layer, 0, (int)d->arraySize - 1); }

// (x, y, z) filtered over `dims` axes; an array's layer (or 0) goes to the first unfiltered axis.
static int4 imagePlace(int4 i, int dims, int layer) {
  if (dims == 1) return (int4)(i.x, 0, layer, 0);
  if (dims == 2) return (int4)(i.x, i.y, layer, 0);
  return (int4)(i.xyz, 0);
}

static int4 imageFilteredExtent(Image d) { return (int4)(d->width, d->height, d->depth, 1); }

// A 2D linear read whose four texels all lie inside the image (always so when clamping to the
// edge): the texels are addressed from two rows, without the border checks of each texel. The
// sum is formed as imageSampleLinear forms it, so both give the same bits.
static float4 imageBlendInside2d(Image d, int4 i0, int4 i1, float4 a, float4 b, int layer) {
  const uint order = d->channelOrder, type = d->channelType;
  const __global uchar* row0 = imageTexel(d, (int4)(0, i0.y, layer, 0));
  const __global uchar* row1 = imageTexel(d, (int4)(0, i1.y, layer, 0));
  const ulong x0 = (ulong)i0.x * d->elementSize, x1 = (ulong)i1.x * d->elementSize;
  float4 sum = 0.0f;
  const float4 top = a.x * imageLoadFloatTexel(row0 + x0, order, type) + b.x * imageLoadFloatTexel(row0 + x1, order, type);
  sum += a.y * top;
  const float4 bottom = a.x * imageLoadFloatTexel(row1 + x0, order, type) + b.x * imageLoadFloatTexel(row1 + x1, order, type);
  sum += b.y * bottom;
  return sum;
}

static bool imageFootprintInside2d(int4 i0, int4 i1, int4 extent) {
  const int2 low = min(i0.xy, i1.xy), high = max(i0.xy, i1.xy);
  return low.x >= 0 && low.y >= 0 && high.x < extent.x && high.y < extent.y;
}

static float4 imageSampleLinear(Image d, uint sampler, float4 s, int dims, int layer) {
  int4 i0, i1;
  float4 b;
  const int4 extent = imageFilteredExtent(d);
  imageLinearIndices(s, extent, sampler, &i0, &i1, &b);
  const float4 a = 1.0f - b;
  if (dims == 2 && imageFootprintInside2d(i0, i1, extent)) return imageBlendInside2d(d, i0, i1, a, b, layer);
  float4 sum = 0.0f;
  for (int z = 0; z < (dims == 3 ? 2 : 1); ++z) {
    const int zi = z ? i1.z : i0.z;
    const float wz = dims == 3 ? (z ? b.z : a.z) : 1.0f;
    for (int y = 0; y < (dims >= 2 ? 2 : 1); ++y) {
      const int yi = y ? i1.y : i0.y;
      const float wy = dims >= 2 ? (y ? b.y : a.y) : 1.0f;
      const float4 row = a.x * imageReadFloatTexel(d, imagePlace((int4)(i0.x, yi, zi, 0), dims, layer)) +
                         b.x * imageReadFloatTexel(d, imagePlace((int4)(i1.x, yi, zi, 0), dims, layer));
      sum += wz * wy * row;
    }
  }
  return sum;
}

// ---- Texture units ----------------------------------------------------------------------------
// Where the runtime made a texture object for the image and the sampler's state (a GPU, a format
// and image type its texture units filter as OpenCL says), read_imagef samples through it. The
// compiler gives both functions per target (compiler/src/texture_reads.h): on the CPU
// __loom_texture_units() is false, and all of this folds away.

// Channels in memory order at (x, y) of a 2D texture object (1D images are 2D of one row).
float4 __loom_texture_read_2d(ulong texture, float x, float y);

// ImageDescriptor.textures' index of a sampler (samplerState in image_abi.h).
static uint imageSamplerState(uint sampler) {
  return (sampler & (CLK_NORMALIZED_COORDS_TRUE | IMAGE_ADDRESS_MASK)) + ((sampler & CLK_FILTER_LINEAR) ? 10 : 0);
}

// Every sampler state has a texture object but those OpenCL leaves undefined: repeat and mirrored
// repeat with unnormalized coordinates.
static bool imageSamplerHasTexture(uint sampler) {
  const uint mode = sampler & IMAGE_ADDRESS_MASK;
  return (sampler & CLK_NORMALIZED_COORDS_TRUE) || (mode != CLK_ADDRESS_REPEAT && mode != CLK_ADDRESS_MIRRORED_REPEAT);
}

// The runtime makes texture objects of 1D and 2D images only: 3D reads skip the lookup.
static bool imageSampledThroughTexture(Image d, uint sampler, int dims) {
  return dims < 3 && imageHasTextures(d) && imageSamplerHasTexture(sampler);
}

// The row's centre for a 1D image, in either kind of coordinate.
static float4 imageSampleTexture(Image d, uint sampler, float4 s, int dims) {
  const float4 texel = __loom_texture_read_2d(d->textures[imageSamplerState(sampler)], s.x, dims == 1 ? 0.5f : s.y);
  return imageArrange(texel, d->channelOrder, 1.0f);
}

// A read without a sampler through the texture object of unnormalized coordinates, no addressing
// and the nearest filter (state 0): the texel's centre gives the texel itself.
static float4 imageReadTexelThroughTexture(Image d, int4 i, int dims) {
  return imageSampleTexture(d, CLK_FILTER_NEAREST, (float4)((float)i.x + 0.5f, (float)i.y + 0.5f, 0.0f, 0.0f), dims);
}

static float4 imageSampleFloat(Image d, uint sampler, float4 s, int dims, int layer) {
  if (imageSampledThroughTexture(d, sampler, dims)) return imageSampleTexture(d, sampler, s, dims);
  if (sampler & CLK_FILTER_LINEAR) return imageSampleLinear(d, sampler, s, dims, layer);
  return imageReadFloatTexel(d, imagePlace(imageNearestIndex(s, imageFilteredExtent(d), sampler), dims, layer));
}

// Integer formats filter nearest only.
static int4 imageSampleInteger(Image d, uint sampler, float4 s, int dims, int layer) {
  return imageReadIntegerTexel(d, imagePlace(imageNearestIndex(s, imageFilteredExtent(d), sampler), dims, layer));
}

// Integer coordinates with a sampler (unnormalized, nearest): clamp to edge, or the border.
static int4 imageAddressInteger(Image d, uint sampler, int4 i, int dims, int layer) {
  if ((sampler & IMAGE_ADDRESS_MASK) == CLK_ADDRESS_CLAMP_TO_EDGE) i = clamp(i, 0, imageFilteredExtent(d) - 1);
  return imagePlace(i, dims, layer);
}

// ---- The OpenCL C functions -------------------------------------------------------------------
// Per image type: COORDS its coordinate as (x, y, z, 0) of component type V, DIMS how many of
// them address texels (the rest are 0), LAYER its layer coordinate (0 without layers).

#define IMAGE_COORDS_image1d_t(V, c) ((V##4)((c), 0, 0, 0))
#define IMAGE_DIMS_image1d_t 1
#define IMAGE_LAYER_image1d_t(c) 0
#define IMAGE_COORDS_image1d_buffer_t(V, c) ((V##4)((c), 0, 0, 0))
#define IMAGE_DIMS_image1d_buffer_t 1
#define IMAGE_LAYER_image1d_buffer_t(c) 0
#define IMAGE_COORDS_image1d_array_t(V, c) ((V##4)((c).x, 0, 0, 0))
#define IMAGE_DIMS_image1d_array_t 1
#define IMAGE_LAYER_image1d_array_t(c) (c).y
#define IMAGE_COORDS_image2d_t(V, c) ((V##4)((c).x, (c).y, 0, 0))
#define IMAGE_DIMS_image2d_t 2
#define IMAGE_LAYER_image2d_t(c) 0
#define IMAGE_COORDS_image2d_depth_t IMAGE_COORDS_image2d_t
#define IMAGE_DIMS_image2d_depth_t 2
#define IMAGE_LAYER_image2d_depth_t(c) 0
#define IMAGE_COORDS_image2d_array_t(V, c) ((V##4)((c).x, (c).y, 0, 0))
#define IMAGE_DIMS_image2d_array_t 2
#define IMAGE_LAYER_image2d_array_t(c) (c).z
#define IMAGE_COORDS_image2d_array_depth_t IMAGE_COORDS_image2d_array_t
#define IMAGE_DIMS_image2d_array_depth_t 2
#define IMAGE_LAYER_image2d_array_depth_t(c) (c).z
#define IMAGE_COORDS_image3d_t(V, c) ((V##4)((c).x, (c).y, (c).z, 0))
#define IMAGE_DIMS_image3d_t 3
#define IMAGE_LAYER_image3d_t(c) 0

// Integer coordinates of a texel: (x, y, z) and the layer, placed as the descriptor's axes.
#define IMAGE_TEXEL_AT(T, d, c) imagePlace(IMAGE_COORDS_##T(int, c), IMAGE_DIMS_##T, imageIntegerLayer(d, IMAGE_LAYER_##T(c)))

// Reads without a sampler (and writes) take integer coordinates. Those of read-only images
// (TEXTURES 1) may go through the texture units, whose caches do not see the kernel's own writes.
#define IMAGE_INTEGER_ACCESS(ACCESS, T, C, TEXTURES)                                                                        \
  float4 OVL read_imagef(ACCESS T image, C coord) {                                                                         \
    Image d = DESCRIPTOR(image);                                                                                            \
    const int4 at = IMAGE_TEXEL_AT(T, d, coord);                                                                            \
    if (TEXTURES && IMAGE_DIMS_##T < 3 && imageHasTextures(d)) return imageReadTexelThroughTexture(d, at, IMAGE_DIMS_##T);  \
    return imageReadFloatTexel(d, at);                                                                                      \
  }                                                                                                                          \
  half4 OVL read_imageh(ACCESS T image, C coord) { return convert_half4(read_imagef(image, coord)); }                       \
  int4 OVL read_imagei(ACCESS T image, C coord) {                                                                           \
    Image d = DESCRIPTOR(image);                                                                                            \
    return imageReadIntegerTexel(d, IMAGE_TEXEL_AT(T, d, coord));                                                           \
  }                                                                                                                          \
  uint4 OVL read_imageui(ACCESS T image, C coord) { return as_uint4(read_imagei(image, coord)); }
#define IMAGE_WRITES(ACCESS, T, C)                                                                                          \
  void OVL write_imagef(ACCESS T image, C coord, float4 color) {                                                            \
    Image d = DESCRIPTOR(image);                                                                                            \
    imageWriteFloatTexel(d, IMAGE_TEXEL_AT(T, d, coord), color);                                                            \
  }                                                                                                                          \
  void OVL write_imageh(ACCESS T image, C coord, half4 color) { write_imagef(image, coord, convert_float4(color)); }         \
  void OVL write_imagei(ACCESS T image, C coord, int4 color) {                                                              \
    Image d = DESCRIPTOR(image);                                                                                            \
    imageWriteIntegerTexel(d, IMAGE_TEXEL_AT(T, d, coord), color, true);                                                           \
  }                                                                                                                          \
  void OVL write_imageui(ACCESS T image, C coord, uint4 color) {                                                            \
    Image d = DESCRIPTOR(image);                                                                                            \
    imageWriteIntegerTexel(d, IMAGE_TEXEL_AT(T, d, coord), as_int4(color), false);                                                         \
  }

// Reads with a sampler: float coordinates go through addressing and filtering, integer ones
// through the integer addressing modes.
#define IMAGE_SAMPLED(T, C, F)                                                                                              \
  float4 OVL read_imagef(read_only T image, sampler_t sampler, F coord) {                                                  \
    Image d = DESCRIPTOR(image);                                                                                            \
    return imageSampleFloat(d, SAMPLER_BITS(sampler), IMAGE_COORDS_##T(float, coord), IMAGE_DIMS_##T,                             \
                            imageLayer(d, IMAGE_LAYER_##T(coord)));                                                         \
  }                                                                                                                          \
  int4 OVL read_imagei(read_only T image, sampler_t sampler, F coord) {                                                    \
    Image d = DESCRIPTOR(image);                                                                                            \
    return imageSampleInteger(d, SAMPLER_BITS(sampler), IMAGE_COORDS_##T(float, coord), IMAGE_DIMS_##T,                           \
                              imageLayer(d, IMAGE_LAYER_##T(coord)));                                                       \
  }                                                                                                                          \
  float4 OVL read_imagef(read_only T image, sampler_t sampler, C coord) {                                                  \
    Image d = DESCRIPTOR(image);                                                                                            \
    return imageReadFloatTexel(d, imageAddressInteger(d, SAMPLER_BITS(sampler), IMAGE_COORDS_##T(int, coord),      \
                                                      IMAGE_DIMS_##T, imageIntegerLayer(d, IMAGE_LAYER_##T(coord))));       \
  }                                                                                                                          \
  int4 OVL read_imagei(read_only T image, sampler_t sampler, C coord) {                                                    \
    Image d = DESCRIPTOR(image);                                                                                            \
    return imageReadIntegerTexel(d, imageAddressInteger(d, SAMPLER_BITS(sampler), IMAGE_COORDS_##T(int, coord),    \
                                                        IMAGE_DIMS_##T, imageIntegerLayer(d, IMAGE_LAYER_##T(coord))));     \
  }                                                                                                                          \
  half4 OVL read_imageh(read_only T image, sampler_t sampler, F coord) {                                                   \
    return convert_half4(read_imagef(image, sampler, coord));                                                               \
  }                                                                                                                          \
  half4 OVL read_imageh(read_only T image, sampler_t sampler, C coord) {                                                   \
    return convert_half4(read_imagef(image, sampler, coord));                                                               \
  }                                                                                                                          \
  uint4 OVL read_imageui(read_only T image, sampler_t sampler, F coord) { return as_uint4(read_imagei(image, sampler, coord)); } \
  uint4 OVL read_imageui(read_only T image, sampler_t sampler, C coord) { return as_uint4(read_imagei(image, sampler, coord)); }

// Depth images hold one float channel.
#define IMAGE_DEPTH(T, C, F)                                                                                                \
  float OVL read_imagef(read_only T image, sampler_t sampler, F coord) {                                                   \
    Image d = DESCRIPTOR(image);                                                                                            \
    return imageSampleFloat(d, SAMPLER_BITS(sampler), IMAGE_COORDS_##T(float, coord), IMAGE_DIMS_##T,                             \
                            imageLayer(d, IMAGE_LAYER_##T(coord))).x;                                                       \
  }                                                                                                                          \
  float OVL read_imagef(read_only T image, sampler_t sampler, C coord) {                                                   \
    Image d = DESCRIPTOR(image);                                                                                            \
    return imageReadFloatTexel(d, imageAddressInteger(d, SAMPLER_BITS(sampler), IMAGE_COORDS_##T(int, coord),      \
                                                      IMAGE_DIMS_##T, imageIntegerLayer(d, IMAGE_LAYER_##T(coord)))).x;     \
  }                                                                                                                          \
  IMAGE_DEPTH_ACCESS(read_only, T, C) IMAGE_DEPTH_ACCESS(read_write, T, C) IMAGE_DEPTH_WRITE(write_only, T, C)              \
  IMAGE_DEPTH_WRITE(read_write, T, C)
#define IMAGE_DEPTH_ACCESS(ACCESS, T, C)                                                                                    \
  float OVL read_imagef(ACCESS T image, C coord) {                                                                          \
    Image d = DESCRIPTOR(image);                                                                                            \
    return imageReadFloatTexel(d, IMAGE_TEXEL_AT(T, d, coord)).x;                                                           \
  }
#define IMAGE_DEPTH_WRITE(ACCESS, T, C)                                                                                     \
  void OVL write_imagef(ACCESS T image, C coord, float depth) {                                                             \
    Image d = DESCRIPTOR(image);                                                                                            \
    imageWriteFloatTexel(d, IMAGE_TEXEL_AT(T, d, coord), (float4)(depth, 0.0f, 0.0f, 0.0f));                                \
  }

// get_image_*: what every image type answers, then the sizes it has.
#define IMAGE_QUERIES(ACCESS, T)                                                                                             \
  int OVL get_image_width(ACCESS T image) { return DESCRIPTOR(image)->width; }                                              \
  int OVL get_image_channel_data_type(ACCESS T image) { return DESCRIPTOR(image)->channelType; }                            \
  int OVL get_image_channel_order(ACCESS T image) { return DESCRIPTOR(image)->channelOrder; }
#define IMAGE_HEIGHT(ACCESS, T) \
  int OVL get_image_height(ACCESS T image) { return DESCRIPTOR(image)->height; }
#define IMAGE_DIM2(ACCESS, T) \
  int2 OVL get_image_dim(ACCESS T image) { return (int2)(DESCRIPTOR(image)->width, DESCRIPTOR(image)->height); }
#define IMAGE_ARRAY_SIZE(ACCESS, T) \
  size_t OVL get_image_array_size(ACCESS T image) { return DESCRIPTOR(image)->arraySize; }

#define IMAGE_ALL_TYPES(ACCESS)                                                                                             \
  IMAGE_QUERIES(ACCESS, image1d_t) IMAGE_QUERIES(ACCESS, image1d_buffer_t) IMAGE_QUERIES(ACCESS, image1d_array_t)          \
  IMAGE_QUERIES(ACCESS, image2d_t) IMAGE_QUERIES(ACCESS, image2d_array_t) IMAGE_QUERIES(ACCESS, image3d_t)                 \
  IMAGE_QUERIES(ACCESS, image2d_depth_t) IMAGE_QUERIES(ACCESS, image2d_array_depth_t)                                      \
  IMAGE_HEIGHT(ACCESS, image2d_t) IMAGE_HEIGHT(ACCESS, image2d_array_t) IMAGE_HEIGHT(ACCESS, image3d_t)                    \
  IMAGE_HEIGHT(ACCESS, image2d_depth_t) IMAGE_HEIGHT(ACCESS, image2d_array_depth_t)                                        \
  IMAGE_DIM2(ACCESS, image2d_t) IMAGE_DIM2(ACCESS, image2d_array_t) IMAGE_DIM2(ACCESS, image2d_depth_t)                    \
  IMAGE_DIM2(ACCESS, image2d_array_depth_t)                                                                                 \
  IMAGE_ARRAY_SIZE(ACCESS, image1d_array_t) IMAGE_ARRAY_SIZE(ACCESS, image2d_array_t)                                      \
  IMAGE_ARRAY_SIZE(ACCESS, image2d_array_depth_t)                                                                           \
  int OVL get_image_depth(ACCESS image3d_t image) { return DESCRIPTOR(image)->depth; }                                      \
  int4 OVL get_image_dim(ACCESS image3d_t image) {                                                                          \
    Image d = DESCRIPTOR(image);                                                                                            \
    return (int4)(d->width, d->height, d->depth, 0);                                                                        \
  }
IMAGE_ALL_TYPES(read_only)
IMAGE_ALL_TYPES(write_only)
IMAGE_ALL_TYPES(read_write)

#define IMAGE_COLOR_TYPE(T, C, F)                                                                                           \
  IMAGE_SAMPLED(T, C, F) IMAGE_INTEGER_ACCESS(read_only, T, C, 1) IMAGE_INTEGER_ACCESS(read_write, T, C, 0)                 \
  IMAGE_WRITES(write_only, T, C) IMAGE_WRITES(read_write, T, C)
IMAGE_COLOR_TYPE(image1d_t, int, float)
IMAGE_COLOR_TYPE(image1d_array_t, int2, float2)
IMAGE_COLOR_TYPE(image2d_t, int2, float2)
IMAGE_COLOR_TYPE(image2d_array_t, int4, float4)
IMAGE_COLOR_TYPE(image3d_t, int4, float4)
IMAGE_INTEGER_ACCESS(read_only, image1d_buffer_t, int, 1)
IMAGE_INTEGER_ACCESS(read_write, image1d_buffer_t, int, 0)
IMAGE_WRITES(write_only, image1d_buffer_t, int)
IMAGE_WRITES(read_write, image1d_buffer_t, int)
IMAGE_DEPTH(image2d_depth_t, int2, float2)
IMAGE_DEPTH(image2d_array_depth_t, int4, float4)
