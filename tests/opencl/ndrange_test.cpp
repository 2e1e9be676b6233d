// NDRange launches: 1-D, 2-D and 3-D with global offsets (every work-item function checked for
// every work-item), non-uniform work-groups (OpenCL C 2.0) and their absence (1.2), local size
// chosen by Loom, reqd_work_group_size, clEnqueueTask, clEnqueueNativeKernel, local memory
// arguments and barriers.
#include "cl_test_helpers.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <numeric>

namespace loom::test {
namespace {

// work_item_ids (tests/kernels/work_item_kernels.cl) writes one record of 27 ulongs per
// work-item, at its global linear id: 8 functions of each dimension, then work_dim and the local
// and global linear ids.
constexpr size_t kRecord = 27;

class NdRangeTest : public ClTest {
 protected:
  void runMirroredTiles(cl_kernel k, size_t width, size_t height, const size_t local[2]);
  // Launches `record` and checks every record against the range's definition (uniform groups).
  void checkRange(cl_uint dims, const size_t* global, const size_t* local, const size_t* offset, const std::string& options) {
    cl_kernel k = buildKernel(readKernelSource("work_item_kernels.cl"), "work_item_ids", options);
    ASSERT_NE(k, nullptr);
    size_t g[3] = {1, 1, 1}, l[3] = {1, 1, 1}, o[3] = {0, 0, 0};
    for (cl_uint d = 0; d < dims; ++d) g[d] = global[d], l[d] = local[d], o[d] = offset ? offset[d] : 0;
    const size_t total = g[0] * g[1] * g[2];
    cl_mem out = buffer(CL_MEM_READ_WRITE, total * kRecord * sizeof(cl_ulong));
    const cl_ulong marker = ~0ull;
    ASSERT_CL_OK(clEnqueueFillBuffer(queue, out, &marker, sizeof(marker), 0, total * kRecord * sizeof(cl_ulong), 0, nullptr, nullptr));
    setArgs(k, out);
    ASSERT_CL_OK(clEnqueueNDRangeKernel(queue, k, dims, offset, global, local, 0, nullptr, nullptr));
    const std::vector<cl_ulong> records = readBack<cl_ulong>(out, total * kRecord);
    size_t wrong = 0;
    for (size_t z = 0; z < g[2]; ++z)
      for (size_t y = 0; y < g[1]; ++y)
        for (size_t x = 0; x < g[0]; ++x) {
          const size_t id[3] = {x, y, z};
          const cl_ulong* r = &records[((z * g[1] + y) * g[0] + x) * kRecord];
          cl_ulong linearLocal = 0;
          for (int d = 2; d >= 0; --d) linearLocal = linearLocal * l[d] + id[d] % l[d];
          for (int d = 0; d < 3; ++d) {
            // Global id, local id, group id, local size, enqueued local size, global size, groups, offset.
            const cl_ulong expected[8] = {o[d] + id[d], id[d] % l[d], id[d] / l[d], l[d], l[d], g[d], g[d] / l[d], o[d]};
            for (int f = 0; f < 8; ++f)
              if (r[3 * f + d] != expected[f] && wrong++ < 10)
                ADD_FAILURE() << "work-item (" << x << "," << y << "," << z << ") function " << f << " dimension " << d << ": "
                              << r[3 * f + d] << ", expected " << expected[f];
          }
          const cl_ulong linear = (z * g[1] + y) * g[0] + x;
          const cl_ulong expected[3] = {dims, linearLocal, linear};
          for (int f = 0; f < 3; ++f)
            if (r[24 + f] != expected[f] && wrong++ < 10)
              ADD_FAILURE() << "work-item (" << x << "," << y << "," << z << ") work_dim/local/global linear id " << f << ": "
                            << r[24 + f] << ", expected " << expected[f];
        }
    EXPECT_EQ(wrong, 0u);
  }
};

TEST_F(NdRangeTest, OneDimensionWithOffset) {
  const size_t global[] = {96}, local[] = {16}, offset[] = {100};
  checkRange(1, global, local, offset, "-cl-std=CL3.0");
}

TEST_F(NdRangeTest, TwoDimensionsWithOffset) {
  const size_t global[] = {6, 10}, local[] = {3, 5}, offset[] = {1, 2};
  checkRange(2, global, local, offset, "-cl-std=CL3.0");
}

TEST_F(NdRangeTest, ThreeDimensionsWithOffset) {
  const size_t global[] = {8, 4, 6}, local[] = {4, 2, 3}, offset[] = {3, 5, 7};
  checkRange(3, global, local, offset, "-cl-std=CL3.0");
}

TEST_F(NdRangeTest, OffsetsBeyondThirtyTwoBits) {
  const size_t global[] = {32}, local[] = {8}, offset[] = {(size_t(1) << 33) + 5};
  checkRange(1, global, local, offset, "-cl-std=CL3.0");
}

TEST_F(NdRangeTest, NoOffsetIsZeroOffset) {
  const size_t global[] = {4, 4, 4}, local[] = {2, 2, 2};
  checkRange(3, global, local, nullptr, "-cl-std=CL2.0");
}

// OpenCL C 2.0: the last group of a dimension is smaller; get_enqueued_local_size is not.
TEST_F(NdRangeTest, NonUniformGroupsWithClStd20) {
  cl_kernel k = buildKernel(R"(
    kernel void sizes(global uint* out) {
      size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
      out[4 * i + 0] = (uint)get_local_size(0);
      out[4 * i + 1] = (uint)get_local_size(1);
      out[4 * i + 2] = (uint)get_enqueued_local_size(0);
      out[4 * i + 3] = (uint)get_num_groups(0);
    })",
                            "sizes", "-cl-std=CL2.0");
  ASSERT_NE(k, nullptr);
  const size_t global[2] = {10, 7}, local[2] = {4, 3};
  cl_mem out = buffer(CL_MEM_READ_WRITE, 10 * 7 * 4 * sizeof(cl_uint));
  const cl_uint marker = 0xffffffff;
  ASSERT_CL_OK(clEnqueueFillBuffer(queue, out, &marker, sizeof(marker), 0, 10 * 7 * 4 * sizeof(cl_uint), 0, nullptr, nullptr));
  setArgs(k, out);
  ASSERT_CL_OK(clEnqueueNDRangeKernel(queue, k, 2, nullptr, global, local, 0, nullptr, nullptr));
  const std::vector<cl_uint> values = readBack<cl_uint>(out, 10 * 7 * 4);
  for (size_t y = 0; y < 7; ++y)
    for (size_t x = 0; x < 10; ++x) {
      const cl_uint* v = &values[4 * (y * 10 + x)];
      EXPECT_EQ(v[0], x >= 8 ? 2u : 4u) << x << "," << y;  // the last group along x holds 2
      EXPECT_EQ(v[1], y >= 6 ? 1u : 3u) << x << "," << y;  // and along y 1
      EXPECT_EQ(v[2], 4u);
      EXPECT_EQ(v[3], 3u);
    }
}

TEST_F(NdRangeTest, NonUniformGroupsAreInvalidWithClStd12OrUniformOption) {
  const char* source = "kernel void k(global int* o) { o[get_global_id(0)] = 1; }";
  const size_t global = 10, local = 4;
  for (const char* options : {"-cl-std=CL1.2", "", "-cl-std=CL2.0 -cl-uniform-work-group-size"}) {
    cl_kernel k = buildKernel(source, "k", options);
    ASSERT_NE(k, nullptr);
    cl_mem out = buffer(CL_MEM_READ_WRITE, 16 * sizeof(int));
    setArgs(k, out);
    EXPECT_CL(CL_INVALID_WORK_GROUP_SIZE, clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr))
        << "options: " << options;
    const size_t uniform = 8;
    EXPECT_CL_OK(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &uniform, &local, 0, nullptr, nullptr)) << options;
  }
}

