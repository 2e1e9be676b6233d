#pragma once
// How a kernel sees images and samplers, on every target: the contract between the builtin
// library's image functions (compiler side) and the runtime that creates images and sets kernel
// arguments (core and the frontends). Its layout is an ABI: change both sides together.
//
// An image argument (ArgumentKind::Image) takes 8 bytes in the argument buffer: the device address
// of an ImageDescriptor that lives in memory the device reads (host memory on the CPU, device
// memory on a GPU) for as long as the image lives. Texel (x, y, z or layer) lies at
//   data + x * elementSize + y * rowPitch + (z or layer) * slicePitch
// (a 1D array's layers step by rowPitch = slicePitch). The image's format is given with the
// OpenCL API's values (cl_channel_order, cl_channel_type, cl_mem_object_type), which OpenCL C's
// CLK_* constants repeat, so kernels answer get_image_channel_order/_data_type with them as they
// are; Level Zero formats are mapped to these values when a Level Zero image is created.
//
// On a GPU an image may also be sampled through the texture units: `textures` holds a texture
// object per sampler state (samplerState below) through which the hardware samples as OpenCL's
// sampler with those bits does (within the specification's precision), or 0 where the kernel
// samples in software (the CPU; formats, image types and sampler states the hardware does not serve).
// An image has texture objects for every sampler state or for none, except the states OpenCL
// leaves undefined (repeat and mirrored repeat with unnormalized coordinates), which have none:
// kernels read textures[0] to tell. Texture objects need aligned memory, so an image that has them
// has every texel aligned to its size.
//
// A sampler argument (ArgumentKind::Sampler) takes 8 bytes: a SamplerBits value, the bit layout
// of OpenCL C's sampler_t literals (CLK_NORMALIZED_COORDS_*, CLK_ADDRESS_*, CLK_FILTER_*), so a
// sampler made by the API and one written in kernel source are the same number.
#include <cstddef>
#include <cstdint>

namespace loom::compiler {

struct ImageDescriptor {
  uint64_t data;         // device address of texel (0, 0, 0)
  uint64_t rowPitch;     // bytes between rows
  uint64_t slicePitch;   // bytes between slices of a 3D image or layers of an array
  uint32_t width;        // texels
  uint32_t height;       // 1 for 1D images
  uint32_t depth;        // 1 unless 3D
  uint32_t arraySize;    // layers of an array image, 1 otherwise
  uint32_t channelOrder; // cl_channel_order value (CL_RGBA = 0x10B5, ...)
  uint32_t channelType;  // cl_channel_type value (CL_UNORM_INT8 = 0x10D2, ...)
  uint32_t imageType;    // cl_mem_object_type value (CL_MEM_OBJECT_IMAGE2D = 0x10F1, ...)
  uint32_t elementSize;  // bytes per texel
  uint32_t mipLevels;    // 0 or 1: mipmaps are not supported
  uint32_t samples;      // 0: multisampled images are not supported
  uint64_t textures[20]; // texture object by samplerState(bits); 0: sample in software
};

static_assert(sizeof(ImageDescriptor) == 224);
static_assert(offsetof(ImageDescriptor, data) == 0);
static_assert(offsetof(ImageDescriptor, rowPitch) == 8);
static_assert(offsetof(ImageDescriptor, slicePitch) == 16);
static_assert(offsetof(ImageDescriptor, width) == 24);
static_assert(offsetof(ImageDescriptor, channelOrder) == 40);
static_assert(offsetof(ImageDescriptor, elementSize) == 52);
static_assert(offsetof(ImageDescriptor, textures) == 64);

// Channel types of Level Zero layouts that OpenCL has no cl_channel_type for. Kernels see these
// values in channelType (and get_image_channel_data_type); the builtin library's texel decode and
// encode (compiler/builtins/images.cl) repeats them. 0x10E5 is Khronos' own value
// (cl_ext_image_unorm_int_2_101010); the others are Loom's, outside the values Khronos assigns,
// and never reach the OpenCL API. Packed types hold their channels from the most significant bits
// down, in the memory order of the channel order they go with (as OpenCL's packed types do),
// except UnsignedFloat11_11_10, whose red lies in the low bits:
//   UnormInt2_101010 and the other *2_101010 types, with CL_ABGR: A 31:30, B 29:20, G 19:10, R 9:0
//   (Level Zero's 10_10_10_2 and Y410); UnsignedFloat2_101010's B, G, R are 10-bit unsigned
//   floats, its A a 2-bit normalized value.
//   UnsignedFloat11_11_10, with CL_RGB: R 10:0 and G 21:11 11-bit, B 31:22 10-bit unsigned floats.
//   UnormShort4444, with CL_ARGB: A 15:12, R 11:8, G 7:4, B 3:0 (Level Zero's 4_4_4_4).
//   UnormShort1555, with CL_ARGB: A 15, R 14:10, G 9:5, B 4:0 (Level Zero's 5_5_5_1 with alpha).
//   UnormInt32, SnormInt32: 32-bit normalized channels, with the orders of 32-bit integers.
enum LevelZeroChannelType : uint32_t {
  kChannelUnormInt2_101010 = 0x10E5,
  kChannelUnormInt32 = 0x4C000,
  kChannelSnormInt32 = 0x4C001,
  kChannelSnormInt2_101010 = 0x4C002,
  kChannelSignedInt2_101010 = 0x4C003,
  kChannelUnsignedInt2_101010 = 0x4C004,
  kChannelUnsignedFloat2_101010 = 0x4C005,
  kChannelUnsignedFloat11_11_10 = 0x4C006,
  kChannelUnormShort4444 = 0x4C007,
  kChannelUnormShort1555 = 0x4C008,
};

// sampler_t bits, as OpenCL C's headers define them (opencl-c-base.h).
enum SamplerBits : uint32_t {
  kSamplerNormalizedCoordsFalse = 0x0,
  kSamplerNormalizedCoordsTrue = 0x1,
  kSamplerAddressNone = 0x0,
  kSamplerAddressClampToEdge = 0x2,
  kSamplerAddressClamp = 0x4,
  kSamplerAddressRepeat = 0x6,
  kSamplerAddressMirroredRepeat = 0x8,
  kSamplerAddressMask = 0xE,
  kSamplerFilterNearest = 0x10,
  kSamplerFilterLinear = 0x20,
};

// The sampler states a texture object can stand for: normalized or not, five addressing modes,
// two filters.
constexpr uint32_t kSamplerStates = 20;
static_assert(kSamplerStates == sizeof(ImageDescriptor::textures) / sizeof(uint64_t));

// A sampler's index into ImageDescriptor::textures (images.cl computes the same).
constexpr uint32_t samplerState(uint32_t bits) {
  return (bits & (kSamplerNormalizedCoordsTrue | kSamplerAddressMask)) + ((bits & kSamplerFilterLinear) ? 10 : 0);
}

// The sampler bits of state `state`, samplerState's inverse.
constexpr uint32_t samplerBitsOf(uint32_t state) {
  return state >= 10 ? (state - 10) | kSamplerFilterLinear : state | kSamplerFilterNearest;
}

}  // namespace loom::compiler
