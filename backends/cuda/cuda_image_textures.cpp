#include "backends/cuda/cuda_image_textures.h"

#include <algorithm>

#include "loom/compiler/image_abi.h"
#include "loom/core/log.h"

namespace loom::backends::cuda {

namespace {

using core::ChannelOrder;
using core::ChannelType;

// The array format whose reads give read_imagef's values: normalized integers read as floats.
std::optional<ArrayFormat> arrayFormatOf(ChannelType type) {
  switch (type) {
    case ChannelType::UnormInt8: return ArrayFormat::UnsignedInt8;
    case ChannelType::UnormInt16: return ArrayFormat::UnsignedInt16;
    case ChannelType::SnormInt8: return ArrayFormat::SignedInt8;
    case ChannelType::SnormInt16: return ArrayFormat::SignedInt16;
    case ChannelType::HalfFloat: return ArrayFormat::Half;
    case ChannelType::Float: return ArrayFormat::Float;
    default: return std::nullopt;
  }
}

// Channels a texel stores, for the orders whose reads need no more than images.cl's arrangement
// of channels in memory order (no sRGB conversion, no padding channel).
unsigned channelCountOf(ChannelOrder order) {
  switch (order) {
    case ChannelOrder::R:
    case ChannelOrder::A:
    case ChannelOrder::Intensity:
    case ChannelOrder::Luminance:
    case ChannelOrder::Depth: return 1;
    case ChannelOrder::RG:
    case ChannelOrder::RA: return 2;
    case ChannelOrder::RGBA:
    case ChannelOrder::BGRA:
    case ChannelOrder::ARGB:
    case ChannelOrder::ABGR: return 4;
    default: return 0;
  }
}

uint64_t roundUp(uint64_t value, uint64_t alignment) { return (value + alignment - 1) / alignment * alignment; }

std::optional<AddressMode> addressModeOf(uint32_t bits) {
  const bool normalized = bits & compiler::kSamplerNormalizedCoordsTrue;
  switch (bits & compiler::kSamplerAddressMask) {
    // Out of range is undefined without addressing: the border, as the software path reads.
    case compiler::kSamplerAddressNone:
    case compiler::kSamplerAddressClamp: return AddressMode::Border;
    case compiler::kSamplerAddressClampToEdge: return AddressMode::Clamp;
    case compiler::kSamplerAddressRepeat: return normalized ? std::optional(AddressMode::Wrap) : std::nullopt;
    case compiler::kSamplerAddressMirroredRepeat: return normalized ? std::optional(AddressMode::Mirror) : std::nullopt;
    default: return std::nullopt;
  }
}

}  // namespace

std::optional<CudaResourceDesc> textureResourceOf(const core::ImageShape& shape, CUdeviceptr data, uint32_t pitchAlignment) {
  const std::optional<ArrayFormat> format = arrayFormatOf(shape.format.type);
  const unsigned channels = channelCountOf(shape.format.order);
  if (!format || channels == 0 || pitchAlignment == 0 || data % pitchAlignment != 0) return std::nullopt;
  // Kernels store whole texels of images with texture objects (image_abi.h): texels aligned to their size.
  const uint64_t texelSize = core::elementSize(shape.format);
  if (data % texelSize != 0 || shape.rowPitch % texelSize != 0) return std::nullopt;
  CudaResourceDesc resource{};
  resource.resType = CU_RESOURCE_TYPE_PITCH2D;
  resource.res.pitch2D.devPtr = data;
  resource.res.pitch2D.format = *format;
  resource.res.pitch2D.numChannels = channels;
  resource.res.pitch2D.width = shape.width;
  switch (shape.type) {
    case core::ImageType::Image2d:
      if (shape.rowPitch % pitchAlignment != 0) return std::nullopt;
      resource.res.pitch2D.height = shape.height;
      resource.res.pitch2D.pitchInBytes = shape.rowPitch;
      return resource;
    case core::ImageType::Image1d:
      // One row: a pitch the hardware accepts, never stepped over.
      resource.res.pitch2D.height = 1;
      resource.res.pitch2D.pitchInBytes = roundUp(shape.width * core::elementSize(shape.format), pitchAlignment);
      return resource;
    default: return std::nullopt;
  }
}

std::optional<CudaTextureDesc> textureDescriptionOf(uint32_t samplerBits) {
  const std::optional<AddressMode> address = addressModeOf(samplerBits);
  if (!address) return std::nullopt;
  CudaTextureDesc texture{};
  for (AddressMode& mode : texture.addressMode) mode = *address;
  texture.filterMode = (samplerBits & compiler::kSamplerFilterLinear) ? FilterMode::Linear : FilterMode::Point;
  if (samplerBits & compiler::kSamplerNormalizedCoordsTrue) texture.flags |= CU_TRSF_NORMALIZED_COORDINATES;
  // The border is 0 in every stored channel; the kernel's arrangement of channels adds alpha 1
  // for the orders without alpha, as OpenCL's border color has it. borderColor stays zero.
  return texture;
}

void createImageTextures(const Driver& driver, const core::ImageShape& shape, CUdeviceptr data, uint32_t pitchAlignment,
                         uint64_t* textures) {
  const std::optional<CudaResourceDesc> resource = textureResourceOf(shape, data, pitchAlignment);
  if (resource) createImageTextures(driver, *resource, textures);
}

void createImageTextures(const Driver& driver, const CudaResourceDesc& resource, uint64_t* textures) {
  for (uint32_t state = 0; state < compiler::kSamplerStates; ++state) {
    const std::optional<CudaTextureDesc> texture = textureDescriptionOf(compiler::samplerBitsOf(state));
    if (!texture) continue;
    CUtexObject object = 0;
    const CUresult result = driver.cuTexObjectCreate(&object, &resource, &*texture, nullptr);
    if (result != CUDA_SUCCESS) {
      core::debugMessage("%s; reads of this image sample in software", driver.describe("cuTexObjectCreate", result).c_str());
      destroyImageTextures(driver, textures);
      std::fill(textures, textures + compiler::kSamplerStates, 0);
      return;
    }
    textures[state] = object;
  }
}

void destroyImageTextures(const Driver& driver, const uint64_t* textures) {
  for (uint32_t state = 0; state < compiler::kSamplerStates; ++state)
    if (textures[state]) driver.cuTexObjectDestroy(textures[state]);
}

}  // namespace loom::backends::cuda
