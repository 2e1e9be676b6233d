// OpenCL C source to SPIR-V (compileOpenClSource) and SPIR-V linking (linkSpirvModules), checked by
// compiling the result with compileSpirv and running it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "kernel_runner.h"
#include "loom/compiler/opencl_c.h"

namespace loom::compiler::test {
namespace {

SpirvResult compileSource(const std::string& source, const std::string& options = "",
                          std::vector<std::pair<std::string, std::string>> headers = {}) {
  return compileOpenClSource({source, options, std::move(headers)});
}

// Runs kernel `name(global int* out)` over `items` work-items, one work-group.
std::vector<int> runOnInts(CpuExecutable& executable, const std::string& name, size_t items) {
  std::vector<int> out(items, -1);
  std::string log;
  WorkGroupFunction function = executable.kernel(name, log);
  EXPECT_NE(function, nullptr) << log;
  if (!function) return out;
  Range range;
  range.globalSize[0] = items;
  range.localSize[0] = uint32_t(items);
  Arguments(*executable.program().info.findKernel(name)).set(0, out.data()).run(function, range);
  return out;
}

std::vector<int> buildAndRun(const std::string& source, const std::string& options = "", size_t items = 4) {
  auto executable = load(compileSource(source, options));
  return executable ? runOnInts(*executable, "k", items) : std::vector<int>{};
}

TEST(OpenClC, CompiledKernelRunsAndKeepsArgumentInfo) {
  const char* source = R"(
    kernel void scale(global const float* input, global float* output, float factor) {
      size_t i = get_global_id(0);
      output[i] = input[i] * factor + sqrt(4.0f);
    })";
  auto executable = load(compileSource(source));
  ASSERT_NE(executable, nullptr);
  const KernelDescriptor* kernel = executable->program().info.findKernel("scale");
  ASSERT_NE(kernel, nullptr);
  ASSERT_EQ(kernel->arguments.size(), 3u);
  EXPECT_EQ(kernel->arguments[0].name, "input");
  EXPECT_EQ(kernel->arguments[0].typeName, "float*");
  EXPECT_EQ(kernel->arguments[2].name, "factor");
  EXPECT_EQ(kernel->arguments[2].typeName, "float");
  std::vector<float> input(64), output(64, 0.0f);
  for (int i = 0; i < 64; ++i) input[i] = float(i);
  std::string log;
  WorkGroupFunction function = executable->kernel("scale", log);
  ASSERT_NE(function, nullptr) << log;
  Range range;
  range.globalSize[0] = 64;
  range.localSize[0] = 16;
  Arguments(*kernel).set(0, input.data()).set(1, output.data()).set(2, 3.0f).run(function, range);
  for (int i = 0; i < 64; ++i) ASSERT_EQ(output[i], 3.0f * float(i) + 2.0f) << i;
}

TEST(OpenClC, MacrosFromOptionsTakeEffect) {
  const char* source = "kernel void k(global int* out) { out[get_global_id(0)] = VALUE + OTHER; }";
  EXPECT_EQ(buildAndRun(source, "-DVALUE=40 -D OTHER=2"), std::vector<int>(4, 42));
  EXPECT_EQ(buildAndRun(source, "-D VALUE=1 -D OTHER=\"(2 + 3)\""), std::vector<int>(4, 6));
}

TEST(OpenClC, IncludesHeadersFromTheRequest) {
  const char* source = R"(
    #include "defs/answer.h"
    #include <twice.h>
    kernel void k(global int* out) { out[get_global_id(0)] = TWICE(ANSWER); })";
  auto executable =
      load(compileSource(source, "", {{"defs/answer.h", "#define ANSWER 21\n"}, {"twice.h", "#define TWICE(x) ((x) * 2)\n"}}));
  ASSERT_NE(executable, nullptr);
  EXPECT_EQ(runOnInts(*executable, "k", 2), std::vector<int>(2, 42));
}