// Without a local size Loom chooses one; under OpenCL C 1.2 it must divide the global size.
TEST_F(NdRangeTest, NullLocalSizeRunsEveryWorkItemOnce) {
  const char* source = R"(
    kernel void once(global int* hits, global uint* shape) {
      atomic_inc(&hits[get_global_id(0)]);
      if (get_global_id(0) == 0) { shape[0] = (uint)get_local_size(0); shape[1] = (uint)get_num_groups(0); }
    })";
  for (const char* options : {"-cl-std=CL1.2", "-cl-std=CL3.0"}) {
    cl_kernel k = buildKernel(source, "once", options);
    ASSERT_NE(k, nullptr);
    for (size_t global : {size_t(1), size_t(7), size_t(1000), size_t(4099)}) {
      SCOPED_TRACE(std::string(options) + " global " + std::to_string(global));
      std::vector<int> zeros(global, 0);
      cl_mem hits = bufferWith(zeros);
      cl_mem shape = buffer(CL_MEM_READ_WRITE, 2 * sizeof(cl_uint));
      setArgs(k, hits, shape);
      ASSERT_CL_OK(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
      const std::vector<int> counts = readBack<int>(hits, global);
      for (size_t i = 0; i < global; ++i) ASSERT_EQ(counts[i], 1) << i;
      const std::vector<cl_uint> s = readBack<cl_uint>(shape, 2);
      EXPECT_GE(s[0], 1u);
      EXPECT_LE(s[0], deviceInfo<size_t>(CL_DEVICE_MAX_WORK_GROUP_SIZE));
      if (std::string(options) == "-cl-std=CL1.2") { EXPECT_EQ(size_t(s[0]) * s[1], global) << "uniform groups"; }
    }
  }
}

