// Images and samplers through the ICD loader: creation and its errors, format lists, info
// queries, and the image commands (read, write, copy, fill, map, copies with buffers) with
// pitched host layouts for every image type.
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS  // clCreateImage2D and clCreateImage3D are tested too
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <numeric>

#include "cl_test_helpers.h"

namespace loom::test {
namespace {

constexpr cl_image_format kRgba8{CL_RGBA, CL_UNORM_INT8};

struct ImageSize {
  cl_mem_object_type type;
  size_t width, height, depth, layers;
};

cl_image_desc describe(const ImageSize& size) {
  cl_image_desc desc{};
  desc.image_type = size.type;
  desc.image_width = size.width;
  desc.image_height = size.height;
  desc.image_depth = size.depth;
  desc.image_array_size = size.layers;
  return desc;
}

// The image's extent along the three coordinates of the image commands' origin and region.
std::array<size_t, 3> extentOf(const ImageSize& size) {
  switch (size.type) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE1D_BUFFER: return {size.width, 1, 1};
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: return {size.width, size.layers, 1};
    case CL_MEM_OBJECT_IMAGE2D: return {size.width, size.height, 1};
    case CL_MEM_OBJECT_IMAGE2D_ARRAY: return {size.width, size.height, size.layers};
    default: return {size.width, size.height, size.depth};
  }
}

bool hasSlices(cl_mem_object_type type) {
  return type == CL_MEM_OBJECT_IMAGE3D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY || type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
}

// Host memory of `region` texels of `element` bytes, laid out with the given pitches (as the image
// commands read it: for a 1D array, layers step by the slice pitch), filled with distinct bytes.
struct HostTexels {
  size_t element, rowPitch, slicePitch;
  std::array<size_t, 3> region;
  cl_mem_object_type type;
  std::vector<uint8_t> bytes;

  HostTexels(size_t element, const std::array<size_t, 3>& region, cl_mem_object_type type, size_t rowPadding, size_t slicePadding)
      : element(element), region(region), type(type) {
    rowPitch = region[0] * element + rowPadding;
    slicePitch = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? rowPitch + slicePadding : rowPitch * region[1] + slicePadding;
    bytes.assign((region[2] - 1) * slicePitch + (region[1] - 1) * rowStride() + region[0] * element, 0xEE);
  }
  size_t rowStride() const { return type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? slicePitch : rowPitch; }
  uint8_t* texel(size_t x, size_t y, size_t z) { return bytes.data() + z * slicePitch + y * rowStride() + x * element; }
  void fillDistinct(uint32_t seed) {
    for (size_t z = 0; z < region[2]; ++z)
      for (size_t y = 0; y < region[1]; ++y)
        for (size_t x = 0; x < region[0]; ++x)
          for (size_t b = 0; b < element; ++b) texel(x, y, z)[b] = uint8_t(seed + x * 7 + y * 13 + z * 29 + b * 3);
  }
  // The pitches to pass: slice pitch 0 for images without slices.
  size_t passedSlicePitch() const { return hasSlices(type) ? slicePitch : 0; }
};

class ImageTest : public ClTest {
 protected:
  cl_mem image(cl_mem_flags flags, const cl_image_format& format, const cl_image_desc& desc, void* host = nullptr,
               cl_int expected = CL_SUCCESS) {
    cl_int error = CL_SUCCESS;
    cl_mem created = clCreateImage(context, flags, &format, &desc, host, &error);
    EXPECT_CL(expected, error);
    if (created) buffers.push_back(created);
    return created;
  }

  cl_int createError(cl_mem_flags flags, const cl_image_format* format, const cl_image_desc* desc, void* host = nullptr) {
    cl_int error = CL_SUCCESS;
    cl_mem created = clCreateImage(context, flags, format, desc, host, &error);
    if (created) clReleaseMemObject(created);
    return error;
  }

  // An image of `size`, over a buffer of its own for 1D buffer images.
  cl_mem imageOfSize(const ImageSize& size, const cl_image_format& format = kRgba8) {
    cl_image_desc desc = describe(size);
    if (size.type == CL_MEM_OBJECT_IMAGE1D_BUFFER) desc.buffer = buffer(CL_MEM_READ_WRITE, size.width * 16);
    return image(CL_MEM_READ_WRITE, format, desc);
  }

  std::vector<cl_image_format> formats(cl_mem_flags flags, cl_mem_object_type type) {
    cl_uint count = 0;
    EXPECT_CL_OK(clGetSupportedImageFormats(context, flags, type, 0, nullptr, &count));
    std::vector<cl_image_format> list(count);
    if (count) EXPECT_CL_OK(clGetSupportedImageFormats(context, flags, type, count, list.data(), nullptr));
    return list;
  }

  template <typename T>
  T imageInfo(cl_mem object, cl_image_info name) {
    return infoScalar<T>([&](size_t s, void* v, size_t* r) { return clGetImageInfo(object, name, s, v, r); });
  }

