// Kernels that read, sample, query and write images through the ICD loader: image and sampler
// arguments set by clSetKernelArg (with the specification's checks), samplers made by the API and
// written in source, checked against host references.
#include <array>
#include <cmath>
#include <cstring>

#include "cl_test_helpers.h"

namespace loom::test {
namespace {

class ImageKernelTest : public ClTest {
 protected:
  cl_mem image2d(cl_mem_flags flags, const cl_image_format& format, size_t width, size_t height, const void* texels = nullptr) {
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = width;
    desc.image_height = height;
    cl_int error = CL_SUCCESS;
    cl_mem created = clCreateImage(context, flags | (texels ? CL_MEM_COPY_HOST_PTR : 0), &format, &desc, const_cast<void*>(texels), &error);
    EXPECT_CL_OK(error);
    if (created) buffers.push_back(created);
    return created;
  }

  cl_sampler sampler(cl_bool normalized, cl_addressing_mode addressing, cl_filter_mode filter) {
    cl_int error = CL_SUCCESS;
    cl_sampler created = clCreateSampler(context, normalized, addressing, filter, &error);
    EXPECT_CL_OK(error);
    if (created) samplers.push_back(created);
    return created;
  }

  void TearDown() override {
    for (cl_sampler s : samplers) EXPECT_CL_OK(clReleaseSampler(s));
    ClTest::TearDown();
  }

  void run2d(cl_kernel k, size_t width, size_t height) {
    const size_t global[2] = {width, height};
    ASSERT_CL_OK(clEnqueueNDRangeKernel(queue, k, 2, nullptr, global, nullptr, 0, nullptr, nullptr));
    ASSERT_CL_OK(clFinish(queue));
  }

  template <typename T>
  std::vector<T> readImage(cl_mem from, size_t width, size_t height, size_t channels) {
    std::vector<T> texels(width * height * channels);
    const size_t origin[3] = {0, 0, 0}, region[3] = {width, height, 1};
    EXPECT_CL_OK(clEnqueueReadImage(queue, from, CL_TRUE, origin, region, 0, 0, texels.data(), 0, nullptr, nullptr));
    return texels;
  }