TEST_F(NdRangeTest, ReqdWorkGroupSizeMustMatch) {
  cl_kernel k = buildKernel(R"(
    kernel __attribute__((reqd_work_group_size(8, 1, 1))) void fixed(global uint* o) {
      o[get_global_id(0)] = (uint)get_local_size(0);
    })",
                            "fixed");
  ASSERT_NE(k, nullptr);
  cl_mem out = buffer(CL_MEM_READ_WRITE, 32 * sizeof(cl_uint));
  setArgs(k, out);
  const size_t global = 32, wrong = 4, right = 8;
  EXPECT_CL(CL_INVALID_WORK_GROUP_SIZE, clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, &wrong, 0, nullptr, nullptr));
  const size_t global2[2] = {32, 2}, local2[2] = {8, 2};
  EXPECT_CL(CL_INVALID_WORK_GROUP_SIZE, clEnqueueNDRangeKernel(queue, k, 2, nullptr, global2, local2, 0, nullptr, nullptr));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, &right, 0, nullptr, nullptr));
  for (cl_uint value : readBack<cl_uint>(out, 32)) ASSERT_EQ(value, 8u);
  // Without a local size the required one is used.
  const cl_uint zero = 0;
  ASSERT_CL_OK(clEnqueueFillBuffer(queue, out, &zero, sizeof(zero), 0, 32 * sizeof(cl_uint), 0, nullptr, nullptr));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
  for (cl_uint value : readBack<cl_uint>(out, 32)) ASSERT_EQ(value, 8u);
}

// Tiles of a group mirrored through local memory in three rounds, with private values kept across
// the barriers: the work-group function specialized for its reqd_work_group_size, and the general
// code the smaller last groups of a non-uniform range run.
const char* const kMirroredTiles = R"(
  kernel __attribute__((reqd_work_group_size(8, 4, 1))) void tiles(global const int* in, global int* out) {
    local int tile[4][8];
    size_t lx = get_local_id(0), ly = get_local_id(1), nx = get_local_size(0), ny = get_local_size(1);
    size_t width = get_global_size(0), mine = get_global_id(1) * width + get_global_id(0);
    int sums[3];
    for (int round = 0; round < 3; ++round) {
      tile[ly][lx] = in[mine] * (round + 1);
      barrier(CLK_LOCAL_MEM_FENCE);
      sums[round] = tile[ny - 1 - ly][nx - 1 - lx] + (int)(nx * 100 + ny);
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[mine] = sums[0] + sums[1] * 7 + sums[2] * 49;
  })";

// What kMirroredTiles stores for each element of a width x height range of groups of 8 x 4.
std::vector<int> mirroredTiles(const std::vector<int>& in, size_t width, size_t height) {
  std::vector<int> out(width * height);
  for (size_t y = 0; y < height; ++y)
    for (size_t x = 0; x < width; ++x) {
      const size_t x0 = x / 8 * 8, y0 = y / 4 * 4, nx = std::min<size_t>(8, width - x0), ny = std::min<size_t>(4, height - y0);
      const int mirrored = in[(y0 + ny - 1 - (y - y0)) * width + x0 + nx - 1 - (x - x0)];
      const int sizes = int(nx * 100 + ny);
      out[y * width + x] = (mirrored + sizes) + 7 * (2 * mirrored + sizes) + 49 * (3 * mirrored + sizes);
    }
  return out;
}

// Runs the tiles kernel over width x height in groups of `local` and checks every result.
void NdRangeTest::runMirroredTiles(cl_kernel k, size_t width, size_t height, const size_t local[2]) {
  const size_t n = width * height, global[2] = {width, height};
  std::vector<int> input(n);
  for (size_t i = 0; i < n; ++i) input[i] = int(i * 37 % 101) - 50;
  cl_mem in = bufferWith(input);
  cl_mem out = buffer(CL_MEM_READ_WRITE, n * sizeof(int));
  setArgs(k, in, out);
  ASSERT_CL_OK(clEnqueueNDRangeKernel(queue, k, 2, nullptr, global, local, 0, nullptr, nullptr));
  EXPECT_EQ(readBack<int>(out, n), mirroredTiles(input, width, height));
}

