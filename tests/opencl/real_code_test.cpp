// OpenCL C as real programs write it: plain C99 `inline` helpers (OpenMM, boost.compute,
// Random123) in clBuildProgram, clCompileProgram and clLinkProgram, zero-initialized arrays
// (hashcat), and the options, pragmas and attributes that the common implementations accept.
#include "cl_test_helpers.h"

namespace loom::test {
namespace {

class RealCodeTest : public ClTest {
 protected:
  // Runs the one-argument kernel `name` of `p` on `count` work-items and returns out[0..count).
  template <typename T>
  std::vector<T> run(cl_program p, const char* name, size_t count = 1) {
    cl_kernel k = kernel(p, name);
    if (!k) return {};
    cl_mem out = buffer(CL_MEM_READ_WRITE, count * sizeof(T));
    setArgs(k, out);
    run1d(k, count);
    return readBack<T>(out, count);
  }

  // Compiles `source` (with `headers` by their include names) into an object; nullptr on failure.
  cl_program compiled(const std::string& source, const std::vector<std::pair<const char*, cl_program>>& headers = {}) {
    cl_program p = sourceProgram(source);
    std::vector<const char*> names;
    std::vector<cl_program> programs;
    for (const auto& [name, header] : headers) names.push_back(name), programs.push_back(header);
    const cl_int result = clCompileProgram(p, 1, &device, "", cl_uint(names.size()), programs.data(), names.data(), nullptr, nullptr);
    EXPECT_CL_OK(result) << buildLog(p);
    return result == CL_SUCCESS ? p : nullptr;
  }

  cl_program linked(std::vector<cl_program> inputs) {
    cl_int error = CL_SUCCESS;
    cl_program p = clLinkProgram(context, 1, &device, "", cl_uint(inputs.size()), inputs.data(), nullptr, nullptr, &error);
    if (p) programs.push_back(p);
    EXPECT_CL_OK(error) << (p ? buildLog(p) : std::string());
    return error == CL_SUCCESS ? p : nullptr;
  }
};

// The issue's minimal case: a plain `inline` helper that nothing else defines.
const char* const kPlainInline = R"(
  inline float scaled(float x) { return 2.5f * x + 1.0f; }
  kernel void apply(global float* a) { size_t i = get_global_id(0); a[i] = scaled((float)i); })";

TEST_F(RealCodeTest, PlainInlineHelpersBuildInEveryLanguageVersion) {
  for (const char* options : {"", "-cl-std=CL1.1", "-cl-std=CL1.2", "-cl-std=CL2.0", "-cl-std=CL3.0", "-cl-opt-disable"}) {
    cl_program p = build(kPlainInline, options);
    ASSERT_NE(p, nullptr) << options;
    EXPECT_EQ(run<float>(p, "apply", 4), (std::vector<float>{1.0f, 3.5f, 6.0f, 8.5f})) << options;
  }
}

TEST_F(RealCodeTest, StaticExternAndPlainInlineTogether) {
  // C99: `extern inline` (or a later non-inline declaration) makes the definition external;
  // `static inline` is private; plain `inline` is an inline definition. All are callable.
  cl_program p = build(R"(
    static inline int tripled(int x) { return 3 * x; }
    extern inline int doubled(int x) { return 2 * x; }
    inline int squared(int x) { return x * x; }
    inline int negated(int x) { return -x; }
    int negated(int x);
    inline int unused_inline(int x) { return x; }
    inline int nested(int x) { return squared(x) + doubled(x); }
    kernel void mix(global int* out) { out[0] = tripled(1) + doubled(10) + squared(4) + negated(1000) + nested(3); })");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(run<int>(p, "mix"), std::vector<int>{3 + 20 + 16 - 1000 + 15});
}

TEST_F(RealCodeTest, InlineHelpersOfAHeaderIncludedByTwoLinkedPrograms) {
  // Both objects include the same header; each keeps its copy of the inline definition, and the
  // link neither misses the symbol nor defines it twice.
  cl_program header = sourceProgram("inline float get_pi(void) { return 3.0f; }\n");
  cl_program first = compiled("#include \"pi.h\"\nkernel void first(global float* out) { out[0] = get_pi(); }", {{"pi.h", header}});
  cl_program second = compiled("#include \"pi.h\"\nfloat twice_pi(void) { return 2.0f * get_pi(); }", {{"pi.h", header}});
  cl_program user = compiled("float twice_pi(void);\nkernel void second(global float* out) { out[0] = twice_pi(); }");
  ASSERT_TRUE(first && second && user);
  cl_program p = linked({first, second, user});
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(run<float>(p, "first"), std::vector<float>{3.0f});
  EXPECT_EQ(run<float>(p, "second"), std::vector<float>{6.0f});
}

TEST_F(RealCodeTest, AnExternInlineDefinitionLinksWithAPlainInlineOneElsewhere) {
  // One program gives the external definition; another has an inline definition of the same
  // function and calls it. The link resolves, and the call returns what either definition
  // returns (C99 leaves the choice to the implementation; here both agree).
  cl_program external = compiled("extern inline int answer(void) { return 42; }");
  cl_program user = compiled("inline int answer(void) { return 42; }\nkernel void ask(global int* out) { out[0] = answer(); }");
  ASSERT_TRUE(external && user);
  cl_program p = linked({external, user});
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(run<int>(p, "ask"), std::vector<int>{42});
}

TEST_F(RealCodeTest, AnInlineDeclarationWithoutABodyIsStillUndefined) {
  // What is defined nowhere stays an error, with the name in the log.
  cl_program p = sourceProgram("inline int nowhere(int x);\nkernel void k(global int* out) { out[0] = nowhere(1); }");
  EXPECT_CL(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(p, 0, nullptr, "", nullptr, nullptr));
  EXPECT_NE(buildLog(p).find("nowhere"), std::string::npos) << buildLog(p);
}

TEST_F(RealCodeTest, ZeroInitializedArraysInHelperFunctions) {
  // LLVM 15's translator copies such an array from a constant it creates and does not list in the
  // kernel's SPIR-V 1.4 interface (hashcat's kernels do this everywhere): the module still builds.
  cl_program p = build(R"(
    int sum_of_zeroed(int x) { int values[4] = {0}; values[x & 3] = x; return values[0] + values[1] + values[2] + values[3]; }
    kernel void sum(global int* out) { out[get_global_id(0)] = sum_of_zeroed((int)get_global_id(0) + 5); })",
                       "");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(run<int>(p, "sum", 3), (std::vector<int>{5, 6, 7}));
}