TEST(OpenClC, IncludesHeadersFromDirectoriesOnDisk) {
  const std::string directory = testing::TempDir() + "loom_opencl_c_include";
  std::filesystem::create_directories(directory);
  std::ofstream(directory + "/on_disk.h") << "#define FROM_DISK 7\n";
  const char* source = "#include \"on_disk.h\"\nkernel void k(global int* out) { out[get_global_id(0)] = FROM_DISK; }";
  EXPECT_EQ(buildAndRun(source, "-I " + directory, 2), std::vector<int>(2, 7));
  EXPECT_EQ(buildAndRun(source, "-I" + directory, 2), std::vector<int>(2, 7));
  std::filesystem::remove_all(directory);
}

TEST(OpenClC, SyntaxErrorIsABuildFailureWithItsPosition) {
  const SpirvResult result = compileSource("kernel void k(global int* out) {\n  out[0] = 1\n}\n");
  EXPECT_EQ(result.status, Status::BuildFailure);
  EXPECT_NE(result.log.find("<source>:2:13: error:"), std::string::npos) << result.log;
  EXPECT_TRUE(result.spirv.empty());
}

TEST(OpenClC, HostileSourceNeverEndsTheProcess) {
  const char binary[] = "\x03\x02\x23\x07\0\xff garbage";
  EXPECT_EQ(compileSource(std::string(binary, sizeof binary - 1)).status, Status::BuildFailure);
  EXPECT_EQ(compileSource("#pragma clang __debug llvm_fatal_error\nkernel void k() {}").status, Status::Success);
  EXPECT_EQ(compileSource("").status, Status::Success);
}

TEST(OpenClC, MissingHeaderIsABuildFailure) {
  const SpirvResult result = compileSource("#include \"absent.h\"\nkernel void k() {}\n");
  EXPECT_EQ(result.status, Status::BuildFailure);
  EXPECT_NE(result.log.find("absent.h"), std::string::npos) << result.log;
}

TEST(OpenClC, WarningsAppearInTheLogAndWerrorMakesThemErrors) {
  const char* source = "kernel void k(global int* out) { out[0] == 1; }";
  const SpirvResult warned = compileSource(source);
  EXPECT_EQ(warned.status, Status::Success) << warned.log;
  EXPECT_NE(warned.log.find("warning:"), std::string::npos) << warned.log;
  EXPECT_EQ(compileSource(source, "-w").log.find("warning:"), std::string::npos);
  EXPECT_EQ(compileSource(source, "-Werror").status, Status::BuildFailure);
}

TEST(OpenClC, UnknownOptionsAreInvalidOptionsNamingThem) {
  const SpirvResult unknown = compileSource("kernel void k() {}", "-cl-mad-enable -cl-bogus-option");
  EXPECT_EQ(unknown.status, Status::InvalidOptions);
  EXPECT_NE(unknown.log.find("-cl-bogus-option"), std::string::npos) << unknown.log;
  EXPECT_EQ(compileSource("kernel void k() {}", "-cl-std=CL4.0").status, Status::InvalidOptions);
  EXPECT_EQ(compileSource("kernel void k() {}", "-D").status, Status::InvalidOptions);
}

TEST(OpenClC, AcceptsEveryStandardOption) {
  const char* source = "struct s { int a; float b; };\n"
                       "kernel void k(global int* out) { struct s v = {41, 1.0 / 3.0}; out[0] = v.a + (v.b > 0.3f); }";
  const std::string options =
      "-cl-single-precision-constant -cl-denorms-are-zero -cl-fp32-correctly-rounded-divide-sqrt -cl-opt-disable "
      "-cl-mad-enable -cl-no-signed-zeros -cl-unsafe-math-optimizations -cl-finite-math-only -cl-fast-relaxed-math "
      "-cl-uniform-work-group-size -cl-kernel-arg-info -g -create-library -enable-link-options -I /nonexistent -I. -w";
  EXPECT_EQ(buildAndRun(source, options, 1), std::vector<int>{42});
}

