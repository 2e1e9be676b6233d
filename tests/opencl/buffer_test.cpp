// Buffers: every valid flag combination and the invalid ones, USE/COPY/ALLOC_HOST_PTR, host
// access flags, sub-buffers, read/write/copy and their rectangular forms (checked byte for byte
// against a model), fill with every pattern size, map/unmap with map counts, migration,
// destructor callbacks and clCreateBufferWithProperties.
#include "cl_test_helpers.h"

#include <algorithm>
#include <numeric>

namespace loom::test {
namespace {

const char* const kBufferKernels = R"(
kernel void write_index(global int* d, int scale) { size_t i = get_global_id(0); d[i] = (int)i * scale; }
kernel void copy_ints(global const int* s, global int* d) { size_t i = get_global_id(0); d[i] = s[i]; }
)";

class BufferTest : public ClTest {
 protected:
  cl_kernel writeIndex() {
    if (!program) program = build(kBufferKernels);
    return program ? kernel(program, "write_index") : nullptr;
  }
  cl_kernel copyInts() {
    if (!program) program = build(kBufferKernels);
    return program ? kernel(program, "copy_ints") : nullptr;
  }
  cl_mem_flags memFlags(cl_mem m) {
    return infoScalar<cl_mem_flags>([&](size_t s, void* v, size_t* r) { return clGetMemObjectInfo(m, CL_MEM_FLAGS, s, v, r); });
  }
  void* hostPtr(cl_mem m) {
    return infoScalar<void*>([&](size_t s, void* v, size_t* r) { return clGetMemObjectInfo(m, CL_MEM_HOST_PTR, s, v, r); });
  }
  cl_uint mapCount(cl_mem m) {
    return infoScalar<cl_uint>([&](size_t s, void* v, size_t* r) { return clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, s, v, r); });
  }
  size_t memSize(cl_mem m) {
    return infoScalar<size_t>([&](size_t s, void* v, size_t* r) { return clGetMemObjectInfo(m, CL_MEM_SIZE, s, v, r); });
  }
  std::vector<uint8_t> bytes(cl_mem m, size_t size) { return readBack<uint8_t>(m, size); }
  size_t baseAlignment() { return deviceInfo<cl_uint>(CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8; }

  cl_program program = nullptr;
};

std::vector<uint8_t> pattern(size_t size, uint8_t seed) {
  std::vector<uint8_t> values(size);
  for (size_t i = 0; i < size; ++i) values[i] = uint8_t(seed + i * 7);
  return values;
}

TEST_F(BufferTest, EveryValidFlagCombinationCreatesAWorkingBuffer) {
  const cl_mem_flags access[] = {CL_MEM_READ_WRITE, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY};
  const cl_mem_flags hostPointer[] = {0, CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR, CL_MEM_COPY_HOST_PTR,
                                      CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR};
  const cl_mem_flags hostAccess[] = {0, CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_NO_ACCESS};
  const size_t size = 256;
  for (cl_mem_flags a : access)
    for (cl_mem_flags p : hostPointer)
      for (cl_mem_flags h : hostAccess) {
        const cl_mem_flags flags = a | p | h;
        SCOPED_TRACE("flags 0x" + [&] { std::ostringstream s; s << std::hex << flags; return s.str(); }());
        std::vector<uint8_t> host = pattern(size, uint8_t(flags));
        const bool withHost = p & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
        cl_int error = CL_SUCCESS;
        cl_mem m = clCreateBuffer(context, flags, size, withHost ? host.data() : nullptr, &error);
        ASSERT_CL_OK(error);
        EXPECT_EQ(memFlags(m), flags);
        EXPECT_EQ(memSize(m), size);
        EXPECT_EQ(hostPtr(m), (p & CL_MEM_USE_HOST_PTR) ? host.data() : nullptr);
        const bool hostReads = !(h & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS));
        const bool hostWrites = !(h & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS));
        if (withHost && hostReads) { EXPECT_EQ(bytes(m, size), host); }
        if (hostWrites) {
          const std::vector<uint8_t> fresh = pattern(size, 99);
          ASSERT_CL_OK(clEnqueueWriteBuffer(queue, m, CL_TRUE, 0, size, fresh.data(), 0, nullptr, nullptr));
          if (hostReads) { EXPECT_EQ(bytes(m, size), fresh); }
        }
        ASSERT_CL_OK(clFinish(queue));
        ASSERT_CL_OK(clReleaseMemObject(m));  // before `host` goes
      }
}

TEST_F(BufferTest, InvalidFlagCombinationsAreRejected) {
  int host[16] = {};
  struct Case {
    cl_mem_flags flags;
    size_t size;
    void* host;
    cl_int expected;
  };
  const Case cases[] = {
      {CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, nullptr, CL_INVALID_VALUE},
      {CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, nullptr, CL_INVALID_VALUE},
      {CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, 64, host, CL_INVALID_VALUE},
      {CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 64, host, CL_INVALID_VALUE},
      {CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY, 64, nullptr, CL_INVALID_VALUE},
      {CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, 64, nullptr, CL_INVALID_VALUE},
      {cl_mem_flags(1) << 40, 64, nullptr, CL_INVALID_VALUE},
      {CL_MEM_USE_HOST_PTR, 64, nullptr, CL_INVALID_HOST_PTR},
      {CL_MEM_COPY_HOST_PTR, 64, nullptr, CL_INVALID_HOST_PTR},
      {CL_MEM_READ_WRITE, 64, host, CL_INVALID_HOST_PTR},
      {CL_MEM_READ_WRITE, 0, nullptr, CL_INVALID_BUFFER_SIZE},
      {CL_MEM_READ_WRITE, size_t(deviceInfo<cl_ulong>(CL_DEVICE_MAX_MEM_ALLOC_SIZE)) + 1, nullptr, CL_INVALID_BUFFER_SIZE},
  };
  for (const Case& c : cases) {
    cl_int error = CL_SUCCESS;
    EXPECT_EQ(clCreateBuffer(context, c.flags, c.size, c.host, &error), nullptr) << std::hex << c.flags;
    EXPECT_CL(c.expected, error) << "flags 0x" << std::hex << c.flags << " size " << std::dec << c.size;
  }
}