TEST_F(NdRangeTest, ReqdWorkGroupSizeKernelsWithBarriersRunGroupsOfThatSizeAndSmallerLastOnes) {
  cl_kernel k = buildKernel(kMirroredTiles, "tiles", "-cl-std=CL2.0");
  ASSERT_NE(k, nullptr);
  const size_t local[2] = {8, 4};
  struct Range {
    size_t width, height;
  };
  for (Range range : {Range{32, 8}, Range{20, 6}}) {  // whole groups; then smaller last ones along x and y
    SCOPED_TRACE(std::to_string(range.width) + "x" + std::to_string(range.height));
    runMirroredTiles(k, range.width, range.height, local);
  }
  const size_t global[2] = {32, 8}, transposed[2] = {4, 8};
  EXPECT_CL(CL_INVALID_WORK_GROUP_SIZE, clEnqueueNDRangeKernel(queue, k, 2, nullptr, global, transposed, 0, nullptr, nullptr));
}

// A program that needs uniform groups (OpenCL C 1.2) has code for its required size only; its
// binary, loaded again, keeps refusing the smaller last groups it has no code for.
TEST_F(NdRangeTest, ReqdWorkGroupSizeKernelsOfUniformProgramsRunWholeGroupsFromSourceAndBinary) {
  cl_program original = build(kMirroredTiles, "-cl-std=CL1.2");
  ASSERT_NE(original, nullptr);
  size_t length = 0;
  ASSERT_CL_OK(clGetProgramInfo(original, CL_PROGRAM_BINARY_SIZES, sizeof(length), &length, nullptr));
  std::vector<unsigned char> binary(length);
  unsigned char* data = binary.data();
  ASSERT_CL_OK(clGetProgramInfo(original, CL_PROGRAM_BINARIES, sizeof(data), &data, nullptr));
  const unsigned char* bytes = binary.data();
  cl_int status = CL_SUCCESS, error = CL_SUCCESS;
  cl_program reloaded = clCreateProgramWithBinary(context, 1, &device, &length, &bytes, &status, &error);
  ASSERT_CL_OK(error);
  programs.push_back(reloaded);
  ASSERT_CL_OK(clBuildProgram(reloaded, 0, nullptr, "", nullptr, nullptr)) << buildLog(reloaded);
  for (cl_program p : {original, reloaded}) {
    cl_kernel k = kernel(p, "tiles");
    ASSERT_NE(k, nullptr);
    const size_t local[2] = {8, 4};
    runMirroredTiles(k, 32, 8, local);
    const size_t ragged[2] = {20, 6};
    EXPECT_CL(CL_INVALID_WORK_GROUP_SIZE, clEnqueueNDRangeKernel(queue, k, 2, nullptr, ragged, local, 0, nullptr, nullptr))
        << (p == original ? "from source" : "from its binary");
  }
}

// Long loops that load a wide vector per work-item (clpeak's bandwidth kernels) and CLBlast's
// AXPY of float4 computed one component at a time: each work-item's own vectors, exact sums.
TEST_F(NdRangeTest, LoopsOverWideVectorsAndComponentWiseFloat4sComputeEveryWorkItem) {
  cl_program p = build(R"(
    kernel void sum16(global const float16* a, global float* out) {
      int id = get_group_id(0) * get_local_size(0) * 16 + get_local_id(0);
      float16 sum = 0;
      for (int i = 0; i < 16; i++) { sum += a[id]; id += get_local_size(0); }
      out[get_global_id(0)] = sum.s0 + sum.s5 + sum.sA + sum.sF;
    }
    kernel __attribute__((reqd_work_group_size(16, 1, 1)))
    void axpy4(const float alpha, const global float4* restrict x, global float4* y) {
      const int id = get_global_id(0);
      float4 value = y[id], other = x[id];
      value.x += alpha * other.x; value.y += alpha * other.y; value.z += alpha * other.z; value.w += alpha * other.w;
      y[id] = value;
    })", "-cl-std=CL1.2");
  ASSERT_NE(p, nullptr);
  constexpr size_t kItems = 256, kGroup = 32;
  std::vector<float> a(kItems * 16 * 16);
  for (size_t i = 0; i < a.size(); ++i) a[i] = float(i % 29);
  cl_mem in = bufferWith(a);
  cl_mem sums = buffer(CL_MEM_READ_WRITE, kItems * sizeof(float));
  cl_kernel sum16 = kernel(p, "sum16");
  ASSERT_NE(sum16, nullptr);
  setArgs(sum16, in, sums);
  ASSERT_NO_FATAL_FAILURE(run1d(sum16, kItems, &kGroup));
  const std::vector<float> result = readBack<float>(sums, kItems);
  for (size_t item = 0; item < kItems; ++item) {
    const size_t first = item / kGroup * kGroup * 16 + item % kGroup;
    float expected = 0;
    for (size_t i = 0; i < 16; ++i)
      for (size_t lane : {0, 5, 10, 15}) expected += a[(first + i * kGroup) * 16 + lane];
    ASSERT_EQ(result[item], expected) << item;
  }
  std::vector<float> x(kItems * 4), y(kItems * 4);
  for (size_t i = 0; i < x.size(); ++i) x[i] = float(i % 13), y[i] = float(i % 7);
  cl_mem dx = bufferWith(x), dy = bufferWith(y);
  cl_kernel axpy4 = kernel(p, "axpy4");
  ASSERT_NE(axpy4, nullptr);
  setArgs(axpy4, 0.5f, dx, dy);
  const size_t group = 16;
  ASSERT_NO_FATAL_FAILURE(run1d(axpy4, kItems, &group));
  const std::vector<float> updated = readBack<float>(dy, kItems * 4);
  for (size_t i = 0; i < updated.size(); ++i) ASSERT_EQ(updated[i], y[i] + 0.5f * x[i]) << i;
}

