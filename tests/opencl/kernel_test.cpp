// Kernels: argument information (-cl-kernel-arg-info), kernel and work-group queries,
// clCloneKernel with independent arguments, clCreateKernelsInProgram, and the error codes of
// clSetKernelArg and of launching with unset arguments.
#include "cl_test_helpers.h"

namespace loom::test {
namespace {

using KernelTest = ClTest;

const char* const kArgInfoKernel = R"(
kernel void described(global const float* restrict input, local int* scratch, constant uint4* table, float scale,
                      global volatile int* flags) {
  scratch[get_local_id(0)] = flags[0];
  flags[1] = (int)(input[0] * scale) + table[0].x + scratch[0];
}
)";

TEST_F(KernelTest, ArgumentInfoWithClKernelArgInfo) {
  cl_kernel k = buildKernel(kArgInfoKernel, "described", "-cl-std=CL3.0 -cl-kernel-arg-info");
  ASSERT_NE(k, nullptr);
  struct Expected {
    const char* name;
    const char* type;
    cl_kernel_arg_address_qualifier address;
    cl_kernel_arg_type_qualifier typeQualifier;
  };
  // Type names without qualifiers or whitespace; a constant-space pointer is CONST.
  const Expected expected[] = {
      {"input", "float*", CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT},
      {"scratch", "int*", CL_KERNEL_ARG_ADDRESS_LOCAL, CL_KERNEL_ARG_TYPE_NONE},
      {"table", "uint4*", CL_KERNEL_ARG_ADDRESS_CONSTANT, CL_KERNEL_ARG_TYPE_CONST},
      {"scale", "float", CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_TYPE_NONE},
      {"flags", "int*", CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_VOLATILE},
  };
  cl_uint count = 0;
  ASSERT_CL_OK(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof(count), &count, nullptr));
  ASSERT_EQ(count, std::size(expected));
  for (cl_uint i = 0; i < count; ++i) {
    SCOPED_TRACE(expected[i].name);
    auto text = [&](cl_kernel_arg_info name) {
      return infoString([&](size_t s, void* v, size_t* r) { return clGetKernelArgInfo(k, i, name, s, v, r); });
    };
    EXPECT_EQ(text(CL_KERNEL_ARG_NAME), expected[i].name);
    EXPECT_EQ(text(CL_KERNEL_ARG_TYPE_NAME), expected[i].type);
    EXPECT_EQ(infoScalar<cl_kernel_arg_address_qualifier>(
                  [&](size_t s, void* v, size_t* r) { return clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, s, v, r); }),
              expected[i].address);
    EXPECT_EQ(infoScalar<cl_kernel_arg_access_qualifier>(
                  [&](size_t s, void* v, size_t* r) { return clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, s, v, r); }),
              cl_kernel_arg_access_qualifier(CL_KERNEL_ARG_ACCESS_NONE));
    EXPECT_EQ(infoScalar<cl_kernel_arg_type_qualifier>(
                  [&](size_t s, void* v, size_t* r) { return clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_QUALIFIER, s, v, r); }),
              expected[i].typeQualifier);
  }
  size_t size = 0;
  EXPECT_CL(CL_INVALID_ARG_INDEX, clGetKernelArgInfo(k, count, CL_KERNEL_ARG_NAME, 0, nullptr, &size));
  EXPECT_CL(CL_INVALID_VALUE, clGetKernelArgInfo(k, 0, 0x7fff, 0, nullptr, &size));
}