// CL_MEM_USE_HOST_PTR: the map pointer is derived from host_ptr, and kernel results are in
// host_ptr once mapped; a blocking read and clFinish give the same values.
TEST_F(BufferTest, UseHostPtrIsCoherentAtMapAndAfterBlockingReadAndFinish) {
  const size_t n = 1024;
  std::vector<int> host(n, -1);
  cl_mem m = buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, n * sizeof(int), host.data());
  cl_kernel k = writeIndex();
  ASSERT_NE(k, nullptr);
  setArgs(k, m, 3);
  ASSERT_CL_OK(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
  std::vector<int> read(n, 0);
  ASSERT_CL_OK(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, n * sizeof(int), read.data(), 0, nullptr, nullptr));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(read[i], 3 * int(i)) << i;
  ASSERT_CL_OK(clFinish(queue));
  // Loom's CPU device shares memory with the host: the buffer is host_ptr itself.
  if (deviceInfo<cl_bool>(CL_DEVICE_HOST_UNIFIED_MEMORY)) {
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(host[i], 3 * int(i)) << "host_ptr after clFinish, " << i;
  }

  cl_int error = CL_SUCCESS;
  const size_t offset = 64 * sizeof(int);
  auto* mapped = static_cast<int*>(
      clEnqueueMapBuffer(queue, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, offset, 256 * sizeof(int), 0, nullptr, nullptr, &error));
  ASSERT_CL_OK(error);
  EXPECT_EQ(mapped, host.data() + 64);  // derived from host_ptr
  for (size_t i = 0; i < 256; ++i) ASSERT_EQ(mapped[i], 3 * int(i + 64)) << i;
  for (size_t i = 0; i < 256; ++i) mapped[i] = -int(i);
  ASSERT_CL_OK(clEnqueueUnmapMemObject(queue, m, mapped, 0, nullptr, nullptr));
  // After the unmap, kernels see what the host wrote through the mapping.
  cl_mem copy = buffer(CL_MEM_READ_WRITE, n * sizeof(int));
  cl_kernel c = copyInts();
  setArgs(c, m, copy);
  ASSERT_NO_FATAL_FAILURE(run1d(c, n));
  const std::vector<int> copied = readBack<int>(copy, n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(copied[i], (i >= 64 && i < 320) ? -int(i - 64) : 3 * int(i)) << i;
}

TEST_F(BufferTest, CopyHostPtrCopiesAtCreationOnly) {
  std::vector<int> host(64);
  std::iota(host.begin(), host.end(), 100);
  cl_mem m = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, host.size() * sizeof(int), host.data());
  std::fill(host.begin(), host.end(), 0);
  const std::vector<int> contents = readBack<int>(m, 64);
  for (int i = 0; i < 64; ++i) ASSERT_EQ(contents[i], 100 + i);
  EXPECT_EQ(hostPtr(m), nullptr);
  // And writes to the buffer do not reach the host array.
  cl_kernel k = writeIndex();
  setArgs(k, m, 1);
  ASSERT_NO_FATAL_FAILURE(run1d(k, 64));
  for (int value : host) ASSERT_EQ(value, 0);
}

TEST_F(BufferTest, AllocHostPtrBuffersMapAndSeeKernelWrites) {
  const size_t n = 512;
  cl_mem m = buffer(CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, n * sizeof(int));
  cl_kernel k = writeIndex();
  setArgs(k, m, 5);
  ASSERT_NO_FATAL_FAILURE(run1d(k, n));
  cl_int error = CL_SUCCESS;
  auto* mapped = static_cast<int*>(clEnqueueMapBuffer(queue, m, CL_TRUE, CL_MAP_READ, 0, n * sizeof(int), 0, nullptr, nullptr, &error));
  ASSERT_CL_OK(error);
  ASSERT_NE(mapped, nullptr);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(mapped[i], 5 * int(i));
  ASSERT_CL_OK(clEnqueueUnmapMemObject(queue, m, mapped, 0, nullptr, nullptr));
}