// What `run` writes to this process's stdout (kernels' printf goes to the host's).
std::string capturedStdout(const std::function<void()>& run) {
  const std::string path = testing::TempDir() + "loom_printf_" + std::to_string(getpid());
  std::fflush(stdout);
  const int saved = dup(STDOUT_FILENO);
  FILE* file = std::fopen(path.c_str(), "w");
  dup2(fileno(file), STDOUT_FILENO);
  run();
  std::fflush(stdout);
  dup2(saved, STDOUT_FILENO);
  close(saved);
  std::fclose(file);
  std::ifstream in(path);
  const std::string printed((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::filesystem::remove(path);
  return printed;
}

// Vector conversions (OpenCL C 3.0, 6.15.14.2): one conversion per component, comma-separated,
// flags, width and precision applied to each; the first two are the specification's examples.
TEST(OpenClC, PrintfFormatsVectorsComponentByComponent) {
  const char* source = R"(
    #pragma OPENCL EXTENSION cl_khr_fp64 : enable
    kernel void k(global int* out) {
      float4 f = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
      uchar4 uc = (uchar4)(0xFA, 0xFB, 0xFC, 0xFD);
      printf("f4 = %2.2v4hlf\n", f);
      printf("uc = %#v4hhx\n", uc);
      printf("%v3hd|%v2hld|%v2ld|%v2lf|%%|%s|%5v2hli|%d\n", (short3)(-1, 2, -3), (int2)(INT_MIN, 7),
             (long2)(LONG_MIN, 9), (double2)(0.5, -2.25), "text", (int2)(1, -2), 42);
      printf("%v8hhu;%v16hhd;%-3v2hlX;%.1v3hle\n", (uchar8)(0, 1, 2, 3, 250, 5, 6, 255),
             (char16)(-128, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 127), (uint2)(0xab, 0xffffffff),
             (float3)(1.0f, -0.25f, 1e10f));
      out[get_global_id(0)] = 0;
    })";
  auto executable = load(compileSource(source));
  ASSERT_NE(executable, nullptr);
  const std::string printed = capturedStdout([&] { runOnInts(*executable, "k", 1); });
  EXPECT_EQ(printed,
            "f4 = 1.00,2.00,3.00,4.00\n"
            "uc = 0xfa,0xfb,0xfc,0xfd\n"
            "-1,2,-3|-2147483648,7|-9223372036854775808,9|0.500000,-2.250000|%|text|    1,   -2|42\n"
            "0,1,2,3,250,5,6,255;-128,1,2,3,4,5,6,7,8,9,10,11,12,13,14,127;AB ,FFFFFFFF;1.0e+00,-2.5e-01,1.0e+10\n");
}

// printf("%s\n", s) is what LLVM turns into puts(s), which must not take a constant-space string.
TEST(OpenClC, PrintfOfConstantStringsStaysPrintf) {
  const char* source = R"(
    kernel void k(global int* out) {
      printf("%s\n", "%%");
      printf("%s\n", "text");
      printf("%c", 'x');
      printf("line\n");
      out[get_global_id(0)] = 0;
    })";
  auto executable = load(compileSource(source));
  ASSERT_NE(executable, nullptr);
  EXPECT_EQ(capturedStdout([&] { runOnInts(*executable, "k", 1); }), "%%\ntext\nxline\n");
}

// x / 0 and INT_MIN / -1 are unspecified values without an exception (OpenCL C 6.3); x86 traps on
// both (SIGFPE would end this process). Loom divides by 1 instead: x / 0 is x, x % 0 is 0.
TEST(OpenClC, IntegerDivisionByZeroDoesNotTrap) {
  const char* source = R"(
    kernel void k(global int* out) {
      const size_t i = get_global_id(0);
      const int minusOne = out[i], zero = minusOne + 1;  // run-time values
      int sum = 7 / zero + 7 % zero + (int)(7u / (uint)zero) + (int)(7L / (long)zero + 9UL % (ulong)zero);
      sum += (INT_MIN / minusOne == INT_MIN) + (INT_MIN % minusOne == 0) + (LONG_MIN / (long)minusOne == LONG_MIN);
      sum += ((int4)(5) / (int4)(zero)).s2 + ((uint8)(3) % (uint8)(zero)).s7;
      out[i] = sum;
    })";
  EXPECT_EQ(buildAndRun(source), std::vector<int>(4, 7 + 0 + 7 + 7 + 0 + 1 + 1 + 1 + 5 + 0));
}