// SPIR-V's VecTypeHint has no signedness: programs from source report the type as written, also
// through clCompileProgram and clLinkProgram.
TEST_F(KernelTest, VecTypeHintKeepsTheSourceSignedness) {
  const std::string source = R"(
    kernel __attribute__((vec_type_hint(uchar2))) void u8(global int* o) { o[0] = 1; }
    kernel __attribute__((vec_type_hint(char2))) void s8(global int* o) { o[0] = 1; }
    kernel __attribute__((vec_type_hint(ulong16))) void u64(global int* o) { o[0] = 1; }
    kernel __attribute__((vec_type_hint(uint))) void u32(global int* o) { o[0] = 1; }
    kernel __attribute__((vec_type_hint(float4))) void f32(global int* o) { o[0] = 1; }
  )";
  const std::pair<const char*, const char*> expected[] = {
      {"u8", "vec_type_hint(uchar2)"}, {"s8", "vec_type_hint(char2)"},  {"u64", "vec_type_hint(ulong16)"},
      {"u32", "vec_type_hint(uint)"},  {"f32", "vec_type_hint(float4)"}};
  auto attributes = [&](cl_program p, const char* name) {
    cl_kernel k = kernel(p, name);
    return infoString([&](size_t s, void* v, size_t* r) { return clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, s, v, r); });
  };
  cl_program built = build(source);
  ASSERT_NE(built, nullptr);
  cl_program object = sourceProgram(source);
  ASSERT_CL_OK(clCompileProgram(object, 1, &device, "", 0, nullptr, nullptr, nullptr, nullptr));
  cl_program linked = link({object});
  ASSERT_NE(linked, nullptr);
  for (const auto& [name, hint] : expected) {
    EXPECT_EQ(attributes(built, name), hint);
    EXPECT_EQ(attributes(linked, name), hint);
  }
}

TEST_F(KernelTest, KernelInfoQueries) {
  cl_program p = build(R"(
    kernel void plain(global int* o) { o[0] = 1; }
    kernel __attribute__((reqd_work_group_size(4, 2, 1))) void fixed(global int* o) { o[get_global_id(0)] = 2; }
  )");
  ASSERT_NE(p, nullptr);
  cl_kernel k = kernel(p, "fixed");
  EXPECT_EQ(infoString([&](size_t s, void* v, size_t* r) { return clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, s, v, r); }), "fixed");
  EXPECT_EQ(infoScalar<cl_uint>([&](size_t s, void* v, size_t* r) { return clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, s, v, r); }), 1u);
  EXPECT_EQ(infoScalar<cl_context>([&](size_t s, void* v, size_t* r) { return clGetKernelInfo(k, CL_KERNEL_CONTEXT, s, v, r); }), context);
  EXPECT_EQ(infoScalar<cl_program>([&](size_t s, void* v, size_t* r) { return clGetKernelInfo(k, CL_KERNEL_PROGRAM, s, v, r); }), p);
  const std::string attributes =
      infoString([&](size_t s, void* v, size_t* r) { return clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, s, v, r); });
  EXPECT_NE(attributes.find("reqd_work_group_size(4,2,1)"), std::string::npos) << attributes;
  expectReferenceCounting(k, clGetKernelInfo, CL_KERNEL_REFERENCE_COUNT, clRetainKernel, clReleaseKernel);
  EXPECT_CL(CL_INVALID_VALUE, clGetKernelInfo(k, 0x7fff, 0, nullptr, nullptr));
  cl_int error = CL_SUCCESS;
  EXPECT_EQ(clCreateKernel(p, "missing", &error), nullptr);
  EXPECT_CL(CL_INVALID_KERNEL_NAME, error);
  EXPECT_EQ(clCreateKernel(p, nullptr, &error), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, error);
  cl_program unbuilt = sourceProgram("kernel void k() {}");
  EXPECT_EQ(clCreateKernel(unbuilt, "k", &error), nullptr);
  EXPECT_CL(CL_INVALID_PROGRAM_EXECUTABLE, error);
}