TEST_F(BufferTest, HostAccessFlagsForbidTheOtherHostAccesses) {
  const size_t size = 64;
  std::vector<uint8_t> data(size, 1);
  const size_t origin[3] = {0, 0, 0}, region[3] = {8, 2, 1};
  auto check = [&](cl_mem_flags hostFlag, bool readAllowed, bool writeAllowed) {
    SCOPED_TRACE(hostFlag);
    cl_mem m = buffer(CL_MEM_READ_WRITE | hostFlag, size);
    const cl_int readExpected = readAllowed ? CL_SUCCESS : CL_INVALID_OPERATION;
    const cl_int writeExpected = writeAllowed ? CL_SUCCESS : CL_INVALID_OPERATION;
    EXPECT_CL(readExpected, clEnqueueReadBuffer(queue, m, CL_TRUE, 0, size, data.data(), 0, nullptr, nullptr));
    EXPECT_CL(writeExpected, clEnqueueWriteBuffer(queue, m, CL_TRUE, 0, size, data.data(), 0, nullptr, nullptr));
    EXPECT_CL(readExpected, clEnqueueReadBufferRect(queue, m, CL_TRUE, origin, origin, region, 0, 0, 0, 0, data.data(), 0,
                                                    nullptr, nullptr));
    EXPECT_CL(writeExpected, clEnqueueWriteBufferRect(queue, m, CL_TRUE, origin, origin, region, 0, 0, 0, 0, data.data(), 0,
                                                      nullptr, nullptr));
    const std::pair<cl_map_flags, cl_int> maps[] = {{CL_MAP_READ, readExpected},
                                                     {CL_MAP_WRITE, writeExpected},
                                                     {CL_MAP_WRITE_INVALIDATE_REGION, writeExpected}};
    for (const auto& [mapFlags, expected] : maps) {
      cl_int error = CL_SUCCESS;
      void* mapped = clEnqueueMapBuffer(queue, m, CL_TRUE, mapFlags, 0, size, 0, nullptr, nullptr, &error);
      EXPECT_CL(expected, error) << "map flags " << mapFlags;
      if (expected == CL_SUCCESS) {
        EXPECT_NE(mapped, nullptr);
        if (mapped) { EXPECT_CL_OK(clEnqueueUnmapMemObject(queue, m, mapped, 0, nullptr, nullptr)); }
      } else {
        EXPECT_EQ(mapped, nullptr);
      }
    }
    // The device may still fill and copy it.
    const uint8_t value = 7;
    EXPECT_CL_OK(clEnqueueFillBuffer(queue, m, &value, 1, 0, size, 0, nullptr, nullptr));
  };
  check(CL_MEM_HOST_WRITE_ONLY, false, true);
  check(CL_MEM_HOST_READ_ONLY, true, false);
  check(CL_MEM_HOST_NO_ACCESS, false, false);
  ASSERT_CL_OK(clFinish(queue));
}

TEST_F(BufferTest, SubBufferAliasesItsParentRegion) {
  const size_t align = baseAlignment();
  const size_t parentSize = 4 * align;
  std::vector<int> host(parentSize / sizeof(int));
  std::iota(host.begin(), host.end(), 0);
  cl_mem parent = buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, parentSize, host.data());
  const cl_buffer_region region{align, 2 * align};
  cl_int error = CL_SUCCESS;
  cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &error);
  ASSERT_CL_OK(error);
  buffers.push_back(sub);
  EXPECT_EQ(infoScalar<cl_mem>([&](size_t s, void* v, size_t* r) { return clGetMemObjectInfo(sub, CL_MEM_ASSOCIATED_MEMOBJECT, s, v, r); }), parent);
  EXPECT_EQ(infoScalar<size_t>([&](size_t s, void* v, size_t* r) { return clGetMemObjectInfo(sub, CL_MEM_OFFSET, s, v, r); }), align);
  EXPECT_EQ(memSize(sub), 2 * align);
  // host_ptr + origin for a USE_HOST_PTR parent.
  EXPECT_EQ(hostPtr(sub), reinterpret_cast<char*>(host.data()) + align);
  EXPECT_EQ(infoScalar<cl_mem>([&](size_t s, void* v, size_t* r) { return clGetMemObjectInfo(parent, CL_MEM_ASSOCIATED_MEMOBJECT, s, v, r); }), nullptr);
  // Reads through the sub-buffer start at the origin.
  const size_t first = align / sizeof(int), count = 2 * align / sizeof(int);
  const std::vector<int> seen = readBack<int>(sub, count);
  for (size_t i = 0; i < count; ++i) ASSERT_EQ(seen[i], int(first + i));
  // A kernel on the sub-buffer writes the parent's middle only.
  cl_kernel k = writeIndex();
  setArgs(k, sub, -1);
  ASSERT_NO_FATAL_FAILURE(run1d(k, count));
  const std::vector<int> whole = readBack<int>(parent, host.size());
  for (size_t i = 0; i < whole.size(); ++i)
    ASSERT_EQ(whole[i], (i >= first && i < first + count) ? -int(i - first) : int(i)) << i;
  // The sub-buffer keeps working after the application released the parent.
  buffers.erase(std::find(buffers.begin(), buffers.end(), parent));
  ASSERT_CL_OK(clReleaseMemObject(parent));
  const int value = 42;
  ASSERT_CL_OK(clEnqueueWriteBuffer(queue, sub, CL_TRUE, sizeof(int), sizeof(value), &value, 0, nullptr, nullptr));
  const std::vector<int> after = readBack<int>(sub, 2);
  EXPECT_EQ(after[0], 0);
  EXPECT_EQ(after[1], 42);
  if (deviceInfo<cl_bool>(CL_DEVICE_HOST_UNIFIED_MEMORY)) {
    EXPECT_EQ(host[first + 1], 42);  // zero-copy USE_HOST_PTR
  }
}