TEST(OpenClC, DefaultsToOpenClC12) {
  EXPECT_EQ(compileSource("#if __OPENCL_C_VERSION__ != 120\n#error wrong version\n#endif\nkernel void k() {}").status,
            Status::Success);
  // Generic pointers are OpenCL C 2.0.
  const char* generic = "void f(int* p) { *p = 1; }\nkernel void k(global int* out) { f(out); }";
  EXPECT_EQ(compileSource(generic).status, Status::BuildFailure);
}

TEST(OpenClC, OpenClC30FeatureMacrosAreWhatLoomSupports) {
  const char* source = R"(
    #if __OPENCL_C_VERSION__ != 300
    #error not OpenCL C 3.0
    #endif
    #if !defined(__opencl_c_fp64) || !defined(cl_khr_fp64) || !defined(__opencl_c_int64)
    #error fp64 and int64 are supported
    #endif
    #if !defined(__opencl_c_generic_address_space) || !defined(__opencl_c_program_scope_global_variables)
    #error generic address space and program-scope variables are supported
    #endif
    #if !defined(__opencl_c_atomic_order_acq_rel) || !defined(__opencl_c_atomic_order_seq_cst)
    #error atomic orders are supported
    #endif
    #if !defined(__opencl_c_atomic_scope_device) || !defined(__opencl_c_atomic_scope_all_devices)
    #error atomic scopes are supported
    #endif
    #if !defined(__opencl_c_images) || !defined(__opencl_c_read_write_images) || !defined(__opencl_c_3d_image_writes)
    #error images, read-write images and 3D image writes are supported
    #endif
    #if !defined(__IMAGE_SUPPORT__) || !defined(cl_khr_depth_images)
    #error images and depth images are supported
    #endif
    #if defined(__opencl_c_pipes) || defined(__opencl_c_device_enqueue)
    #error no pipes or device enqueue
    #endif
    #if !defined(__opencl_c_subgroups) || !defined(cl_khr_subgroups) || !defined(cl_khr_subgroup_shuffle) || \
        !defined(cl_khr_subgroup_shuffle_relative)
    #error sub-groups and their shuffles are supported
    #endif
    #if !defined(cl_khr_subgroup_extended_types) || !defined(cl_khr_subgroup_non_uniform_vote) || \
        !defined(cl_khr_subgroup_ballot) || !defined(cl_khr_subgroup_non_uniform_arithmetic) || \
        !defined(cl_khr_subgroup_clustered_reduce) || !defined(cl_intel_subgroups)
    #error the non-uniform sub-group functions and Intel's sub-group functions are supported
    #endif
    #if !defined(cl_khr_fp16) || !defined(__opencl_c_fp16)
    #error half precision is supported
    #endif
    #if !defined(cl_khr_subgroup_rotate)
    #error sub-group rotates are supported
    #endif
    #if !defined(cl_khr_3d_image_writes)
    #error 3D image writes are supported
    #endif
    #if !defined(cl_ext_float_atomics) || !defined(__opencl_c_ext_fp32_global_atomic_add) || \
        !defined(__opencl_c_ext_fp32_local_atomic_add) || !defined(__opencl_c_ext_fp32_global_atomic_min_max) || \
        !defined(__opencl_c_ext_fp32_local_atomic_min_max) || !defined(__opencl_c_ext_fp64_global_atomic_add) || \
        !defined(__opencl_c_ext_fp64_local_atomic_add) || !defined(__opencl_c_ext_fp64_global_atomic_min_max) || \
        !defined(__opencl_c_ext_fp64_local_atomic_min_max)
    #error float and double atomic add, min and max are supported in global and local memory
    #endif
    #if !defined(__opencl_c_ext_fp16_global_atomic_load_store) || !defined(__opencl_c_ext_fp16_local_atomic_load_store) || \
        !defined(__opencl_c_ext_fp16_global_atomic_add) || !defined(__opencl_c_ext_fp16_local_atomic_add) || \
        !defined(__opencl_c_ext_fp16_global_atomic_min_max) || !defined(__opencl_c_ext_fp16_local_atomic_min_max)
    #error half atomics are supported
    #endif
    #if !defined(__opencl_c_work_group_collective_functions)
    #error work-group collectives are supported
    #endif
    #if !defined(cl_khr_int64_base_atomics) || !defined(cl_khr_int64_extended_atomics)
    #error 64-bit atomics are supported
    #endif
    global int counter = 40;
    kernel void k(global int* out) {
      int* pointer = &counter;  // generic
      double fraction = 0.5;
      out[get_global_id(0)] = *pointer + (int)(fraction * 4.0);
    })";
  EXPECT_EQ(buildAndRun(source, "-cl-std=CL3.0"), std::vector<int>(4, 42));
}