TEST_F(KernelTest, WorkGroupInfo) {
  cl_program p = build(R"(
    kernel void plain(global int* o) { o[0] = 1; }
    kernel __attribute__((reqd_work_group_size(4, 2, 1))) void fixed(global int* o) { o[get_global_id(0)] = 2; }
    kernel void tiled(global int* o, local int* extra) {
      local int tile[64];
      tile[get_local_id(0)] = o[get_global_id(0)];
      extra[get_local_id(0)] = 1;
      barrier(CLK_LOCAL_MEM_FENCE);
      o[get_global_id(0)] = tile[63 - get_local_id(0)] + extra[0];
    }
  )");
  ASSERT_NE(p, nullptr);
  auto query = [&](cl_kernel k, cl_kernel_work_group_info name) {
    return [this, k, name](size_t s, void* v, size_t* r) { return clGetKernelWorkGroupInfo(k, device, name, s, v, r); };
  };
  cl_kernel plain = kernel(p, "plain"), fixed = kernel(p, "fixed"), tiled = kernel(p, "tiled");
  const size_t groupSize = infoScalar<size_t>(query(plain, CL_KERNEL_WORK_GROUP_SIZE));
  EXPECT_GE(groupSize, 1u);
  EXPECT_LE(groupSize, deviceInfo<size_t>(CL_DEVICE_MAX_WORK_GROUP_SIZE));
  EXPECT_EQ(infoArray<size_t>(query(plain, CL_KERNEL_COMPILE_WORK_GROUP_SIZE)), (std::vector<size_t>{0, 0, 0}));
  EXPECT_EQ(infoArray<size_t>(query(fixed, CL_KERNEL_COMPILE_WORK_GROUP_SIZE)), (std::vector<size_t>{4, 2, 1}));
  EXPECT_GE(infoScalar<size_t>(query(plain, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE)), 1u);
  infoScalar<cl_ulong>(query(plain, CL_KERNEL_PRIVATE_MEM_SIZE));
  // Static local memory, plus local arguments once their size is set (OpenCL 3.0, 5.9.4:
  // CL_KERNEL_LOCAL_MEM_SIZE includes "local memory to be allocated for arguments to the kernel
  // declared as pointers with the __local address qualifier and whose size is specified with clSetKernelArg").
  const cl_ulong staticLocal = infoScalar<cl_ulong>(query(tiled, CL_KERNEL_LOCAL_MEM_SIZE));
  EXPECT_GE(staticLocal, 64 * sizeof(int));
  ASSERT_CL_OK(clSetKernelArg(tiled, 1, 4096, nullptr));
  EXPECT_GE(infoScalar<cl_ulong>(query(tiled, CL_KERNEL_LOCAL_MEM_SIZE)), 64 * sizeof(int) + 4096);
  // CL_KERNEL_GLOBAL_WORK_SIZE is for custom devices and built-in kernels.
  size_t global[3];
  EXPECT_CL(CL_INVALID_VALUE, clGetKernelWorkGroupInfo(plain, device, CL_KERNEL_GLOBAL_WORK_SIZE, sizeof(global), global, nullptr));
  // The device may be omitted: the program has one.
  size_t omitted = 0;
  EXPECT_CL_OK(clGetKernelWorkGroupInfo(plain, nullptr, CL_KERNEL_WORK_GROUP_SIZE, sizeof(omitted), &omitted, nullptr));
  EXPECT_EQ(omitted, groupSize);
  EXPECT_CL(CL_INVALID_VALUE, clGetKernelWorkGroupInfo(plain, device, 0x7fff, 0, nullptr, nullptr));
}