  void write(cl_mem target, const size_t* origin, HostTexels& host) {
    ASSERT_CL_OK(clEnqueueWriteImage(queue, target, CL_TRUE, origin, host.region.data(), host.rowPitch, host.passedSlicePitch(),
                                     host.bytes.data(), 0, nullptr, nullptr));
  }
  void read(cl_mem source, const size_t* origin, HostTexels& host) {
    ASSERT_CL_OK(clEnqueueReadImage(queue, source, CL_TRUE, origin, host.region.data(), host.rowPitch, host.passedSlicePitch(),
                                    host.bytes.data(), 0, nullptr, nullptr));
  }
};

bool sameTexels(HostTexels& a, HostTexels& b) {
  for (size_t z = 0; z < a.region[2]; ++z)
    for (size_t y = 0; y < a.region[1]; ++y)
      for (size_t x = 0; x < a.region[0]; ++x)
        if (std::memcmp(a.texel(x, y, z), b.texel(x, y, z), a.element) != 0) return false;
  return true;
}

TEST_F(ImageTest, DeviceReportsImageSupportWithTheFullProfileMinimums) {
  EXPECT_EQ(deviceInfo<cl_bool>(CL_DEVICE_IMAGE_SUPPORT), cl_bool(CL_TRUE));
  EXPECT_GE(deviceInfo<size_t>(CL_DEVICE_IMAGE2D_MAX_WIDTH), 16384u);
  EXPECT_GE(deviceInfo<size_t>(CL_DEVICE_IMAGE2D_MAX_HEIGHT), 16384u);
  EXPECT_GE(deviceInfo<size_t>(CL_DEVICE_IMAGE3D_MAX_WIDTH), 2048u);
  EXPECT_GE(deviceInfo<size_t>(CL_DEVICE_IMAGE3D_MAX_HEIGHT), 2048u);
  EXPECT_GE(deviceInfo<size_t>(CL_DEVICE_IMAGE3D_MAX_DEPTH), 2048u);
  EXPECT_GE(deviceInfo<size_t>(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE), 2048u);
  EXPECT_GE(deviceInfo<size_t>(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE), 65536u);
  EXPECT_GE(deviceInfo<cl_uint>(CL_DEVICE_MAX_READ_IMAGE_ARGS), 128u);
  EXPECT_GE(deviceInfo<cl_uint>(CL_DEVICE_MAX_WRITE_IMAGE_ARGS), 64u);
  EXPECT_GE(deviceInfo<cl_uint>(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS), 64u);
  EXPECT_GE(deviceInfo<cl_uint>(CL_DEVICE_MAX_SAMPLERS), 16u);
  EXPECT_NE(deviceInfo<cl_uint>(CL_DEVICE_IMAGE_PITCH_ALIGNMENT), 0u);
  EXPECT_NE(deviceInfo<cl_uint>(CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT), 0u);
  const std::string extensions = deviceString(CL_DEVICE_EXTENSIONS);
  EXPECT_NE(extensions.find("cl_khr_image2d_from_buffer"), std::string::npos) << extensions;
  EXPECT_NE(extensions.find("cl_khr_3d_image_writes"), std::string::npos) << extensions;
}

TEST_F(ImageTest, SupportedFormatsHoldTheSpecificationsMinimumList) {
  const cl_channel_type allTypes[] = {CL_UNORM_INT8,    CL_UNORM_INT16,    CL_SNORM_INT8,      CL_SNORM_INT16,
                                      CL_SIGNED_INT8,   CL_SIGNED_INT16,   CL_SIGNED_INT32,    CL_UNSIGNED_INT8,
                                      CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT,     CL_FLOAT};
  for (cl_mem_flags flags : {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE, CL_MEM_KERNEL_READ_AND_WRITE}) {
    for (cl_mem_object_type type : {CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE1D_ARRAY,
                                    CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D}) {
      const std::vector<cl_image_format> list = formats(flags, type);
      auto has = [&](cl_channel_order order, cl_channel_type dataType) {
        return std::any_of(list.begin(), list.end(), [&](const cl_image_format& f) {
          return f.image_channel_order == order && f.image_channel_data_type == dataType;
        });
      };
      for (cl_channel_order order : {CL_R, CL_RG, CL_RGBA})
        for (cl_channel_type dataType : allTypes) EXPECT_TRUE(has(order, dataType)) << std::hex << order << " " << dataType;
      EXPECT_TRUE(has(CL_BGRA, CL_UNORM_INT8));
      // sRGB is read-only without cl_khr_srgb_image_writes.
      EXPECT_EQ(has(CL_sRGBA, CL_UNORM_INT8), flags == CL_MEM_READ_ONLY) << std::hex << flags;
    }
  }
}

TEST_F(ImageTest, FormatQueryChecksItsArguments) {
  cl_uint count = 0;
  EXPECT_CL(CL_INVALID_CONTEXT, clGetSupportedImageFormats(nullptr, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &count));
  EXPECT_CL(CL_INVALID_VALUE, clGetSupportedImageFormats(context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_BUFFER, 0, nullptr, &count));
  EXPECT_CL(CL_INVALID_VALUE, clGetSupportedImageFormats(context, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0,
                                                         nullptr, &count));
  cl_image_format one{};
  EXPECT_CL(CL_INVALID_VALUE, clGetSupportedImageFormats(context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, &one, &count));
}

TEST_F(ImageTest, CreationErrorsAreTheSpecificationsCodes) {
  const cl_image_desc desc2d = describe({CL_MEM_OBJECT_IMAGE2D, 8, 8, 0, 0});
  EXPECT_CL(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, createError(CL_MEM_READ_WRITE, nullptr, &desc2d));
  const cl_image_format badOrder{0x1234, CL_UNORM_INT8};
  EXPECT_CL(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, createError(CL_MEM_READ_WRITE, &badOrder, &desc2d));
  const cl_image_format badPair{CL_BGRA, CL_FLOAT};  // BGRA takes 8-bit types only
  EXPECT_CL(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, createError(CL_MEM_READ_WRITE, &badPair, &desc2d));
  const cl_image_format depthStencil{CL_DEPTH_STENCIL, CL_UNORM_INT24};  // valid, not supported
  EXPECT_CL(CL_IMAGE_FORMAT_NOT_SUPPORTED, createError(CL_MEM_READ_WRITE, &depthStencil, &desc2d));
  const cl_image_format depth{CL_DEPTH, CL_FLOAT};  // depth images are 2D or 2D arrays
  cl_image_desc cube = describe({CL_MEM_OBJECT_IMAGE3D, 4, 4, 4, 0});
  EXPECT_CL(CL_IMAGE_FORMAT_NOT_SUPPORTED, createError(CL_MEM_READ_WRITE, &depth, &cube));
  EXPECT_CL_OK(createError(CL_MEM_READ_WRITE, &depth, &desc2d));
  const cl_image_format srgb{CL_sRGBA, CL_UNORM_INT8};  // read-only
  EXPECT_CL(CL_IMAGE_FORMAT_NOT_SUPPORTED, createError(CL_MEM_READ_WRITE, &srgb, &desc2d));
  EXPECT_CL_OK(createError(CL_MEM_READ_ONLY, &srgb, &desc2d));

  EXPECT_CL(CL_INVALID_IMAGE_DESCRIPTOR, createError(CL_MEM_READ_WRITE, &kRgba8, nullptr));
  cl_image_desc bad = desc2d;
  bad.image_type = CL_MEM_OBJECT_BUFFER;
  EXPECT_CL(CL_INVALID_IMAGE_DESCRIPTOR, createError(CL_MEM_READ_WRITE, &kRgba8, &bad));
  bad = desc2d;
  bad.image_width = 0;
  EXPECT_CL(CL_INVALID_IMAGE_DESCRIPTOR, createError(CL_MEM_READ_WRITE, &kRgba8, &bad));
  bad = desc2d;
  bad.image_height = deviceInfo<size_t>(CL_DEVICE_IMAGE2D_MAX_HEIGHT) + 1;
  EXPECT_CL(CL_INVALID_IMAGE_SIZE, createError(CL_MEM_READ_WRITE, &kRgba8, &bad));
  cube = describe({CL_MEM_OBJECT_IMAGE3D, 4, 4, deviceInfo<size_t>(CL_DEVICE_IMAGE3D_MAX_DEPTH) + 1, 0});
  EXPECT_CL(CL_INVALID_IMAGE_SIZE, createError(CL_MEM_READ_WRITE, &kRgba8, &cube));
  bad = desc2d;
  bad.num_mip_levels = 2;
  EXPECT_CL(CL_INVALID_IMAGE_DESCRIPTOR, createError(CL_MEM_READ_WRITE, &kRgba8, &bad));
  bad = desc2d;
  bad.image_row_pitch = 64;  // pitches need a host pointer
  EXPECT_CL(CL_INVALID_IMAGE_DESCRIPTOR, createError(CL_MEM_READ_WRITE, &kRgba8, &bad));

  std::vector<uint8_t> host(8 * 8 * 4 * 2);
  bad.image_row_pitch = 8 * 4 - 4;  // below a row
  EXPECT_CL(CL_INVALID_IMAGE_DESCRIPTOR, createError(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, &kRgba8, &bad, host.data()));
  bad.image_row_pitch = 8 * 4 + 2;  // not whole texels
  EXPECT_CL(CL_INVALID_IMAGE_DESCRIPTOR, createError(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, &kRgba8, &bad, host.data()));
  EXPECT_CL(CL_INVALID_HOST_PTR, createError(CL_MEM_READ_WRITE, &kRgba8, &desc2d, host.data()));
  EXPECT_CL(CL_INVALID_HOST_PTR, createError(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &kRgba8, &desc2d));
  EXPECT_CL(CL_INVALID_VALUE, createError(CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY, &kRgba8, &desc2d));

  // 1D buffer images need a buffer; other types take none (2D images take one: image2d_from_buffer).
  cl_image_desc overBuffer = describe({CL_MEM_OBJECT_IMAGE1D_BUFFER, 16, 0, 0, 0});
  EXPECT_CL(CL_INVALID_IMAGE_DESCRIPTOR, createError(CL_MEM_READ_WRITE, &kRgba8, &overBuffer));
  overBuffer.buffer = buffer(CL_MEM_READ_WRITE, 16);  // too small for 16 texels of 4 bytes
  EXPECT_CL(CL_INVALID_IMAGE_SIZE, createError(CL_MEM_READ_WRITE, &kRgba8, &overBuffer));
  overBuffer.buffer = imageOfSize({CL_MEM_OBJECT_IMAGE2D, 4, 4, 0, 0});
  EXPECT_CL(CL_INVALID_IMAGE_DESCRIPTOR, createError(CL_MEM_READ_WRITE, &kRgba8, &overBuffer));
  cl_image_desc cubeOverBuffer = describe({CL_MEM_OBJECT_IMAGE3D, 2, 2, 2, 0});
  cubeOverBuffer.buffer = buffer(CL_MEM_READ_WRITE, 1024);
  EXPECT_CL(CL_INVALID_IMAGE_DESCRIPTOR, createError(CL_MEM_READ_WRITE, &kRgba8, &cubeOverBuffer));
  // An image over a buffer may not widen its access, nor take host pointer flags.
  overBuffer.buffer = buffer(CL_MEM_READ_ONLY, 1024);
  EXPECT_CL(CL_INVALID_VALUE, createError(CL_MEM_WRITE_ONLY, &kRgba8, &overBuffer));
  EXPECT_CL(CL_INVALID_VALUE, createError(CL_MEM_READ_ONLY | CL_MEM_ALLOC_HOST_PTR, &kRgba8, &overBuffer));
  EXPECT_CL(CL_INVALID_CONTEXT, [&] {
    cl_int error = CL_SUCCESS;
    clCreateImage(nullptr, CL_MEM_READ_WRITE, &kRgba8, &desc2d, nullptr, &error);
    return error;
  }());
}

TEST_F(ImageTest, DeprecatedCreationFormsMakeTheSameImages) {
  cl_int error = CL_SUCCESS;
  cl_mem flat = clCreateImage2D(context, CL_MEM_READ_WRITE, &kRgba8, 5, 3, 0, nullptr, &error);
  ASSERT_CL_OK(error);
  buffers.push_back(flat);
  EXPECT_EQ(imageInfo<size_t>(flat, CL_IMAGE_WIDTH), 5u);
  EXPECT_EQ(imageInfo<size_t>(flat, CL_IMAGE_HEIGHT), 3u);
  cl_mem cube = clCreateImage3D(context, CL_MEM_READ_WRITE, &kRgba8, 5, 3, 2, 0, 0, nullptr, &error);
  ASSERT_CL_OK(error);
  buffers.push_back(cube);
  EXPECT_EQ(imageInfo<size_t>(cube, CL_IMAGE_DEPTH), 2u);
  EXPECT_EQ(clCreateImage3D(context, CL_MEM_READ_WRITE, &kRgba8, 5, 3, 1, 0, 0, nullptr, &error), nullptr);
  EXPECT_CL(CL_INVALID_IMAGE_SIZE, error);
}

TEST_F(ImageTest, ImageInfoAnswersEveryQuery) {
  const cl_image_format format{CL_RG, CL_FLOAT};
  cl_mem layers = image(CL_MEM_READ_ONLY, format, describe({CL_MEM_OBJECT_IMAGE2D_ARRAY, 9, 5, 0, 3}));
  ASSERT_NE(layers, nullptr);
  const auto reported = imageInfo<cl_image_format>(layers, CL_IMAGE_FORMAT);
  EXPECT_EQ(reported.image_channel_order, cl_channel_order(CL_RG));
  EXPECT_EQ(reported.image_channel_data_type, cl_channel_type(CL_FLOAT));
  EXPECT_EQ(imageInfo<size_t>(layers, CL_IMAGE_ELEMENT_SIZE), 8u);
  EXPECT_EQ(imageInfo<size_t>(layers, CL_IMAGE_ROW_PITCH), 9u * 8);
  EXPECT_EQ(imageInfo<size_t>(layers, CL_IMAGE_SLICE_PITCH), 9u * 8 * 5);
  EXPECT_EQ(imageInfo<size_t>(layers, CL_IMAGE_WIDTH), 9u);
  EXPECT_EQ(imageInfo<size_t>(layers, CL_IMAGE_HEIGHT), 5u);
  EXPECT_EQ(imageInfo<size_t>(layers, CL_IMAGE_DEPTH), 0u);
  EXPECT_EQ(imageInfo<size_t>(layers, CL_IMAGE_ARRAY_SIZE), 3u);
  EXPECT_EQ(imageInfo<cl_mem>(layers, CL_IMAGE_BUFFER), nullptr);
  EXPECT_EQ(imageInfo<cl_uint>(layers, CL_IMAGE_NUM_MIP_LEVELS), 0u);
  EXPECT_EQ(imageInfo<cl_uint>(layers, CL_IMAGE_NUM_SAMPLES), 0u);
  size_t size = 0;
  EXPECT_CL(CL_INVALID_VALUE, clGetImageInfo(layers, CL_IMAGE_WIDTH, 1, &size, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clGetImageInfo(layers, CL_MEM_SIZE, sizeof(size), &size, nullptr));
  EXPECT_EQ(infoScalar<cl_mem_object_type>([&](size_t s, void* v, size_t* r) { return clGetMemObjectInfo(layers, CL_MEM_TYPE, s, v, r); }),
            cl_mem_object_type(CL_MEM_OBJECT_IMAGE2D_ARRAY));
  EXPECT_EQ(infoScalar<cl_mem_flags>([&](size_t s, void* v, size_t* r) { return clGetMemObjectInfo(layers, CL_MEM_FLAGS, s, v, r); }),
            cl_mem_flags(CL_MEM_READ_ONLY));

  cl_mem plain = buffer(CL_MEM_READ_WRITE, 64);
  EXPECT_CL(CL_INVALID_MEM_OBJECT, clGetImageInfo(plain, CL_IMAGE_WIDTH, sizeof(size), &size, nullptr));
  cl_image_desc overBuffer = describe({CL_MEM_OBJECT_IMAGE1D_BUFFER, 16, 0, 0, 0});
  overBuffer.buffer = plain;
  cl_mem line = image(CL_MEM_READ_WRITE, kRgba8, overBuffer);
  EXPECT_EQ(imageInfo<cl_mem>(line, CL_IMAGE_BUFFER), plain);
  EXPECT_EQ(imageInfo<size_t>(line, CL_IMAGE_HEIGHT), 0u);
  EXPECT_EQ(imageInfo<size_t>(line, CL_IMAGE_SLICE_PITCH), 0u);
  EXPECT_EQ(infoScalar<cl_mem>([&](size_t s, void* v, size_t* r) {
              return clGetMemObjectInfo(line, CL_MEM_ASSOCIATED_MEMOBJECT, s, v, r);
            }),
            plain);
}

TEST_F(ImageTest, BufferCommandsRefuseImagesAndImageCommandsRefuseBuffers) {
  cl_mem flat = imageOfSize({CL_MEM_OBJECT_IMAGE2D, 4, 4, 0, 0});
  cl_mem plain = buffer(CL_MEM_READ_WRITE, 256);
  std::vector<uint8_t> host(256);
  EXPECT_CL(CL_INVALID_MEM_OBJECT, clEnqueueReadBuffer(queue, flat, CL_TRUE, 0, 16, host.data(), 0, nullptr, nullptr));
  const size_t origin[3] = {0, 0, 0}, region[3] = {4, 4, 1};
  EXPECT_CL(CL_INVALID_MEM_OBJECT, clEnqueueReadImage(queue, plain, CL_TRUE, origin, region, 0, 0, host.data(), 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_MEM_OBJECT, clEnqueueCopyBuffer(queue, flat, plain, 0, 0, 16, 0, nullptr, nullptr));
  cl_int error = CL_SUCCESS;
  const cl_buffer_region window{0, 16};
  EXPECT_EQ(clCreateSubBuffer(flat, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &window, &error), nullptr);
  EXPECT_CL(CL_INVALID_MEM_OBJECT, error);
}

TEST_F(ImageTest, RegionsOutsideTheImageOrItsTypeAreRefused) {
  cl_mem flat = imageOfSize({CL_MEM_OBJECT_IMAGE2D, 4, 4, 0, 0});
  std::vector<uint8_t> host(4096);
  auto readRegion = [&](std::array<size_t, 3> origin, std::array<size_t, 3> region, size_t rowPitch = 0, size_t slicePitch = 0) {
    return clEnqueueReadImage(queue, flat, CL_TRUE, origin.data(), region.data(), rowPitch, slicePitch, host.data(), 0, nullptr,
                              nullptr);
  };
  EXPECT_CL_OK(readRegion({1, 1, 0}, {3, 3, 1}));
  EXPECT_CL(CL_INVALID_VALUE, readRegion({1, 1, 0}, {4, 3, 1}));
  EXPECT_CL(CL_INVALID_VALUE, readRegion({0, 0, 1}, {4, 4, 1}));  // a 2D image has no z
  EXPECT_CL(CL_INVALID_VALUE, readRegion({0, 0, 0}, {4, 4, 2}));
  EXPECT_CL(CL_INVALID_VALUE, readRegion({0, 0, 0}, {0, 4, 1}));
  EXPECT_CL(CL_INVALID_VALUE, readRegion({0, 0, 0}, {4, 4, 1}, 8));      // row pitch below a row
  EXPECT_CL(CL_INVALID_VALUE, readRegion({0, 0, 0}, {4, 4, 1}, 0, 64));  // slice pitch of a 2D image
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueReadImage(queue, flat, CL_TRUE, nullptr, std::array<size_t, 3>{1, 1, 1}.data(), 0, 0,
                                                 host.data(), 0, nullptr, nullptr));
  const size_t zero[3] = {0, 0, 0}, one[3] = {1, 1, 1};
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueReadImage(queue, flat, CL_TRUE, zero, one, 0, 0, nullptr, 0, nullptr, nullptr));
}

class ImageTypeTest : public ImageTest, public ::testing::WithParamInterface<ImageSize> {};

// Writes the whole image from one pitched layout and reads it back through another, then a part
// of it at an origin, for every image type.
TEST_P(ImageTypeTest, WriteAndReadRoundTripWithPitchedHostLayouts) {
  const ImageSize size = GetParam();
  cl_mem target = imageOfSize(size);
  ASSERT_NE(target, nullptr);
  const std::array<size_t, 3> extent = extentOf(size);
  HostTexels source(4, extent, size.type, 12, 40);
  source.fillDistinct(1);
  const size_t zero[3] = {0, 0, 0};
  write(target, zero, source);
  HostTexels whole(4, extent, size.type, 4, 8);
  read(target, zero, whole);
  EXPECT_TRUE(sameTexels(source, whole));

  // A part at an origin, into a tight layout.
  std::array<size_t, 3> origin{1, 0, 0}, region{extent[0] - 2, extent[1], extent[2]};
  for (int d = 1; d < 3; ++d)
    if (extent[d] > 1) {
      origin[d] = 1;
      region[d] = extent[d] - 1;
    }
  HostTexels part(4, region, size.type, 0, 0);
  read(target, origin.data(), part);
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y)
      for (size_t x = 0; x < region[0]; ++x)
        ASSERT_EQ(std::memcmp(part.texel(x, y, z), source.texel(x + origin[0], y + origin[1], z + origin[2]), 4), 0)
            << x << "," << y << "," << z;
}

