// The texture objects the CUDA backend makes for an image: which formats, image types and sampler
// states the texture units serve, the descriptions they are created from, and that they are all
// destroyed. Against the fake CUDA driver: no GPU needed.
#include "backends/cuda/cuda_image_textures.h"

#include <gtest/gtest.h>

#include <array>

#include "fake_cuda_driver.h"
#include "loom/compiler/image_abi.h"

namespace loom::backends::cuda {
namespace {

using compiler::kSamplerAddressClamp;
using compiler::kSamplerAddressClampToEdge;
using compiler::kSamplerAddressMirroredRepeat;
using compiler::kSamplerAddressNone;
using compiler::kSamplerAddressRepeat;
using compiler::kSamplerFilterLinear;
using compiler::kSamplerFilterNearest;
using compiler::kSamplerNormalizedCoordsFalse;
using compiler::kSamplerNormalizedCoordsTrue;
using core::ChannelOrder;
using core::ChannelType;
using core::ImageShape;
using core::ImageType;

constexpr uint32_t kAlignment = 32;
constexpr CUdeviceptr kData = 0x7f0000001000;

ImageShape image2d(ChannelOrder order, ChannelType type, uint64_t width = 100, uint64_t height = 30) {
  ImageShape shape;
  shape.type = ImageType::Image2d;
  shape.format = {order, type};
  shape.width = width;
  shape.height = height;
  shape.rowPitch = 512;
  return core::withTightPitches(shape);
}

TEST(CudaImageTextures, ARgbaUnorm8ImageIsPitchedMemoryOfFourUnsignedBytesReadNormalized) {
  const auto resource = textureResourceOf(image2d(ChannelOrder::RGBA, ChannelType::UnormInt8), kData, kAlignment);
  ASSERT_TRUE(resource);
  EXPECT_EQ(resource->resType, CU_RESOURCE_TYPE_PITCH2D);
  EXPECT_EQ(resource->res.pitch2D.devPtr, kData);
  EXPECT_EQ(resource->res.pitch2D.format, ArrayFormat::UnsignedInt8);
  EXPECT_EQ(resource->res.pitch2D.numChannels, 4u);
  EXPECT_EQ(resource->res.pitch2D.width, 100u);
  EXPECT_EQ(resource->res.pitch2D.height, 30u);
  EXPECT_EQ(resource->res.pitch2D.pitchInBytes, 512u);
  EXPECT_EQ(resource->flags, 0u);
}

TEST(CudaImageTextures, EachFilterableChannelTypeHasItsArrayFormat) {
  const std::pair<ChannelType, ArrayFormat> formats[] = {
      {ChannelType::UnormInt8, ArrayFormat::UnsignedInt8}, {ChannelType::UnormInt16, ArrayFormat::UnsignedInt16},
      {ChannelType::SnormInt8, ArrayFormat::SignedInt8},   {ChannelType::SnormInt16, ArrayFormat::SignedInt16},
      {ChannelType::HalfFloat, ArrayFormat::Half},         {ChannelType::Float, ArrayFormat::Float}};
  for (const auto& [type, format] : formats) {
    const auto resource = textureResourceOf(image2d(ChannelOrder::RGBA, type), kData, kAlignment);
    ASSERT_TRUE(resource) << static_cast<uint32_t>(type);
    EXPECT_EQ(resource->res.pitch2D.format, format) << static_cast<uint32_t>(type);
  }
}

TEST(CudaImageTextures, ChannelOrdersGiveTheChannelsATexelStores) {
  const std::pair<ChannelOrder, unsigned> orders[] = {
      {ChannelOrder::R, 1},    {ChannelOrder::A, 1},    {ChannelOrder::Intensity, 1}, {ChannelOrder::Luminance, 1},
      {ChannelOrder::RG, 2},   {ChannelOrder::RA, 2},   {ChannelOrder::RGBA, 4},      {ChannelOrder::BGRA, 4},
      {ChannelOrder::ARGB, 4}, {ChannelOrder::ABGR, 4}};
  for (const auto& [order, channels] : orders) {
    const ChannelType type = order == ChannelOrder::BGRA || order == ChannelOrder::ARGB || order == ChannelOrder::ABGR
                                 ? ChannelType::UnormInt8
                                 : ChannelType::Float;
    const auto resource = textureResourceOf(image2d(order, type), kData, kAlignment);
    ASSERT_TRUE(resource) << static_cast<uint32_t>(order);
    EXPECT_EQ(resource->res.pitch2D.numChannels, channels) << static_cast<uint32_t>(order);
  }
  const auto depth = textureResourceOf(image2d(ChannelOrder::Depth, ChannelType::Float), kData, kAlignment);
  ASSERT_TRUE(depth);
  EXPECT_EQ(depth->res.pitch2D.numChannels, 1u);
}

TEST(CudaImageTextures, FormatsTheTextureUnitsDoNotReadAsOpenClStayInSoftware) {
  const core::ImageFormat software[] = {
      {ChannelOrder::sRGBA, ChannelType::UnormInt8},        // sRGB conversion
      {ChannelOrder::sBGRA, ChannelType::UnormInt8},
      {ChannelOrder::RGB, ChannelType::UnormShort565},      // packed
      {ChannelOrder::RGB, ChannelType::UnormInt101010},
      {ChannelOrder::RGBA, ChannelType::UnsignedInt8},      // integers: read_imageui, nearest only
      {ChannelOrder::RGBA, ChannelType::SignedInt32},
      {ChannelOrder::RGBx, ChannelType::UnormInt8},         // padding channels
  };
  for (const core::ImageFormat& format : software) {
    ImageShape shape = image2d(format.order, format.type);
    EXPECT_FALSE(textureResourceOf(shape, kData, kAlignment))
        << static_cast<uint32_t>(format.order) << " " << static_cast<uint32_t>(format.type);
  }
}

TEST(CudaImageTextures, OnlyTwoDimensionalAndOneDimensionalImagesAreTextures) {
  for (ImageType type : {ImageType::Image3d, ImageType::Image2dArray, ImageType::Image1dArray, ImageType::Image1dBuffer}) {
    ImageShape shape = image2d(ChannelOrder::RGBA, ChannelType::Float);
    shape.type = type;
    EXPECT_FALSE(textureResourceOf(shape, kData, kAlignment)) << static_cast<uint32_t>(type);
  }
}

TEST(CudaImageTextures, AOneDimensionalImageIsOneRowWithAPitchTheHardwareAccepts) {
  ImageShape shape;
  shape.type = ImageType::Image1d;
  shape.format = {ChannelOrder::RG, ChannelType::HalfFloat};
  shape.width = 5;
  const auto resource = textureResourceOf(core::withTightPitches(shape), kData, kAlignment);
  ASSERT_TRUE(resource);
  EXPECT_EQ(resource->res.pitch2D.width, 5u);
  EXPECT_EQ(resource->res.pitch2D.height, 1u);
  EXPECT_EQ(resource->res.pitch2D.pitchInBytes, 32u);  // 20 bytes of texels, rounded up
}

TEST(CudaImageTextures, MemoryOffTheTexturePitchAlignmentStaysInSoftware) {
  ImageShape shape = image2d(ChannelOrder::RGBA, ChannelType::UnormInt8);
  EXPECT_FALSE(textureResourceOf(shape, kData + 16, kAlignment));
  shape.rowPitch = 400;  // 100 texels of 4 bytes, tight: not a multiple of 32
  EXPECT_FALSE(textureResourceOf(shape, kData, kAlignment));
  EXPECT_FALSE(textureResourceOf(image2d(ChannelOrder::RGBA, ChannelType::UnormInt8), kData, 0));
}

TEST(CudaImageTextures, TheSamplerGivesAddressingFilterAndCoordinates) {
  const auto edge = textureDescriptionOf(kSamplerNormalizedCoordsTrue | kSamplerAddressClampToEdge | kSamplerFilterLinear);
  ASSERT_TRUE(edge);
  for (AddressMode mode : edge->addressMode) EXPECT_EQ(mode, AddressMode::Clamp);
  EXPECT_EQ(edge->filterMode, FilterMode::Linear);
  EXPECT_EQ(edge->flags, CU_TRSF_NORMALIZED_COORDINATES);

  const auto border = textureDescriptionOf(kSamplerNormalizedCoordsFalse | kSamplerAddressClamp | kSamplerFilterNearest);
  ASSERT_TRUE(border);
  for (AddressMode mode : border->addressMode) EXPECT_EQ(mode, AddressMode::Border);
  EXPECT_EQ(border->filterMode, FilterMode::Point);
  EXPECT_EQ(border->flags, 0u);  // unnormalized, and normalized reads of UNORM/SNORM channels
  for (float channel : border->borderColor) EXPECT_EQ(channel, 0.0f);

  const auto none = textureDescriptionOf(kSamplerAddressNone | kSamplerFilterNearest);
  ASSERT_TRUE(none);
  EXPECT_EQ(none->addressMode[0], AddressMode::Border);
  const auto repeat = textureDescriptionOf(kSamplerNormalizedCoordsTrue | kSamplerAddressRepeat | kSamplerFilterLinear);
  ASSERT_TRUE(repeat);
  EXPECT_EQ(repeat->addressMode[0], AddressMode::Wrap);
  const auto mirror = textureDescriptionOf(kSamplerNormalizedCoordsTrue | kSamplerAddressMirroredRepeat | kSamplerFilterNearest);
  ASSERT_TRUE(mirror);
  EXPECT_EQ(mirror->addressMode[1], AddressMode::Mirror);
}

TEST(CudaImageTextures, RepeatingModesWithUnnormalizedCoordinatesHaveNoTexture) {
  EXPECT_FALSE(textureDescriptionOf(kSamplerNormalizedCoordsFalse | kSamplerAddressRepeat | kSamplerFilterNearest));
  EXPECT_FALSE(textureDescriptionOf(kSamplerNormalizedCoordsFalse | kSamplerAddressMirroredRepeat | kSamplerFilterLinear));
}

TEST(CudaImageTextures, SamplerStatesNumberEverySamplerOnce) {
  std::array<bool, compiler::kSamplerStates> seen{};
  for (uint32_t normalized : {kSamplerNormalizedCoordsFalse, kSamplerNormalizedCoordsTrue})
    for (uint32_t address : {kSamplerAddressNone, kSamplerAddressClampToEdge, kSamplerAddressClamp, kSamplerAddressRepeat,
                             kSamplerAddressMirroredRepeat})
      for (uint32_t filter : {kSamplerFilterNearest, kSamplerFilterLinear}) {
        const uint32_t bits = normalized | address | filter;
        const uint32_t state = compiler::samplerState(bits);
        ASSERT_LT(state, compiler::kSamplerStates);
        EXPECT_FALSE(seen[state]) << bits;
        seen[state] = true;
        EXPECT_EQ(compiler::samplerBitsOf(state), bits);
      }
}

class CudaImageTextureObjects : public ::testing::Test {
 protected:
  testing::FakeCudaDriver fake;
  std::array<uint64_t, compiler::kSamplerStates> textures{};
};

TEST_F(CudaImageTextureObjects, ASampledImageHasATextureForEachDefinedSamplerState) {
  createImageTextures(*fake.driver(), image2d(ChannelOrder::BGRA, ChannelType::UnormInt8), kData, kAlignment, textures.data());
  EXPECT_EQ(fake.count("cuTexObjectCreate"), 16u);  // 20 states less unnormalized repeat and mirror, either filter
  for (uint32_t state = 0; state < compiler::kSamplerStates; ++state) {
    const uint32_t bits = compiler::samplerBitsOf(state);
    if (!textureDescriptionOf(bits)) {
      EXPECT_EQ(textures[state], 0u) << bits;
      continue;
    }
    ASSERT_EQ(fake.textureObjects.count(textures[state]), 1u) << bits;
    const testing::FakeTextureObject& object = fake.textureObjects.at(textures[state]);
    EXPECT_EQ(object.resource.res.pitch2D.format, ArrayFormat::UnsignedInt8);
    EXPECT_EQ(object.texture.filterMode, (bits & kSamplerFilterLinear) ? FilterMode::Linear : FilterMode::Point) << bits;
    EXPECT_EQ(object.texture.flags & CU_TRSF_NORMALIZED_COORDINATES, (bits & kSamplerNormalizedCoordsTrue) ? CU_TRSF_NORMALIZED_COORDINATES : 0u);
  }
  destroyImageTextures(*fake.driver(), textures.data());
  EXPECT_TRUE(fake.textureObjects.empty());
  EXPECT_EQ(fake.count("cuTexObjectDestroy"), 16u);
  EXPECT_TRUE(fake.misuse.empty());
}

// The builtin library reads textures[0] to tell whether an image has texture objects, and then
// takes every state but these four as having one (image_abi.h).
TEST_F(CudaImageTextureObjects, TheFirstStateTellsAndOnlyUnnormalizedRepeatingStatesLackATexture) {
  createImageTextures(*fake.driver(), image2d(ChannelOrder::RGBA, ChannelType::Float), kData, kAlignment, textures.data());
  EXPECT_NE(textures[0], 0u);
  for (uint32_t state = 0; state < compiler::kSamplerStates; ++state) {
    const uint32_t bits = compiler::samplerBitsOf(state);
    const uint32_t address = bits & compiler::kSamplerAddressMask;
    const bool undefined = !(bits & kSamplerNormalizedCoordsTrue) &&
                           (address == kSamplerAddressRepeat || address == kSamplerAddressMirroredRepeat);
    EXPECT_EQ(textures[state] == 0, undefined) << bits;
  }
  destroyImageTextures(*fake.driver(), textures.data());
}

TEST_F(CudaImageTextureObjects, AnImageOfASoftwareFormatHasNone) {
  createImageTextures(*fake.driver(), image2d(ChannelOrder::sRGBA, ChannelType::UnormInt8), kData, kAlignment, textures.data());
  EXPECT_EQ(fake.count("cuTexObjectCreate"), 0u);
  for (uint64_t texture : textures) EXPECT_EQ(texture, 0u);
  destroyImageTextures(*fake.driver(), textures.data());
  EXPECT_EQ(fake.count("cuTexObjectDestroy"), 0u);
}

TEST_F(CudaImageTextureObjects, ARefusedTextureLeavesTheWholeImageToSoftwareAndNothingBehind) {
  fake.textureObjectLimit = 3;
  createImageTextures(*fake.driver(), image2d(ChannelOrder::RGBA, ChannelType::Float), kData, kAlignment, textures.data());
  EXPECT_EQ(fake.count("cuTexObjectCreate"), 4u);
  for (uint64_t texture : textures) EXPECT_EQ(texture, 0u);
  EXPECT_TRUE(fake.textureObjects.empty());
  EXPECT_EQ(fake.count("cuTexObjectDestroy"), 3u);
}

}  // namespace
}  // namespace loom::backends::cuda