TEST_F(KernelTest, CloneKeepsArgumentsIndependently) {
  cl_kernel k = buildKernel("kernel void put(global int* o, int v) { o[get_global_id(0)] = v; }", "put");
  ASSERT_NE(k, nullptr);
  cl_mem a = buffer(CL_MEM_READ_WRITE, 16 * sizeof(int)), b = buffer(CL_MEM_READ_WRITE, 16 * sizeof(int));
  setArgs(k, a, 10);
  cl_int error = CL_SUCCESS;
  cl_kernel clone = clCloneKernel(k, &error);
  ASSERT_CL_OK(error);
  kernels.push_back(clone);
  EXPECT_EQ(infoString([&](size_t s, void* v, size_t* r) { return clGetKernelInfo(clone, CL_KERNEL_FUNCTION_NAME, s, v, r); }), "put");
  EXPECT_EQ(infoScalar<cl_uint>([&](size_t s, void* v, size_t* r) { return clGetKernelInfo(clone, CL_KERNEL_REFERENCE_COUNT, s, v, r); }), 1u);
  // The clone starts with the original's arguments: it runs without setting any.
  ASSERT_NO_FATAL_FAILURE(run1d(clone, 16));
  for (int value : readBack<int>(a, 16)) ASSERT_EQ(value, 10);
  // Changing the clone's arguments leaves the original's alone, and the other way round.
  setArgs(clone, b, 20);
  const int thirty = 30;
  ASSERT_CL_OK(clSetKernelArg(k, 1, sizeof(thirty), &thirty));
  const size_t n = 16;
  ASSERT_CL_OK(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(queue, clone, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
  for (int value : readBack<int>(a, 16)) ASSERT_EQ(value, 30);
  for (int value : readBack<int>(b, 16)) ASSERT_EQ(value, 20);
  // Releasing the original leaves the clone working.
  kernels.erase(std::find(kernels.begin(), kernels.end(), k));
  ASSERT_CL_OK(clReleaseKernel(k));
  const int forty = 40;
  ASSERT_CL_OK(clSetKernelArg(clone, 1, sizeof(forty), &forty));
  ASSERT_NO_FATAL_FAILURE(run1d(clone, 16));
  for (int value : readBack<int>(b, 16)) ASSERT_EQ(value, 40);
}

TEST_F(KernelTest, CreateKernelsInProgramMakesEveryKernel) {
  cl_program p = build(R"(
    kernel void one(global int* o) { o[0] = 1; }
    kernel void two(global int* o) { o[0] = 2; }
    void helper(global int* o) { o[1] = 5; }
    kernel void three(global int* o) { o[0] = 3; helper(o); }
  )");
  ASSERT_NE(p, nullptr);
  cl_uint count = 0;
  ASSERT_CL_OK(clCreateKernelsInProgram(p, 0, nullptr, &count));
  ASSERT_EQ(count, 3u);
  cl_kernel tooFew[2] = {};
  EXPECT_CL(CL_INVALID_VALUE, clCreateKernelsInProgram(p, 2, tooFew, nullptr));
  cl_kernel all[3] = {};
  ASSERT_CL_OK(clCreateKernelsInProgram(p, 3, all, &count));
  std::set<std::string> names;
  cl_mem out = buffer(CL_MEM_READ_WRITE, 2 * sizeof(int));
  for (cl_kernel k : all) {
    ASSERT_NE(k, nullptr);
    kernels.push_back(k);
    const std::string name = infoString([&](size_t s, void* v, size_t* r) { return clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, s, v, r); });
    names.insert(name);
    setArgs(k, out);
    ASSERT_NO_FATAL_FAILURE(run1d(k, 1));
    const int expected = name == "one" ? 1 : name == "two" ? 2 : 3;
    EXPECT_EQ(readBack<int>(out, 1)[0], expected) << name;
  }
  EXPECT_EQ(names, (std::set<std::string>{"one", "two", "three"}));
}

TEST_F(KernelTest, SetKernelArgRejectsBadIndexSizeAndValue) {
  cl_kernel k = buildKernel("kernel void args(global int* b, int v, local int* l) { l[0] = v; b[0] = l[0]; }", "args");
  ASSERT_NE(k, nullptr);
  cl_mem m = buffer(CL_MEM_READ_WRITE, 64);
  const int value = 1;
  const cl_long wide = 1;
  EXPECT_CL(CL_INVALID_ARG_INDEX, clSetKernelArg(k, 3, sizeof(value), &value));
  EXPECT_CL(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 0, sizeof(int), &m));
  EXPECT_CL(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 1, sizeof(wide), &wide));
  EXPECT_CL(CL_INVALID_ARG_VALUE, clSetKernelArg(k, 1, sizeof(value), nullptr));
  // Local arguments take a size and no value.
  EXPECT_CL(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 2, 0, nullptr));
  EXPECT_CL(CL_INVALID_ARG_VALUE, clSetKernelArg(k, 2, 64, &value));
  // A handle that is not a memory object, and a buffer of another context.
  const cl_mem notMemory = reinterpret_cast<cl_mem>(queue);
  EXPECT_CL(CL_INVALID_MEM_OBJECT, clSetKernelArg(k, 0, sizeof(cl_mem), &notMemory));
  cl_context other = createContext();
  cl_mem foreign = buffer(CL_MEM_READ_WRITE, 64, nullptr, other);
  EXPECT_CL(CL_INVALID_MEM_OBJECT, clSetKernelArg(k, 0, sizeof(cl_mem), &foreign));
  // A null buffer is allowed.
  const cl_mem none = nullptr;
  EXPECT_CL_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &none));
  EXPECT_CL_OK(clSetKernelArg(k, 0, sizeof(cl_mem), nullptr));
  // Valid arguments run.
  setArgs(k, m, 77);
  ASSERT_CL_OK(clSetKernelArg(k, 2, 16, nullptr));
  ASSERT_NO_FATAL_FAILURE(run1d(k, 1));
  EXPECT_EQ(readBack<int>(m, 1)[0], 77);
}