TEST_P(ImageTypeTest, CopiesBetweenImagesAndBuffersKeepEveryTexel) {
  const ImageSize size = GetParam();
  cl_mem first = imageOfSize(size);
  cl_mem second = imageOfSize(size);
  const std::array<size_t, 3> extent = extentOf(size);
  HostTexels source(4, extent, size.type, 0, 0);
  source.fillDistinct(3);
  const size_t zero[3] = {0, 0, 0};
  write(first, zero, source);
  ASSERT_CL_OK(clEnqueueCopyImage(queue, first, second, zero, zero, extent.data(), 0, nullptr, nullptr));
  // Image -> buffer at an offset -> another image.
  const size_t bytes = source.bytes.size();
  cl_mem staging = buffer(CL_MEM_READ_WRITE, bytes + 64);
  ASSERT_CL_OK(clEnqueueCopyImageToBuffer(queue, second, staging, zero, extent.data(), 64, 0, nullptr, nullptr));
  const std::vector<uint8_t> linear = readBack<uint8_t>(staging, bytes, 64);
  EXPECT_EQ(linear, source.bytes);
  cl_mem third = imageOfSize(size);
  ASSERT_CL_OK(clEnqueueCopyBufferToImage(queue, staging, third, 64, zero, extent.data(), 0, nullptr, nullptr));
  HostTexels back(4, extent, size.type, 0, 0);
  read(third, zero, back);
  EXPECT_TRUE(sameTexels(source, back));
}