// Image functions are declared in every language version; read-write images from OpenCL C 2.0.
TEST(OpenClC, ImagesCompileInEveryVersion) {
  const char* source = R"(
    kernel void k(read_only image2d_t in, write_only image3d_t out) {
      const sampler_t s = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;
      write_imagef(out, (int4)(0), read_imagef(in, s, (float2)(0.5f)) + (float)get_image_width(in));
    })";
  for (const char* version : {"-cl-std=CL1.2", "-cl-std=CL2.0", "-cl-std=CL3.0"}) {
    const SpirvResult result = compileSource(source, version);
    EXPECT_EQ(result.status, Status::Success) << version << ": " << result.log;
  }
  const char* readWrite = "kernel void k(read_write image2d_t i) { write_imageui(i, (int2)(0), read_imageui(i, (int2)(1))); }";
  EXPECT_EQ(compileSource(readWrite, "-cl-std=CL3.0").status, Status::Success);
  EXPECT_EQ(compileSource(readWrite, "-cl-std=CL1.2").status, Status::BuildFailure);
}

TEST(OpenClC, GenericAddressSpaceWorksInOpenClC20) {
  const char* source = R"(
    void store(int* p, int value) { *p = value; }
    kernel void k(global int* out) {
      local int shared[4];
      int lid = get_local_id(0);
      store(&shared[lid], lid * 10);
      barrier(CLK_LOCAL_MEM_FENCE);
      int mine;
      store(&mine, shared[3 - lid]);
      store(&out[lid], mine + 1);
    })";
  EXPECT_EQ(buildAndRun(source, "-cl-std=CL2.0"), (std::vector<int>{31, 21, 11, 1}));
}

const char* kCaller = R"(
  int helper(int x);
  kernel void k(global int* out) { out[get_global_id(0)] = helper((int)get_global_id(0)); })";
const char* kHelper = "int helper(int x) { return x * x + 1; }";

std::vector<uint8_t> compiled(const char* source) {
  const SpirvResult result = compileSource(source);
  EXPECT_EQ(result.status, Status::Success) << result.log;
  return result.spirv;
}

TEST(SpirvLinking, CallsAcrossModulesRun) {
  const SpirvResult linked = linkSpirvModules({compiled(kCaller), compiled(kHelper)}, false);
  auto executable = load(linked);
  ASSERT_NE(executable, nullptr);
  EXPECT_EQ(runOnInts(*executable, "k", 4), (std::vector<int>{1, 2, 5, 10}));
}

TEST(SpirvLinking, UndefinedFunctionFailsNamingIt) {
  const SpirvResult linked = linkSpirvModules({compiled(kCaller)}, false);
  EXPECT_EQ(linked.status, Status::LinkFailure);
  EXPECT_NE(linked.log.find("helper"), std::string::npos) << linked.log;
}

// An executable linked from one module is that module, checked for what it leaves undefined.
TEST(SpirvLinking, AModuleLinkedAloneIsItselfAndRuns) {
  const std::vector<uint8_t> module = compiled("kernel void k(global int* out) { out[get_global_id(0)] = 7; }");
  const SpirvResult linked = linkSpirvModules({module}, false, true);
  ASSERT_EQ(linked.status, Status::Success) << linked.log;
  EXPECT_EQ(linked.spirv, module);
  EXPECT_TRUE(linked.fromLoom);
  EXPECT_FALSE(linkSpirvModules({module}, false, false).fromLoom);  // as trusted as its input
  auto executable = load(linked);
  ASSERT_NE(executable, nullptr);
  EXPECT_EQ(runOnInts(*executable, "k", 2), (std::vector<int>{7, 7}));
}