// clpeak's compute kernels: chains of mad in a loop of constant trip count, in floats and in
// float4s. Every value a small whole number, so that every order of the sums is exact.
TEST_F(NdRangeTest, LongConstantLoopsOfMultiplyAddsKeepEveryWorkItemsChain) {
  cl_program p = build(R"(
    #define MAD_4(x, y, z) z += mad(y, x, y); z += mad(x, y, x); z += mad(y, x, y); z += mad(x, y, x);
    kernel void chain1(global float* out, float a) {
      float x = a + (float)(get_local_id(0) % 4), y = (float)(get_global_id(0) % 3), z = 0.0f;
      for (int i = 0; i < 100; ++i) { MAD_4(x, y, z); }
      out[get_global_id(0)] = z;
    }
    kernel void chain4(global float* out, float a) {
      float4 x = (float4)(a, a + 1.0f, a + 2.0f, a + 3.0f) + (float)(get_local_id(0) % 4);
      float4 y = (float4)(get_global_id(0) % 3), z = 0.0f;
      for (int i = 0; i < 50; ++i) { MAD_4(x, y, z); }
      out[get_global_id(0)] = z.x + z.y + z.z + z.w;
    })");
  ASSERT_NE(p, nullptr);
  constexpr size_t kItems = 600, kGroup = 40;
  constexpr float kA = 1.0f;
  // What one lane adds in each iteration: twice (y * x + y) + (x * y + x).
  auto perIteration = [](float x, float y) { return 2.0f * ((y * x + y) + (x * y + x)); };
  for (const char* name : {"chain1", "chain4"}) {
    SCOPED_TRACE(name);
    cl_kernel k = kernel(p, name);
    ASSERT_NE(k, nullptr);
    cl_mem out = buffer(CL_MEM_READ_WRITE, kItems * sizeof(float));
    setArgs(k, out, kA);
    ASSERT_NO_FATAL_FAILURE(run1d(k, kItems, &kGroup));
    const std::vector<float> result = readBack<float>(out, kItems);
    for (size_t i = 0; i < kItems; ++i) {
      const float x = kA + float(i % kGroup % 4), y = float(i % 3);
      const float expected = name[5] == '1' ? 100.0f * perIteration(x, y)
                                            : 50.0f * (perIteration(x, y) + perIteration(x + 1, y) + perIteration(x + 2, y) +
                                                       perIteration(x + 3, y));
      ASSERT_EQ(result[i], expected) << i;
    }
  }
}

TEST_F(NdRangeTest, BadRangesAreRejected) {
  cl_kernel k = buildKernel("kernel void k(global int* o) { o[0] = 1; }", "k");
  ASSERT_NE(k, nullptr);
  cl_mem out = buffer(CL_MEM_READ_WRITE, 64);
  setArgs(k, out);
  const size_t global[4] = {4, 4, 4, 4}, local[4] = {2, 2, 2, 2};
  EXPECT_CL(CL_INVALID_WORK_DIMENSION, clEnqueueNDRangeKernel(queue, k, 0, nullptr, global, local, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_WORK_DIMENSION, clEnqueueNDRangeKernel(queue, k, 4, nullptr, global, local, 0, nullptr, nullptr));
  const size_t huge[1] = {SIZE_MAX}, offset[1] = {2};
  EXPECT_CL(CL_INVALID_GLOBAL_OFFSET, clEnqueueNDRangeKernel(queue, k, 1, offset, huge, nullptr, 0, nullptr, nullptr));
  // OpenCL 2.1+: a zero global size enqueues nothing and succeeds.
  const size_t empty[1] = {0};
  cl_event done = nullptr;
  EXPECT_CL_OK(clEnqueueNDRangeKernel(queue, k, 1, nullptr, empty, nullptr, 0, nullptr, &done));
  if (done) {
    track(done);
    EXPECT_CL_OK(clWaitForEvents(1, &done));
    EXPECT_EQ(eventStatus(done), CL_COMPLETE);
  }
}

TEST_F(NdRangeTest, EnqueueTaskRunsOneWorkItem) {
  cl_kernel k = buildKernel(R"(
    kernel void task(global uint* o) {
      o[0] = (uint)get_global_size(0); o[1] = (uint)get_local_size(0); o[2] = get_work_dim(); o[3] += 1;
    })",
                            "task");
  ASSERT_NE(k, nullptr);
  cl_mem out = bufferWith(std::vector<cl_uint>{9, 9, 9, 0});
  setArgs(k, out);
  cl_event done = nullptr;
  ASSERT_CL_OK(clEnqueueTask(queue, k, 0, nullptr, &done));
  track(done);
  EXPECT_EQ(readBack<cl_uint>(out, 4), (std::vector<cl_uint>{1, 1, 1, 1}));
  cl_command_type type = 0;
  ASSERT_CL_OK(clGetEventInfo(done, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, nullptr));
  EXPECT_EQ(type, cl_command_type(CL_COMMAND_TASK));
}