TEST_P(ImageTypeTest, FillConvertsTheColorAndTouchesOnlyItsRegion) {
  const ImageSize size = GetParam();
  cl_mem target = imageOfSize(size);
  const std::array<size_t, 3> extent = extentOf(size);
  HostTexels zeros(4, extent, size.type, 0, 0);
  std::fill(zeros.bytes.begin(), zeros.bytes.end(), 0);
  const size_t zero[3] = {0, 0, 0};
  write(target, zero, zeros);
  std::array<size_t, 3> origin{1, 0, 0}, region{extent[0] - 1, extent[1], extent[2]};
  if (extent[1] > 1) region[1] = extent[1] - 1;
  const float color[4] = {0.5f, 1.0f, -1.0f, 2.0f};
  ASSERT_CL_OK(clEnqueueFillImage(queue, target, color, origin.data(), region.data(), 0, nullptr, nullptr));
  HostTexels back(4, extent, size.type, 0, 0);
  read(target, zero, back);
  const uint8_t filled[4] = {128, 255, 0, 255};  // round to nearest, saturated
  const uint8_t untouched[4] = {0, 0, 0, 0};
  for (size_t z = 0; z < extent[2]; ++z)
    for (size_t y = 0; y < extent[1]; ++y)
      for (size_t x = 0; x < extent[0]; ++x) {
        const bool inside = x >= origin[0] && y < origin[1] + region[1] && z < region[2];
        ASSERT_EQ(std::memcmp(back.texel(x, y, z), inside ? filled : untouched, 4), 0) << x << "," << y << "," << z;
      }
}

