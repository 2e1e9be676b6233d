// OpenCL C's generic address space on the device: to_global, to_local, to_private and get_fence of
// pointers to program-scope, local and private variables, held in structs and unions, as
// OpenCL-CTS's generic_address_space suite uses them, and pointers cast back to their named space.
#include "cl_test_helpers.h"

namespace loom::test {
namespace {

// Per work-item, six answers: bit 0 to_global, bit 1 to_local, bit 2 to_private gave the pointer
// (not NULL), bits 3 and up get_fence; of a buffer element, a local variable and a private one
// through a struct, a program-scope variable, a local and a private one through a union.
constexpr const char* kSpaces = R"(
  global int counter = 1;
  typedef struct { global int* g; local int* l; private int* p; } named_t;
  typedef union { global int* g; local int* l; private int* p; } either_t;

  uint spaces(generic int* p) {
    return (to_global(p) != 0) | (to_local(p) != 0) << 1 | (to_private(p) != 0) << 2 | get_fence(p) << 3;
  }

  kernel void generic_spaces(global int* data, global uint* out) {
    local int shared_value;
    int mine = 3;
    size_t base = get_global_id(0) * 6;
    named_t named = {data + get_global_id(0), &shared_value, &mine};
    out[base + 0] = spaces(named.g);
    out[base + 1] = spaces(named.l);
    out[base + 2] = spaces(named.p);
    out[base + 3] = spaces(&counter);
    either_t either;
    either.l = &shared_value;
    out[base + 4] = spaces(either.l);
    either.p = &mine;
    out[base + 5] = spaces(either.p);
  }

  // A kernel that calls nothing, whose one private variable a generic pointer reaches.
  kernel void generic_private_scalar(global uint* out) {
    float mine = 3.0f;
    out[get_global_id(0)] = to_private(&mine) != 0;
  }

  // Generic pointers cast back to the space they point into reach the variables.
  kernel void generic_round_trips(global int* data, global int* out) {
    local int shared_value;
    int mine = 3;
    if (get_local_id(0) == 0) shared_value = 2;
    barrier(CLK_LOCAL_MEM_FENCE);
    generic int* p = &counter;
    int sum = *(global int*)p;
    p = &shared_value;
    sum += *(local int*)p * 10;
    p = &mine;
    sum += *(private int*)p * 100;
    p = data + get_global_id(0);
    sum += *(global int*)p * 1000;
    out[get_global_id(0)] = sum;
  })";

constexpr cl_uint kGlobal = 1, kLocal = 2, kPrivate = 4;
// OpenCL C's CLK_LOCAL_MEM_FENCE (1) and CLK_GLOBAL_MEM_FENCE (2), as spaces() shifts them.
constexpr cl_uint kLocalFence = 1 << 3, kGlobalFence = 2 << 3;

TEST_F(ClTest, GenericPointersTellGlobalLocalAndPrivateApart) {
  cl_kernel k = buildKernel(kSpaces, "generic_spaces");
  ASSERT_NE(k, nullptr);
  constexpr size_t kItems = 64, kGroupSize = 16;
  cl_mem data = bufferWith(std::vector<cl_int>(kItems, 0));
  cl_mem out = buffer(CL_MEM_READ_WRITE, kItems * 6 * sizeof(cl_uint));
  setArgs(k, data, out);
  ASSERT_NO_FATAL_FAILURE(run1d(k, kItems, &kGroupSize));
  // No fence names private memory; Loom answers with the global one, valid for any pointer.
  const std::vector<cl_uint> expected{kGlobal | kGlobalFence, kLocal | kLocalFence, kPrivate | kGlobalFence,
                                      kGlobal | kGlobalFence, kLocal | kLocalFence, kPrivate | kGlobalFence};
  const std::vector<cl_uint> answers = readBack<cl_uint>(out, kItems * 6);
  for (size_t item = 0; item < kItems; ++item)
    EXPECT_EQ(std::vector<cl_uint>(answers.begin() + item * 6, answers.begin() + (item + 1) * 6), expected) << "work-item " << item;
}

TEST_F(ClTest, GenericPointersToPrivateVariablesOfAKernelThatCallsNothingArePrivate) {
  cl_kernel k = buildKernel(kSpaces, "generic_private_scalar");
  ASSERT_NE(k, nullptr);
  constexpr size_t kItems = 64, kGroupSize = 16;
  cl_mem out = buffer(CL_MEM_READ_WRITE, kItems * sizeof(cl_uint));
  setArgs(k, out);
  ASSERT_NO_FATAL_FAILURE(run1d(k, kItems, &kGroupSize));
  EXPECT_EQ(readBack<cl_uint>(out, kItems), std::vector<cl_uint>(kItems, 1));
}

TEST_F(ClTest, GenericPointersCastBackReachTheirVariables) {
  cl_kernel k = buildKernel(kSpaces, "generic_round_trips");
  ASSERT_NE(k, nullptr);
  constexpr size_t kItems = 64, kGroupSize = 16;
  std::vector<cl_int> values(kItems);
  for (size_t i = 0; i < kItems; ++i) values[i] = static_cast<cl_int>(i);
  cl_mem data = bufferWith(values);
  cl_mem out = buffer(CL_MEM_READ_WRITE, kItems * sizeof(cl_int));
  setArgs(k, data, out);
  ASSERT_NO_FATAL_FAILURE(run1d(k, kItems, &kGroupSize));
  const std::vector<cl_int> sums = readBack<cl_int>(out, kItems);
  for (size_t i = 0; i < kItems; ++i) EXPECT_EQ(sums[i], 1 + 20 + 300 + 1000 * static_cast<cl_int>(i)) << "work-item " << i;
}

}  // namespace
}  // namespace loom::test