TEST_F(KernelTest, LaunchingWithUnsetArgumentsIsInvalidKernelArgs) {
  cl_kernel k = buildKernel("kernel void two(global int* a, global int* b) { a[0] = b[0]; }", "two");
  ASSERT_NE(k, nullptr);
  const size_t one = 1;
  EXPECT_CL(CL_INVALID_KERNEL_ARGS, clEnqueueNDRangeKernel(queue, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr));
  cl_mem m = buffer(CL_MEM_READ_WRITE, 64);
  ASSERT_CL_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &m));
  EXPECT_CL(CL_INVALID_KERNEL_ARGS, clEnqueueNDRangeKernel(queue, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_KERNEL_ARGS, clEnqueueTask(queue, k, 0, nullptr, nullptr));
  ASSERT_CL_OK(clSetKernelArg(k, 1, sizeof(cl_mem), &m));
  EXPECT_CL_OK(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr));
}

// Local memory sizes are 64-bit end to end: 2^32 bytes must not wrap to 0 past the check.
TEST_F(KernelTest, LocalMemoryBeyondTheDevicesIsOutOfResources) {
  cl_kernel k = buildKernel("kernel void fill(global int* o, local int* l) { l[0] = 7; o[0] = l[0]; }", "fill");
  ASSERT_NE(k, nullptr);
  cl_mem out = buffer(CL_MEM_READ_WRITE, sizeof(int));
  ASSERT_CL_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &out));
  const size_t one = 1;
  const size_t limit = deviceInfo<cl_ulong>(CL_DEVICE_LOCAL_MEM_SIZE);
  for (size_t size : {limit + 1, size_t(1) << 32, size_t(1) << 62, SIZE_MAX}) {
    ASSERT_CL_OK(clSetKernelArg(k, 1, size, nullptr));
    EXPECT_CL(CL_OUT_OF_RESOURCES, clEnqueueNDRangeKernel(queue, k, 1, nullptr, &one, &one, 0, nullptr, nullptr)) << size;
  }
  // Static local memory past the device's, alone.
  cl_kernel big = buildKernel("kernel void big(global int* o) { local int t[16 * 1024 * 1024]; t[get_local_id(0)] = 1; "
                              "barrier(CLK_LOCAL_MEM_FENCE); o[0] = t[0]; }",
                              "big");
  ASSERT_NE(big, nullptr);
  ASSERT_CL_OK(clSetKernelArg(big, 0, sizeof(cl_mem), &out));
  EXPECT_CL(CL_OUT_OF_RESOURCES, clEnqueueNDRangeKernel(queue, big, 1, nullptr, &one, &one, 0, nullptr, nullptr));
  // Within the limit the kernel runs.
  ASSERT_CL_OK(clSetKernelArg(k, 1, sizeof(int), nullptr));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &one, &one, 0, nullptr, nullptr));
  EXPECT_EQ(readBack<int>(out, 1), std::vector<int>{7});
}

// Arguments are captured at enqueue: setting them again changes later launches only.
TEST_F(KernelTest, ArgumentsAreCapturedAtEnqueue) {
  cl_kernel k = buildKernel("kernel void put(global int* o, int v) { o[get_global_id(0)] = v; }", "put");
  ASSERT_NE(k, nullptr);
  cl_mem a = buffer(CL_MEM_READ_WRITE, 8 * sizeof(int)), b = buffer(CL_MEM_READ_WRITE, 8 * sizeof(int));
  cl_int error = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(context, &error);
  ASSERT_CL_OK(error);
  setArgs(k, a, 1);
  const size_t n = 8;
  ASSERT_CL_OK(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &n, nullptr, 1, &gate, nullptr));
  setArgs(k, b, 2);
  ASSERT_CL_OK(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
  ASSERT_CL_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL_OK(clReleaseEvent(gate));
  EXPECT_EQ(readBack<int>(a, 8), std::vector<int>(8, 1));
  EXPECT_EQ(readBack<int>(b, 8), std::vector<int>(8, 2));
}