TEST_P(ImageTypeTest, MapShowsTheTexelsAndUnmapWritesThemBack) {
  const ImageSize size = GetParam();
  cl_mem target = imageOfSize(size);
  const std::array<size_t, 3> extent = extentOf(size);
  HostTexels source(4, extent, size.type, 0, 0);
  source.fillDistinct(5);
  const size_t zero[3] = {0, 0, 0};
  write(target, zero, source);
  size_t rowPitch = 0, slicePitch = 0;
  cl_int error = CL_SUCCESS;
  auto* mapped = static_cast<uint8_t*>(clEnqueueMapImage(queue, target, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, zero, extent.data(),
                                                         &rowPitch, &slicePitch, 0, nullptr, nullptr, &error));
  ASSERT_CL_OK(error);
  ASSERT_NE(mapped, nullptr);
  EXPECT_GE(rowPitch, extent[0] * 4);
  const size_t rowStride = size.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? slicePitch : rowPitch;
  for (size_t z = 0; z < extent[2]; ++z)
    for (size_t y = 0; y < extent[1]; ++y)
      for (size_t x = 0; x < extent[0]; ++x) {
        uint8_t* texel = mapped + z * slicePitch + y * rowStride + x * 4;
        ASSERT_EQ(std::memcmp(texel, source.texel(x, y, z), 4), 0) << x << "," << y << "," << z;
        texel[0] ^= 0xFF;
        source.texel(x, y, z)[0] ^= 0xFF;
      }
  EXPECT_EQ(infoScalar<cl_uint>([&](size_t s, void* v, size_t* r) { return clGetMemObjectInfo(target, CL_MEM_MAP_COUNT, s, v, r); }), 1u);
  ASSERT_CL_OK(clEnqueueUnmapMemObject(queue, target, mapped, 0, nullptr, nullptr));
  HostTexels back(4, extent, size.type, 0, 0);
  read(target, zero, back);
  EXPECT_TRUE(sameTexels(source, back));
}

INSTANTIATE_TEST_SUITE_P(EveryType, ImageTypeTest,
                         ::testing::Values(ImageSize{CL_MEM_OBJECT_IMAGE1D, 37, 0, 0, 0},
                                           ImageSize{CL_MEM_OBJECT_IMAGE1D_BUFFER, 37, 0, 0, 0},
                                           ImageSize{CL_MEM_OBJECT_IMAGE1D_ARRAY, 29, 0, 0, 5},
                                           ImageSize{CL_MEM_OBJECT_IMAGE2D, 23, 11, 0, 0},
                                           ImageSize{CL_MEM_OBJECT_IMAGE2D_ARRAY, 13, 7, 0, 4},
                                           ImageSize{CL_MEM_OBJECT_IMAGE3D, 11, 6, 5, 0}),
                         [](const ::testing::TestParamInfo<ImageSize>& info) {
                           switch (info.param.type) {
                             case CL_MEM_OBJECT_IMAGE1D: return std::string("Image1d");
                             case CL_MEM_OBJECT_IMAGE1D_BUFFER: return std::string("Image1dBuffer");
                             case CL_MEM_OBJECT_IMAGE1D_ARRAY: return std::string("Image1dArray");
                             case CL_MEM_OBJECT_IMAGE2D: return std::string("Image2d");
                             case CL_MEM_OBJECT_IMAGE2D_ARRAY: return std::string("Image2dArray");
                             default: return std::string("Image3d");
                           }
                         });

TEST_F(ImageTest, CopyChecksFormatsAndOverlap) {
  cl_mem first = imageOfSize({CL_MEM_OBJECT_IMAGE2D, 8, 8, 0, 0});
  cl_mem other = image(CL_MEM_READ_WRITE, cl_image_format{CL_R, CL_UNSIGNED_INT32}, describe({CL_MEM_OBJECT_IMAGE2D, 8, 8, 0, 0}));
  const size_t zero[3] = {0, 0, 0}, shifted[3] = {2, 2, 0}, region[3] = {4, 4, 1};
  EXPECT_CL(CL_IMAGE_FORMAT_MISMATCH, clEnqueueCopyImage(queue, first, other, zero, zero, region, 0, nullptr, nullptr));
  EXPECT_CL(CL_MEM_COPY_OVERLAP, clEnqueueCopyImage(queue, first, first, zero, shifted, region, 0, nullptr, nullptr));
  const size_t apart[3] = {4, 4, 0};
  EXPECT_CL_OK(clEnqueueCopyImage(queue, first, first, zero, apart, region, 0, nullptr, nullptr));
  cl_mem small = buffer(CL_MEM_READ_WRITE, 4 * 4 * 4 - 1);
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueCopyImageToBuffer(queue, first, small, zero, region, 0, 0, nullptr, nullptr));
}