TEST_F(BufferTest, SubBufferFlagsInheritAndMayNotWiden) {
  const size_t align = baseAlignment();
  std::vector<uint8_t> host(2 * align, 3);
  cl_mem parent = buffer(CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_COPY_HOST_PTR, host.size(), host.data());
  const cl_buffer_region region{0, align};
  cl_int error = CL_SUCCESS;
  cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &error);
  ASSERT_CL_OK(error);
  buffers.push_back(sub);
  // Access and host access are inherited when not given; host pointer flags always are.
  EXPECT_EQ(memFlags(sub), cl_mem_flags(CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_COPY_HOST_PTR));
  EXPECT_CL(CL_INVALID_OPERATION, clEnqueueWriteBuffer(queue, sub, CL_TRUE, 0, 4, host.data(), 0, nullptr, nullptr));
  // Widening the parent's access is invalid.
  for (cl_mem_flags widened : {cl_mem_flags(CL_MEM_READ_WRITE), cl_mem_flags(CL_MEM_WRITE_ONLY), cl_mem_flags(CL_MEM_HOST_WRITE_ONLY)}) {
    EXPECT_EQ(clCreateSubBuffer(parent, widened, CL_BUFFER_CREATE_TYPE_REGION, &region, &error), nullptr);
    EXPECT_CL(CL_INVALID_VALUE, error) << widened;
  }
  // Host pointer flags cannot be given.
  EXPECT_EQ(clCreateSubBuffer(parent, CL_MEM_COPY_HOST_PTR, CL_BUFFER_CREATE_TYPE_REGION, &region, &error), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, error);
  // Narrowing is allowed: a read-write parent gives a write-only, host-no-access sub-buffer.
  cl_mem rw = buffer(CL_MEM_READ_WRITE, 2 * align);
  cl_mem narrow = clCreateSubBuffer(rw, CL_MEM_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS, CL_BUFFER_CREATE_TYPE_REGION, &region, &error);
  ASSERT_CL_OK(error);
  buffers.push_back(narrow);
  EXPECT_EQ(memFlags(narrow), cl_mem_flags(CL_MEM_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS));
}

TEST_F(BufferTest, SubBufferRejectsBadRegions) {
  const size_t align = baseAlignment();
  cl_mem parent = buffer(CL_MEM_READ_WRITE, 4 * align);
  cl_int error = CL_SUCCESS;
  const cl_buffer_region misaligned{1, align};
  EXPECT_EQ(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &misaligned, &error), nullptr);
  EXPECT_CL(CL_MISALIGNED_SUB_BUFFER_OFFSET, error);
  const cl_buffer_region halfAligned{align / 2, align};
  EXPECT_EQ(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &halfAligned, &error), nullptr);
  EXPECT_CL(CL_MISALIGNED_SUB_BUFFER_OFFSET, error);
  const cl_buffer_region outside{3 * align, 2 * align};
  EXPECT_EQ(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &outside, &error), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, error);
  const cl_buffer_region empty{0, 0};
  EXPECT_EQ(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &empty, &error), nullptr);
  EXPECT_CL(CL_INVALID_BUFFER_SIZE, error);
  const cl_buffer_region fine{align, align};
  EXPECT_EQ(clCreateSubBuffer(parent, 0, 0x7777, &fine, &error), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, error);
  EXPECT_EQ(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, nullptr, &error), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, error);
  // A sub-buffer of a sub-buffer.
  cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &fine, &error);
  ASSERT_CL_OK(error);
  buffers.push_back(sub);
  const cl_buffer_region inner{0, align / 2};
  EXPECT_EQ(clCreateSubBuffer(sub, 0, CL_BUFFER_CREATE_TYPE_REGION, &inner, &error), nullptr);
  EXPECT_CL(CL_INVALID_MEM_OBJECT, error);
}