struct NativeArguments {
  int* data;  // replaced by the buffer's address
  int value;
  int count;
};

void CL_CALLBACK nativeKernel(void* arguments) {
  auto* a = static_cast<NativeArguments*>(arguments);
  for (int i = 0; i < a->count; ++i) a->data[i] = a->value + i;
}

TEST_F(NdRangeTest, NativeKernelGetsBufferAddressesAndACopyOfItsArguments) {
  const bool native = deviceInfo<cl_device_exec_capabilities>(CL_DEVICE_EXECUTION_CAPABILITIES) & CL_EXEC_NATIVE_KERNEL;
  cl_mem m = buffer(CL_MEM_READ_WRITE, 16 * sizeof(int));
  NativeArguments arguments{nullptr, 500, 16};
  const void* location = &arguments.data;
  if (!native) {
    EXPECT_CL(CL_INVALID_OPERATION, clEnqueueNativeKernel(queue, nativeKernel, &arguments, sizeof(arguments), 1, &m, &location,
                                                          0, nullptr, nullptr));
    return;
  }
  // Gate the command so that the arguments change after the enqueue and before it runs: the
  // native kernel must see the copy made at enqueue time.
  cl_event gate = userEvent();
  cl_event done = nullptr;
  ASSERT_CL_OK(clEnqueueNativeKernel(queue, nativeKernel, &arguments, sizeof(arguments), 1, &m, &location, 1, &gate, &done));
  track(done);
  arguments.value = -1;
  arguments.count = 1000;
  ASSERT_CL_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL_OK(clWaitForEvents(1, &done));
  const std::vector<int> values = readBack<int>(m, 16);
  for (int i = 0; i < 16; ++i) ASSERT_EQ(values[i], 500 + i);
  cl_command_type type = 0;
  ASSERT_CL_OK(clGetEventInfo(done, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, nullptr));
  EXPECT_EQ(type, cl_command_type(CL_COMMAND_NATIVE_KERNEL));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueNativeKernel(queue, nullptr, &arguments, sizeof(arguments), 0, nullptr, nullptr, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueNativeKernel(queue, nativeKernel, nullptr, sizeof(arguments), 0, nullptr, nullptr, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueNativeKernel(queue, nativeKernel, &arguments, sizeof(arguments), 1, nullptr, &location, 0, nullptr, nullptr));
  const cl_mem notMemory = reinterpret_cast<cl_mem>(queue);
  EXPECT_CL(CL_INVALID_MEM_OBJECT, clEnqueueNativeKernel(queue, nativeKernel, &arguments, sizeof(arguments), 1, &notMemory, &location, 0, nullptr, nullptr));
}

TEST_F(NdRangeTest, LocalMemoryArgumentsAndBarriersReduceEachGroup) {
  cl_kernel k = buildKernel(readKernelSource("work_group_kernels.cl"), "reduce_in_groups");
  ASSERT_NE(k, nullptr);
  const size_t n = 4096;
  std::vector<int> input(n);
  for (size_t i = 0; i < n; ++i) input[i] = int(i % 97) - 40;
  cl_mem in = bufferWith(input);
  cl_mem sums = buffer(CL_MEM_READ_WRITE, n * sizeof(int));
  for (size_t group : {size_t(2), size_t(16), size_t(64), size_t(256)}) {
    SCOPED_TRACE(group);
    setArgs(k, in, sums);
    ASSERT_CL_OK(clSetKernelArg(k, 2, group * sizeof(int), nullptr));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &n, &group, 0, nullptr, nullptr));
    const std::vector<int> result = readBack<int>(sums, n / group);
    for (size_t g = 0; g < n / group; ++g)
      ASSERT_EQ(result[g], std::accumulate(input.begin() + g * group, input.begin() + (g + 1) * group, 0)) << "group " << g;
  }
}