TEST_F(ImageTest, CopiesBetweenTypesMoveSlicesAndLayers) {
  // Row 2 of a 2D image into layer 3 of a 1D array, then slice 1 of a 3D image into the 2D image.
  cl_mem flat = imageOfSize({CL_MEM_OBJECT_IMAGE2D, 8, 4, 0, 0});
  cl_mem lines = imageOfSize({CL_MEM_OBJECT_IMAGE1D_ARRAY, 8, 0, 0, 5});
  cl_mem cube = imageOfSize({CL_MEM_OBJECT_IMAGE3D, 8, 4, 3, 0});
  HostTexels volume(4, {8, 4, 3}, CL_MEM_OBJECT_IMAGE3D, 0, 0);
  volume.fillDistinct(9);
  const size_t zero[3] = {0, 0, 0};
  write(cube, zero, volume);
  const size_t sliceOne[3] = {0, 0, 1}, flatRegion[3] = {8, 4, 1};
  ASSERT_CL_OK(clEnqueueCopyImage(queue, cube, flat, sliceOne, zero, flatRegion, 0, nullptr, nullptr));
  const size_t rowTwo[3] = {0, 2, 0}, layerThree[3] = {0, 3, 0}, rowRegion[3] = {8, 1, 1};
  ASSERT_CL_OK(clEnqueueCopyImage(queue, flat, lines, rowTwo, layerThree, rowRegion, 0, nullptr, nullptr));
  HostTexels layer(4, {8, 1, 1}, CL_MEM_OBJECT_IMAGE1D_ARRAY, 0, 0);
  ASSERT_CL_OK(clEnqueueReadImage(queue, lines, CL_TRUE, layerThree, rowRegion, 0, 0, layer.bytes.data(), 0, nullptr, nullptr));
  for (size_t x = 0; x < 8; ++x) EXPECT_EQ(std::memcmp(layer.texel(x, 0, 0), volume.texel(x, 2, 1), 4), 0) << x;
}

// The fill color of each channel class, converted as write_image* converts it.
TEST_F(ImageTest, FillConvertsEveryChannelClass) {
  const size_t zero[3] = {0, 0, 0}, one[3] = {1, 1, 1};
  auto fillAndRead = [&](const cl_image_format& format, const void* color, size_t bytes, cl_mem_flags flags = CL_MEM_READ_WRITE) {
    cl_mem target = image(flags, format, describe({CL_MEM_OBJECT_IMAGE2D, 1, 1, 0, 0}));
    EXPECT_CL_OK(clEnqueueFillImage(queue, target, color, zero, one, 0, nullptr, nullptr));
    std::vector<uint8_t> texel(bytes);
    EXPECT_CL_OK(clEnqueueReadImage(queue, target, CL_TRUE, zero, one, 0, 0, texel.data(), 0, nullptr, nullptr));
    return texel;
  };
  const cl_int signedColor[4] = {300, -300, 5, -5};
  const std::vector<uint8_t> saturated = fillAndRead({CL_RGBA, CL_SIGNED_INT8}, signedColor, 4);
  EXPECT_EQ(saturated, (std::vector<uint8_t>{127, 0x80, 5, 0xFB}));
  const cl_uint unsignedColor[4] = {70000, 2, 3, 4};
  const std::vector<uint8_t> wide = fillAndRead({CL_RG, CL_UNSIGNED_INT16}, unsignedColor, 4);
  EXPECT_EQ(wide, (std::vector<uint8_t>{0xFF, 0xFF, 2, 0}));
  const float floatColor[4] = {1.5f, -2.0f, 0.0f, 1.0f};
  const std::vector<uint8_t> half = fillAndRead({CL_RGBA, CL_HALF_FLOAT}, floatColor, 8);
  EXPECT_EQ(half, (std::vector<uint8_t>{0x00, 0x3E, 0x00, 0xC0, 0x00, 0x00, 0x00, 0x3C}));
  const float bgra[4] = {1.0f, 0.0f, 0.2f, 0.6f};
  const std::vector<uint8_t> swizzled = fillAndRead({CL_BGRA, CL_UNORM_INT8}, bgra, 4);
  EXPECT_EQ(swizzled, (std::vector<uint8_t>{51, 0, 255, 153}));
  const float snorm[4] = {-1.0f, 0.5f, 0, 0};
  const std::vector<uint8_t> signedNormalized = fillAndRead({CL_R, CL_SNORM_INT16}, snorm, 2);
  EXPECT_EQ(signedNormalized, (std::vector<uint8_t>{0x01, 0x80}));  // -32767
  const float alpha[4] = {0.0f, 0.0f, 0.0f, 1.0f};
  EXPECT_EQ(fillAndRead({CL_A, CL_UNORM_INT8}, alpha, 1), std::vector<uint8_t>{255});
  const float grey[4] = {0.5f, 0.0f, 0.0f, 0.0f};
  EXPECT_EQ(fillAndRead({CL_sRGBA, CL_UNORM_INT8}, grey, 4, CL_MEM_READ_ONLY), (std::vector<uint8_t>{188, 0, 0, 0}));
}