TEST_F(RealCodeTest, OptionsThatClangBasedImplementationsAccept) {
  const char* source = "kernel void value(global int* out) { out[0] = VALUE + __OPENCL_C_VERSION__; }";
  const std::pair<const char*, int> cases[] = {
      {"-DVALUE=1 -cl-std=cl1.2", 121},  {"-DVALUE=2 -cl-std=CL1.1", 112},       {"-DVALUE=3 -O3", 123},
      {"-DVALUE=4 -O0", 124},            {"-DVALUE=5 -Wall -Wno-unused-variable", 125},
      {"-DVALUE=6 -DNDEBUG -U NDEBUG", 126}, {"-D VALUE=7 -cl-std=CL3.0 -cl-uniform-work-group-size", 307},
  };
  for (const auto& [options, expected] : cases) {
    cl_program p = build(source, options);
    ASSERT_NE(p, nullptr) << options;
    EXPECT_EQ(run<int>(p, "value"), std::vector<int>{expected}) << options;
  }
}

TEST_F(RealCodeTest, CppForOpenClBuildsAndRuns) {
  // clang's -cl-std= values for C++ for OpenCL, in either case, as clang-based implementations take them.
  for (const char* options : {"-cl-std=CLC++", "-cl-std=clc++2021"}) {
    cl_program p = build("template <typename T> T twice(T x) { return x + x; }\n"
                         "kernel void doubled(global int* out) { out[0] = twice<int>(21); }",
                         options);
    ASSERT_NE(p, nullptr) << options;
    EXPECT_EQ(run<int>(p, "doubled"), std::vector<int>{42}) << options;
  }
}

TEST_F(RealCodeTest, CppForOpenClVersionIsTheOneTheDeviceReports) {
  // cl_ext_cxx_for_opencl: the version the device reports is the one -cl-std=CLC++ compiles
  // (__OPENCL_CPP_VERSION__ is major * 100 + minor * 10 + patch).
  size_t size = 0;
  ASSERT_CL_OK(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, nullptr, &size));
  std::string extensions(size, '\0');
  ASSERT_CL_OK(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, extensions.data(), nullptr));
  EXPECT_NE(extensions.find("cl_ext_cxx_for_opencl "), std::string::npos);
  cl_version version = 0;
  ASSERT_CL_OK(clGetDeviceInfo(device, CL_DEVICE_CXX_FOR_OPENCL_NUMERIC_VERSION_EXT, sizeof(version), &version, nullptr));
  cl_program p = build("kernel void version(global int* out) { out[0] = __OPENCL_CPP_VERSION__; }", "-cl-std=CLC++");
  ASSERT_NE(p, nullptr);
  const int expected = int(CL_VERSION_MAJOR(version) * 100 + CL_VERSION_MINOR(version) * 10 + CL_VERSION_PATCH(version));
  EXPECT_EQ(run<int>(p, "version"), std::vector<int>{expected});
}

TEST_F(RealCodeTest, PragmasAndAttributesOfRealKernels) {
  // Pragmas of extensions the device lacks or that no one defines are warnings, as in clang;
  // unroll hints and the common attributes build and run.
  cl_program p = build(R"(
    #pragma OPENCL EXTENSION cl_khr_fp64 : enable
    #pragma OPENCL EXTENSION cl_amd_printf : enable
    #pragma OPENCL EXTENSION cl_khr_fp16 : enable
    #pragma OPENCL FP_CONTRACT ON
    typedef struct __attribute__((packed)) { char tag; int value; } packed_t;
    __attribute__((always_inline)) inline int twice(int x) { return 2 * x; }
    __attribute__((noinline)) int thrice(int x) { return 3 * x; }
    __attribute__((reqd_work_group_size(4, 1, 1))) __attribute__((vec_type_hint(float4)))
    kernel void sum(global int* out) {
      int total = 0;
      #pragma unroll 4
      for (int i = 0; i < 8; ++i) total += twice(i);
      __attribute__((opencl_unroll_hint(2)))
      for (int i = 0; i < 2; ++i) total += thrice(i);
      out[get_global_id(0)] = total + (int)sizeof(packed_t);
    })",
                       "");
  ASSERT_NE(p, nullptr);
  const std::string log = buildLog(p);
  EXPECT_NE(log.find("cl_amd_printf"), std::string::npos) << log;  // warned about, not refused
  EXPECT_EQ(run<int>(p, "sum", 4), std::vector<int>(4, 56 + 3 + 5));
}

}  // namespace
}  // namespace loom::test