TEST_F(BufferTest, ReadWriteAndCopyWithOffsets) {
  const std::vector<uint8_t> initial = pattern(1024, 1);
  cl_mem a = bufferWith(initial);
  cl_mem b = buffer(CL_MEM_READ_WRITE, 1024);
  const uint8_t zero = 0;
  ASSERT_CL_OK(clEnqueueFillBuffer(queue, b, &zero, 1, 0, 1024, 0, nullptr, nullptr));
  const std::vector<uint8_t> patch = pattern(100, 200);
  ASSERT_CL_OK(clEnqueueWriteBuffer(queue, a, CL_TRUE, 13, patch.size(), patch.data(), 0, nullptr, nullptr));
  ASSERT_CL_OK(clEnqueueCopyBuffer(queue, a, b, 10, 500, 300, 0, nullptr, nullptr));
  std::vector<uint8_t> expectedA = initial;
  std::copy(patch.begin(), patch.end(), expectedA.begin() + 13);
  std::vector<uint8_t> expectedB(1024, 0);
  std::copy(expectedA.begin() + 10, expectedA.begin() + 310, expectedB.begin() + 500);
  EXPECT_EQ(bytes(a, 1024), expectedA);
  EXPECT_EQ(bytes(b, 1024), expectedB);
  std::vector<uint8_t> part(37, 0xee);
  ASSERT_CL_OK(clEnqueueReadBuffer(queue, a, CL_TRUE, 900, part.size(), part.data(), 0, nullptr, nullptr));
  EXPECT_TRUE(std::equal(part.begin(), part.end(), expectedA.begin() + 900));
  // Out of range and empty transfers.
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueReadBuffer(queue, a, CL_TRUE, 1000, 25, part.data(), 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueWriteBuffer(queue, a, CL_TRUE, 0, 0, part.data(), 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueReadBuffer(queue, a, CL_TRUE, 0, 4, nullptr, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueCopyBuffer(queue, a, b, 1000, 0, 100, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueCopyBuffer(queue, a, b, 0, 0, 0, 0, nullptr, nullptr));
}

// The CPU streams copies of 16 MiB and more: sizes on both sides of that, at buffer offsets and
// from host pointers that are not 16-byte aligned, with tails that are not whole 128-byte blocks.
TEST_F(BufferTest, LargeWritesAndReadsAtOffsetsAreExact) {
  const size_t threshold = size_t(16) << 20;
  const size_t capacity = threshold + 4096;
  cl_mem m = buffer(CL_MEM_READ_WRITE, capacity);
  std::vector<uint8_t> host(capacity + 64);
  for (size_t i = 0; i < host.size(); ++i) host[i] = uint8_t(i * 131 + (i >> 12));
  const struct {
    size_t size, bufferOffset, hostOffset;
  } cases[] = {{threshold - 1, 0, 0}, {threshold, 0, 0}, {threshold, 5, 3}, {threshold + 77, 4019, 13}, {threshold + 128, 64, 1}};
  for (const auto& c : cases) {
    SCOPED_TRACE(testing::Message() << c.size << " bytes at buffer offset " << c.bufferOffset << ", host offset " << c.hostOffset);
    const uint8_t zero = 0;
    ASSERT_CL_OK(clEnqueueFillBuffer(queue, m, &zero, 1, 0, capacity, 0, nullptr, nullptr));
    ASSERT_CL_OK(clEnqueueWriteBuffer(queue, m, CL_TRUE, c.bufferOffset, c.size, host.data() + c.hostOffset, 0, nullptr, nullptr));
    std::vector<uint8_t> expected(capacity, 0);
    std::copy_n(host.begin() + c.hostOffset, c.size, expected.begin() + c.bufferOffset);
    EXPECT_TRUE(bytes(m, capacity) == expected);
    std::vector<uint8_t> back(c.size + 64, 0xee);
    ASSERT_CL_OK(clEnqueueReadBuffer(queue, m, CL_TRUE, c.bufferOffset, c.size, back.data() + 7, 0, nullptr, nullptr));
    EXPECT_TRUE(std::equal(back.begin() + 7, back.begin() + 7 + c.size, host.begin() + c.hostOffset));
    EXPECT_EQ(back[6], 0xee);
    EXPECT_EQ(back[7 + c.size], 0xee);
  }
}

TEST_F(BufferTest, LargeCopiesBetweenBuffersAreExact) {
  const size_t size = (size_t(16) << 20) + 333;
  std::vector<uint8_t> values(size + 100);
  for (size_t i = 0; i < values.size(); ++i) values[i] = uint8_t(i * 7 + (i >> 16));
  cl_mem source = bufferWith(values);
  cl_mem destination = buffer(CL_MEM_READ_WRITE, size + 100);
  ASSERT_CL_OK(clEnqueueCopyBuffer(queue, source, destination, 9, 3, size, 0, nullptr, nullptr));
  const std::vector<uint8_t> copied = bytes(destination, size + 100);
  EXPECT_TRUE(std::equal(copied.begin() + 3, copied.begin() + 3 + size, values.begin() + 9));
}

TEST_F(BufferTest, OverlappingCopiesAreCopyOverlap) {
  const size_t align = baseAlignment();
  cl_mem m = bufferWith(pattern(4 * align, 5));
  EXPECT_CL(CL_MEM_COPY_OVERLAP, clEnqueueCopyBuffer(queue, m, m, 0, 10, 20, 0, nullptr, nullptr));
  EXPECT_CL(CL_MEM_COPY_OVERLAP, clEnqueueCopyBuffer(queue, m, m, 30, 10, 21, 0, nullptr, nullptr));
  // Adjacent regions of one buffer do not overlap.
  EXPECT_CL_OK(clEnqueueCopyBuffer(queue, m, m, 0, 20, 20, 0, nullptr, nullptr));
  // Two sub-buffers of one buffer whose regions overlap in the parent.
  const cl_buffer_region r1{0, 2 * align}, r2{align, 2 * align};
  cl_int error = CL_SUCCESS;
  cl_mem s1 = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r1, &error);
  ASSERT_CL_OK(error);
  buffers.push_back(s1);
  cl_mem s2 = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r2, &error);
  ASSERT_CL_OK(error);
  buffers.push_back(s2);
  EXPECT_CL(CL_MEM_COPY_OVERLAP, clEnqueueCopyBuffer(queue, s1, s2, align, 0, 16, 0, nullptr, nullptr));
  EXPECT_CL_OK(clEnqueueCopyBuffer(queue, s1, s2, 0, 0, 16, 0, nullptr, nullptr));
  ASSERT_CL_OK(clFinish(queue));
}

// The model of a rectangular copy: region bytes from (origin, pitches) in `from` to `to`.
void copyRectModel(uint8_t* to, const size_t* toOrigin, size_t toRow, size_t toSlice, const uint8_t* from,
                   const size_t* fromOrigin, size_t fromRow, size_t fromSlice, const size_t* region) {
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y)
      for (size_t x = 0; x < region[0]; ++x)
        to[(toOrigin[2] + z) * toSlice + (toOrigin[1] + y) * toRow + toOrigin[0] + x] =
            from[(fromOrigin[2] + z) * fromSlice + (fromOrigin[1] + y) * fromRow + fromOrigin[0] + x];
}