TEST_F(NdRangeTest, BarriersOrderLocalAndGlobalMemoryInAGroup) {
  cl_kernel k = buildKernel(R"(
    kernel void rotate(global int* data, global int* out) {
      local int tile[64];
      size_t l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
      tile[l] = data[g] * 2;
      data[g] = data[g] + 1;
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
      size_t neighbour = get_group_id(0) * n + (l + 1) % n;
      out[g] = tile[n - 1 - l] * 1000 + data[neighbour];
    })",
                            "rotate");
  ASSERT_NE(k, nullptr);
  const size_t n = 512, group = 64;
  std::vector<int> input(n);
  std::iota(input.begin(), input.end(), 0);
  cl_mem data = bufferWith(input);
  cl_mem out = buffer(CL_MEM_READ_WRITE, n * sizeof(int));
  setArgs(k, data, out);
  ASSERT_NO_FATAL_FAILURE(run1d(k, n, &group));
  const std::vector<int> result = readBack<int>(out, n);
  for (size_t g = 0; g < n; ++g) {
    const size_t base = g / group * group, l = g % group;
    ASSERT_EQ(result[g], input[base + group - 1 - l] * 2 * 1000 + input[base + (l + 1) % group] + 1) << g;
  }
}


// OpenCL C 2.0/3.0 atomics with explicit orders and scopes (the features the device reports),
// and 1.x atomics on local and global memory.
TEST_F(NdRangeTest, AtomicsOnGlobalAndLocalMemory) {
  cl_kernel k = buildKernel(R"(
    kernel void count(global atomic_int* total, global int* old_style, global int* maxima) {
      local int group_sum;
      if (get_local_id(0) == 0) group_sum = 0;
      barrier(CLK_LOCAL_MEM_FENCE);
      atomic_add(&group_sum, (int)get_local_id(0));
      atomic_fetch_add_explicit(total, 1, memory_order_relaxed, memory_scope_device);
      atomic_inc(old_style);
      atomic_max(&maxima[0], (int)get_global_id(0));
      barrier(CLK_LOCAL_MEM_FENCE);
      if (get_local_id(0) == 0) atomic_add(&maxima[1], group_sum);
    })",
                            "count", "-cl-std=CL3.0");
  ASSERT_NE(k, nullptr);
  const size_t n = 8192, group = 64;
  cl_mem total = bufferWith(std::vector<int>{0}), oldStyle = bufferWith(std::vector<int>{0}), maxima = bufferWith(std::vector<int>{-1, 0});
  setArgs(k, total, oldStyle, maxima);
  ASSERT_NO_FATAL_FAILURE(run1d(k, n, &group));
  EXPECT_EQ(readBack<int>(total, 1)[0], int(n));
  EXPECT_EQ(readBack<int>(oldStyle, 1)[0], int(n));
  EXPECT_EQ(readBack<int>(maxima, 2), (std::vector<int>{int(n) - 1, int(n / group * (group * (group - 1) / 2))}));
}

// Acquire and release order the plain memory a lock guards: every work-item takes one of 16 spin
// locks (atomic_flag, acquire-release), adds 1 to the plain int it guards and releases it, so no
// increment may be lost. On NVIDIA GPUs, whose atomics in LLVM 15 carry no order, only the fences
// Loom puts around ordered atomics keep each holder from reading a stale value (OpenCL-CTS
// c11_atomics' atomic_flag found critical sections visited twice before).
TEST_F(NdRangeTest, AcquireAndReleaseOrderTheMemoryALockGuards) {
  cl_kernel k = buildKernel(R"(
    kernel void locked(volatile global atomic_flag* locks, global int* guarded) {
      const size_t lock = get_global_id(0) % 16;
      while (atomic_flag_test_and_set_explicit(&locks[lock], memory_order_acq_rel, memory_scope_device)) {}
      guarded[lock] += 1;
      atomic_flag_clear_explicit(&locks[lock], memory_order_release, memory_scope_device);
    })",
                            "locked", "-cl-std=CL3.0");
  ASSERT_NE(k, nullptr);
  const size_t n = 16384, group = 64;
  cl_mem locks = bufferWith(std::vector<int>(16, 0)), guarded = bufferWith(std::vector<int>(16, 0));
  setArgs(k, locks, guarded);
  ASSERT_NO_FATAL_FAILURE(run1d(k, n, &group));
  EXPECT_EQ(readBack<int>(guarded, 16), std::vector<int>(16, int(n / 16)));
}