  std::vector<cl_sampler> samplers;
};

std::vector<uint8_t> distinctBytes(size_t count) {
  std::vector<uint8_t> bytes(count);
  for (size_t i = 0; i < count; ++i) bytes[i] = uint8_t(i * 37 + 11);
  return bytes;
}

constexpr cl_image_format kRgba8{CL_RGBA, CL_UNORM_INT8};

TEST_F(ImageKernelTest, AKernelCopiesAnImageThroughAnApiSampler) {
  constexpr size_t width = 19, height = 7;
  const std::vector<uint8_t> texels = distinctBytes(width * height * 4);
  cl_mem source = image2d(CL_MEM_READ_ONLY, kRgba8, width, height, texels.data());
  cl_mem destination = image2d(CL_MEM_WRITE_ONLY, kRgba8, width, height);
  cl_kernel copy = buildKernel(R"(
    kernel void copy(read_only image2d_t source, sampler_t sampler, write_only image2d_t destination) {
      int2 at = (int2)(get_global_id(0), get_global_id(1));
      write_imagef(destination, at, read_imagef(source, sampler, at));
    })", "copy");
  ASSERT_NE(copy, nullptr);
  setArgs(copy, source, sampler(CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST), destination);
  run2d(copy, width, height);
  EXPECT_EQ(readImage<uint8_t>(destination, width, height, 4), texels);
}

TEST_F(ImageKernelTest, ASamplerInSourceRepeatsNormalizedCoordinates) {
  constexpr size_t width = 8, height = 4;
  std::vector<float> texels(width * height);
  for (size_t i = 0; i < texels.size(); ++i) texels[i] = float(i);
  cl_mem source = image2d(CL_MEM_READ_ONLY, cl_image_format{CL_R, CL_FLOAT}, width, height, texels.data());
  cl_mem out = buffer(CL_MEM_WRITE_ONLY, width * height * sizeof(float));
  // Texel centers one whole image away (and more) read the same texels.
  cl_kernel wrap = buildKernel(R"(
    constant sampler_t repeat = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_NEAREST;
    kernel void wrap(read_only image2d_t source, global float* out) {
      int x = get_global_id(0), y = get_global_id(1);
      int2 size = get_image_dim(source);
      float2 at = (float2)((x + 0.5f) / size.x + 1.0f, (y + 0.5f) / size.y - 2.0f);
      out[y * size.x + x] = read_imagef(source, repeat, at).x;
    })", "wrap");
  ASSERT_NE(wrap, nullptr);
  setArgs(wrap, source, out);
  run2d(wrap, width, height);
  EXPECT_EQ(readBack<float>(out, texels.size()), texels);
}

// Linear filtering at unnormalized coordinates: the weights of the four nearest texel centers.
TEST_F(ImageKernelTest, LinearFilteringBlendsTheNearestTexels) {
  constexpr size_t width = 4, height = 2;
  const std::vector<float> texels = {0, 10, 20, 30, 100, 110, 120, 130};
  cl_mem source = image2d(CL_MEM_READ_ONLY, cl_image_format{CL_R, CL_FLOAT}, width, height, texels.data());
  const std::vector<float> coordinates = {1.0f, 0.5f, 1.25f, 1.0f, 0.5f, 0.5f, 3.9f, 1.5f};
  cl_mem at = bufferWith(coordinates);
  cl_mem out = buffer(CL_MEM_WRITE_ONLY, 4 * sizeof(float));
  cl_kernel sample = buildKernel(R"(
    kernel void sample(read_only image2d_t source, sampler_t sampler, global const float2* at, global float* out) {
      size_t i = get_global_id(0);
      out[i] = read_imagef(source, sampler, at[i]).x;
    })", "sample");
  ASSERT_NE(sample, nullptr);
  setArgs(sample, source, sampler(CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR), at, out);
  run1d(sample, 4);
  const std::vector<float> sampled = readBack<float>(out, 4);
  // (1.0, 0.5): halfway between texels 0 and 1 of row 0. (1.25, 1.0): three quarters of the way
  // from texel 0's center to texel 1's, halfway between the rows. (0.5, 0.5): texel 0 exactly. (3.9, 1.5): clamped to the last.
  const float expected[4] = {5.0f, 0.5f * (0.25f * 0 + 0.75f * 10) + 0.5f * (0.25f * 100 + 0.75f * 110), 0.0f, 130.0f};
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(sampled[i], expected[i], 1e-3f) << i;
}

// One program with samplers of both kinds: written in source (program scope and kernel scope)
// and passed as arguments, through a helper function too, all read by one kernel.
TEST_F(ImageKernelTest, SourceSamplersAndSamplerArgumentsShareAProgram) {
  const std::vector<float> texels = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  cl_mem source = image2d(CL_MEM_READ_ONLY, cl_image_format{CL_RGBA, CL_FLOAT}, 2, 2, texels.data());
  cl_mem out = buffer(CL_MEM_WRITE_ONLY, 4 * sizeof(cl_float4));
  cl_kernel mixed = buildKernel(R"(
    constant sampler_t clampToBorder = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
    float4 sampleWith(read_only image2d_t image, sampler_t sampler, float2 at) { return read_imagef(image, sampler, at); }
    kernel void mixed(read_only image2d_t source, sampler_t argument, float2 at, global float4* out) {
      const sampler_t clampToEdge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
      out[0] = read_imagef(source, argument, at);
      out[1] = read_imagef(source, clampToBorder, (int2)(-1, 0));
      out[2] = read_imagef(source, clampToEdge, (int2)(5, 0));
      out[3] = sampleWith(source, argument, at) + sampleWith(source, clampToBorder, (float2)(0.5f, 1.5f));
    }
    kernel void unused(sampler_t argument, global int* out) { out[0] = 0; })", "mixed");
  ASSERT_NE(mixed, nullptr);
  const cl_float2 at{{0.75f, 0.75f}};  // normalized: texel (1, 1)
  setArgs(mixed, source, sampler(CL_TRUE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST), at, out);
  run1d(mixed, 1);
  EXPECT_EQ(readBack<float>(out, 16),
            (std::vector<float>{13, 14, 15, 16, 0, 0, 0, 0, 5, 6, 7, 8, 13 + 9, 14 + 10, 15 + 11, 16 + 12}));
}

TEST_F(ImageKernelTest, ClampAddressingReadsTheBorderOutsideTheImage) {
  const std::vector<uint8_t> texels(4 * 4, 200);
  cl_mem source = image2d(CL_MEM_READ_ONLY, kRgba8, 2, 2, texels.data());
  cl_mem out = buffer(CL_MEM_WRITE_ONLY, 2 * sizeof(cl_float4));
  cl_kernel border = buildKernel(R"(
    kernel void border(read_only image2d_t source, sampler_t clampToBorder, sampler_t clampToEdge, global float4* out) {
      out[0] = read_imagef(source, clampToBorder, (int2)(-3, 5));
      out[1] = read_imagef(source, clampToEdge, (int2)(-3, 5));
    })", "border");
  ASSERT_NE(border, nullptr);
  setArgs(border, source, sampler(CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST),
          sampler(CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST), out);
  run1d(border, 1);
  const std::vector<float> read = readBack<float>(out, 8);
  EXPECT_EQ(read, (std::vector<float>{0, 0, 0, 0, 200 / 255.0f, 200 / 255.0f, 200 / 255.0f, 200 / 255.0f}));
}

TEST_F(ImageKernelTest, QueriesReportTheImagesShapeAndFormat) {
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY;
  desc.image_width = 9;
  desc.image_height = 5;
  desc.image_array_size = 3;
  cl_int error = CL_SUCCESS;
  cl_mem layers = clCreateImage(context, CL_MEM_READ_ONLY, &kRgba8, &desc, nullptr, &error);
  ASSERT_CL_OK(error);
  buffers.push_back(layers);
  cl_mem out = buffer(CL_MEM_WRITE_ONLY, 5 * sizeof(int));
  cl_kernel query = buildKernel(R"(
    kernel void query(read_only image2d_array_t image, global int* out) {
      out[0] = get_image_width(image);
      out[1] = get_image_height(image);
      out[2] = (int)get_image_array_size(image);
      out[3] = get_image_channel_order(image) == CLK_RGBA;
      out[4] = get_image_channel_data_type(image) == CLK_UNORM_INT8;
    })", "query");
  ASSERT_NE(query, nullptr);
  setArgs(query, layers, out);
  run1d(query, 1);
  EXPECT_EQ(readBack<int>(out, 5), (std::vector<int>{9, 5, 3, 1, 1}));
}

// Reads without a sampler and a read-write image: each texel incremented in place.
// Kernels read and write CL_UNORM_INT_101010_2: R in bits 31:22, A in 1:0.
TEST_F(ImageKernelTest, TenTenTenTwoConvertsInKernels) {
  const uint32_t texel = 1023u << 22 | 0u << 12 | 512u << 2 | 1u;  // (1, 0, 512/1023, 1/3)
  cl_mem packed = image2d(CL_MEM_READ_ONLY, {CL_RGBA, CL_UNORM_INT_101010_2}, 1, 1, &texel);
  cl_mem swapped = image2d(CL_MEM_WRITE_ONLY, {CL_RGBA, CL_UNORM_INT_101010_2}, 1, 1);
  cl_mem results = buffer(CL_MEM_READ_WRITE, 8 * sizeof(cl_float));
  cl_kernel convert = buildKernel(R"(
    kernel void convert(read_only image2d_t packed, write_only image2d_t swapped, global float* results) {
      float4 color = read_imagef(packed, (int2)(0, 0));
      vstore4(color, 0, results);
      write_imagef(swapped, (int2)(0, 0), color.wzyx);
      results[4] = get_image_channel_data_type(packed);
    })", "convert");
  ASSERT_NE(convert, nullptr);
  setArgs(convert, packed, swapped, results);
  run2d(convert, 1, 1);
  const std::vector<cl_float> values = readBack<cl_float>(results, 5);
  EXPECT_EQ(values, (std::vector<cl_float>{1.0f, 0.0f, 512 / 1023.0f, 1 / 3.0f, float(CL_UNORM_INT_101010_2)}));
  // (1/3, 512/1023, 0, 1): R round(341) = 341, G 512, B 0, A 3.
  EXPECT_EQ(readImage<uint32_t>(swapped, 1, 1, 1), std::vector<uint32_t>{341u << 22 | 512u << 12 | 3u});
}

TEST_F(ImageKernelTest, ReadWriteImagesUpdateInPlace) {
  constexpr size_t width = 6, height = 3;
  std::vector<cl_uint> texels(width * height);
  for (size_t i = 0; i < texels.size(); ++i) texels[i] = cl_uint(i * 3);
  cl_mem counts = image2d(CL_MEM_READ_WRITE, cl_image_format{CL_R, CL_UNSIGNED_INT32}, width, height, texels.data());
  cl_kernel increment = buildKernel(R"(
    kernel void increment(read_write image2d_t counts) {
      int2 at = (int2)(get_global_id(0), get_global_id(1));
      write_imageui(counts, at, read_imageui(counts, at) + 1);
    })", "increment");
  ASSERT_NE(increment, nullptr);
  setArgs(increment, counts);
  run2d(increment, width, height);
  for (cl_uint& value : texels) ++value;
  EXPECT_EQ(readImage<cl_uint>(counts, width, height, 1), texels);
}

// What a kernel samples is the image as every command before it left it, whatever wrote it: on a
// GPU, RGBA float images are sampled from a block-linear copy that each of these writes must
// bring up to date (backends/cuda/cuda_texture_mirror.h).
TEST_F(ImageKernelTest, SamplingSeesEveryKindOfWriteBeforeIt) {
  constexpr size_t width = 40, height = 24, count = width * height * 4;
  const auto values = [&](float base) {
    std::vector<float> texels(count);
    for (size_t i = 0; i < count; ++i) texels[i] = base + float(i);
    return texels;
  };
  constexpr cl_image_format kRgbaFloat{CL_RGBA, CL_FLOAT};
  std::vector<float> expected = values(0);
  cl_mem image = image2d(CL_MEM_READ_WRITE, kRgbaFloat, width, height, expected.data());
  cl_mem sampled = buffer(CL_MEM_WRITE_ONLY, count * sizeof(float));
  cl_kernel sample = buildKernel(R"(
    constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
    kernel void sample(read_only image2d_t image, global float4* out) {
      int x = get_global_id(0), y = get_global_id(1);
      out[y * get_image_width(image) + x] = read_imagef(image, nearest, (float2)(x + 0.5f, y + 0.5f));
    })", "sample");
  cl_kernel produce = buildKernel(R"(
    kernel void produce(write_only image2d_t image, float base) {
      int x = get_global_id(0), y = get_global_id(1);
      float first = base + (y * get_image_width(image) + x) * 4;
      write_imagef(image, (int2)(x, y), (float4)(first, first + 1, first + 2, first + 3));
    })", "produce");
  ASSERT_NE(sample, nullptr);
  ASSERT_NE(produce, nullptr);
  setArgs(sample, image, sampled);
  const auto expectSampled = [&](const char* after) {
    run2d(sample, width, height);
    EXPECT_EQ(readBack<float>(sampled, count), expected) << "after " << after;
  };
  expectSampled("creation from host memory");

  const size_t origin[3] = {0, 0, 0}, region[3] = {width, height, 1};
  expected = values(1000);
  ASSERT_CL_OK(clEnqueueWriteImage(queue, image, CL_FALSE, origin, region, 0, 0, expected.data(), 0, nullptr, nullptr));
  expectSampled("clEnqueueWriteImage");

  const float base = 2000;
  setArgs(produce, image, base);
  run2d(produce, width, height);
  expected = values(base);
  expectSampled("a kernel's write_imagef");

  const float color[4] = {5, 6, 7, 8};
  ASSERT_CL_OK(clEnqueueFillImage(queue, image, color, origin, region, 0, nullptr, nullptr));
  for (size_t i = 0; i < count; ++i) expected[i] = color[i % 4];
  expectSampled("clEnqueueFillImage");

  expected = values(3000);
  cl_mem other = image2d(CL_MEM_READ_ONLY, kRgbaFloat, width, height, expected.data());
  ASSERT_CL_OK(clEnqueueCopyImage(queue, other, image, origin, origin, region, 0, nullptr, nullptr));
  expectSampled("clEnqueueCopyImage");

  expected = values(4000);
  cl_mem staged = bufferWith(expected);
  ASSERT_CL_OK(clEnqueueCopyBufferToImage(queue, staged, image, 0, origin, region, 0, nullptr, nullptr));
  expectSampled("clEnqueueCopyBufferToImage");

  size_t rowPitch = 0;
  cl_int error = CL_SUCCESS;
  auto* mapped = static_cast<char*>(clEnqueueMapImage(queue, image, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, origin, region,
                                                      &rowPitch, nullptr, 0, nullptr, nullptr, &error));
  ASSERT_CL_OK(error);
  expected = values(5000);
  for (size_t y = 0; y < height; ++y) std::memcpy(mapped + y * rowPitch, &expected[y * width * 4], width * 4 * sizeof(float));
  ASSERT_CL_OK(clEnqueueUnmapMemObject(queue, image, mapped, 0, nullptr, nullptr));
  expectSampled("a write through clEnqueueMapImage");
}

TEST_F(ImageKernelTest, SetKernelArgChecksImagesAndSamplers) {
  cl_kernel k = buildKernel(R"(
    kernel void k(read_only image2d_t in, write_only image2d_t out, read_write image2d_t both, sampler_t s, global int* data) {
      write_imagef(out, (int2)(0, 0), read_imagef(in, s, (int2)(0, 0)) + read_imagef(both, (int2)(0, 0)));
      data[0] = 1;
    })", "k");
  ASSERT_NE(k, nullptr);
  cl_mem readOnly = image2d(CL_MEM_READ_ONLY, kRgba8, 2, 2);
  cl_mem writeOnly = image2d(CL_MEM_WRITE_ONLY, kRgba8, 2, 2);
  cl_mem readWrite = image2d(CL_MEM_READ_WRITE, kRgba8, 2, 2);
  cl_mem plain = buffer(CL_MEM_READ_WRITE, 16);
  cl_sampler nearest = sampler(CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST);
  EXPECT_CL(CL_INVALID_MEM_OBJECT, clSetKernelArg(k, 0, sizeof(cl_mem), &plain));
  EXPECT_CL(CL_INVALID_MEM_OBJECT, clSetKernelArg(k, 4, sizeof(cl_mem), &readOnly));
  EXPECT_CL(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 0, 4, &readOnly));
  EXPECT_CL(CL_INVALID_ARG_VALUE, clSetKernelArg(k, 0, sizeof(cl_mem), nullptr));
  EXPECT_CL(CL_INVALID_ARG_VALUE, clSetKernelArg(k, 0, sizeof(cl_mem), &writeOnly));
  EXPECT_CL(CL_INVALID_ARG_VALUE, clSetKernelArg(k, 1, sizeof(cl_mem), &readOnly));
  EXPECT_CL(CL_INVALID_ARG_VALUE, clSetKernelArg(k, 2, sizeof(cl_mem), &readOnly));
  EXPECT_CL(CL_INVALID_SAMPLER, clSetKernelArg(k, 3, sizeof(cl_sampler), &plain));
  EXPECT_CL(CL_INVALID_SAMPLER, clSetKernelArg(k, 3, sizeof(cl_sampler), nullptr));
  EXPECT_CL(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 3, 4, &nearest));
  EXPECT_CL_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &readOnly));
  EXPECT_CL_OK(clSetKernelArg(k, 1, sizeof(cl_mem), &writeOnly));
  EXPECT_CL_OK(clSetKernelArg(k, 2, sizeof(cl_mem), &readWrite));
  EXPECT_CL_OK(clSetKernelArg(k, 3, sizeof(cl_sampler), &nearest));
  EXPECT_CL_OK(clSetKernelArg(k, 4, sizeof(cl_mem), &plain));
  run1d(k, 1);

  auto argInfo = [&](cl_uint index, cl_kernel_arg_info name) {
    return infoScalar<cl_uint>([&](size_t s, void* v, size_t* r) { return clGetKernelArgInfo(k, index, name, s, v, r); });
  };
  EXPECT_EQ(argInfo(0, CL_KERNEL_ARG_ACCESS_QUALIFIER), cl_uint(CL_KERNEL_ARG_ACCESS_READ_ONLY));
  EXPECT_EQ(argInfo(1, CL_KERNEL_ARG_ACCESS_QUALIFIER), cl_uint(CL_KERNEL_ARG_ACCESS_WRITE_ONLY));
  EXPECT_EQ(argInfo(2, CL_KERNEL_ARG_ACCESS_QUALIFIER), cl_uint(CL_KERNEL_ARG_ACCESS_READ_WRITE));
  EXPECT_EQ(infoString([&](size_t s, void* v, size_t* r) { return clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_TYPE_NAME, s, v, r); }),
            "sampler_t");
}

