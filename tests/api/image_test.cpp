// Level Zero images and samplers through the loader: creation and its errors, properties, and
// the image copies (image to image, to and from memory, tight and pitched) for every image type.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "ze_test_helpers.h"

namespace loom::test {
namespace {

ze_image_desc_t imageDesc(ze_image_type_t type, uint64_t width, uint32_t height, uint32_t depth, uint32_t layers,
                          ze_image_format_layout_t layout = ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8,
                          ze_image_format_type_t formatType = ZE_IMAGE_FORMAT_TYPE_UNORM) {
  ze_image_desc_t desc{ZE_STRUCTURE_TYPE_IMAGE_DESC};
  desc.type = type;
  desc.format = {layout, formatType, ZE_IMAGE_FORMAT_SWIZZLE_R, ZE_IMAGE_FORMAT_SWIZZLE_G, ZE_IMAGE_FORMAT_SWIZZLE_B,
                 ZE_IMAGE_FORMAT_SWIZZLE_A};
  desc.width = width;
  desc.height = height;
  desc.depth = depth;
  desc.arraylevels = layers;
  return desc;
}

// The image's extent along the coordinates of its regions: (width, height or layers, depth or layers).
std::array<uint32_t, 3> extentOf(const ze_image_desc_t& desc) {
  switch (desc.type) {
    case ZE_IMAGE_TYPE_1D:
    case ZE_IMAGE_TYPE_BUFFER: return {uint32_t(desc.width), 1, 1};
    case ZE_IMAGE_TYPE_1DARRAY: return {uint32_t(desc.width), desc.arraylevels, 1};
    case ZE_IMAGE_TYPE_2D: return {uint32_t(desc.width), desc.height, 1};
    case ZE_IMAGE_TYPE_2DARRAY: return {uint32_t(desc.width), desc.height, desc.arraylevels};
    default: return {uint32_t(desc.width), desc.height, desc.depth};
  }
}

class ImageTest : public ZeTest {
 protected:
  void TearDown() override {
    for (ze_image_handle_t image : images) EXPECT_ZE(zeImageDestroy(image));
    for (ze_sampler_handle_t sampler : samplers) EXPECT_ZE(zeSamplerDestroy(sampler));
    ZeTest::TearDown();
  }

  ze_image_handle_t image(const ze_image_desc_t& desc) {
    ze_image_handle_t handle = nullptr;
    EXPECT_ZE(zeImageCreate(context, device, &desc, &handle));
    if (handle) images.push_back(handle);
    return handle;
  }

  ze_result_t createResult(const ze_image_desc_t& desc) {
    ze_image_handle_t handle = nullptr;
    const ze_result_t result = zeImageCreate(context, device, &desc, &handle);
    if (handle) zeImageDestroy(handle);
    return result;
  }