// CL_UNORM_INT_101010_2 (CL_RGBA) is listed and goes through every image command. CL_Rx and
// CL_sRGBx are valid but not supported; CL_RGx is no valid format (its three channels never make
// a power of two bits).
TEST_F(ImageTest, PackedAndPaddedFormatsGoThroughEveryCommand) {
  struct Case {
    cl_image_format format;
    cl_mem_flags flags;
    size_t element;
    std::array<float, 4> color;
    std::vector<uint8_t> filled;
  };
  const Case cases[] = {
      // R 1023 in bits 31:22, G round-to-even(511.5) = 512 in 21:12, B 0, A 1 in 1:0.
      {{CL_RGBA, CL_UNORM_INT_101010_2}, CL_MEM_READ_WRITE, 4, {1.0f, 0.5f, 0.0f, 1.0f / 3}, {0x01, 0x00, 0xE0, 0xFF}},
      {{CL_RGBA, CL_UNORM_INT_101010_2}, CL_MEM_READ_ONLY, 4, {0.0f, 0.0f, 2.0f, -1.0f}, {0xFC, 0x0F, 0x00, 0x00}},
  };
  const size_t zero[3] = {0, 0, 0}, region[3] = {5, 3, 1};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.flags);
    const std::vector<cl_image_format> listed = formats(c.flags, CL_MEM_OBJECT_IMAGE2D);
    EXPECT_TRUE(std::any_of(listed.begin(), listed.end(), [&](const cl_image_format& f) {
      return f.image_channel_order == c.format.image_channel_order && f.image_channel_data_type == c.format.image_channel_data_type;
    }));
    const cl_image_desc desc = describe({CL_MEM_OBJECT_IMAGE2D, region[0], region[1], 0, 0});
    cl_mem first = image(c.flags, c.format, desc), second = image(c.flags, c.format, desc);
    ASSERT_NE(second, nullptr);
    EXPECT_EQ(imageInfo<size_t>(first, CL_IMAGE_ELEMENT_SIZE), c.element);
    HostTexels source(c.element, {region[0], region[1], 1}, CL_MEM_OBJECT_IMAGE2D, 0, 0);
    source.fillDistinct(7);
    write(first, zero, source);
    ASSERT_CL_OK(clEnqueueCopyImage(queue, first, second, zero, zero, region, 0, nullptr, nullptr));
    HostTexels back(c.element, {region[0], region[1], 1}, CL_MEM_OBJECT_IMAGE2D, 0, 0);
    read(second, zero, back);
    EXPECT_TRUE(sameTexels(source, back));

    size_t rowPitch = 0;
    cl_int error = CL_SUCCESS;
    auto* mapped = static_cast<uint8_t*>(
        clEnqueueMapImage(queue, second, CL_TRUE, CL_MAP_READ, zero, region, &rowPitch, nullptr, 0, nullptr, nullptr, &error));
    ASSERT_CL_OK(error);
    EXPECT_EQ(std::memcmp(mapped + rowPitch * 2 + c.element * 4, source.texel(4, 2, 0), c.element), 0);
    ASSERT_CL_OK(clEnqueueUnmapMemObject(queue, second, mapped, 0, nullptr, nullptr));

    ASSERT_CL_OK(clEnqueueFillImage(queue, second, c.color.data(), zero, region, 0, nullptr, nullptr));
    read(second, zero, back);
    EXPECT_EQ(std::vector<uint8_t>(back.texel(3, 1, 0), back.texel(3, 1, 0) + c.element), c.filled);
  }
  const cl_image_desc desc = describe({CL_MEM_OBJECT_IMAGE2D, 4, 4, 0, 0});
  const cl_image_format rgx{CL_RGx, CL_UNORM_INT8};
  EXPECT_CL(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, createError(CL_MEM_READ_WRITE, &rgx, &desc));
  const cl_image_format rgb101010_2{CL_RGB, CL_UNORM_INT_101010_2};
  EXPECT_CL(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, createError(CL_MEM_READ_WRITE, &rgb101010_2, &desc));
  for (const cl_image_format& padded : {cl_image_format{CL_Rx, CL_UNORM_INT8}, cl_image_format{CL_sRGBx, CL_UNORM_INT8}})
    EXPECT_CL(CL_IMAGE_FORMAT_NOT_SUPPORTED, createError(CL_MEM_READ_ONLY, &padded, &desc));
}

TEST_F(ImageTest, UseHostPointerImagesKeepTheirTexelsAtThePointer) {
  constexpr size_t width = 6, height = 4, rowPitch = width * 4 + 8;
  std::vector<uint8_t> host(rowPitch * height, 0);
  for (size_t i = 0; i < host.size(); ++i) host[i] = uint8_t(i);
  cl_image_desc desc = describe({CL_MEM_OBJECT_IMAGE2D, width, height, 0, 0});
  desc.image_row_pitch = rowPitch;
  cl_mem target = image(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, kRgba8, desc, host.data());
  ASSERT_NE(target, nullptr);
  EXPECT_EQ(imageInfo<size_t>(target, CL_IMAGE_ROW_PITCH), rowPitch);
  // The image reads what the host pointer holds.
  HostTexels back(4, {width, height, 1}, CL_MEM_OBJECT_IMAGE2D, 0, 0);
  const size_t zero[3] = {0, 0, 0};
  read(target, zero, back);
  for (size_t y = 0; y < height; ++y) EXPECT_EQ(std::memcmp(back.texel(0, y, 0), host.data() + y * rowPitch, width * 4), 0);
  // A fill lands in the host memory once mapped (the map of a USE_HOST_PTR image is the pointer).
  const float white[4] = {1, 1, 1, 1};
  const size_t region[3] = {width, height, 1};
  ASSERT_CL_OK(clEnqueueFillImage(queue, target, white, zero, region, 0, nullptr, nullptr));
  size_t mappedPitch = 0;
  cl_int error = CL_SUCCESS;
  void* mapped = clEnqueueMapImage(queue, target, CL_TRUE, CL_MAP_READ, zero, region, &mappedPitch, nullptr, 0, nullptr, nullptr, &error);
  ASSERT_CL_OK(error);
  EXPECT_EQ(mapped, host.data());
  EXPECT_EQ(mappedPitch, rowPitch);
  for (size_t y = 0; y < height; ++y)
    for (size_t x = 0; x < width * 4; ++x) ASSERT_EQ(host[y * rowPitch + x], 255) << x << "," << y;
  EXPECT_EQ(host[rowPitch - 1], uint8_t(rowPitch - 1)) << "the padding past a row stays";
  ASSERT_CL_OK(clEnqueueUnmapMemObject(queue, target, mapped, 0, nullptr, nullptr));
  // A region's map points into the host memory at its origin.
  const size_t origin[3] = {1, 1, 0}, one[3] = {1, 1, 1};
  mapped = clEnqueueMapImage(queue, target, CL_TRUE, CL_MAP_WRITE, origin, one, &mappedPitch, nullptr, 0, nullptr, nullptr, &error);
  ASSERT_CL_OK(error);
  EXPECT_EQ(mapped, host.data() + rowPitch + 4);
  ASSERT_CL_OK(clEnqueueUnmapMemObject(queue, target, mapped, 0, nullptr, nullptr));
  ASSERT_CL_OK(clFinish(queue));
}

TEST_F(ImageTest, CopyHostPointerImagesCopyAPitchedLayout) {
  constexpr size_t width = 5, height = 3, rowPitch = 32;
  std::vector<uint8_t> host(rowPitch * height);
  for (size_t i = 0; i < host.size(); ++i) host[i] = uint8_t(3 * i);
  cl_image_desc desc = describe({CL_MEM_OBJECT_IMAGE2D, width, height, 0, 0});
  desc.image_row_pitch = rowPitch;
  cl_mem target = image(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kRgba8, desc, host.data());
  std::fill(host.begin(), host.end(), 0);  // the image keeps its own copy
  HostTexels back(4, {width, height, 1}, CL_MEM_OBJECT_IMAGE2D, 0, 0);
  const size_t zero[3] = {0, 0, 0};
  read(target, zero, back);
  for (size_t y = 0; y < height; ++y)
    for (size_t x = 0; x < width * 4; ++x) ASSERT_EQ(back.texel(0, y, 0)[x], uint8_t(3 * (y * rowPitch + x)));
}