// Local sizes are captured at enqueue as well: the second local argument of each launch starts
// after the first one's size at that launch.
TEST_F(KernelTest, LocalArgumentSizesAreCapturedAtEnqueue) {
  cl_kernel k = buildKernel(
      "kernel void gap(global ulong* o, local char* a, local char* b) {"
      "  if (get_global_id(0) == 0) o[0] = (ulong)(b - a);"
      "}",
      "gap");
  ASSERT_NE(k, nullptr);
  cl_mem small = buffer(CL_MEM_READ_WRITE, sizeof(cl_ulong)), large = buffer(CL_MEM_READ_WRITE, sizeof(cl_ulong));
  cl_int error = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(context, &error);
  ASSERT_CL_OK(error);
  const size_t n = 4;
  ASSERT_CL_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &small));
  ASSERT_CL_OK(clSetKernelArg(k, 1, 10, nullptr));
  ASSERT_CL_OK(clSetKernelArg(k, 2, 4, nullptr));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &n, &n, 1, &gate, nullptr));
  ASSERT_CL_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &large));
  ASSERT_CL_OK(clSetKernelArg(k, 1, 3000, nullptr));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &n, &n, 0, nullptr, nullptr));
  ASSERT_CL_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL_OK(clReleaseEvent(gate));
  const cl_ulong smallGap = readBack<cl_ulong>(small, 1)[0], largeGap = readBack<cl_ulong>(large, 1)[0];
  EXPECT_GE(smallGap, 10u);
  EXPECT_LT(smallGap, 3000u) << "the first launch kept the local size it was enqueued with";
  EXPECT_GE(largeGap, 3000u);
}

// Scalars of every size, vectors and structs by value, and constant-space buffers.
TEST_F(KernelTest, ByValueAndConstantArguments) {
  cl_kernel k = buildKernel(R"(
    typedef struct { char tag; long big; float f; int4 v; } Mixed;
    kernel void values(global long* out, char c, short s, int i, long l, float f, int4 v, Mixed m, constant int* table,
                       uchar u, double d) {
      out[0] = c; out[1] = s; out[2] = i; out[3] = l; out[4] = (long)(f * 4.0f);
      out[5] = v.x + 10 * v.y + 100 * v.z + 1000 * v.w;
      out[6] = m.tag; out[7] = m.big; out[8] = (long)(m.f * 2.0f); out[9] = m.v.w;
      out[10] = table[0] + table[3]; out[11] = u; out[12] = (long)((d - 1.0) * 1073741824.0 * 1000.0);  // 2^-30 survives only in double
    })",
                            "values");
  ASSERT_NE(k, nullptr);
  struct Mixed {
    cl_char tag;
    cl_long big;
    cl_float f;
    cl_int4 v;
  };
  const cl_char c = -5;
  const cl_short s = -30000;
  const cl_int i = 2000000000;
  const cl_long l = -(cl_long(1) << 40);
  const cl_float f = 2.25f;
  const cl_int4 v = {{1, 2, 3, 4}};
  Mixed m{};
  m.tag = 'x';
  m.big = cl_long(1) << 50;
  m.f = 3.5f;
  m.v = {{7, 8, 9, 10}};
  cl_mem table = bufferWith(std::vector<int>{100, 200, 300, 400}, CL_MEM_READ_ONLY);
  const cl_uchar u = 250;
  const cl_double d = 1.0 + 1.0 / 1073741824.0;
  cl_mem out = buffer(CL_MEM_READ_WRITE, 13 * sizeof(cl_long));
  setArgs(k, out, c, s, i, l, f, v, m, table, u, d);
  ASSERT_NO_FATAL_FAILURE(run1d(k, 1));
  const std::vector<cl_long> r = readBack<cl_long>(out, 13);
  EXPECT_EQ(r, (std::vector<cl_long>{-5, -30000, 2000000000, -(cl_long(1) << 40), 9, 4321, 'x', cl_long(1) << 50, 7, 10, 500, 250,
                                     1000}));
}

}  // namespace
}  // namespace loom::test