TEST_F(BufferTest, RectangularTransfersAreByteExact) {
  const size_t bufferSize = 1024;
  const std::vector<uint8_t> background = pattern(bufferSize, 11);
  cl_mem m = bufferWith(background);
  std::vector<uint8_t> model = background;

  // Write: host rectangle (pitches 10 and 40) to buffer rectangle (pitches 16 and 160).
  const std::vector<uint8_t> host = pattern(200, 77);
  const size_t region[3] = {5, 3, 2}, bufferOrigin[3] = {2, 1, 1}, hostOrigin[3] = {1, 1, 0};
  ASSERT_CL_OK(clEnqueueWriteBufferRect(queue, m, CL_TRUE, bufferOrigin, hostOrigin, region, 16, 160, 10, 40, host.data(), 0,
                                        nullptr, nullptr));
  copyRectModel(model.data(), bufferOrigin, 16, 160, host.data(), hostOrigin, 10, 40, region);
  ASSERT_EQ(bytes(m, bufferSize), model);

  // Read: buffer rectangle (pitches 32 and 256) to a host rectangle (pitches 7 and 28); bytes
  // outside the rectangle stay untouched.
  std::vector<uint8_t> out(120, 0xab), outModel(120, 0xab);
  const size_t readRegion[3] = {6, 4, 3}, readBufferOrigin[3] = {3, 2, 1}, readHostOrigin[3] = {1, 0, 1};
  ASSERT_CL_OK(clEnqueueReadBufferRect(queue, m, CL_TRUE, readBufferOrigin, readHostOrigin, readRegion, 32, 256, 7, 28,
                                       out.data(), 0, nullptr, nullptr));
  copyRectModel(outModel.data(), readHostOrigin, 7, 28, model.data(), readBufferOrigin, 32, 256, readRegion);
  EXPECT_EQ(out, outModel);

  // Zero pitches default to region[0] and region[1] * row pitch.
  std::vector<uint8_t> packed(6 * 4 * 3, 0), packedModel(6 * 4 * 3, 0);
  const size_t zero[3] = {0, 0, 0};
  ASSERT_CL_OK(clEnqueueReadBufferRect(queue, m, CL_TRUE, readBufferOrigin, zero, readRegion, 32, 256, 0, 0, packed.data(),
                                       0, nullptr, nullptr));
  copyRectModel(packedModel.data(), zero, 6, 24, model.data(), readBufferOrigin, 32, 256, readRegion);
  EXPECT_EQ(packed, packedModel);

  // Copy between buffers with different pitches, and within one buffer without overlap.
  cl_mem other = bufferWith(pattern(bufferSize, 200));
  std::vector<uint8_t> otherModel = pattern(bufferSize, 200);
  const size_t copyRegion[3] = {4, 3, 2}, srcOrigin[3] = {1, 2, 1}, dstOrigin[3] = {5, 0, 2};
  ASSERT_CL_OK(clEnqueueCopyBufferRect(queue, m, other, srcOrigin, dstOrigin, copyRegion, 16, 128, 24, 96, 0, nullptr, nullptr));
  copyRectModel(otherModel.data(), dstOrigin, 24, 96, model.data(), srcOrigin, 16, 128, copyRegion);
  EXPECT_EQ(bytes(other, bufferSize), otherModel);
  const size_t sameSrc[3] = {0, 0, 0}, sameDst[3] = {8, 0, 0};
  ASSERT_CL_OK(clEnqueueCopyBufferRect(queue, m, m, sameSrc, sameDst, copyRegion, 16, 64, 16, 64, 0, nullptr, nullptr));
  std::vector<uint8_t> before = model;
  copyRectModel(model.data(), sameDst, 16, 64, before.data(), sameSrc, 16, 64, copyRegion);
  EXPECT_EQ(bytes(m, bufferSize), model);
}