TEST_F(ImageTest, TwoDimensionalImagesOverABufferShareItsBytes) {
  constexpr size_t width = 5, height = 4;
  const size_t alignment = deviceInfo<cl_uint>(CL_DEVICE_IMAGE_PITCH_ALIGNMENT);
  const size_t rowPitch = ((width + alignment) / alignment) * alignment * 4;  // above a row, aligned
  cl_mem storage = buffer(CL_MEM_READ_WRITE, rowPitch * height);
  std::vector<uint8_t> bytes(rowPitch * height);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = uint8_t(i * 5);
  ASSERT_CL_OK(clEnqueueWriteBuffer(queue, storage, CL_TRUE, 0, bytes.size(), bytes.data(), 0, nullptr, nullptr));
  cl_image_desc desc = describe({CL_MEM_OBJECT_IMAGE2D, width, height, 0, 0});
  desc.buffer = storage;
  desc.image_row_pitch = rowPitch;
  cl_mem view = image(CL_MEM_READ_WRITE, kRgba8, desc);
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(imageInfo<size_t>(view, CL_IMAGE_ROW_PITCH), rowPitch);
  HostTexels back(4, {width, height, 1}, CL_MEM_OBJECT_IMAGE2D, 0, 0);
  const size_t zero[3] = {0, 0, 0};
  read(view, zero, back);
  for (size_t y = 0; y < height; ++y) EXPECT_EQ(std::memcmp(back.texel(0, y, 0), bytes.data() + y * rowPitch, width * 4), 0) << y;
  // Writes through the image reach the buffer.
  const float black[4] = {0, 0, 0, 0};
  const size_t region[3] = {width, height, 1};
  ASSERT_CL_OK(clEnqueueFillImage(queue, view, black, zero, region, 0, nullptr, nullptr));
  const std::vector<uint8_t> after = readBack<uint8_t>(storage, bytes.size());
  EXPECT_EQ(after[0], 0);
  EXPECT_EQ(after[rowPitch - 1], bytes[rowPitch - 1]) << "the padding is the buffer's own";
  desc.image_row_pitch = width * 4 + 2;  // not whole texels
  EXPECT_CL(CL_INVALID_IMAGE_DESCRIPTOR, createError(CL_MEM_READ_WRITE, &kRgba8, &desc));
}

TEST_F(ImageTest, SamplersReportWhatTheyWereCreatedWith) {
  cl_int error = CL_SUCCESS;
  cl_sampler plain = clCreateSampler(context, CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, &error);
  ASSERT_CL_OK(error);
  auto samplerInfo = [](cl_sampler s, cl_sampler_info name) {
    return infoScalar<cl_uint>([&](size_t size, void* v, size_t* r) { return clGetSamplerInfo(s, name, size, v, r); });
  };
  EXPECT_EQ(samplerInfo(plain, CL_SAMPLER_NORMALIZED_COORDS), cl_uint(CL_TRUE));
  EXPECT_EQ(samplerInfo(plain, CL_SAMPLER_ADDRESSING_MODE), cl_uint(CL_ADDRESS_REPEAT));
  EXPECT_EQ(samplerInfo(plain, CL_SAMPLER_FILTER_MODE), cl_uint(CL_FILTER_LINEAR));
  EXPECT_EQ(samplerInfo(plain, CL_SAMPLER_REFERENCE_COUNT), 1u);
  EXPECT_EQ(infoScalar<cl_context>([&](size_t s, void* v, size_t* r) { return clGetSamplerInfo(plain, CL_SAMPLER_CONTEXT, s, v, r); }),
            context);
  size_t propertiesSize = 1;
  EXPECT_CL_OK(clGetSamplerInfo(plain, CL_SAMPLER_PROPERTIES, 0, nullptr, &propertiesSize));
  EXPECT_EQ(propertiesSize, 0u);
  EXPECT_CL_OK(clRetainSampler(plain));
  EXPECT_EQ(samplerInfo(plain, CL_SAMPLER_REFERENCE_COUNT), 2u);
  EXPECT_CL_OK(clReleaseSampler(plain));
  EXPECT_CL_OK(clReleaseSampler(plain));

  const cl_sampler_properties properties[] = {CL_SAMPLER_ADDRESSING_MODE, CL_ADDRESS_MIRRORED_REPEAT, CL_SAMPLER_NORMALIZED_COORDS,
                                              CL_TRUE, 0};
  cl_sampler described = clCreateSamplerWithProperties(context, properties, &error);
  ASSERT_CL_OK(error);
  EXPECT_EQ(samplerInfo(described, CL_SAMPLER_ADDRESSING_MODE), cl_uint(CL_ADDRESS_MIRRORED_REPEAT));
  EXPECT_EQ(samplerInfo(described, CL_SAMPLER_FILTER_MODE), cl_uint(CL_FILTER_NEAREST)) << "the default";
  std::vector<cl_sampler_properties> reported(5);
  EXPECT_CL_OK(clGetSamplerInfo(described, CL_SAMPLER_PROPERTIES, sizeof(properties), reported.data(), nullptr));
  EXPECT_EQ(reported, std::vector<cl_sampler_properties>(std::begin(properties), std::end(properties)));
  EXPECT_CL_OK(clReleaseSampler(described));
}

TEST_F(ImageTest, SamplerCreationErrorsAreTheSpecificationsCodes) {
  cl_int error = CL_SUCCESS;
  EXPECT_EQ(clCreateSampler(nullptr, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &error), nullptr);
  EXPECT_CL(CL_INVALID_CONTEXT, error);
  EXPECT_EQ(clCreateSampler(context, CL_TRUE, 0x5555, CL_FILTER_NEAREST, &error), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, error);
  EXPECT_EQ(clCreateSampler(context, CL_TRUE, CL_ADDRESS_CLAMP, 0x5555, &error), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, error);
  EXPECT_EQ(clCreateSampler(context, 7, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &error), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, error);
  const cl_sampler_properties twice[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, CL_SAMPLER_FILTER_MODE, CL_FILTER_NEAREST, 0};
  EXPECT_EQ(clCreateSamplerWithProperties(context, twice, &error), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, error);
  const cl_sampler_properties unknown[] = {0x9999, 1, 0};
  EXPECT_EQ(clCreateSamplerWithProperties(context, unknown, &error), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, error);
  cl_uint count = 0;
  EXPECT_CL(CL_INVALID_SAMPLER, clGetSamplerInfo(nullptr, CL_SAMPLER_REFERENCE_COUNT, sizeof(count), &count, nullptr));
  EXPECT_CL(CL_INVALID_SAMPLER, clRetainSampler(reinterpret_cast<cl_sampler>(context)));
  EXPECT_CL(CL_INVALID_SAMPLER, clReleaseSampler(nullptr));
}

}  // namespace
}  // namespace loom::test