// Launches of millions of work-items take the CPU's streaming variant of a kernel (non-temporal
// stores where the address is aligned, backends/cpu): a global offset of 1 makes every vector
// store of the x loop unaligned, a group of 7 makes runs start anywhere.
TEST_F(NdRangeTest, LargeLaunchesGetEveryElementRightAtAnyAlignment) {
  cl_kernel k = buildKernel(R"(
    kernel void triad(global float* a, global const float* b, global const float* c, float s) {
      size_t i = get_global_id(0);
      a[i] = b[i] + s * c[i];
    })",
                            "triad");
  ASSERT_NE(k, nullptr);
  const size_t n = (size_t(8) << 20) + 21;
  std::vector<float> b(n + 1), c(n + 1);
  for (size_t i = 0; i <= n; ++i) b[i] = float(i % 1000), c[i] = float(i % 7);
  cl_mem bb = bufferWith(b), cb = bufferWith(c);
  for (size_t offset : {0, 1})
    for (size_t group : {256, 7}) {
      SCOPED_TRACE(testing::Message() << "offset " << offset << ", group " << group);
      cl_mem a = bufferWith(std::vector<float>(n + 1, -1.0f));
      setArgs(k, a, bb, cb, 0.5f);
      ASSERT_CL_OK(clEnqueueNDRangeKernel(queue, k, 1, &offset, &n, &group, 0, nullptr, nullptr));
      const std::vector<float> out = readBack<float>(a, n + 1);
      size_t wrong = 0;
      for (size_t i = 0; i <= n; ++i) {
        const float expected = i < offset || i >= offset + n ? -1.0f : float(i % 1000) + 0.5f * float(i % 7);
        wrong += out[i] != expected;
      }
      EXPECT_EQ(wrong, 0u);
    }
}

// printf output appears on the process's stdout once the command completed; vector conversions
// print each component.
TEST_F(NdRangeTest, PrintfWritesToStdout) {
  cl_kernel k = buildKernel(R"(
    kernel void say(int v) {
      if (get_global_id(0) != 2) return;
      printf("loom-printf %d %s %.2f %lu\n", v, "text", 1.5f, get_global_id(0));
      printf("%v4hlf %v2hld\n", (float4)(1.0f, 2.0f, 3.0f, 4.5f), (int2)(v, -v));
    })",
                            "say");
  ASSERT_NE(k, nullptr);
  setArgs(k, 42);
  char path[] = "/tmp/loom-cl-printf-XXXXXX";
  const int file = mkstemp(path);
  ASSERT_GE(file, 0);
  std::fflush(stdout);
  const int saved = dup(STDOUT_FILENO);
  dup2(file, STDOUT_FILENO);
  const size_t n = 4;
  const cl_int launched = clEnqueueNDRangeKernel(queue, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr);
  const cl_int finished = clFinish(queue);
  std::fflush(stdout);
  dup2(saved, STDOUT_FILENO);
  close(saved);
  close(file);
  std::ifstream in(path);
  const std::string printed((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  unlink(path);
  EXPECT_CL_OK(launched);
  EXPECT_CL_OK(finished);
  EXPECT_EQ(printed, "loom-printf 42 text 1.50 2\n1.000000,2.000000,3.000000,4.500000 42,-42\n");
}

// Independent queues driven from two host threads at once.
TEST_F(NdRangeTest, TwoHostThreadsEnqueueConcurrently) {
  cl_program p = build("kernel void add(global int* d, int v) { d[get_global_id(0)] += v; }");
  ASSERT_NE(p, nullptr);
  const size_t n = 1024;
  auto work = [&](int v, cl_mem m, cl_command_queue q, cl_kernel k, int* result) {
    setArgs(k, m, v);
    for (int i = 0; i < 50; ++i) clEnqueueNDRangeKernel(q, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr);
    std::vector<int> values(n);
    clEnqueueReadBuffer(q, m, CL_TRUE, 0, n * sizeof(int), values.data(), 0, nullptr, nullptr);
    *result = values[n - 1];
    for (int value : values)
      if (value != values[0]) *result = -1;
  };
  std::vector<int> zeros(n, 0);
  cl_mem m1 = bufferWith(zeros), m2 = bufferWith(zeros);
  cl_command_queue q1 = createQueue(0), q2 = createQueue(0);
  cl_kernel k1 = kernel(p, "add"), k2 = kernel(p, "add");
  int r1 = 0, r2 = 0;
  std::thread t1(work, 1, m1, q1, k1, &r1), t2(work, 3, m2, q2, k2, &r2);
  t1.join();
  t2.join();
  EXPECT_EQ(r1, 50);
  EXPECT_EQ(r2, 150);
}

}  // namespace
}  // namespace loom::test
