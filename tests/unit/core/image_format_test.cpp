// Image formats (validity, texel sizes, the supported lists), the conversion of fill colors to
// texels, and the default region fill of backend queues.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "fake_backend.h"
#include "loom/core/command_executor.h"
#include "loom/core/image.h"

namespace loom::core {
namespace {

TEST(ImageFormat, ValidityFollowsTheSpecificationsPairingRules) {
  EXPECT_TRUE(isValidFormat({ChannelOrder::RGBA, ChannelType::Float}));
  EXPECT_FALSE(isValidFormat({ChannelOrder::BGRA, ChannelType::Float}));  // 8-bit types only
  EXPECT_TRUE(isValidFormat({ChannelOrder::BGRA, ChannelType::SignedInt8}));
  EXPECT_FALSE(isValidFormat({ChannelOrder::RGB, ChannelType::UnormInt8}));  // packed types only
  EXPECT_TRUE(isValidFormat({ChannelOrder::RGB, ChannelType::UnormShort565}));
  EXPECT_FALSE(isValidFormat({ChannelOrder::RGBA, ChannelType::UnormShort565}));
  EXPECT_FALSE(isValidFormat({ChannelOrder::Intensity, ChannelType::SignedInt8}));  // normalized and float only
  EXPECT_FALSE(isValidFormat({ChannelOrder::sRGBA, ChannelType::UnormInt16}));
  EXPECT_TRUE(isValidFormat({ChannelOrder::Depth, ChannelType::UnormInt16}));
  EXPECT_FALSE(isValidFormat({ChannelOrder::Depth, ChannelType::UnormInt8}));
  EXPECT_FALSE(isValidFormat({static_cast<ChannelOrder>(0x10AF), ChannelType::UnormInt8}));
  EXPECT_FALSE(isValidFormat({ChannelOrder::R, static_cast<ChannelType>(0x10E1)}));
  EXPECT_TRUE(isValidFormat({ChannelOrder::RGBA, ChannelType::UnormInt101010_2}));
  EXPECT_FALSE(isValidFormat({ChannelOrder::RGBx, ChannelType::UnormInt101010_2})) << "CL_RGBA only";
  EXPECT_TRUE(isValidFormat({ChannelOrder::Rx, ChannelType::Float}));
  EXPECT_FALSE(isValidFormat({ChannelOrder::RGx, ChannelType::UnormInt8})) << "24 bits: not a power of two";
  EXPECT_TRUE(isValidFormat({ChannelOrder::sRGBx, ChannelType::UnormInt8}));
  // Level Zero's own formats are no OpenCL formats.
  EXPECT_FALSE(isValidFormat({ChannelOrder::ABGR, ChannelType::UnormInt2_101010}));
  EXPECT_TRUE(isLevelZeroFormat({ChannelOrder::ABGR, ChannelType::UnormInt2_101010}));
  EXPECT_FALSE(isLevelZeroFormat({ChannelOrder::RGBA, ChannelType::UnormInt2_101010}));
  EXPECT_FALSE(isLevelZeroFormat({ChannelOrder::BGRA, ChannelType::UnormInt32}));
  EXPECT_FALSE(isLevelZeroFormat({ChannelOrder::RGBA, ChannelType::UnormInt8}));
}

TEST(ImageFormat, ElementSizesCountChannelsTimesTheirBytes) {
  EXPECT_EQ(elementSize({ChannelOrder::RGBA, ChannelType::Float}), 16u);
  EXPECT_EQ(elementSize({ChannelOrder::RG, ChannelType::HalfFloat}), 4u);
  EXPECT_EQ(elementSize({ChannelOrder::R, ChannelType::UnsignedInt8}), 1u);
  EXPECT_EQ(elementSize({ChannelOrder::sRGB, ChannelType::UnormInt8}), 3u);
  EXPECT_EQ(elementSize({ChannelOrder::RGB, ChannelType::UnormShort555}), 2u);
  EXPECT_EQ(elementSize({ChannelOrder::RGBx, ChannelType::UnormInt101010}), 4u);
  EXPECT_EQ(elementSize({ChannelOrder::BGRA, ChannelType::Float}), 0u) << "invalid formats have none";
  EXPECT_EQ(elementSize({ChannelOrder::RGBA, ChannelType::UnormInt101010_2}), 4u);
  EXPECT_EQ(elementSize({ChannelOrder::Rx, ChannelType::UnsignedInt16}), 4u);
  EXPECT_EQ(elementSize({ChannelOrder::sRGBx, ChannelType::UnormInt8}), 4u);
  EXPECT_EQ(elementSize({ChannelOrder::RA, ChannelType::SnormInt32}), 8u);
  EXPECT_EQ(elementSize({ChannelOrder::ABGR, ChannelType::UnsignedFloat2_101010}), 4u);
  EXPECT_EQ(elementSize({ChannelOrder::RGB, ChannelType::UnsignedFloat11_11_10}), 4u);
  EXPECT_EQ(elementSize({ChannelOrder::ARGB, ChannelType::UnormShort1555}), 2u);
}

TEST(ImageFormat, SupportedListsDependOnTypeAndWrites) {
  const ImageFormat depth{ChannelOrder::Depth, ChannelType::Float};
  EXPECT_TRUE(isSupportedImageFormat(depth, ImageType::Image2d, true));
  EXPECT_TRUE(isSupportedImageFormat(depth, ImageType::Image2dArray, false));
  EXPECT_FALSE(isSupportedImageFormat(depth, ImageType::Image3d, false));
  const ImageFormat srgb{ChannelOrder::sRGBA, ChannelType::UnormInt8};
  EXPECT_TRUE(isSupportedImageFormat(srgb, ImageType::Image2d, false));
  EXPECT_FALSE(isSupportedImageFormat(srgb, ImageType::Image2d, true));
  for (const ImageFormat& format : supportedImageFormats(ImageType::Image3d, true)) EXPECT_TRUE(isValidFormat(format));
  EXPECT_TRUE(isSupportedImageFormat({ChannelOrder::RGBA, ChannelType::UnormInt101010_2}, ImageType::Image3d, true));
  EXPECT_FALSE(isSupportedImageFormat({ChannelOrder::Rx, ChannelType::SignedInt8}, ImageType::Image1d, false));
  EXPECT_FALSE(isSupportedImageFormat({ChannelOrder::sRGBx, ChannelType::UnormInt8}, ImageType::Image2d, false));
  // Level Zero's formats are supported everywhere, but OpenCL lists none of them.
  const ImageFormat levelZero{ChannelOrder::ARGB, ChannelType::UnormShort4444};
  EXPECT_TRUE(isSupportedImageFormat(levelZero, ImageType::Image1dArray, true));
  const std::vector<ImageFormat> listed = supportedImageFormats(ImageType::Image2d, false);
  EXPECT_TRUE(std::none_of(listed.begin(), listed.end(), [](const ImageFormat& f) { return isLevelZeroFormat(f); }));
}

template <typename T>
T encoded(ImageFormat format, FillColor color) {
  T texel{};
  encodeTexel(format, color, &texel);
  return texel;
}

TEST(ImageFormat, FillColorsConvertAsWriteImageDoes) {
  FillColor color{};
  color.f[0] = 1.0f;
  color.f[1] = 0.5f;
  color.f[2] = 0.0f;
  // 565: r 31, g round-to-even(31.5) = 32, b 0.
  EXPECT_EQ(encoded<uint16_t>({ChannelOrder::RGB, ChannelType::UnormShort565}, color), (31u << 11) | (32u << 5));
  color.f[3] = 1.0f / 3;
  // 101010_2: red in bits 31:22, alpha in 1:0; green round-to-even(511.5) = 512.
  EXPECT_EQ(encoded<uint32_t>({ChannelOrder::RGBA, ChannelType::UnormInt101010_2}, color), (1023u << 22) | (512u << 12) | 1u);
  EXPECT_EQ(encoded<uint32_t>({ChannelOrder::Rx, ChannelType::UnormInt16}, color), 0xFFFFu) << "the x channel is 0";
  color.f[0] = std::nanf("");
  EXPECT_EQ(encoded<uint8_t>({ChannelOrder::R, ChannelType::UnormInt8}, color), 0u) << "NaN becomes 0";
  color.f[0] = 1.0f / 16777216.0f;  // the smallest half subnormal
  EXPECT_EQ(encoded<uint16_t>({ChannelOrder::R, ChannelType::HalfFloat}, color), 0x0001u);
  color.f[0] = 65519.0f;
  EXPECT_EQ(encoded<uint16_t>({ChannelOrder::R, ChannelType::HalfFloat}, color), 0x7BFFu);
  color.f[0] = 65520.0f;
  EXPECT_EQ(encoded<uint16_t>({ChannelOrder::R, ChannelType::HalfFloat}, color), 0x7C00u) << "rounds to infinity";
  color.f[0] = 0.25f;
  EXPECT_EQ(encoded<uint8_t>({ChannelOrder::Intensity, ChannelType::UnormInt8}, color), 64u);
  FillColor integers{};
  integers.i[0] = -70000;
  EXPECT_EQ(encoded<int16_t>({ChannelOrder::R, ChannelType::SignedInt16}, integers), INT16_MIN);
  integers.u[3] = 0xFFFFFFFFu;
  EXPECT_EQ(encoded<uint8_t>({ChannelOrder::A, ChannelType::UnsignedInt8}, integers), 255u) << "A stores alpha";
}

// The default fill of a region: the pattern lands in the region's rows and slices only.
TEST(ImageFormat, RegionFillsLeaveThePaddingAlone) {
  testing::FakeBackendBase backend;
  constexpr uint64_t rowPitch = 20, slicePitch = 90, slices = 3;
  std::vector<uint8_t> memory(slicePitch * slices, 0xAA);
  const uint32_t pattern = 0x04030201;
  CommandStream stream;
  // 3 texels of 4 bytes from x = 1, rows 1 to 3, slices 0 to 2.
  stream.appendFillRegion({memory.data(), {4, 1, 0, rowPitch, slicePitch}, 12, 3, slices, 4}, &pattern);
  executeCommandStream(stream.bytes(), backend);
  for (uint64_t z = 0; z < slices; ++z)
    for (uint64_t y = 0; y < 5; ++y)
      for (uint64_t x = 0; x < rowPitch && y * rowPitch + x < slicePitch; ++x) {
        const bool inside = y >= 1 && y <= 3 && x >= 4 && x < 16;
        const uint8_t expected = inside ? uint8_t(1 + (x - 4) % 4) : 0xAA;
        ASSERT_EQ(memory[z * slicePitch + y * rowPitch + x], expected) << x << "," << y << "," << z;
      }
}

}  // namespace
}  // namespace loom::core