  std::vector<ze_image_handle_t> images;
  std::vector<ze_sampler_handle_t> samplers;
};

TEST_F(ImageTest, CreationChecksTheDescription) {
  EXPECT_ZE(createResult(imageDesc(ZE_IMAGE_TYPE_2D, 16, 16, 1, 0)));
  ze_image_desc_t bad = imageDesc(ZE_IMAGE_TYPE_2D, 16, 16, 1, 0);
  bad.type = ze_image_type_t(99);
  EXPECT_EQ(createResult(bad), ZE_RESULT_ERROR_INVALID_ENUMERATION);
  bad = imageDesc(ZE_IMAGE_TYPE_2D, 16, 16, 1, 0, ZE_IMAGE_FORMAT_LAYOUT_NV12);
  EXPECT_EQ(createResult(bad), ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
  bad = imageDesc(ZE_IMAGE_TYPE_2D, 16, 16, 1, 0, ZE_IMAGE_FORMAT_LAYOUT_8, ZE_IMAGE_FORMAT_TYPE_FLOAT);  // no 8-bit float
  EXPECT_EQ(createResult(bad), ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
  bad = imageDesc(ZE_IMAGE_TYPE_2D, 0, 16, 1, 0);
  EXPECT_EQ(createResult(bad), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  ze_device_image_properties_t limits{ZE_STRUCTURE_TYPE_DEVICE_IMAGE_PROPERTIES};
  ASSERT_ZE(zeDeviceGetImageProperties(device, &limits));
  bad = imageDesc(ZE_IMAGE_TYPE_3D, 4, 4, limits.maxImageDims3D + 1, 0);
  EXPECT_EQ(createResult(bad), ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  bad = imageDesc(ZE_IMAGE_TYPE_2D, 16, 16, 1, 0);
  bad.miplevels = 3;
  EXPECT_EQ(createResult(bad), ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
  bad = imageDesc(ZE_IMAGE_TYPE_2D, 16, 16, 1, 0);
  bad.flags = 0x80;
  EXPECT_EQ(createResult(bad), ZE_RESULT_ERROR_INVALID_ENUMERATION);
  ze_image_handle_t handle = nullptr;
  EXPECT_EQ(zeImageCreate(context, device, nullptr, &handle), ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  EXPECT_EQ(zeImageDestroy(nullptr), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
}

TEST_F(ImageTest, PropertiesAndAllocationIdsAnswer) {
  const ze_image_desc_t desc = imageDesc(ZE_IMAGE_TYPE_2D, 8, 8, 1, 0, ZE_IMAGE_FORMAT_LAYOUT_32, ZE_IMAGE_FORMAT_TYPE_FLOAT);
  ze_image_properties_t properties{ZE_STRUCTURE_TYPE_IMAGE_PROPERTIES};
  ASSERT_ZE(zeImageGetProperties(device, &desc, &properties));
  EXPECT_EQ(properties.samplerFilterFlags, ZE_IMAGE_SAMPLER_FILTER_FLAG_POINT | ZE_IMAGE_SAMPLER_FILTER_FLAG_LINEAR);
  const ze_image_desc_t integer = imageDesc(ZE_IMAGE_TYPE_2D, 8, 8, 1, 0, ZE_IMAGE_FORMAT_LAYOUT_32, ZE_IMAGE_FORMAT_TYPE_SINT);
  ASSERT_ZE(zeImageGetProperties(device, &integer, &properties));
  EXPECT_EQ(properties.samplerFilterFlags, ZE_IMAGE_SAMPLER_FILTER_FLAG_POINT) << "integer texels are not filtered";
  const ze_image_desc_t unsupported = imageDesc(ZE_IMAGE_TYPE_2D, 8, 8, 1, 0, ZE_IMAGE_FORMAT_LAYOUT_YUYV);
  EXPECT_EQ(zeImageGetProperties(device, &unsupported, &properties), ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
  ze_image_handle_t first = image(desc), second = image(desc);
  // ZE_experimental_image_memory_properties: 8 rows of 8 float texels, tight.
  ze_image_memory_properties_exp_t memory{ZE_STRUCTURE_TYPE_IMAGE_MEMORY_EXP_PROPERTIES};
  ASSERT_ZE(zeImageGetMemoryPropertiesExp(first, &memory));
  EXPECT_EQ(memory.rowPitch, 8u * 4);
  EXPECT_EQ(memory.slicePitch, 8u * 8 * 4);
  EXPECT_EQ(memory.size, 8u * 8 * 4);
  EXPECT_EQ(zeImageGetMemoryPropertiesExp(first, nullptr), ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  ze_image_allocation_ext_properties_t ids[2] = {{ZE_STRUCTURE_TYPE_IMAGE_ALLOCATION_EXT_PROPERTIES},
                                                 {ZE_STRUCTURE_TYPE_IMAGE_ALLOCATION_EXT_PROPERTIES}};
  ASSERT_ZE(zeImageGetAllocPropertiesExt(context, first, &ids[0]));
  ASSERT_ZE(zeImageGetAllocPropertiesExt(context, second, &ids[1]));
  EXPECT_NE(ids[0].id, 0u);
  EXPECT_NE(ids[0].id, ids[1].id);
}

// maxImageBufferSize is the bytes of a buffer image in every format: the narrowest and the widest
// texels reach it, one more texel is refused.
TEST_F(ImageTest, BufferImagesReachTheReportedBytesInEveryFormat) {
  ze_device_image_properties_t limits{ZE_STRUCTURE_TYPE_DEVICE_IMAGE_PROPERTIES};
  ASSERT_ZE(zeDeviceGetImageProperties(device, &limits));
  ze_image_properties_t properties{ZE_STRUCTURE_TYPE_IMAGE_PROPERTIES};
  const std::pair<ze_image_format_layout_t, uint64_t> formats[] = {{ZE_IMAGE_FORMAT_LAYOUT_8, 1},
                                                                   {ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32, 16}};
  for (const auto& [layout, bytes] : formats) {
    const uint64_t texels = limits.maxImageBufferSize / bytes;
    const ze_image_desc_t largest = imageDesc(ZE_IMAGE_TYPE_BUFFER, texels, 1, 1, 0, layout, ZE_IMAGE_FORMAT_TYPE_UINT);
    const ze_image_desc_t tooLarge = imageDesc(ZE_IMAGE_TYPE_BUFFER, texels + 1, 1, 1, 0, layout, ZE_IMAGE_FORMAT_TYPE_UINT);
    EXPECT_ZE(zeImageGetProperties(device, &largest, &properties));
    EXPECT_EQ(zeImageGetProperties(device, &tooLarge, &properties),
              ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  }
}

// Memory of `extent` texels of `element` bytes with the given pitches (0: tight), distinct bytes.
struct Texels {
  uint32_t element, rowPitch, slicePitch;
  std::array<uint32_t, 3> extent;
  bool layersAreRows;  // a 1D array's layers step by the slice pitch
  std::vector<uint8_t> bytes;

  Texels(uint32_t element, std::array<uint32_t, 3> extent, bool layersAreRows, uint32_t rowPadding = 0, uint32_t slicePadding = 0)
      : element(element), extent(extent), layersAreRows(layersAreRows) {
    rowPitch = extent[0] * element + rowPadding;
    slicePitch = layersAreRows ? rowPitch + slicePadding : rowPitch * extent[1] + slicePadding;
    bytes.assign((extent[2] - 1) * slicePitch + (extent[1] - 1) * rowStride() + extent[0] * element, 0);
  }
  uint32_t rowStride() const { return layersAreRows ? slicePitch : rowPitch; }
  uint8_t* at(uint32_t x, uint32_t y, uint32_t z) { return bytes.data() + z * slicePitch + y * rowStride() + x * element; }
  void fill(uint32_t seed) {
    for (uint32_t z = 0; z < extent[2]; ++z)
      for (uint32_t y = 0; y < extent[1]; ++y)
        for (uint32_t x = 0; x < extent[0]; ++x)
          for (uint32_t b = 0; b < element; ++b) at(x, y, z)[b] = uint8_t(seed + x * 3 + y * 11 + z * 17 + b * 5);
  }
};

class ImageTypeTest : public ImageTest, public ::testing::WithParamInterface<ze_image_desc_t> {};

std::string typeName(const ::testing::TestParamInfo<ze_image_desc_t>& info) {
  static const char* const kNames[] = {"Image1d", "Image1dArray", "Image2d", "Image2dArray", "Image3d", "Buffer"};
  return kNames[info.param.type];
}

TEST_P(ImageTypeTest, CopiesThroughMemoryAndBetweenImagesKeepEveryTexel) {
  const ze_image_desc_t desc = GetParam();
  const bool layersAreRows = desc.type == ZE_IMAGE_TYPE_1DARRAY;
  ze_image_handle_t first = image(desc), second = image(desc);
  ASSERT_NE(first, nullptr);
  const std::array<uint32_t, 3> extent = extentOf(desc);
  Texels source(4, extent, layersAreRows, 8, 24);
  source.fill(7);
  ASSERT_ZE(zeCommandListAppendImageCopyFromMemoryExt(list, first, source.bytes.data(), nullptr, source.rowPitch,
                                                      source.slicePitch, nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListAppendImageCopy(list, second, first, nullptr, 0, nullptr));
  Texels tight(4, extent, layersAreRows);
  ASSERT_ZE(zeCommandListAppendImageCopyToMemory(list, tight.bytes.data(), second, nullptr, nullptr, 0, nullptr));
  for (uint32_t z = 0; z < extent[2]; ++z)
    for (uint32_t y = 0; y < extent[1]; ++y)
      for (uint32_t x = 0; x < extent[0]; ++x) ASSERT_EQ(std::memcmp(tight.at(x, y, z), source.at(x, y, z), 4), 0) << x << "," << y << "," << z;

  // A region at an origin, copied into a region of the other image at another origin.
  ze_image_region_t from{1, 0, 0, extent[0] - 1, extent[1], extent[2]};
  ze_image_region_t to{0, 0, 0, extent[0] - 1, extent[1], extent[2]};
  if (extent[1] > 1) {
    from.originY = 1;
    from.height = to.height = extent[1] - 1;
  }
  Texels zeros(4, extent, layersAreRows);
  ASSERT_ZE(zeCommandListAppendImageCopyFromMemory(list, second, zeros.bytes.data(), nullptr, nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListAppendImageCopyRegion(list, second, first, &to, &from, nullptr, 0, nullptr));
  Texels part(4, {to.width, to.height, to.depth}, layersAreRows);
  ASSERT_ZE(zeCommandListAppendImageCopyToMemory(list, part.bytes.data(), second, &to, nullptr, 0, nullptr));
  for (uint32_t z = 0; z < to.depth; ++z)
    for (uint32_t y = 0; y < to.height; ++y)
      for (uint32_t x = 0; x < to.width; ++x)
        ASSERT_EQ(std::memcmp(part.at(x, y, z), source.at(x + from.originX, y + from.originY, z + from.originZ), 4), 0)
            << x << "," << y << "," << z;
}

INSTANTIATE_TEST_SUITE_P(EveryType, ImageTypeTest,
                         ::testing::Values(imageDesc(ZE_IMAGE_TYPE_1D, 37, 1, 1, 0), imageDesc(ZE_IMAGE_TYPE_BUFFER, 37, 1, 1, 0),
                                           imageDesc(ZE_IMAGE_TYPE_1DARRAY, 29, 1, 1, 5), imageDesc(ZE_IMAGE_TYPE_2D, 23, 11, 1, 0),
                                           imageDesc(ZE_IMAGE_TYPE_2DARRAY, 13, 7, 1, 4), imageDesc(ZE_IMAGE_TYPE_3D, 11, 6, 5, 0)),
                         typeName);

TEST_F(ImageTest, CopiesCheckRegionsFormatsAndOverlap) {
  ze_image_handle_t flat = image(imageDesc(ZE_IMAGE_TYPE_2D, 8, 8, 1, 0));
  ze_image_handle_t other = image(imageDesc(ZE_IMAGE_TYPE_2D, 8, 8, 1, 0, ZE_IMAGE_FORMAT_LAYOUT_32, ZE_IMAGE_FORMAT_TYPE_UINT));
  EXPECT_EQ(zeCommandListAppendImageCopy(list, other, flat, nullptr, 0, nullptr), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  const ze_image_region_t outside{4, 4, 0, 5, 4, 1};
  std::vector<uint8_t> host(8 * 8 * 4);
  EXPECT_EQ(zeCommandListAppendImageCopyToMemory(list, host.data(), flat, &outside, nullptr, 0, nullptr),
            ZE_RESULT_ERROR_INVALID_ARGUMENT);
  const ze_image_region_t withDepth{0, 0, 1, 4, 4, 1};  // a 2D image has no z
  EXPECT_EQ(zeCommandListAppendImageCopyToMemory(list, host.data(), flat, &withDepth, nullptr, 0, nullptr),
            ZE_RESULT_ERROR_INVALID_ARGUMENT);
  const ze_image_region_t a{0, 0, 0, 4, 4, 1}, b{2, 2, 0, 4, 4, 1}, c{4, 4, 0, 4, 4, 1};
  EXPECT_EQ(zeCommandListAppendImageCopyRegion(list, flat, flat, &b, &a, nullptr, 0, nullptr), ZE_RESULT_ERROR_OVERLAPPING_REGIONS);
  EXPECT_ZE(zeCommandListAppendImageCopyRegion(list, flat, flat, &c, &a, nullptr, 0, nullptr));
  EXPECT_EQ(zeCommandListAppendImageCopyFromMemory(list, flat, nullptr, nullptr, nullptr, 0, nullptr),
            ZE_RESULT_ERROR_INVALID_NULL_POINTER);
}

TEST_F(ImageTest, CopiesRunInRegularListsAndSignalEvents) {
  ze_image_handle_t flat = image(imageDesc(ZE_IMAGE_TYPE_2D, 4, 4, 1, 0));
  Texels source(4, {4, 4, 1}, false), back(4, {4, 4, 1}, false);
  source.fill(1);
  ze_command_list_handle_t recorded = regularList();
  ze_event_handle_t done = hostVisibleEvent();
  ASSERT_ZE(zeCommandListAppendImageCopyFromMemory(recorded, flat, source.bytes.data(), nullptr, nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListAppendBarrier(recorded, nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListAppendImageCopyToMemory(recorded, back.bytes.data(), flat, nullptr, done, 0, nullptr));
  ASSERT_ZE(zeCommandListClose(recorded));
  execute(recorded);
  EXPECT_ZE(zeEventQueryStatus(done));
  EXPECT_EQ(back.bytes, source.bytes);
}

// A list recorded once samples, each time it runs, what its own copy wrote just before: on a GPU
// the sampled RGBA float image is a block-linear copy brought up to date as the list runs, not
// when it was recorded (backends/cuda/cuda_texture_mirror.h).
TEST_F(ImageTest, ARecordedListSamplesWhatItsCopyWroteEachTimeItRuns) {
  ze_module_handle_t m = module("image_kernels.spv");
  ASSERT_NE(m, nullptr);
  ze_image_handle_t source = image(imageDesc(ZE_IMAGE_TYPE_2D, 2, 2, 1, 0, ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32, ZE_IMAGE_FORMAT_TYPE_FLOAT));
  ze_sampler_desc_t desc{ZE_STRUCTURE_TYPE_SAMPLER_DESC, nullptr, ZE_SAMPLER_ADDRESS_MODE_CLAMP, ZE_SAMPLER_FILTER_MODE_NEAREST, true};
  ze_sampler_handle_t sampler = nullptr;
  ASSERT_ZE(zeSamplerCreate(context, device, &desc, &sampler));
  samplers.push_back(sampler);
  float* out = shared<float>(4);
  ze_kernel_handle_t sampleAt = kernel(m, "sample_at");
  const float coordinate[2] = {0.25f, 0.75f};  // normalized: texel (0, 1)
  setArguments(sampleAt, source, sampler);
  ASSERT_ZE(zeKernelSetArgumentValue(sampleAt, 2, sizeof(coordinate), coordinate));
  ASSERT_ZE(zeKernelSetArgumentValue(sampleAt, 3, sizeof(out), &out));

  std::vector<float> texels(16);
  ze_command_list_handle_t recorded = regularList();
  ASSERT_ZE(zeCommandListAppendImageCopyFromMemory(recorded, source, texels.data(), nullptr, nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListAppendBarrier(recorded, nullptr, 0, nullptr));
  const ze_group_count_t one{1, 1, 1};
  ASSERT_ZE(zeKernelSetGroupSize(sampleAt, 1, 1, 1));
  ASSERT_ZE(zeCommandListAppendLaunchKernel(recorded, sampleAt, &one, nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListClose(recorded));
  for (float run = 1; run <= 3; ++run) {
    for (size_t i = 0; i < texels.size(); ++i) texels[i] = run * 100 + float(i);
    execute(recorded);
    EXPECT_EQ(std::vector<float>(out, out + 4), (std::vector<float>{run * 100 + 8, run * 100 + 9, run * 100 + 10, run * 100 + 11}))
        << "run " << run;
  }
}

TEST_F(ImageTest, SamplersCheckTheirDescription) {
  ze_sampler_desc_t desc{ZE_STRUCTURE_TYPE_SAMPLER_DESC, nullptr, ZE_SAMPLER_ADDRESS_MODE_CLAMP, ZE_SAMPLER_FILTER_MODE_LINEAR, true};
  ze_sampler_handle_t sampler = nullptr;
  ASSERT_ZE(zeSamplerCreate(context, device, &desc, &sampler));
  samplers.push_back(sampler);
  desc.addressMode = ze_sampler_address_mode_t(42);
  ze_sampler_handle_t bad = nullptr;
  EXPECT_EQ(zeSamplerCreate(context, device, &desc, &bad), ZE_RESULT_ERROR_INVALID_ENUMERATION);
  desc.addressMode = ZE_SAMPLER_ADDRESS_MODE_MIRROR;
  desc.filterMode = ze_sampler_filter_mode_t(42);
  EXPECT_EQ(zeSamplerCreate(context, device, &desc, &bad), ZE_RESULT_ERROR_INVALID_ENUMERATION);
  EXPECT_EQ(bad, nullptr);
  EXPECT_EQ(zeSamplerDestroy(nullptr), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
}

// Kernels from SPIR-V take image and sampler handles: a sampler in source and one as an argument.
TEST_F(ImageTest, KernelsTakeImageAndSamplerHandles) {
  ze_module_handle_t m = module("image_kernels.spv");
  ASSERT_NE(m, nullptr);
  ze_image_handle_t source = image(imageDesc(ZE_IMAGE_TYPE_2D, 2, 2, 1, 0, ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32, ZE_IMAGE_FORMAT_TYPE_FLOAT));
  const std::vector<float> texels = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  ASSERT_ZE(zeCommandListAppendImageCopyFromMemory(list, source, texels.data(), nullptr, nullptr, 0, nullptr));
  float* out = shared<float>(4);

  ze_kernel_handle_t first = kernel(m, "copy_first_pixel");
  setArguments(first, source, out);
  launch(first, 1, 1);
  EXPECT_EQ(std::vector<float>(out, out + 4), (std::vector<float>{1, 2, 3, 4}));

  ze_sampler_desc_t desc{ZE_STRUCTURE_TYPE_SAMPLER_DESC, nullptr, ZE_SAMPLER_ADDRESS_MODE_CLAMP, ZE_SAMPLER_FILTER_MODE_NEAREST, true};
  ze_sampler_handle_t sampler = nullptr;
  ASSERT_ZE(zeSamplerCreate(context, device, &desc, &sampler));
  samplers.push_back(sampler);
  ze_kernel_handle_t sampleAt = kernel(m, "sample_at");
  const float coordinate[2] = {0.75f, 0.25f};  // normalized: texel (1, 0)
  setArguments(sampleAt, source, sampler);
  ASSERT_ZE(zeKernelSetArgumentValue(sampleAt, 2, sizeof(coordinate), coordinate));
  ASSERT_ZE(zeKernelSetArgumentValue(sampleAt, 3, sizeof(out), &out));
  launch(sampleAt, 1, 1);
  EXPECT_EQ(std::vector<float>(out, out + 4), (std::vector<float>{5, 6, 7, 8}));

  // An image argument takes a live image handle, a sampler argument a sampler handle.
  EXPECT_EQ(zeKernelSetArgumentValue(sampleAt, 0, sizeof(sampler), &sampler), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(zeKernelSetArgumentValue(sampleAt, 1, sizeof(source), &source), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(zeKernelSetArgumentValue(sampleAt, 0, sizeof(source), nullptr), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(zeKernelSetArgumentValue(sampleAt, 0, 4, &source), ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
}

class ImageKernelTest : public ImageTest {
 protected:
  // The first pixel of `source` as read_imagef returns it.
  std::vector<float> readFirstPixel(ze_image_handle_t source) {
    ze_module_handle_t m = module("image_kernels.spv");
    if (!m) return {};
    float* out = shared<float>(4);
    ze_kernel_handle_t first = kernel(m, "copy_first_pixel");
    setArguments(first, source, out);
    launch(first, 1, 1);
    return std::vector<float>(out, out + 4);
  }

  // `color` holds 8-bit normalized values.
  static void expectColor(const std::vector<float>& read, const std::array<int, 4>& color) {
    ASSERT_EQ(read.size(), 4u);
    for (int c = 0; c < 4; ++c) EXPECT_NEAR(read[c], color[c] / 255.0f, 1e-6f) << "channel " << c;
  }

  ze_image_desc_t swizzled(ze_image_format_layout_t layout, ze_image_format_swizzle_t x, ze_image_format_swizzle_t y,
                           ze_image_format_swizzle_t z, ze_image_format_swizzle_t w) {
    ze_image_desc_t desc = imageDesc(ZE_IMAGE_TYPE_2D, 2, 2, 1, 0, layout, ZE_IMAGE_FORMAT_TYPE_UNORM);
    desc.format.x = x;
    desc.format.y = y;
    desc.format.z = z;
    desc.format.w = w;
    return desc;
  }
};

// A swizzle (A, B, G, R) of 8_8_8_8 is CL_ABGR: memory holds alpha first, red last.
TEST_F(ImageKernelTest, AbgrSwizzleReadsAlphaFromTheFirstByte) {
  ze_image_handle_t abgr = image(swizzled(ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_SWIZZLE_A, ZE_IMAGE_FORMAT_SWIZZLE_B,
                                          ZE_IMAGE_FORMAT_SWIZZLE_G, ZE_IMAGE_FORMAT_SWIZZLE_R));
  ASSERT_NE(abgr, nullptr);
  std::vector<uint8_t> bytes(16, 0);
  bytes[0] = 51, bytes[1] = 102, bytes[2] = 153, bytes[3] = 255;
  ASSERT_ZE(zeCommandListAppendImageCopyFromMemory(list, abgr, bytes.data(), nullptr, nullptr, 0, nullptr));
  expectColor(readFirstPixel(abgr), {255, 153, 102, 51});
}

// Four-component swizzles name OpenCL's orders (RGBA, BGRA, ARGB, ABGR); a constant 0 or 1 in
// place of a component, which Loom would read from memory, is refused.
TEST_F(ImageKernelTest, FourComponentSwizzlesNameOpenCLsOrders) {
  using S = ze_image_format_swizzle_t;
  const S r = ZE_IMAGE_FORMAT_SWIZZLE_R, g = ZE_IMAGE_FORMAT_SWIZZLE_G, b = ZE_IMAGE_FORMAT_SWIZZLE_B, a = ZE_IMAGE_FORMAT_SWIZZLE_A;
  const ze_image_format_layout_t rgba8 = ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8;
  EXPECT_ZE(createResult(swizzled(rgba8, b, g, r, a)));
  EXPECT_ZE(createResult(swizzled(rgba8, a, r, g, b)));
  EXPECT_ZE(createResult(swizzled(rgba8, r, g, b, ZE_IMAGE_FORMAT_SWIZZLE_X)));
  EXPECT_EQ(createResult(swizzled(rgba8, r, g, b, ZE_IMAGE_FORMAT_SWIZZLE_1)), ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
  EXPECT_EQ(createResult(swizzled(rgba8, b, r, g, a)), ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
  EXPECT_EQ(createResult(swizzled(rgba8, ZE_IMAGE_FORMAT_SWIZZLE_0, g, b, a)), ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
}

// 5_6_5 is CL_UNORM_SHORT_565 (red in the high bits, alpha 1); 5_5_5_1 is CL_UNORM_SHORT_555
// where the swizzle does not read its alpha bit; packed layouts take their own component order.
TEST_F(ImageKernelTest, PackedLayoutsAreOpenCLsPackedFormats) {
  using S = ze_image_format_swizzle_t;
  const S r = ZE_IMAGE_FORMAT_SWIZZLE_R, g = ZE_IMAGE_FORMAT_SWIZZLE_G, b = ZE_IMAGE_FORMAT_SWIZZLE_B;
  ze_image_handle_t rgb565 = image(swizzled(ZE_IMAGE_FORMAT_LAYOUT_5_6_5, r, g, b, ZE_IMAGE_FORMAT_SWIZZLE_1));
  ASSERT_NE(rgb565, nullptr);
  const std::vector<uint16_t> texels = {0xF800 | 0x001F, 0, 0, 0};  // red and blue full, green 0
  ASSERT_ZE(zeCommandListAppendImageCopyFromMemory(list, rgb565, texels.data(), nullptr, nullptr, 0, nullptr));
  EXPECT_EQ(readFirstPixel(rgb565), (std::vector<float>{1.0f, 0.0f, 1.0f, 1.0f}));

  EXPECT_ZE(createResult(swizzled(ZE_IMAGE_FORMAT_LAYOUT_5_5_5_1, r, g, b, ZE_IMAGE_FORMAT_SWIZZLE_X)));
  EXPECT_EQ(createResult(swizzled(ZE_IMAGE_FORMAT_LAYOUT_5_6_5, b, g, r, ZE_IMAGE_FORMAT_SWIZZLE_1)),
            ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
  EXPECT_EQ(createResult(swizzled(ZE_IMAGE_FORMAT_LAYOUT_4_4_4_4, ZE_IMAGE_FORMAT_SWIZZLE_A, b, g, r)), ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
  EXPECT_EQ(createResult(swizzled(ZE_IMAGE_FORMAT_LAYOUT_4_4_4_4, r, g, b, ZE_IMAGE_FORMAT_SWIZZLE_1)),
            ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
  ze_image_desc_t elevenElevenTen = swizzled(ZE_IMAGE_FORMAT_LAYOUT_11_11_10, r, g, b, ZE_IMAGE_FORMAT_SWIZZLE_1);
  EXPECT_EQ(createResult(elevenElevenTen), ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT) << "11_11_10 holds floats";
  elevenElevenTen.format.type = ZE_IMAGE_FORMAT_TYPE_FLOAT;
  EXPECT_ZE(createResult(elevenElevenTen));
}

// One texel of a Level Zero format that OpenCL lacks: its bytes, what read_imagef (or
// read_imagei) makes of them, a color written to it and the bytes that gives.
struct LayoutCase {
  const char* name;
  ze_image_format_layout_t layout;
  ze_image_format_type_t type;
  uint32_t bytes;  // of a texel
  uint64_t texel;
  std::array<float, 4> read;           // read_imagef's (r, g, b, a), for normalized and float types
  std::array<int32_t, 4> readInteger;  // read_imagei's, for integer types
  std::array<float, 4> color;          // written with write_imagef
  std::array<int32_t, 4> integerColor;  // written with write_imagei (SINT) or write_imageui (UINT)
  uint64_t written;                    // the texel's bytes after the write
};

bool isIntegerType(ze_image_format_type_t type) { return type == ZE_IMAGE_FORMAT_TYPE_UINT || type == ZE_IMAGE_FORMAT_TYPE_SINT; }

constexpr uint32_t tenBits(uint32_t r, uint32_t g, uint32_t b, uint32_t a) { return a << 30 | b << 20 | g << 10 | r; }

const LayoutCase kLayoutCases[] = {
    // Red in the low bits, alpha in the top two.
    {"Unorm1010102", ZE_IMAGE_FORMAT_LAYOUT_10_10_10_2, ZE_IMAGE_FORMAT_TYPE_UNORM, 4, tenBits(0, 512, 1023, 3),
     {0.0f, 512 / 1023.0f, 1.0f, 1.0f}, {}, {1.0f, 0.0f, 0.5f, 1.0f / 3}, {}, tenBits(1023, 0, 512, 1)},
    {"Snorm1010102", ZE_IMAGE_FORMAT_LAYOUT_10_10_10_2, ZE_IMAGE_FORMAT_TYPE_SNORM, 4, tenBits(0x200, 511, 0, 1),
     {-1.0f, 1.0f, 0.0f, 1.0f}, {}, {-1.0f, 0.5f, 2.0f, -1.0f}, {}, tenBits(0x201, 256, 511, 3)},
    {"Uint1010102", ZE_IMAGE_FORMAT_LAYOUT_10_10_10_2, ZE_IMAGE_FORMAT_TYPE_UINT, 4, tenBits(5, 1000, 7, 2), {}, {5, 1000, 7, 2},
     {}, {2000, 3, 4, 9}, tenBits(1023, 3, 4, 3)},
    {"Sint1010102", ZE_IMAGE_FORMAT_LAYOUT_10_10_10_2, ZE_IMAGE_FORMAT_TYPE_SINT, 4, tenBits(0x200, 511, 0x3FF, 2), {},
     {-512, 511, -1, -2}, {}, {600, -600, 5, -3}, tenBits(511, 0x200, 5, 2)},
    // Color channels are 10-bit unsigned floats (1.0 is 15 << 5), alpha 2-bit normalized.
    {"Float1010102", ZE_IMAGE_FORMAT_LAYOUT_10_10_10_2, ZE_IMAGE_FORMAT_TYPE_FLOAT, 4, tenBits(15 << 5, 16 << 5 | 16, 0, 3),
     {1.0f, 3.0f, 0.0f, 1.0f}, {}, {0.5f, 70000.0f, -2.0f, 2.0f / 3}, {}, tenBits(14 << 5, 30 << 5 | 31, 0, 2)},
    // Red and green 11-bit unsigned floats from the low bits, blue 10-bit; alpha reads 1.
    {"Float111110", ZE_IMAGE_FORMAT_LAYOUT_11_11_10, ZE_IMAGE_FORMAT_TYPE_FLOAT, 4, 15u << 6 | (14u << 6 | 32) << 11 | 17u << 27,
     {1.0f, 0.75f, 4.0f, 1.0f}, {}, {0.25f, INFINITY, -1.0f, 0.0f}, {}, 13u << 6 | 31u << 17},
    // A, R, G, B from the high bits.
    {"Unorm4444", ZE_IMAGE_FORMAT_LAYOUT_4_4_4_4, ZE_IMAGE_FORMAT_TYPE_UNORM, 2, 0xF05A, {0.0f, 5 / 15.0f, 10 / 15.0f, 1.0f}, {},
     {1.0f, 0.5f, 0.0f, 0.2f}, {}, 0x3F80},
    {"Unorm5551", ZE_IMAGE_FORMAT_LAYOUT_5_5_5_1, ZE_IMAGE_FORMAT_TYPE_UNORM, 2, 0x8000 | 31 << 10 | 16,
     {1.0f, 0.0f, 16 / 31.0f, 1.0f}, {}, {0.0f, 1.0f, 0.5f, 0.4f}, {}, 31 << 5 | 16},
    {"Unorm32", ZE_IMAGE_FORMAT_LAYOUT_32, ZE_IMAGE_FORMAT_TYPE_UNORM, 4, 0x80000000u, {0.5f, 0.0f, 0.0f, 1.0f}, {},
     {0.25f, 0, 0, 0}, {}, 0x40000000u},
    {"Snorm32x2", ZE_IMAGE_FORMAT_LAYOUT_32_32, ZE_IMAGE_FORMAT_TYPE_SNORM, 8, 0x40000000'80000000u,
     {-1.0f, 0.5f, 0.0f, 1.0f}, {}, {-0.25f, 2.0f, 0, 0}, {}, 0x7FFFFFFF'E0000000u},
};

void PrintTo(const LayoutCase& c, std::ostream* out) { *out << c.name; }

class LayoutTest : public ImageKernelTest, public ::testing::WithParamInterface<LayoutCase> {};

// Texels go in and out through copies unchanged; kernels read and write them as the format says.
TEST_P(LayoutTest, CopiesKeepTheBytesAndKernelsConvert) {
  const LayoutCase& c = GetParam();
  ze_image_desc_t desc = imageDesc(ZE_IMAGE_TYPE_2D, 2, 2, 1, 0, c.layout, c.type);
  desc.flags = ZE_IMAGE_FLAG_KERNEL_WRITE;
  ze_image_handle_t first = image(desc), second = image(desc);
  ASSERT_NE(second, nullptr);
  std::vector<uint8_t> texels(4 * c.bytes);
  for (size_t i = 0; i < texels.size(); ++i) texels[i] = uint8_t(i * 37 + 5);
  std::memcpy(texels.data(), &c.texel, c.bytes);
  ASSERT_ZE(zeCommandListAppendImageCopyFromMemory(list, first, texels.data(), nullptr, nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListAppendImageCopy(list, second, first, nullptr, 0, nullptr));
  std::vector<uint8_t> back(texels.size());
  ASSERT_ZE(zeCommandListAppendImageCopyToMemory(list, back.data(), second, nullptr, nullptr, 0, nullptr));
  EXPECT_EQ(back, texels);

  ze_module_handle_t m = module("texel_kernels.spv");
  ASSERT_NE(m, nullptr);
  auto* floats = shared<std::array<float, 4>>(1);
  auto* integers = shared<std::array<int32_t, 4>>(1);
  ze_kernel_handle_t read = kernel(m, "read_first_texel");
  setArguments(read, second, floats, integers);
  launch(read, 1, 1);
  if (isIntegerType(c.type)) EXPECT_EQ(*integers, c.readInteger);
  else EXPECT_EQ(*floats, c.read);

  const bool integer = isIntegerType(c.type);
  ze_kernel_handle_t write =
      kernel(m, !integer ? "write_first_texel_f" : c.type == ZE_IMAGE_FORMAT_TYPE_SINT ? "write_first_texel_i" : "write_first_texel_ui");
  if (integer) setArguments(write, first, c.integerColor);
  else setArguments(write, first, c.color);
  launch(write, 1, 1);
  ASSERT_ZE(zeCommandListAppendImageCopyToMemory(list, back.data(), first, nullptr, nullptr, 0, nullptr));
  uint64_t written = 0;
  std::memcpy(&written, back.data(), c.bytes);
  EXPECT_EQ(written, c.written);
  EXPECT_TRUE(std::equal(back.begin() + c.bytes, back.end(), texels.begin() + c.bytes)) << "only texel (0, 0) changes";
}

INSTANTIATE_TEST_SUITE_P(LevelZeroOnly, LayoutTest, ::testing::ValuesIn(kLayoutCases),
                         [](const ::testing::TestParamInfo<LayoutCase>& info) { return std::string(info.param.name); });

// Media layouts of one pixel per texel read as their channels in memory order (their type and
// swizzle are ignored); planar and chroma-subsampled ones are refused.
TEST_F(ImageKernelTest, MediaLayoutsOfWholePixelsAreColorFormats) {
  ze_image_desc_t y410 = imageDesc(ZE_IMAGE_TYPE_2D, 2, 2, 1, 0, ZE_IMAGE_FORMAT_LAYOUT_Y410, ZE_IMAGE_FORMAT_TYPE_FLOAT);
  ze_image_handle_t pixels = image(y410);
  ASSERT_NE(pixels, nullptr);
  const std::vector<uint32_t> texels = {tenBits(1023, 0, 0, 3), 0, 0, 0};  // U full, Y and V 0, opaque
  ASSERT_ZE(zeCommandListAppendImageCopyFromMemory(list, pixels, texels.data(), nullptr, nullptr, 0, nullptr));
  EXPECT_EQ(readFirstPixel(pixels), (std::vector<float>{1.0f, 0.0f, 0.0f, 1.0f}));
  for (ze_image_format_layout_t layout : {ZE_IMAGE_FORMAT_LAYOUT_Y8, ZE_IMAGE_FORMAT_LAYOUT_Y16, ZE_IMAGE_FORMAT_LAYOUT_AYUV,
                                          ZE_IMAGE_FORMAT_LAYOUT_Y416})
    EXPECT_ZE(createResult(imageDesc(ZE_IMAGE_TYPE_2D, 4, 4, 1, 0, layout, ZE_IMAGE_FORMAT_TYPE_FLOAT))) << layout;
  for (ze_image_format_layout_t layout : {ZE_IMAGE_FORMAT_LAYOUT_NV12, ZE_IMAGE_FORMAT_LAYOUT_P010, ZE_IMAGE_FORMAT_LAYOUT_YUYV,
                                          ZE_IMAGE_FORMAT_LAYOUT_Y216, ZE_IMAGE_FORMAT_LAYOUT_I420})
    EXPECT_EQ(createResult(imageDesc(ZE_IMAGE_TYPE_2D, 4, 4, 1, 0, layout, ZE_IMAGE_FORMAT_TYPE_UNORM)),
              ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT)
        << layout;
}

// Residency calls validate the image and device; Loom's images are always resident.
TEST_F(ImageTest, ImagesAreMadeResidentAndEvicted) {
  ze_image_handle_t flat = image(imageDesc(ZE_IMAGE_TYPE_2D, 4, 4, 1, 0));
  EXPECT_ZE(zeContextMakeImageResident(context, device, flat));
  EXPECT_ZE(zeContextEvictImage(context, device, flat));
  ze_context_desc_t contextDesc{ZE_STRUCTURE_TYPE_CONTEXT_DESC};
  ze_context_handle_t other = nullptr;
  ASSERT_ZE(zeContextCreate(driver, &contextDesc, &other));
  EXPECT_EQ(zeContextMakeImageResident(other, device, flat), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(zeContextEvictImage(other, device, flat), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(zeContextMakeImageResident(context, device, nullptr), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  EXPECT_ZE(zeContextDestroy(other));
}

// ZE_experimental_image_view: a view reads and writes the image's texels in its own format and shape.
TEST_F(ImageKernelTest, ViewsShareTheImagesTexels) {
  for (const char* name : {ZE_IMAGE_VIEW_EXP_NAME, ZE_IMAGE_MEMORY_PROPERTIES_EXP_NAME})
    EXPECT_NE(listedExtensionVersion(name), 0u) << name;

  ze_image_desc_t bytesDesc = imageDesc(ZE_IMAGE_TYPE_2D, 4, 2, 1, 0, ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UINT);
  ze_image_handle_t bytes = image(bytesDesc);
  ASSERT_NE(bytes, nullptr);
  std::vector<uint8_t> texels(4 * 2 * 4);
  for (size_t i = 0; i < texels.size(); ++i) texels[i] = uint8_t(i * 7);
  texels[0] = 0, texels[1] = 51, texels[2] = 102, texels[3] = 255;
  ASSERT_ZE(zeCommandListAppendImageCopyFromMemory(list, bytes, texels.data(), nullptr, nullptr, 0, nullptr));

  // The same texels as normalized colors, read by a kernel.
  ze_image_desc_t unormDesc = bytesDesc;
  unormDesc.format.type = ZE_IMAGE_FORMAT_TYPE_UNORM;
  ze_image_handle_t unorm = nullptr;
  ASSERT_ZE(zeImageViewCreateExp(context, device, &unormDesc, bytes, &unorm));
  images.push_back(unorm);
  expectColor(readFirstPixel(unorm), {0, 51, 102, 255});

  // Every texel as one 32-bit word of a 1D image of 8: rows laid end to end.
  ze_image_desc_t wordsDesc = imageDesc(ZE_IMAGE_TYPE_1D, 8, 1, 1, 0, ZE_IMAGE_FORMAT_LAYOUT_32, ZE_IMAGE_FORMAT_TYPE_UINT);
  ze_image_handle_t words = nullptr;
  ASSERT_ZE(zeImageViewCreateExp(context, device, &wordsDesc, bytes, &words));
  std::vector<uint8_t> back(texels.size());
  ASSERT_ZE(zeCommandListAppendImageCopyToMemory(list, back.data(), words, nullptr, nullptr, 0, nullptr));
  EXPECT_EQ(back, texels);

  // Writes through a view reach the image; the view outlives the image it views.
  const uint32_t written[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  ASSERT_ZE(zeCommandListAppendImageCopyFromMemory(list, words, written, nullptr, nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListAppendImageCopyToMemory(list, back.data(), bytes, nullptr, nullptr, 0, nullptr));
  EXPECT_EQ(std::memcmp(back.data(), written, sizeof(written)), 0);
  images.erase(std::find(images.begin(), images.end(), bytes));
  ASSERT_ZE(zeImageDestroy(bytes));
  ASSERT_ZE(zeCommandListAppendImageCopyToMemory(list, back.data(), words, nullptr, nullptr, 0, nullptr));
  EXPECT_EQ(std::memcmp(back.data(), written, sizeof(written)), 0);
  ASSERT_ZE(zeImageDestroy(words));
}

TEST_F(ImageTest, ViewsCheckTheirDescription) {
  ze_image_desc_t desc = imageDesc(ZE_IMAGE_TYPE_2D, 4, 4, 1, 0);
  ze_image_handle_t flat = image(desc);
  ASSERT_NE(flat, nullptr);
  ze_image_handle_t view = nullptr;
  ze_image_desc_t tooWide = imageDesc(ZE_IMAGE_TYPE_2D, 8, 4, 1, 0);
  EXPECT_EQ(zeImageViewCreateExp(context, device, &tooWide, flat, &view), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  ze_image_desc_t tooTall = imageDesc(ZE_IMAGE_TYPE_2D, 4, 5, 1, 0);
  EXPECT_EQ(zeImageViewCreateExp(context, device, &tooTall, flat, &view), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  ze_image_desc_t deep = imageDesc(ZE_IMAGE_TYPE_3D, 4, 4, 2, 0);
  EXPECT_EQ(zeImageViewCreateExp(context, device, &deep, flat, &view), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  ze_image_desc_t media = imageDesc(ZE_IMAGE_TYPE_2D, 4, 4, 1, 0, ZE_IMAGE_FORMAT_LAYOUT_NV12);
  EXPECT_EQ(zeImageViewCreateExp(context, device, &media, flat, &view), ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
  ze_image_view_planar_exp_desc_t plane{ZE_STRUCTURE_TYPE_IMAGE_VIEW_PLANAR_EXP_DESC, nullptr, 1};
  ze_image_desc_t planar = desc;
  planar.pNext = &plane;
  EXPECT_EQ(zeImageViewCreateExp(context, device, &planar, flat, &view), ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
  EXPECT_EQ(zeImageViewCreateExp(context, device, &desc, nullptr, &view), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  EXPECT_EQ(zeImageViewCreateExp(context, device, nullptr, flat, &view), ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  EXPECT_EQ(view, nullptr);
  // A 2D array of the image's rows as layers of one row each is the same memory.
  ze_image_desc_t rowsAsLayers = imageDesc(ZE_IMAGE_TYPE_1DARRAY, 4, 1, 1, 4);
  ASSERT_ZE(zeImageViewCreateExp(context, device, &rowsAsLayers, flat, &view));
  EXPECT_ZE(zeImageDestroy(view));
}

}  // namespace
}  // namespace loom::test