// The IL path: kernels compiled to SPIR-V at build time, a sampler in source and one as an argument
// in one module (which llvm-spirv 15 writes with OpTypeSampler twice).
TEST_F(ImageKernelTest, SpirvKernelsTakeImagesAndSamplers) {
  cl_program p = ilProgram(readKernelFile("image_kernels.spv"));
  ASSERT_NE(p, nullptr);
  ASSERT_CL_OK(clBuildProgram(p, 0, nullptr, "", nullptr, nullptr)) << buildLog(p);
  const std::vector<float> texels = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  cl_mem source = image2d(CL_MEM_READ_ONLY, cl_image_format{CL_RGBA, CL_FLOAT}, 2, 2, texels.data());
  cl_mem out = buffer(CL_MEM_WRITE_ONLY, sizeof(cl_float4));
  cl_kernel first = kernel(p, "copy_first_pixel");
  setArgs(first, source, out);
  run1d(first, 1);
  EXPECT_EQ(readBack<float>(out, 4), (std::vector<float>{1, 2, 3, 4}));
  cl_kernel sampleAt = kernel(p, "sample_at");
  const cl_float2 coordinate{{0.75f, 0.75f}};  // normalized: texel (1, 1)
  setArgs(sampleAt, source, sampler(CL_TRUE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST), coordinate, out);
  run1d(sampleAt, 1);
  EXPECT_EQ(readBack<float>(out, 4), (std::vector<float>{13, 14, 15, 16}));
}

}  // namespace
}  // namespace loom::test