TEST_F(BufferTest, RectangularTransfersRejectBadPitchesAndRegions) {
  cl_mem m = buffer(CL_MEM_READ_WRITE, 256);
  std::vector<uint8_t> host(256);
  const size_t origin[3] = {0, 0, 0}, region[3] = {8, 2, 2};
  // Row pitch below region[0].
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueReadBufferRect(queue, m, CL_TRUE, origin, origin, region, 4, 0, 0, 0, host.data(), 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueWriteBufferRect(queue, m, CL_TRUE, origin, origin, region, 0, 0, 4, 0, host.data(), 0, nullptr, nullptr));
  // Slice pitch below region[1] * row pitch, or not a multiple of it.
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueReadBufferRect(queue, m, CL_TRUE, origin, origin, region, 8, 8, 0, 0, host.data(), 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueReadBufferRect(queue, m, CL_TRUE, origin, origin, region, 8, 20, 0, 0, host.data(), 0, nullptr, nullptr));
  // A region of zero, and one beyond the buffer.
  const size_t empty[3] = {8, 0, 1}, far[3] = {0, 0, 20};
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueReadBufferRect(queue, m, CL_TRUE, origin, origin, empty, 0, 0, 0, 0, host.data(), 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueReadBufferRect(queue, m, CL_TRUE, far, origin, region, 0, 0, 0, 0, host.data(), 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueReadBufferRect(queue, m, CL_TRUE, origin, origin, region, 0, 0, 0, 0, nullptr, 0, nullptr, nullptr));
  // Overlapping rectangles in one buffer.
  const size_t src[3] = {0, 0, 0}, dst[3] = {4, 1, 0};
  EXPECT_CL(CL_MEM_COPY_OVERLAP, clEnqueueCopyBufferRect(queue, m, m, src, dst, region, 16, 64, 16, 64, 0, nullptr, nullptr));
}

TEST_F(BufferTest, FillWritesEveryPatternSizeExactly) {
  const size_t size = 2048;
  cl_mem m = buffer(CL_MEM_READ_WRITE, size);
  for (size_t patternSize = 1; patternSize <= 128; patternSize *= 2) {
    SCOPED_TRACE(patternSize);
    const std::vector<uint8_t> background(size, 0xcd);
    ASSERT_CL_OK(clEnqueueWriteBuffer(queue, m, CL_TRUE, 0, size, background.data(), 0, nullptr, nullptr));
    const std::vector<uint8_t> fill = pattern(patternSize, uint8_t(patternSize));
    const size_t offset = 3 * patternSize, length = 5 * patternSize;
    ASSERT_CL_OK(clEnqueueFillBuffer(queue, m, fill.data(), patternSize, offset, length, 0, nullptr, nullptr));
    std::vector<uint8_t> model = background;
    for (size_t i = 0; i < length; ++i) model[offset + i] = fill[i % patternSize];
    EXPECT_EQ(bytes(m, size), model);
  }
  const uint32_t value = 1;
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueFillBuffer(queue, m, &value, 3, 0, 12, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueFillBuffer(queue, m, &value, 256, 0, 512, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueFillBuffer(queue, m, &value, 0, 0, 16, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueFillBuffer(queue, m, &value, 4, 2, 16, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueFillBuffer(queue, m, &value, 4, 0, 14, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueFillBuffer(queue, m, nullptr, 4, 0, 16, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueFillBuffer(queue, m, &value, 4, size, 4, 0, nullptr, nullptr));
}

TEST_F(BufferTest, MapAndUnmapCountMappings) {
  std::vector<int> initial(256);
  std::iota(initial.begin(), initial.end(), 0);
  cl_mem m = bufferWith(initial);
  EXPECT_EQ(mapCount(m), 0u);
  cl_int error = CL_SUCCESS;
  cl_event mapped = nullptr;
  auto* low = static_cast<int*>(clEnqueueMapBuffer(queue, m, CL_FALSE, CL_MAP_READ, 0, 64 * sizeof(int), 0, nullptr, &mapped, &error));
  ASSERT_CL_OK(error);
  track(mapped);
  ASSERT_CL_OK(clWaitForEvents(1, &mapped));
  cl_command_type type = 0;
  ASSERT_CL_OK(clGetEventInfo(mapped, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, nullptr));
  EXPECT_EQ(type, cl_command_type(CL_COMMAND_MAP_BUFFER));
  auto* high = static_cast<int*>(
      clEnqueueMapBuffer(queue, m, CL_TRUE, CL_MAP_WRITE, 128 * sizeof(int), 64 * sizeof(int), 0, nullptr, nullptr, &error));
  ASSERT_CL_OK(error);
  EXPECT_EQ(mapCount(m), 2u);
  for (int i = 0; i < 64; ++i) ASSERT_EQ(low[i], i);
  for (int i = 0; i < 64; ++i) high[i] = 1000 + i;
  // A pointer that is not a mapping of this buffer.
  int notMapped = 0;
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueUnmapMemObject(queue, m, &notMapped, 0, nullptr, nullptr));
  cl_event unmapped = nullptr;
  ASSERT_CL_OK(clEnqueueUnmapMemObject(queue, m, high, 0, nullptr, &unmapped));
  track(unmapped);
  ASSERT_CL_OK(clWaitForEvents(1, &unmapped));
  ASSERT_CL_OK(clGetEventInfo(unmapped, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, nullptr));
  EXPECT_EQ(type, cl_command_type(CL_COMMAND_UNMAP_MEM_OBJECT));
  EXPECT_EQ(mapCount(m), 1u);
  ASSERT_CL_OK(clEnqueueUnmapMemObject(queue, m, low, 0, nullptr, nullptr));
  ASSERT_CL_OK(clFinish(queue));
  EXPECT_EQ(mapCount(m), 0u);
  // Unmapping twice is an error.
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueUnmapMemObject(queue, m, low, 0, nullptr, nullptr));
  const std::vector<int> contents = readBack<int>(m, 256);
  for (int i = 0; i < 256; ++i) ASSERT_EQ(contents[i], (i >= 128 && i < 192) ? 1000 + i - 128 : i) << i;
  // Write-invalidate mappings, and bad map arguments.
  auto* whole = static_cast<int*>(
      clEnqueueMapBuffer(queue, m, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 256 * sizeof(int), 0, nullptr, nullptr, &error));
  ASSERT_CL_OK(error);
  for (int i = 0; i < 256; ++i) whole[i] = -i;
  ASSERT_CL_OK(clEnqueueUnmapMemObject(queue, m, whole, 0, nullptr, nullptr));
  EXPECT_EQ(readBack<int>(m, 1, 200)[0], -200);
  EXPECT_EQ(clEnqueueMapBuffer(queue, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 16, 0, nullptr, nullptr, &error), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, error);
  EXPECT_EQ(clEnqueueMapBuffer(queue, m, CL_TRUE, CL_MAP_READ, 1000, 100, 0, nullptr, nullptr, &error), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, error);
  EXPECT_EQ(clEnqueueMapBuffer(queue, m, CL_TRUE, CL_MAP_READ, 0, 0, 0, nullptr, nullptr, &error), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, error);
}

TEST_F(BufferTest, MigrateKeepsContents) {
  std::vector<int> initial(64);
  std::iota(initial.begin(), initial.end(), 7);
  cl_mem a = bufferWith(initial), b = bufferWith(initial);
  const cl_mem both[] = {a, b};
  cl_event migrated = nullptr;
  ASSERT_CL_OK(clEnqueueMigrateMemObjects(queue, 2, both, CL_MIGRATE_MEM_OBJECT_HOST, 0, nullptr, &migrated));
  track(migrated);
  ASSERT_CL_OK(clWaitForEvents(1, &migrated));
  cl_command_type type = 0;
  ASSERT_CL_OK(clGetEventInfo(migrated, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, nullptr));
  EXPECT_EQ(type, cl_command_type(CL_COMMAND_MIGRATE_MEM_OBJECTS));
  ASSERT_CL_OK(clEnqueueMigrateMemObjects(queue, 1, &a, 0, 0, nullptr, nullptr));
  EXPECT_EQ(readBack<int>(a, 64), initial);
  EXPECT_EQ(readBack<int>(b, 64), initial);
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueMigrateMemObjects(queue, 0, both, 0, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueMigrateMemObjects(queue, 1, &a, cl_mem_migration_flags(1) << 20, 0, nullptr, nullptr));
  const cl_mem withBad[] = {a, reinterpret_cast<cl_mem>(queue)};
  EXPECT_CL(CL_INVALID_MEM_OBJECT, clEnqueueMigrateMemObjects(queue, 2, withBad, 0, 0, nullptr, nullptr));
}

TEST_F(BufferTest, DestructorCallbacksRunInReverseRegistrationOrder) {
  cl_int error = CL_SUCCESS;
  std::vector<int> host(64, 1);
  cl_mem m = clCreateBuffer(context, CL_MEM_USE_HOST_PTR, host.size() * sizeof(int), host.data(), &error);
  ASSERT_CL_OK(error);
  CallbackLog<Destroyed<cl_mem>> log;
  CallbackTag<Destroyed<cl_mem>> tags[] = {{&log, 1}, {&log, 2}, {&log, 3}};
  for (auto& tag : tags) ASSERT_CL_OK(clSetMemObjectDestructorCallback(m, logDestroyed<cl_mem>, &tag));
  EXPECT_CL(CL_INVALID_VALUE, clSetMemObjectDestructorCallback(m, nullptr, nullptr));
  ASSERT_CL_OK(clRetainMemObject(m));
  ASSERT_CL_OK(clReleaseMemObject(m));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(log.size(), 0u) << "callbacks ran while the buffer was still referenced";
  ASSERT_CL_OK(clReleaseMemObject(m));
  ASSERT_TRUE(eventually([&] { return log.size() == 3; }));
  EXPECT_EQ(log.calls(), (std::vector<Destroyed<cl_mem>>{{3, m}, {2, m}, {1, m}}));
}

TEST_F(BufferTest, CreateBufferWithPropertiesRoundTripsItsProperties) {
  std::vector<int> host(32);
  std::iota(host.begin(), host.end(), 3);
  const cl_mem_properties empty[] = {0};
  cl_int error = CL_SUCCESS;
  cl_mem m = clCreateBufferWithProperties(context, empty, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, host.size() * sizeof(int),
                                          host.data(), &error);
  ASSERT_CL_OK(error);
  buffers.push_back(m);
  EXPECT_EQ(readBack<int>(m, 32), host);
  EXPECT_EQ(memFlags(m), cl_mem_flags(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR));
  const auto properties = infoArray<cl_mem_properties>(
      [&](size_t s, void* v, size_t* r) { return clGetMemObjectInfo(m, CL_MEM_PROPERTIES, s, v, r); });
  EXPECT_EQ(properties, std::vector<cl_mem_properties>{0});
  // NULL properties: nothing to return.
  cl_mem plain = clCreateBufferWithProperties(context, nullptr, CL_MEM_READ_WRITE, 64, nullptr, &error);
  ASSERT_CL_OK(error);
  buffers.push_back(plain);
  size_t size = 99;
  ASSERT_CL_OK(clGetMemObjectInfo(plain, CL_MEM_PROPERTIES, 0, nullptr, &size));
  EXPECT_EQ(size, 0u);
  const cl_mem_properties unknown[] = {0x7777, 1, 0};
  EXPECT_EQ(clCreateBufferWithProperties(context, unknown, CL_MEM_READ_WRITE, 64, nullptr, &error), nullptr);
  EXPECT_CL(CL_INVALID_PROPERTY, error);
}

TEST_F(BufferTest, ReportsTypeContextAndReferenceCount) {
  cl_mem m = buffer(CL_MEM_READ_WRITE, 128);
  EXPECT_EQ(infoScalar<cl_mem_object_type>([&](size_t s, void* v, size_t* r) { return clGetMemObjectInfo(m, CL_MEM_TYPE, s, v, r); }),
            cl_mem_object_type(CL_MEM_OBJECT_BUFFER));
  EXPECT_EQ(infoScalar<cl_context>([&](size_t s, void* v, size_t* r) { return clGetMemObjectInfo(m, CL_MEM_CONTEXT, s, v, r); }), context);
  EXPECT_EQ(infoScalar<cl_bool>([&](size_t s, void* v, size_t* r) { return clGetMemObjectInfo(m, CL_MEM_USES_SVM_POINTER, s, v, r); }),
            cl_bool(CL_FALSE));
  expectReferenceCounting(m, clGetMemObjectInfo, CL_MEM_REFERENCE_COUNT, clRetainMemObject, clReleaseMemObject);
  EXPECT_CL(CL_INVALID_VALUE, clGetMemObjectInfo(m, 0x7fff, 0, nullptr, nullptr));
  // A buffer of another context on this queue.
  cl_context other = createContext();
  cl_mem foreign = buffer(CL_MEM_READ_WRITE, 128, nullptr, other);
  int value = 0;
  EXPECT_CL(CL_INVALID_CONTEXT, clEnqueueReadBuffer(queue, foreign, CL_TRUE, 0, 4, &value, 0, nullptr, nullptr));
}

}  // namespace
}  // namespace loom::test