TEST(SpirvLinking, UndefinedVariableFailsNamingItAlsoAlone) {
  const SpirvResult object = compileSource(
      "extern global int shared_counter;\n"
      "kernel void k(global int* out) { out[0] = shared_counter; }", "-cl-std=CL2.0");
  ASSERT_EQ(object.status, Status::Success) << object.log;
  const SpirvResult linked = linkSpirvModules({object.spirv}, false, true);
  EXPECT_EQ(linked.status, Status::LinkFailure);
  EXPECT_NE(linked.log.find("shared_counter"), std::string::npos) << linked.log;
  // Defined by another module, it links.
  const SpirvResult definition = compileSource("global int shared_counter = 5;", "-cl-std=CL2.0");
  ASSERT_EQ(definition.status, Status::Success) << definition.log;
  EXPECT_EQ(linkSpirvModules({object.spirv, definition.spirv}, false, true).status, Status::Success);
}

TEST(SpirvLinking, LibraryMayLeaveFunctionsUndefinedAndLinkLater) {
  const SpirvResult library = linkSpirvModules({compiled(kCaller)}, true);
  ASSERT_EQ(library.status, Status::Success) << library.log;
  auto executable = load(linkSpirvModules({library.spirv, compiled(kHelper)}, false));
  ASSERT_NE(executable, nullptr);
  EXPECT_EQ(runOnInts(*executable, "k", 2), (std::vector<int>{1, 2}));
}

TEST(SpirvLinking, DuplicateDefinitionsFail) {
  const SpirvResult linked = linkSpirvModules({compiled(kHelper), compiled(kHelper)}, false);
  EXPECT_EQ(linked.status, Status::LinkFailure);
  EXPECT_NE(linked.log.find("helper"), std::string::npos) << linked.log;
}

TEST(SpirvLinking, MalformedModuleIsRejected) {
  EXPECT_EQ(linkSpirvModules({{1, 2, 3, 4}}, false).status, Status::InvalidBinary);
  EXPECT_EQ(linkSpirvModules({}, false).status, Status::LinkFailure);
}

TEST(OpenClC, ConcurrentCompilesSucceed) {
  std::vector<SpirvResult> results(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&results, t] {
      const std::string source = "kernel void k(global int* out) { out[get_global_id(0)] = " + std::to_string(t) + "; }";
      for (int repeat = 0; repeat < 3; ++repeat) results[t] = compileSource(source, "-cl-std=CL3.0");
    });
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < 4; ++t) {
    auto executable = load(results[t]);
    ASSERT_NE(executable, nullptr);
    EXPECT_EQ(runOnInts(*executable, "k", 2), std::vector<int>(2, t));
  }
}

// length, distance and normalize scale their input where the sum of squares would overflow or
// fall into denormals (OpenCL-CTS geometrics uses such vectors).
TEST(OpenClC, GeometricFunctionsScaleExtremeVectors) {
  const char* source = R"(
    kernel void k(global int* out) {
      float huge = 0x1p64f + (float)get_global_id(0);
      out[0] = length((float2)(huge, 0.0f)) == 0x1p64f;
      out[1] = fabs(length((float3)(3e-30f, 4e-30f, 0.0f)) / 5e-30f - 1.0f) < 1e-6f;
      float tiny = 1e-42f * (float)(get_global_id(0) + 1);
      out[2] = fabs(normalize((float2)(3.0f * tiny, -4.0f * tiny)).y + 0.8f) < 1e-5f;
      out[3] = distance((float4)(huge, 0, 0, 0), (float4)(0.0f)) == 0x1p64f;
    })";
  EXPECT_EQ(buildAndRun(source), (std::vector<int>{1, 1, 1, 1}));
}

TEST(OpenClC, ShuffleSelectsComponentsByMask) {
  const char* source = R"(
    kernel void k(global int* out) {
      int4 x = (int4)(10, 11, 12, 13) + (int)get_global_id(0) * 0;
      int4 y = (int4)(20, 21, 22, 23);
      int2 picked = shuffle(x, (uint2)(3, 4));        // 4 wraps to 0
      int2 both = shuffle2(x, y, (uint2)(5, 10));     // 10 wraps to 2
      out[0] = picked.x, out[1] = picked.y, out[2] = both.x, out[3] = both.y;
    })";
  EXPECT_EQ(buildAndRun(source), (std::vector<int>{13, 10, 21, 12}));
}

}  // namespace
}  // namespace loom::compiler::test
