// The NVPTX target: PTX whose entries follow its launch ABI
// (loom/compiler/nvptx_launch_abi.h), checked as text and, where the CUDA toolkit is
// installed, by ptxas.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <unistd.h>

#include "backends/cuda/cuda_dependent_launch.h"
#include "backends/cuda/cuda_texture_mirror.h"
#include "kernel_runner.h"
#include "loom/compiler/nvptx_launch_abi.h"
#include "loom/compiler/opencl_c.h"

namespace loom::test {
extern const uint8_t imageBenchmarkKernelsSource[];  // benchmarks/image_kernels.cl
extern const size_t imageBenchmarkKernelsSourceSize;
}  // namespace loom::test

namespace loom::compiler::test {
namespace {

constexpr const char* kPtxas = "/usr/local/cuda/bin/ptxas";
constexpr const char* kNvlink = "/usr/local/cuda/bin/nvlink";
constexpr uint32_t kImplicitParameterSize = sizeof(nvptx::ImplicitLaunchParameters);
using nvptx::kGridDependencyWaitMarker;
using nvptx::kLocalPointerParameterSize;
using nvptx::kWholeGroupsEntrySuffix;

BuildResult compileForNvptx(std::vector<uint8_t> spirv) {
  CompileRequest request;
  request.spirv = std::move(spirv);
  request.target = Target::Nvptx;
  return compileSpirv(request);
}

std::string ptxOf(const BuildResult& built) {
  if (!built.program) return {};
  const std::vector<uint8_t>& code = built.program->code;
  EXPECT_FALSE(code.empty());
  EXPECT_EQ(code.back(), '\0');  // the driver reads PTX up to its NUL
  return std::string(code.begin(), code.end() - (code.empty() ? 0 : 1));
}

// The test kernels (tests/unit/compiler/kernels) compiled once per test program.
const BuildResult& nvptxKernels(const std::string& name) {
  static std::map<std::string, BuildResult> built;
  auto [entry, inserted] = built.try_emplace(name);
  if (inserted) entry->second = compileForNvptx(readSpirv(name));
  return entry->second;
}

BuildResult compileSource(const std::string& source, const std::string& options = "") {
  return compileSourceFor(Target::Nvptx, source, options);
}

// Byte sizes of the parameters of `.entry kernel(...)`: `.param .u64 x` is 8, `.param .align 8
// .b8 x[24]` is 24.
std::vector<uint32_t> entryParameterSizes(const std::string& ptx, const std::string& kernel) {
  const size_t start = ptx.find(".entry " + kernel + "(");
  if (start == std::string::npos) return {};
  const std::string parameters = ptx.substr(start, ptx.find(')', start) - start);
  static const std::regex parameter(R"(\.param\s+(?:\.align\s+\d+\s+)?\.([usbf])(\d+)\s+\w+(?:\[(\d+)\])?)");
  std::vector<uint32_t> sizes;
  for (std::sregex_iterator it(parameters.begin(), parameters.end(), parameter), end; it != end; ++it) {
    const std::smatch& match = *it;
    sizes.push_back(match[3].matched ? std::stoul(match[3]) : std::stoul(match[2]) / 8);
  }
  return sizes;
}

std::vector<uint32_t> contractSizes(const KernelDescriptor& kernel) {
  std::vector<uint32_t> sizes;
  for (const KernelArgument& argument : kernel.arguments) {
    switch (argument.kind) {
      case ArgumentKind::GlobalPointer:
      case ArgumentKind::ConstantPointer: sizes.push_back(8); break;
      case ArgumentKind::LocalPointer: sizes.push_back(kLocalPointerParameterSize); break;
      default: sizes.push_back(argument.size); break;
    }
  }
  sizes.push_back(kImplicitParameterSize);
  return sizes;
}

// The body of `.entry kernel`, up to the next entry or function.
std::string entryBody(const std::string& ptx, const std::string& kernel) {
  const size_t start = ptx.find(".entry " + kernel + "(");
  if (start == std::string::npos) return {};
  const size_t end = std::min(ptx.find(".entry ", start + 1), ptx.find(".func ", start + 1));
  return ptx.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

size_t occurrences(const std::string& text, const std::string& what) {
  size_t count = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

struct Command {
  int status;
  std::string output;
};

Command run(const std::string& command) {
  Command result{-1, {}};
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return result;
  char buffer[4096];
  while (size_t read = std::fread(buffer, 1, sizeof(buffer), pipe)) result.output.append(buffer, read);
  result.status = pclose(pipe);
  return result;
}

// ptxas accepts the PTX for `arch`: what the CUDA driver's JIT would do with it.
void expectPtxasAccepts(const std::string& ptx, const std::string& name, const char* arch) {
  const std::filesystem::path directory = std::filesystem::temp_directory_path();
  const std::string stem = (directory / ("loom_nvptx_test_" + std::to_string(getpid()) + "_" + name)).string();
  std::ofstream(stem + ".ptx") << ptx;
  const Command ptxas = run(std::string(kPtxas) + " -arch=" + arch + " -o " + stem + ".cubin " + stem + ".ptx");
  EXPECT_EQ(ptxas.status, 0) << name << " for " << arch << ":\n" << ptxas.output;
  std::filesystem::remove(stem + ".ptx");
  std::filesystem::remove(stem + ".cubin");
}

// `ptxas -c` (relocatable code, as cuLinkAddData compiles PTX) on each PTX, then nvlink on the
// objects: what the CUDA driver's linker does for zeModuleDynamicLink.
Command linkRelocatable(const std::vector<std::string>& ptxs, const std::string& name, const char* arch) {
  const std::filesystem::path directory = std::filesystem::temp_directory_path();
  const std::string stem = (directory / ("loom_nvptx_test_" + std::to_string(getpid()) + "_" + name)).string();
  std::vector<std::string> files{stem + ".cubin"};
  std::string objects;
  Command result{0, {}};
  for (size_t i = 0; i < ptxs.size() && result.status == 0; ++i) {
    const std::string input = stem + "_" + std::to_string(i);
    files.insert(files.end(), {input + ".ptx", input + ".o"});
    std::ofstream(input + ".ptx") << ptxs[i];
    result = run(std::string(kPtxas) + " -c -arch=" + arch + " -o " + input + ".o " + input + ".ptx");
    objects += " " + input + ".o";
  }
  if (result.status == 0) result = run(std::string(kNvlink) + " -arch=" + arch + objects + " -o " + stem + ".cubin");
  for (const std::string& file : files) std::filesystem::remove(file);
  return result;
}

class NvptxKernels : public testing::TestWithParam<const char*> {};

TEST_P(NvptxKernels, EntriesFollowTheLaunchContract) {
  const BuildResult& built = nvptxKernels(GetParam());
  ASSERT_EQ(built.status, Status::Success) << built.log;
  EXPECT_EQ(built.program->target, Target::Nvptx);
  const std::string ptx = ptxOf(built);
  EXPECT_NE(ptx.find(".target sm_80"), std::string::npos);
  for (const KernelDescriptor& kernel : built.program->info.kernels) {
    EXPECT_EQ(entryParameterSizes(ptx, kernel.name), contractSizes(kernel)) << kernel.name << "\n" << ptx;
    EXPECT_EQ(entryParameterSizes(ptx, kernel.name + kWholeGroupsEntrySuffix), contractSizes(kernel))
        << kernel.name << "\n" << ptx;
  }
}

// Where the first instruction that touches memory other than the parameters (or calls a
// function, which may) starts in `body`; npos if none does.
size_t firstMemoryAccess(const std::string& body) {
  static const std::regex access(R"(\n\s*(?:@%p\d+\s+)?(?:ld\.(?!param)|st\.|atom\.|red\.|call|prefetch|cp\.))");
  std::smatch match;
  return std::regex_search(body, match, access) ? size_t(match.position(0)) : std::string::npos;
}

// A GPU that starts kernels early puts its wait for the kernels before at the marker
// (backends/cuda/cuda_dependent_launch.h): every entry needs it, ahead of any memory access.
TEST_P(NvptxKernels, EveryEntryMarksTheGridDependencyWaitBeforeTouchingMemory) {
  const BuildResult& built = nvptxKernels(GetParam());
  ASSERT_EQ(built.status, Status::Success) << built.log;
  const std::string ptx = ptxOf(built);
  for (const KernelDescriptor& kernel : built.program->info.kernels)
    for (const std::string& name : {kernel.name, kernel.name + kWholeGroupsEntrySuffix}) {
      const std::string body = entryBody(ptx, name);
      const size_t marker = body.find(kGridDependencyWaitMarker);
      ASSERT_NE(marker, std::string::npos) << name << "\n" << body;
      EXPECT_LT(marker, firstMemoryAccess(body)) << name << "\n" << body;
    }
}

TEST_P(NvptxKernels, ResolveEveryCall) {
  const std::string ptx = ptxOf(nvptxKernels(GetParam()));
  EXPECT_EQ(ptx.find(".extern .func"), std::string::npos) << ptx;
}

TEST_P(NvptxKernels, DescribeKernelsAsForTheCpu) {
  const BuildResult& nvptx = nvptxKernels(GetParam());
  const BuildResult cpu = compileKernels(GetParam());
  ASSERT_EQ(nvptx.status, Status::Success) << nvptx.log;
  ASSERT_EQ(cpu.status, Status::Success) << cpu.log;
  const auto& expected = cpu.program->info.kernels;
  const auto& actual = nvptx.program->info.kernels;
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t k = 0; k < expected.size(); ++k) {
    EXPECT_EQ(actual[k].name, expected[k].name);
    EXPECT_EQ(actual[k].argumentBufferSize, expected[k].argumentBufferSize) << expected[k].name;
    EXPECT_EQ(actual[k].staticLocalMemorySize, expected[k].staticLocalMemorySize) << expected[k].name;
    EXPECT_EQ(actual[k].hasBarriers, expected[k].hasBarriers) << expected[k].name;
    EXPECT_EQ(actual[k].requiredWorkGroupSize, expected[k].requiredWorkGroupSize) << expected[k].name;
    ASSERT_EQ(actual[k].arguments.size(), expected[k].arguments.size()) << expected[k].name;
    for (size_t a = 0; a < expected[k].arguments.size(); ++a) {
      EXPECT_EQ(actual[k].arguments[a].kind, expected[k].arguments[a].kind) << expected[k].name << " " << a;
      EXPECT_EQ(actual[k].arguments[a].offset, expected[k].arguments[a].offset) << expected[k].name << " " << a;
      EXPECT_EQ(actual[k].arguments[a].size, expected[k].arguments[a].size) << expected[k].name << " " << a;
    }
  }
}

TEST_P(NvptxKernels, PtxasAcceptsThemForAmpereAndHopper) {
  if (!std::filesystem::exists(kPtxas)) GTEST_SKIP() << kPtxas << " is not installed";
  const BuildResult& built = nvptxKernels(GetParam());
  ASSERT_EQ(built.status, Status::Success) << built.log;
  for (const char* arch : {"sm_80", "sm_90"}) expectPtxasAccepts(ptxOf(built), GetParam(), arch);
}

// The CUDA backend's own kernel that copies images into their texture mirrors (hand-written PTX).
TEST(Nvptx, TheTextureMirrorRefreshKernelAssembles) {
  if (!std::filesystem::exists(kPtxas)) GTEST_SKIP() << kPtxas << " is not installed";
  for (const char* arch : {"sm_75", "sm_90"}) expectPtxasAccepts(backends::cuda::kTextureMirrorRefreshPtx, "texture_mirror_refresh", arch);
}

// What a Hopper GPU's driver compiles: the PTX raised for dependent launches, with a
// griddepcontrol.wait in each of the two entries of every kernel.
TEST_P(NvptxKernels, PtxasAcceptsThemRaisedForDependentLaunchesOnHopper) {
  if (!std::filesystem::exists(kPtxas)) GTEST_SKIP() << kPtxas << " is not installed";
  const BuildResult& built = nvptxKernels(GetParam());
  ASSERT_EQ(built.status, Status::Success) << built.log;
  const std::optional<std::string> raised = backends::cuda::ptxWaitingForGridDependencies(ptxOf(built));
  ASSERT_TRUE(raised) << ptxOf(built);
  EXPECT_EQ(occurrences(*raised, "griddepcontrol.wait;"), 2 * built.program->info.kernels.size()) << *raised;
  expectPtxasAccepts(*raised, GetParam() + std::string("_raised"), "sm_90");
}

INSTANTIATE_TEST_SUITE_P(TestKernels, NvptxKernels,
                         testing::Values("work_items", "barriers", "atomics", "float_atomics", "math", "program_scope",
                                         "sub_groups", "function_pointer_kernels"));

// The image builtins are plain loads, stores and arithmetic over the descriptor: every image
// type, sampling with both filters, sRGB and half conversions compile to PTX without calls left
// to resolve, and images and samplers arrive as 8-byte parameters. (A kernel this large has only
// the entry for any launch.)
// A program built for uniform groups says so on every target, so that a kernel made from its
// binary refuses a smaller last group as the same kernel built from source does.
// SPIR-V functions need no name; LLVM 15's NVPTX printer names an unnamed function's parameters
// after the empty name, which ptxas rejects (OpenCL-CTS spirv_new's function_noinline).
TEST(Nvptx, FunctionsWithoutNamesAssemble) {
  const BuildResult built = compileForNvptx(readSpirv("unnamed_function"));
  ASSERT_EQ(built.status, Status::Success) << built.log;
  const std::string ptx = ptxOf(built);
  EXPECT_EQ(ptx.find("[_param_"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find("call.uni"), std::string::npos) << "the function stays a function\n" << ptx;
  if (std::filesystem::exists(kPtxas)) expectPtxasAccepts(ptx, "unnamed_function", "sm_80");
}

// SPIR-V's half atomics become compare-and-swap loops on 32-bit words (half_atomics.h) with no
// atomic load or store, which LLVM 15's NVPTX backend cannot select; an ordered one keeps the
// fences the SPIR-V asked for.
TEST(Nvptx, HalfAtomicsFromSpirvBecomeWordAtomics) {
  const BuildResult built = compileForNvptx(readSpirv("half_atomics"));
  ASSERT_EQ(built.status, Status::Success) << built.log;
  const std::string ptx = ptxOf(built);
  EXPECT_NE(ptx.find("atom.global.sys.cas.b32"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find("atom.shared.cas.b32"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find("membar.gl"), std::string::npos) << "the sequentially consistent add is fenced\n" << ptx;
  EXPECT_FALSE(std::regex_search(ptx, std::regex("(atom|red)\\.[a-z.]*\\.(f16|b16)"))) << "no 16-bit atomic instruction\n" << ptx;
  if (std::filesystem::exists(kPtxas)) expectPtxasAccepts(ptx, "half_atomics", "sm_80");
}

TEST(Nvptx, KernelsOfUniformProgramsRefuseSmallerLastGroupsOnEveryTarget) {
  const SpirvResult spirv = compileOpenClSource({"kernel void k(global int* a) { a[get_global_id(0)] = 1; }", "", {}});
  ASSERT_EQ(spirv.status, Status::Success) << spirv.log;
  for (Target target : {Target::Cpu, Target::Nvptx}) {
    for (bool uniform : {false, true}) {
      CompileRequest request;
      request.spirv = spirv.spirv;
      request.target = target;
      request.uniformWorkGroups = uniform;
      const BuildResult built = compileSpirv(request);
      ASSERT_EQ(built.status, Status::Success) << built.log;
      EXPECT_EQ(built.program->info.kernels.at(0).uniformGroupsOnly, uniform) << (target == Target::Cpu ? "CPU" : "NVPTX");
    }
  }
}

TEST(Nvptx, ImageBuiltinsCompile) {
  const BuildResult built = compileSource(R"(
    #pragma OPENCL EXTENSION cl_khr_fp16 : enable
    constant sampler_t linear = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_LINEAR;
    kernel void images(read_only image2d_t a, sampler_t s, write_only image3d_t b, read_only image2d_array_t c,
                       read_only image1d_buffer_t d, write_only image1d_array_t e, read_only image2d_depth_t f,
                       global float4* out) {
      int i = get_global_id(0);
      float4 v = read_imagef(a, s, (float2)(i * 0.1f, 0.5f)) + read_imagef(a, linear, (float2)(0.25f, 0.75f));
      v += convert_float4(read_imagei(c, s, (float4)(1.0f, 2.0f, 3.0f, 0.0f))) + read_imagef(d, i);
      v.x += read_imagef(f, s, (int2)(i, 0)) + get_image_width(b) + get_image_array_size(c) + get_image_channel_order(a);
      write_imagef(b, (int4)(i, 0, 1, 0), v);
      write_imageh(e, (int2)(i, 2), convert_half4(v));
      out[i] = v;
    })");
  ASSERT_EQ(built.status, Status::Success) << built.log;
  const KernelDescriptor* kernel = built.program->info.findKernel("images");
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(kernel->arguments[0].kind, ArgumentKind::Image);
  EXPECT_EQ(kernel->arguments[1].kind, ArgumentKind::Sampler);
  const std::string ptx = ptxOf(built);
  EXPECT_EQ(entryParameterSizes(ptx, "images"), contractSizes(*kernel)) << ptx;
  EXPECT_EQ(ptx.find(".extern .func"), std::string::npos) << ptx;
  if (std::filesystem::exists(kPtxas)) expectPtxasAccepts(ptx, "image_builtins", "sm_80");
}

// Sampled float reads of 1D and 2D images go through the texture object the image's descriptor
// holds for the sampler's state, and sample in software where it holds none.
TEST(Nvptx, SampledFloatReadsOfTwoDimensionalImagesUseTheTextureUnits) {
  const BuildResult built = compileSource(R"(
    constant sampler_t linear = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;
    kernel void blur(read_only image2d_t in, global float4* out) {
      int i = get_global_id(0);
      out[i] = read_imagef(in, linear, (float2)(i * 0.1f, 0.5f));
    })");
  ASSERT_EQ(built.status, Status::Success) << built.log;
  const std::string body = entryBody(ptxOf(built), "blur");
  EXPECT_NE(body.find("tex.2d.v4.f32.f32"), std::string::npos) << body;
  // The software path stays for images without a texture object: it loads texels itself.
  EXPECT_NE(body.find("ld.global.u8"), std::string::npos) << body;
  if (std::filesystem::exists(kPtxas)) expectPtxasAccepts(ptxOf(built), "texture_reads", "sm_80");
}

TEST(Nvptx, ReadsTheTextureUnitsDoNotServeSampleInSoftware) {
  const BuildResult built = compileSource(R"(
    kernel void reads(read_only image3d_t volume, read_only image2d_t integers, read_only image2d_t plain, sampler_t s,
                      global float4* out) {
      int i = get_global_id(0);
      out[i] = read_imagef(volume, s, (float4)(i * 0.1f, 0.5f, 0.25f, 0.0f)) +
               convert_float4(read_imageui(integers, s, (float2)(i, 1.0f))) + read_imagef(plain, s, (int2)(i, 0));
    })");
  ASSERT_EQ(built.status, Status::Success) << built.log;
  const std::string body = entryBody(ptxOf(built), "reads");
  EXPECT_EQ(body.find("tex."), std::string::npos) << body;
  EXPECT_NE(body.find("ld.global"), std::string::npos) << body;
}

// The most texture fetches `body` issues one after another, with no branch, label or memory load
// between them.
size_t longestRunOfTextureFetches(const std::string& body) {
  std::istringstream lines(body);
  size_t longest = 0, run = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.find("tex.2d") != std::string::npos) longest = std::max(longest, ++run);
    else if (line.find("bra") != std::string::npos || line.find("ld.") != std::string::npos || line.rfind("$L", 0) == 0)
      run = 0;
  }
  return longest;
}

// benchmarks/image_kernels.cl: blur5x5, a loop of reads through a linear-filter sampler, and
// copyTexels, reads without a sampler and writes.
std::string imageBenchmarkKernels() {
  return std::string(reinterpret_cast<const char*>(loom::test::imageBenchmarkKernelsSource), loom::test::imageBenchmarkKernelsSourceSize);
}

// Launches whose images are all RGBA with texture objects take a version of the kernel without
// the descriptor's checks: the loop's reads unroll into texture fetches issued together, none
// waiting on a load of the descriptor or a branch. The general version keeps sampling in software.
TEST(Nvptx, ReadsOfTexturedRgbaImagesInALoopAreTextureFetchesIssuedTogether) {
  const BuildResult built = compileSource(imageBenchmarkKernels());
  ASSERT_EQ(built.status, Status::Success) << built.log;
  for (const std::string& entry : {std::string("blur5x5"), std::string("blur5x5") + kWholeGroupsEntrySuffix}) {
    const std::string body = entryBody(ptxOf(built), entry);
    if (body.empty()) continue;
    EXPECT_EQ(longestRunOfTextureFetches(body), 25u) << body;  // both loops unrolled whole
    EXPECT_NE(body.find("ld.global.u8"), std::string::npos) << body;
    // The descriptor's fields load once, through the read-only path, ahead of the versions.
    EXPECT_NE(body.find("ld.global.nc.u64"), std::string::npos) << body;
  }
  if (std::filesystem::exists(kPtxas)) expectPtxasAccepts(ptxOf(built), "blur", "sm_80");
}

// Loops of texture fetches unroll whole only within a bound, and never against the program's
// own directive.
TEST(Nvptx, LongLoopsOfTextureFetchesAndLoopsTheProgramKeepsStayLoops) {
  const BuildResult built = compileSource(R"(
    constant sampler_t linear = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;
    kernel void taps(read_only image2d_t in, write_only image2d_t out) {
      const int x = get_global_id(0);
      float4 sum = 0.0f;
      for (int i = 0; i < 200; ++i) sum += read_imagef(in, linear, (float2)(x + i * 0.5f, 0.5f));
      write_imagef(out, (int2)(x, 0), sum);
    }
    kernel void kept(read_only image2d_t in, write_only image2d_t out) {
      const int x = get_global_id(0);
      float4 sum = 0.0f;
      #pragma unroll 1
      for (int i = 0; i < 5; ++i) sum += read_imagef(in, linear, (float2)(x + i * 0.5f, 0.5f));
      write_imagef(out, (int2)(x, 0), sum);
    })");
  ASSERT_EQ(built.status, Status::Success) << built.log;
  const std::string taps = entryBody(ptxOf(built), "taps");
  EXPECT_LT(occurrences(taps, "tex.2d"), 100u) << taps;
  const std::string kept = entryBody(ptxOf(built), "kept");
  EXPECT_EQ(longestRunOfTextureFetches(kept), 1u) << kept;
}

// Reads without a sampler of read-only images go through the texture units too, and the
// specialized version writes whole texels; read-write images, whose reads must see the kernel's
// own writes, read in software.
TEST(Nvptx, ReadsWithoutASamplerOfReadOnlyImagesAreTextureFetchesAndRgbaWritesWholeTexels) {
  const BuildResult built = compileSource(imageBenchmarkKernels());
  ASSERT_EQ(built.status, Status::Success) << built.log;
  const std::string copy = entryBody(ptxOf(built), "copyTexels");
  EXPECT_NE(copy.find("tex.2d.v4.f32.f32"), std::string::npos) << copy;
  EXPECT_NE(copy.find("st.global.v4.u8"), std::string::npos) << copy;   // RGBA UNORM_INT8
  EXPECT_NE(copy.find("st.global.v4.f32"), std::string::npos) << copy;  // RGBA FLOAT
  const BuildResult readWrite = compileSource(R"(
    kernel void readWrite(read_write image2d_t image) {
      const int2 at = (int2)(get_global_id(0), get_global_id(1));
      write_imagef(image, at, read_imagef(image, at) * 0.5f);
    })", "-cl-std=CL2.0");
  ASSERT_EQ(readWrite.status, Status::Success) << readWrite.log;
  const std::string body = entryBody(ptxOf(readWrite), "readWrite");
  EXPECT_EQ(body.find("tex."), std::string::npos) << body;
}

TEST(Nvptx, BarriersBecomeBarSyncAndLocalMemoryIsDynamicShared) {
  const std::string ptx = ptxOf(nvptxKernels("barriers"));
  EXPECT_NE(ptx.find(".extern .shared .align 128 .b8 dynamic_shared[];"), std::string::npos) << ptx;
  const std::string reduce = entryBody(ptx, "reduce_in_groups");
  EXPECT_NE(reduce.find("bar.sync"), std::string::npos) << reduce;
  EXPECT_NE(reduce.find("ld.param.u32"), std::string::npos) << "the local pointer is a 32-bit offset\n" << reduce;
  EXPECT_NE(reduce.find("dynamic_shared"), std::string::npos) << reduce;
}

TEST(Nvptx, StaticLocalVariablesComeFirstInSharedMemory) {
  const BuildResult& built = nvptxKernels("barriers");
  ASSERT_EQ(built.status, Status::Success) << built.log;
  const KernelDescriptor* reverse = built.program->info.findKernel("reverse_in_groups");
  ASSERT_NE(reverse, nullptr);
  EXPECT_EQ(reverse->staticLocalMemorySize, 64 * sizeof(int));
  EXPECT_NE(entryBody(ptxOf(built), "reverse_in_groups").find("st.shared"), std::string::npos);
}

// Work-group collectives (kernels/collectives.cl, and OpGroup* of every width in
// kernels/spirv_groups.cl) keep their scratch area in shared memory, one 64-bit slot per thread
// of the largest CUDA block, and wait for the block with bar.sync.
TEST(Nvptx, WorkGroupCollectivesUseSharedScratchAndBarSync) {
  constexpr uint32_t kScratchBytes = 1024 * sizeof(uint64_t);
  for (const char* name : {"collectives", "spirv_groups"}) {
    const BuildResult& built = nvptxKernels(name);
    ASSERT_EQ(built.status, Status::Success) << name << ": " << built.log;
    const std::string ptx = ptxOf(built);
    EXPECT_EQ(ptx.find(".extern .func"), std::string::npos) << ptx;
    for (const KernelDescriptor& kernel : built.program->info.kernels) {
      const bool uses = kernel.name != "no_collectives";
      EXPECT_EQ(kernel.staticLocalMemorySize, uses ? kScratchBytes : 0u) << kernel.name;
      EXPECT_EQ(entryBody(ptx, kernel.name).find("bar.sync") != std::string::npos, uses) << kernel.name;
    }
    if (!std::filesystem::exists(kPtxas)) continue;
    for (const char* arch : {"sm_80", "sm_90"}) expectPtxasAccepts(ptx, name, arch);
  }
}

TEST(Nvptx, WorkItemFunctionsReadSpecialRegistersAndImplicitParameters) {
  const std::string ids = entryBody(ptxOf(nvptxKernels("work_items")), "work_item_ids");
  for (const char* text : {"%tid.x", "%tid.z", "%ctaid.y", "%ntid.x", "work_item_ids_param_1"})
    EXPECT_NE(ids.find(text), std::string::npos) << text << "\n" << ids;
}

// "[<entry>_param_<index>+<offset of the field>]": a load of one field of the implicit parameters.
std::string implicitField(const std::string& entry, size_t parameter, size_t offset) {
  return "[" + entry + "_param_" + std::to_string(parameter) + "+" + std::to_string(offset) + "]";
}

// Whether `body` loads the implicit parameters' field at `offset`: by the parameter's name, or
// through its address in a register, as the code after the range check does.
bool readsImplicitField(const std::string& body, size_t offset) {
  const std::regex load(R"(ld\.param\.\w+\s+%\w+,\s*\[[^\]]*\+)" + std::to_string(offset) + R"(\])");
  return std::regex_search(body, load);
}

// A part of a split launch runs a box of the whole launch's groups (nvptx_launch_abi.h): a group's
// id is %ctaid plus the part's base, and the group counts are the whole launch's, never %nctaid.
TEST(Nvptx, GroupIdsAddThePartsBaseAndGroupCountsAreTheWholeLaunchs) {
  const BuildResult built = compileSource(R"(kernel void groups(global uint* out) {
    out[0] = get_group_id(1);
    out[1] = get_num_groups(2);
  })");
  ASSERT_EQ(built.status, Status::Success) << built.log;
  const std::string ptx = ptxOf(built);
  using nvptx::ImplicitLaunchParameters;
  for (const std::string& entry : {std::string("groups"), std::string("groups") + kWholeGroupsEntrySuffix}) {
    const std::string body = entryBody(ptx, entry);
    ASSERT_FALSE(body.empty()) << entry << "\n" << ptx;
    EXPECT_NE(body.find("%ctaid.y"), std::string::npos) << body;
    EXPECT_TRUE(readsImplicitField(body, offsetof(ImplicitLaunchParameters, groupIdBase) + 4)) << "the base of y\n" << body;
    EXPECT_TRUE(readsImplicitField(body, offsetof(ImplicitLaunchParameters, numGroups) + 8)) << "the count of z\n" << body;
    EXPECT_EQ(body.find("%nctaid"), std::string::npos) << "a part's grid is not the launch's\n" << body;
  }
}

constexpr const char* kTriad = R"(kernel void triad(global float* a, global const float* b, global const float* c, float s) {
  size_t i = get_global_id(0);
  a[i] = b[i] + s * c[i];
})";

// The base costs a launch that is no part one add (of a parameter, which the GPU reads from its
// constant bank) per group id: no branch, no second entry, no other parameter read.
TEST(Nvptx, TheGroupIdBaseAddsNoBranchToTheEntryForWholeGroups) {
  const BuildResult built = compileSource(kTriad);
  ASSERT_EQ(built.status, Status::Success) << built.log;
  const std::string entry = std::string("triad") + kWholeGroupsEntrySuffix;
  const std::string body = entryBody(ptxOf(built), entry);
  ASSERT_FALSE(body.empty());
  EXPECT_EQ(occurrences(body, "bra"), 0u) << body;
  EXPECT_EQ(occurrences(body, "@%p"), 0u) << body;
  EXPECT_EQ(occurrences(body, "%ctaid.x"), 1u) << body;
  const std::string base = implicitField(entry, 4, offsetof(nvptx::ImplicitLaunchParameters, groupIdBase));
  EXPECT_EQ(occurrences(body, base), 1u) << body;
  // The implicit parameters are named where they are declared and where the base is read.
  EXPECT_EQ(occurrences(body, "_param_4"), 2u) << body;
  // The id is the block's plus the base in 32 bits, then scaled to the global id.
  EXPECT_NE(body.find("add.s32"), std::string::npos) << body;
}

// The entry for launches of whole groups at offset 0 reads no global size (no thread can be
// outside the range) and no global offset.
TEST(Nvptx, OnlyTheEntryForAnyLaunchChecksTheGlobalRangeAndReadsTheOffset) {
  const BuildResult built = compileSource(kTriad);
  ASSERT_EQ(built.status, Status::Success) << built.log;
  const std::string ptx = ptxOf(built);
  const std::string anyLaunch = entryBody(ptx, "triad");
  const std::string wholeGroups = entryBody(ptx, std::string("triad") + kWholeGroupsEntrySuffix);
  const std::string globalSize = "param_4+24]";  // ImplicitLaunchParameters::globalSize[0]
  EXPECT_NE(anyLaunch.find(globalSize), std::string::npos) << anyLaunch;
  ASSERT_FALSE(wholeGroups.empty()) << ptx;
  EXPECT_EQ(wholeGroups.find(globalSize), std::string::npos) << wholeGroups;
  // The triad reads nothing else of the implicit parameters but the group-id base: the entry for
  // whole groups names them where it declares them and there.
  EXPECT_EQ(occurrences(wholeGroups, "_param_4"), 2u) << wholeGroups;
  EXPECT_NE(wholeGroups.find("%ntid.x"), std::string::npos) << "the enqueued local size is the block's\n" << wholeGroups;
}

// A second entry would double a large kernel's share of the compile and of the driver's JIT for
// a range check lost in its run time: large kernels get only the entry for any launch.
TEST(Nvptx, LargeKernelsHaveOnlyTheEntryForAnyLaunch) {
  const BuildResult built = compileSource(R"(
    #define STEP x = x * 1.0001f + (float)(i ^ 3);
    #define STEP10 STEP STEP STEP STEP STEP STEP STEP STEP STEP STEP
    #define STEP100 STEP10 STEP10 STEP10 STEP10 STEP10 STEP10 STEP10 STEP10 STEP10 STEP10
    kernel void small(global float* a) { a[get_global_id(0)] += 1.0f; }
    kernel void large(global float* a) {
      size_t i = get_global_id(0);
      float x = a[i];
      STEP100 STEP100 STEP100 STEP100 STEP100 STEP100 STEP100 STEP100
      a[i] = x;
    })");
  ASSERT_EQ(built.status, Status::Success) << built.log;
  const std::string ptx = ptxOf(built);
  EXPECT_FALSE(entryBody(ptx, "small").empty()) << ptx;
  EXPECT_FALSE(entryBody(ptx, std::string("small") + kWholeGroupsEntrySuffix).empty()) << ptx;
  EXPECT_FALSE(entryBody(ptx, "large").empty()) << ptx;
  EXPECT_EQ(ptx.find(std::string("large") + kWholeGroupsEntrySuffix), std::string::npos);
}

TEST(Nvptx, RequiredWorkGroupSizeBecomesReqntid) {
  const std::string fixed = entryBody(ptxOf(nvptxKernels("work_items")), "fixed_group");
  EXPECT_NE(fixed.find(".reqntid 8, 4, 1"), std::string::npos) << fixed;
}

// Warps of 32: shuffles (64-bit values as two), ballots and sub_group_barrier among the lanes of
// the sub-group, whose mask covers only the lanes that exist; the non-uniform functions among the
// lanes that activemask finds, Intel's block reads as loads of one element per lane.
TEST(Nvptx, SubGroupFunctionsAreWarpShufflesAndVotes) {
  const std::string ptx = ptxOf(nvptxKernels("sub_groups"));
  const std::string reduce = entryBody(ptx, "collectives_double");
  EXPECT_NE(reduce.find("shfl.sync.idx.b32"), std::string::npos) << reduce;
  EXPECT_NE(reduce.find("%laneid"), std::string::npos) << reduce;
  const std::string votes = entryBody(ptx, "votes");
  EXPECT_NE(votes.find("vote.sync.ballot.b32"), std::string::npos) << votes;
  EXPECT_EQ(votes.find("activemask"), std::string::npos) << "uniform votes take the whole sub-group\n" << votes;
  const std::string nonUniform = entryBody(ptx, "non_uniform");
  for (const char* text : {"activemask.b32", "vote.sync.ballot.b32", "shfl.sync.idx.b32"})
    EXPECT_NE(nonUniform.find(text), std::string::npos) << text << "\n" << nonUniform;
  const std::string blocks = entryBody(ptx, "block_reads");
  EXPECT_NE(blocks.find("ld.global"), std::string::npos) << blocks;
  EXPECT_EQ(blocks.find("shfl"), std::string::npos) << blocks;
  const std::string exchange = entryBody(ptx, "sub_group_exchange");
  EXPECT_NE(exchange.find("bar.warp.sync"), std::string::npos) << exchange;
  EXPECT_EQ(exchange.find("bar.sync"), std::string::npos) << "no work-group barrier\n" << exchange;
  EXPECT_NE(entryBody(ptx, "sub_groups_around_barrier").find("bar.sync"), std::string::npos);
}

TEST(Nvptx, RequiredSubGroupSizeIsTheWarps) {
  const auto build = [](uint32_t size) {
    return compileSource("__attribute__((intel_reqd_sub_group_size(" + std::to_string(size) +
                         "))) kernel void k(global int* out) { out[0] = 1; }");
  };
  const BuildResult warp = build(32);
  ASSERT_EQ(warp.status, Status::Success) << warp.log;
  EXPECT_EQ(warp.program->info.findKernel("k")->requiredSubGroupSize, 32u);
  const BuildResult other = build(16);
  EXPECT_EQ(other.status, Status::BuildFailure);
  EXPECT_NE(other.log.find("sub-groups have 32 work-items"), std::string::npos) << other.log;
}

// Global and generic atomics are system-scoped: the memory may be shared with the host or other
// GPUs (fine-grained SVM, a composite root's launch over several GPUs), where PTX's default .gpu
// scope is atomic only within one GPU. Those whose old value nothing reads are reductions (red).
// Local atomics keep the block's shared-memory form.
TEST(Nvptx, AtomicsAreAtomInstructionsOfSystemScopeOutsideLocalMemory) {
  const std::string ptx = ptxOf(nvptxKernels("atomics"));
  for (const char* instruction : {"red.global.sys.add.u32", "red.global.sys.add.u64", "atom.global.sys.cas.b32",
                                  "atom.shared.add.u32"})
    EXPECT_NE(ptx.find(instruction), std::string::npos) << instruction << "\n" << ptx;
  for (const char* unscoped : {"atom.global.add", "atom.global.cas", "red.global.add"})
    EXPECT_EQ(ptx.find(unscoped), std::string::npos) << unscoped << "\n" << ptx;
}

// Atomics that ask for an order get membar around them: LLVM 15's NVPTX atomics are relaxed, and
// the translator's OpenCL 1.2 lowering drops SPIR-V's semantics (fenceOrderedAtomics keeps them as
// fences). An acquire-release exchange is fenced on both sides, a release store before, a relaxed
// one (and OpenCL 1.x's) not at all.
TEST(Nvptx, OrderedAtomicsAreFencedAndRelaxedOnesAreNot) {
  const BuildResult built = compileSource(R"(
    kernel void ordered(volatile global atomic_int* lock, global int* data) {
      while (atomic_exchange_explicit(lock, 1, memory_order_acq_rel, memory_scope_device)) {}
      data[0] += 1;
      atomic_store_explicit(lock, 0, memory_order_release, memory_scope_device);
    }
    kernel void relaxed(volatile global atomic_int* counter, global int* old_style) {
      atomic_fetch_add_explicit(counter, 1, memory_order_relaxed, memory_scope_device);
      atomic_inc(old_style);
    })", "-cl-std=CL3.0");
  ASSERT_EQ(built.status, Status::Success) << built.log;
  const std::string ptx = ptxOf(built);
  const std::string ordered = entryBody(ptx, "ordered");
  // The fences and atomics in order: the spinning exchange fenced on both sides, then the store
  // (an exchange too) fenced before.
  std::string order;
  static const std::regex fenceOrAtomic(R"(membar\.gl|atom[.a-z]*\.exch)");
  for (std::sregex_iterator it(ordered.begin(), ordered.end(), fenceOrAtomic), end; it != end; ++it)
    order += it->str().rfind("membar", 0) == 0 ? "fence " : "exchange ";
  EXPECT_EQ(order, "fence exchange fence fence exchange ") << ordered;
  EXPECT_EQ(entryBody(ptx, "relaxed").find("membar"), std::string::npos) << entryBody(ptx, "relaxed");
}

// An ordered atomic's fences have its scope: a work-group's order the block (membar.cta, far
// cheaper than the GPU's membar.gl), all SVM devices' the host and every GPU (membar.sys), the
// device's its GPU, or every GPU of a root over several (whose groups run on all of them: OpenCL-CTS
// c11_atomics' atomic_fence failed on such a root with the GPU's membar.gl). Fences alone too.
TEST(Nvptx, FencesOrderForTheirScopeAndTheDevicesGpus) {
  const SpirvResult spirv = compileOpenClSource({R"(
    kernel void group(volatile global atomic_int* counter) {
      atomic_fetch_add_explicit(counter, 1, memory_order_acq_rel, memory_scope_work_group);
    }
    kernel void everywhere(volatile global atomic_int* counter) {
      atomic_fetch_add_explicit(counter, 1, memory_order_acq_rel, memory_scope_all_svm_devices);
    }
    kernel void device(volatile global atomic_int* counter) {
      atomic_fetch_add_explicit(counter, 1, memory_order_acq_rel, memory_scope_device);
    }
    kernel void fence_alone(global int* data) {
      data[0] = 1;
      atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device);
    })", "-cl-std=CL3.0", {}});
  ASSERT_EQ(spirv.status, Status::Success) << spirv.log;
  for (bool spansGpus : {false, true}) {
    CompileRequest request;
    request.spirv = spirv.spirv;
    request.options = "-cl-std=CL3.0";
    request.target = Target::Nvptx;
    request.spansGpus = spansGpus;
    const BuildResult built = compileSpirv(request);
    ASSERT_EQ(built.status, Status::Success) << built.log;
    const std::string ptx = ptxOf(built);
    const auto fences = [&](const char* kernel) {
      const std::string body = entryBody(ptx, kernel);
      std::string found;
      static const std::regex membar(R"(membar\.(cta|gl|sys))");
      for (std::sregex_iterator it(body.begin(), body.end(), membar), end; it != end; ++it) found += (*it)[1].str() + " ";
      return found;
    };
    const std::string device = spansGpus ? "sys sys " : "gl gl ";
    EXPECT_EQ(fences("group"), "cta cta ") << spansGpus;
    EXPECT_EQ(fences("everywhere"), "sys sys ") << spansGpus;
    EXPECT_EQ(fences("device"), device) << spansGpus;
    EXPECT_EQ(fences("fence_alone"), spansGpus ? "sys " : "gl ") << spansGpus;
  }
}

// Float and double add are the native instructions (sm_60 and later have both); min and max
// compare and swap the bits.
TEST(Nvptx, FloatAtomicAddIsNativeAndMinMaxCompareAndSwap) {
  const std::string ptx = ptxOf(nvptxKernels("float_atomics"));
  for (const char* instruction : {"atom.global.sys.add.f32", "atom.shared.add.f32", "atom.sys.add.f32", "atom.global.sys.add.f64",
                                  "atom.shared.add.f64", "atom.sys.add.f64", "atom.global.sys.cas.b32", "atom.shared.cas.b64"})
    EXPECT_NE(ptx.find(instruction), std::string::npos) << instruction << "\n" << ptx;
  EXPECT_NE(entryBody(ptx, "spirv_float_extremes").find("max.f32"), std::string::npos);
}

// to_global, to_local, to_private and get_fence ask isspacep which window of the generic address
// space the pointer lies in; to_local converts with cvta.to.shared. Unrolled, the loop has to_local
// of global pointers, which the optimizer makes casts from global to shared (in instructions and
// in constant expressions): the backend, which cannot select them, would abort the process.
TEST(Nvptx, GenericAddressSpaceFunctionsAreIsspacep) {
  const SpirvResult spirv = compileOpenClSource({R"(
    global int counter;
    kernel void spaces(global int* data, local int* scratch, global uint* out) {
      int mine = 3;
      generic int* pointers[4] = {data, scratch, &mine, &counter};
      for (int i = 0; i < 4; ++i) {
        generic int* p = pointers[i];
        local int* l = to_local(p);
        out[i] = (to_global(p) != 0) | (l != 0) << 1 | (to_private(p) != 0) << 2 | get_fence(p) << 3;
        if (l) out[8] = *l;
      }
    })", "-cl-std=CL2.0", {}});
  ASSERT_EQ(spirv.status, Status::Success) << spirv.log;
  const BuildResult built = compileForNvptx(spirv.spirv);
  ASSERT_EQ(built.status, Status::Success) << built.log;
  const std::string ptx = entryBody(ptxOf(built), "spaces");
  for (const char* window : {"isspacep.global", "isspacep.shared", "isspacep.local", "isspacep.const"})
    EXPECT_NE(ptx.find(window), std::string::npos) << window << "\n" << ptx;
  EXPECT_NE(ptx.find("cvta.to.shared"), std::string::npos) << ptx;
  EXPECT_EQ(ptx.find("__loom_pointer_space"), std::string::npos) << ptx;
  if (std::filesystem::exists(kPtxas)) expectPtxasAccepts(ptxOf(built), "generic_spaces", "sm_80");
}

// OpenCL C 3.0 6.4.4: a null pointer of a named space converted to generic is the generic null, and
// back; PTX's cvta converts 0 to the base of the space's window. OpenCL-CTS
// generic_address_space compare_pointers (subcases 3 and 5).
TEST(Nvptx, CastsBetweenAddressSpacesKeepNullPointersNull) {
  const BuildResult built = compileSourceFor(Target::Nvptx, R"(
    kernel void compare_local(global uint* results) {
      int* ptr = NULL;
      local int* lptr = NULL;
      results[get_global_id(0)] = (ptr == lptr);
    }
    kernel void compare_assigned(global uint* results) {
      int* ptr = NULL;
      local int* lptr = NULL;
      global int* gptr = NULL;
      ptr = lptr;
      results[get_global_id(0)] = (gptr == ptr) && (lptr == ptr);
    }
    kernel void widen(local int* scratch, global ulong* out, int pick) {
      local int* l = pick ? scratch : NULL;
      int* g = l;
      out[0] = (ulong)g;
    }
    kernel void narrow(global ulong* in, global ulong* out) {
      int* g = (int*)in[0];
      out[0] = (ulong)(local int*)g;
      out[1] = (ulong)(global int*)g;
    })", "-cl-std=CL3.0");
  ASSERT_EQ(built.status, Status::Success) << built.log;
  const std::string ptx = ptxOf(built);
  for (const char* kernel : {"compare_local", "compare_assigned"}) {
    const std::string body = entryBody(ptx, kernel);
    EXPECT_EQ(body.find("cvta"), std::string::npos) << "the nulls compare as constants\n" << body;
    EXPECT_TRUE(std::regex_search(body, std::regex(R"(mov\.u32\s+%r\d+, 1;)"))) << body;
  }
  // cvta's result is taken only where the pointer is not 0.
  auto guarded = [](const std::string& conversion) {
    return std::regex(conversion + R"(\.u64\s+(%rd\d+), %rd\d+;[^]*selp\.b64\s+%rd\d+, 0, \1, %p\d+;)");
  };
  EXPECT_TRUE(std::regex_search(entryBody(ptx, "widen"), guarded(R"(cvta\.shared)"))) << entryBody(ptx, "widen");
  EXPECT_TRUE(std::regex_search(entryBody(ptx, "narrow"), guarded(R"(cvta\.to\.shared)"))) << entryBody(ptx, "narrow");
  EXPECT_TRUE(std::regex_search(entryBody(ptx, "narrow"), guarded(R"(cvta\.to\.global)"))) << entryBody(ptx, "narrow");
  if (std::filesystem::exists(kPtxas)) expectPtxasAccepts(ptx, "null_casts", "sm_90");
}

// sub_group_broadcast_first in both arms of a branch (OpenCL-CTS subgroups ballot test): each arm
// asks for its own active lanes. One activemask hoisted above the branch saw the lanes of both
// arms, so the arm of lanes 4 and up took lane 0's value.
TEST(Nvptx, EachArmOfABranchHasItsOwnActiveLanes) {
  const BuildResult built = compileSourceFor(Target::Nvptx, R"(
    kernel void first(const global int* in, global int* out) {
      int gid = get_global_id(0);
      int x = in[gid];
      if (get_sub_group_local_id() < 4)
        out[gid] = sub_group_broadcast_first(x);
      else
        out[gid] = sub_group_broadcast_first(x);
    })", "-cl-std=CL3.0");
  ASSERT_EQ(built.status, Status::Success) << built.log;
  const std::string body = entryBody(ptxOf(built), "first");
  EXPECT_EQ(occurrences(body, "activemask.b32"), 2u) << body;
  EXPECT_EQ(occurrences(body, "shfl.sync.idx.b32"), 2u) << body;
}

TEST(Nvptx, MathComesFromLibdevice) {
  if (std::filesystem::path libdevice = "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc"; !std::filesystem::exists(libdevice))
    GTEST_SKIP() << libdevice << " is not installed";
  const BuildResult& built = nvptxKernels("math");
  ASSERT_EQ(built.status, Status::Success) << built.log;
  const std::string ptx = ptxOf(built);
  EXPECT_EQ(ptx.find("__nv_"), std::string::npos) << "libdevice functions are inlined";
  EXPECT_NE(entryBody(ptx, "float_math").find("sqrt.rn.f32"), std::string::npos);
}

// ilogb serves vstore_half's rounding modes (OpenCL-CTS test_half); the C library's has no NVPTX body.
TEST(Nvptx, IlogbAndRoundedHalfStoresBuild) {
  const BuildResult built = compileSource(R"(
    kernel void k(global float* in, global int* exponents, global half* out) {
      size_t i = get_global_id(0);
      exponents[i] = ilogb(in[i]) + ilogb((double)in[i]);
      vstore_half_rtz(in[i], i, out);
      vstore_half_rtp(in[i], i + 1, out);
    })");
  ASSERT_EQ(built.status, Status::Success) << built.log;
}

// A kernel per vector width (1 is the scalar form) that loads halves, converts them to float and
// double and back (every rounding mode of the stores), as OpenCL-CTS test_half's kernels do.
std::string halfVectorKernels() {
  std::string source = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  for (const std::string width : {"", "2", "3", "4", "8", "16"}) {
    const std::string n = width.empty() ? "1" : width;
    const std::string aligned = width.empty() ? "" : "a";  // vloada_half of a scalar is vload_half
    source += "kernel void halves" + n + "(global half* in, global float" + width + "* f, global double" + width +
              "* d, global half* out) {\n  size_t i = get_global_id(0);\n" +
              "  float" + width + " x = vload_half" + width + "(i, in) + vload" + aligned + "_half" + width + "(i + 1, in);\n" +
              "  f[i] = x;\n  d[i] = convert_double" + width + "(x) + convert_double" + width + "(f[i + 1]);\n" +
              "  vstore_half" + width + "(convert_double" + width + "(vload_half" + width + "(i, in)), i, out);\n";
    for (const char* rounding : {"", "_rte", "_rtz", "_rtp", "_rtn"}) {
      source += "  vstore_half" + width + rounding + "(x, i + 2, out);\n";
      source += "  vstore" + aligned + "_half" + width + rounding + "(d[i + 3], i + 4, out);\n";
    }
    source += "}\n";
  }
  return source;
}

// convert_double16(vload_half16(...)) widened a loaded float16 whole, which the backend emitted as
// `ld.v2.f32` into f64 registers: ptxas rejected the program (OpenCL-CTS test_half roundTrip).
TEST(Nvptx, HalfVectorLoadsAndStoresOfEveryWidthPassPtxas) {
  const BuildResult built = compileSource(halfVectorKernels());
  ASSERT_EQ(built.status, Status::Success) << built.log;
  const std::string ptx = ptxOf(built);
  EXPECT_EQ(ptx.find(".extern .func"), std::string::npos) << ptx;
  EXPECT_NE(entryBody(ptx, "halves16").find("cvt.f64.f32"), std::string::npos);
  if (!std::filesystem::exists(kPtxas)) GTEST_SKIP() << kPtxas << " is not installed";
  for (const char* arch : {"sm_80", "sm_90"}) expectPtxasAccepts(ptx, "half_vectors", arch);
}

TEST(Nvptx, ValuesVectorsAndFencesFromOpenClSource) {
  const BuildResult built = compileSource(R"(
    typedef struct { float x; long y; char z; } record_t;
    kernel void by_value(global float4* out, float4 v, record_t r, uchar c, local float* scratch) {
      scratch[get_local_id(0)] = r.x + c;
      mem_fence(CLK_GLOBAL_MEM_FENCE);
      barrier(CLK_LOCAL_MEM_FENCE);
      out[get_global_id(0)] = v * (float)r.y + scratch[0] + fmod(v, (float4)(r.z));
    })");
  ASSERT_EQ(built.status, Status::Success) << built.log;
  const std::string ptx = ptxOf(built);
  const KernelDescriptor* kernel = built.program->info.findKernel("by_value");
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(entryParameterSizes(ptx, "by_value"), (std::vector<uint32_t>{8, 16, 24, 1, 4, kImplicitParameterSize})) << ptx;
  EXPECT_EQ(entryParameterSizes(ptx, "by_value"), contractSizes(*kernel));
  EXPECT_NE(ptx.find("membar.gl"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find("bar.sync"), std::string::npos) << ptx;
  EXPECT_EQ(ptx.find(".extern .func"), std::string::npos) << ptx;
  if (std::filesystem::exists(kPtxas)) expectPtxasAccepts(ptx, "by_value", "sm_80");
}

TEST(Nvptx, PrintfBecomesTheDriversVprintf) {
  const BuildResult built = compileSource(R"(kernel void hello(global int* out) {
    printf("%d %f %s %c %ld\n", out[0], 1.5f, "text", 'x', (long)out[1]);
    printf("no arguments\n");
  })");
  ASSERT_EQ(built.status, Status::Success) << built.log;
  const std::string ptx = ptxOf(built);
  EXPECT_NE(ptx.find(".extern .func  (.param .b32 func_retval0) vprintf"), std::string::npos) << ptx;
  EXPECT_EQ(ptx.find(") printf"), std::string::npos) << "no call of printf itself";
  if (std::filesystem::exists(kPtxas)) expectPtxasAccepts(ptx, "printf", "sm_90");
}

// nextafter steps the representation in the builtin library: libdevice maps no C library call
// for it (OpenCL-CTS test_basic kernel_limit_constants failed to build on the GPU).
TEST(Nvptx, NextafterNeedsNoCLibrary) {
  const BuildResult built = compileSource(R"(kernel void step(global float* f, global double* d) {
    f[0] = nextafter(f[1], f[2]);
    d[0] = nextafter(d[1], d[2]);
  })");
  ASSERT_EQ(built.status, Status::Success) << built.log;
  EXPECT_EQ(ptxOf(built).find("nextafter"), std::string::npos);
}

// Half arithmetic is native f16 on the GPU (sm_53 and later): scalar and paired (f16x2)
// instructions; mad is a native fma. Half math computes in float: sin through libdevice's
// __nv_sinf, rounded back.
TEST(Nvptx, HalfArithmeticIsNativeF16) {
  const BuildResult built = compileSource(R"(#pragma OPENCL EXTENSION cl_khr_fp16 : enable
    kernel void half_arithmetic(global half* h, global half2* v) {
      h[0] = h[1] * h[2];
      h[3] = h[4] + h[5];
      h[6] = mad(h[7], h[8], h[9]);
      v[0] = v[1] * v[2] + v[3];
      h[10] = h[11] < h[12] ? h[13] : h[14];
    }
    kernel void half_math(global half* h) { h[0] = sin(h[1]); })");
  ASSERT_EQ(built.status, Status::Success) << built.log;
  const std::string ptx = ptxOf(built);
  const std::string arithmetic = entryBody(ptx, "half_arithmetic");
  EXPECT_NE(arithmetic.find("mul.rn.f16 "), std::string::npos) << arithmetic;
  EXPECT_NE(arithmetic.find("add.rn.f16 "), std::string::npos) << arithmetic;
  EXPECT_NE(arithmetic.find("fma.rn.f16 "), std::string::npos) << arithmetic;
  EXPECT_NE(arithmetic.find(".f16x2"), std::string::npos) << arithmetic;
  EXPECT_NE(arithmetic.find("setp.lt.f16"), std::string::npos) << arithmetic;
  EXPECT_EQ(arithmetic.find(".f32"), std::string::npos) << "no arithmetic through float\n" << arithmetic;
  EXPECT_NE(entryBody(ptx, "half_math").find("cvt.rn.f16.f32"), std::string::npos);
  if (std::filesystem::exists(kPtxas)) expectPtxasAccepts(ptx, "half_arithmetic", "sm_80");
}

// The driver's vprintf has no vector conversions: each component gets its own, as on the CPU.
TEST(Nvptx, PrintfOfVectorsPrintsEachComponent) {
  const BuildResult built = compileSource(R"(kernel void hello(global float4* out, global char2* c) {
    printf("%v4hlf|%v2hhd\n", out[0], c[0]);
  })");
  ASSERT_EQ(built.status, Status::Success) << built.log;
  const std::string ptx = ptxOf(built);
  EXPECT_EQ(ptx.find("%v4hlf"), std::string::npos) << ptx;
  // The expanded format, as PTX spells a string constant: byte values.
  std::string expanded;
  for (char c : std::string("%f,%f,%f,%f|%d,%d")) expanded += std::to_string(int(c)) + ", ";
  EXPECT_NE(ptx.find(expanded), std::string::npos) << ptx;
  if (std::filesystem::exists(kPtxas)) expectPtxasAccepts(ptx, "hello", "sm_90");
}

// The driver's vprintf knows the lengths h, l and ll but not hh: printf("%#v2hhx", (uchar2)(0xFA,
// 0xFB)) printed wrongly on the GPU (OpenCL-CTS test_printf vector_1). Each %hh conversion prints
// its argument narrowed to 8 bits by a conversion without length; h stays.
TEST(Nvptx, PrintfNarrowsCharConversionsItself) {
  const BuildResult built = compileSource(R"(kernel void hello(global int* in) {
    printf("%#v2hhx|%hhd|%hhu|%hx\n", (uchar2)(0xFA, 0xFB), in[0], in[1], (ushort)in[2]);
  })");
  ASSERT_EQ(built.status, Status::Success) << built.log;
  const std::string ptx = ptxOf(built);
  std::string expanded;
  for (char c : std::string("%#x,%#x|%d|%u|%hx\n")) expanded += std::to_string(int(c)) + ", ";
  EXPECT_NE(ptx.find(expanded), std::string::npos) << ptx;
  const std::string body = entryBody(ptx, "hello");
  EXPECT_NE(body.find("ld.global.s8"), std::string::npos) << "%hhd: the low byte, sign-extended\n" << body;
  EXPECT_NE(body.find("ld.global.u8"), std::string::npos) << "%hhu: the low byte, zero-extended\n" << body;
  if (std::filesystem::exists(kPtxas)) expectPtxasAccepts(ptx, "hello_hh", "sm_90");
}

// LOOM_LibdevicePath replaces the search; pointing it nowhere is a CUDA-less machine.
class WithoutLibdevice : public testing::Test {
 protected:
  void SetUp() override { setenv("LOOM_LibdevicePath", kMissing, 1); }
  void TearDown() override { unsetenv("LOOM_LibdevicePath"); }
  static constexpr const char* kMissing = "/nonexistent/loom/libdevice.10.bc";
};

TEST_F(WithoutLibdevice, MathFailsNamingTheMissingFile) {
  const BuildResult built = compileForNvptx(readSpirv("math"));
  EXPECT_EQ(built.status, Status::BuildFailure);
  EXPECT_NE(built.log.find(kMissing), std::string::npos) << built.log;
  EXPECT_NE(built.log.find("libdevice"), std::string::npos) << built.log;
  EXPECT_NE(built.log.find("__nv_sinf"), std::string::npos) << built.log;
}

TEST_F(WithoutLibdevice, KernelsWithoutMathStillCompile) {
  for (const char* name : {"work_items", "barriers", "atomics"}) {
    const BuildResult built = compileForNvptx(readSpirv(name));
    EXPECT_EQ(built.status, Status::Success) << name << ": " << built.log;
  }
}

// `.func (.param .b32 func_retval0) name(`, the PTX of `int name(int)`, with `linkage` before it.
std::regex intFunction(const std::string& linkage, const std::string& name) {
  return std::regex(linkage + R"(\s+\.func\s+\(\.param \.b32 func_retval0\)\s+)" + name + R"(\s*\()");
}

TEST(Nvptx, ExportedFunctionsAreVisibleWithVariablesHoldingTheirAddresses) {
  const BuildResult& built = nvptxKernels("function_pointer_kernels");
  ASSERT_EQ(built.status, Status::Success) << built.log;
  const std::string ptx = ptxOf(built);
  for (const std::string name : {"add_one", "square"}) {
    EXPECT_TRUE(std::regex_search(ptx, intFunction(R"(\.visible)", name))) << name << "\n" << ptx;
    // What the CUDA backend reads for zeModuleGetFunctionPointer (nvptx_launch_abi.h).
    const std::string address = ".visible .global .align 8 .u64 __loom_address_of_" + name + " = " + name + ";";
    EXPECT_NE(ptx.find(address), std::string::npos) << address << "\n" << ptx;
  }
}

TEST(Nvptx, CallsThroughPointersUseACallPrototype) {
  const std::string ptx = ptxOf(nvptxKernels("function_pointer_kernels"));
  for (const char* kernel : {"call_through_argument", "call_through_table", "call_chosen"}) {
    const std::string body = entryBody(ptx, kernel);
    EXPECT_TRUE(std::regex_search(body, std::regex(R"(\.callprototype\s+\(\.param \.b32 _\) _ \(\.param \.b32 _\);)")))
        << kernel << "\n" << body;
    EXPECT_TRUE(std::regex_search(body, std::regex(R"(call \(retval0\),\s*%rd\d+,)"))) << kernel << "\n" << body;
  }
  // call_chosen takes the addresses itself.
  EXPECT_TRUE(std::regex_search(entryBody(ptx, "call_chosen"), std::regex(R"(mov\.u64\s+%rd\d+, square;)"))) << ptx;
}

TEST(Nvptx, ImportsAreExternFunctionsAndExportsVisibleOnes) {
  const BuildResult& importer = nvptxKernels("importer");
  ASSERT_EQ(importer.status, Status::Success) << importer.log;
  EXPECT_EQ(importer.program->info.importedFunctions, std::vector<std::string>{"linked_helper"});
  const std::string ptx = ptxOf(importer);
  EXPECT_TRUE(std::regex_search(ptx, intFunction(R"(\.extern)", "linked_helper"))) << ptx;
  EXPECT_TRUE(std::regex_search(ptxOf(nvptxKernels("exporter")), intFunction(R"(\.visible)", "linked_helper")));
}

TEST(Nvptx, TheLinkerResolvesImportsWithTheExportersPtx) {
  if (!std::filesystem::exists(kPtxas) || !std::filesystem::exists(kNvlink)) GTEST_SKIP() << "no CUDA toolkit";
  const std::string importer = ptxOf(nvptxKernels("importer")), exporter = ptxOf(nvptxKernels("exporter"));
  ASSERT_FALSE(importer.empty());
  ASSERT_FALSE(exporter.empty());
  for (const char* arch : {"sm_80", "sm_90"}) {
    const Command linked = linkRelocatable({importer, exporter}, "linked", arch);
    EXPECT_EQ(linked.status, 0) << arch << ":\n" << linked.output;
    const Command alone = linkRelocatable({importer}, "alone", arch);
    EXPECT_NE(alone.status, 0) << arch;
    EXPECT_NE(alone.output.find("linked_helper"), std::string::npos) << arch << ":\n" << alone.output;
  }
}

TEST(Nvptx, IdentityNamesTheTargetAndDiffersFromTheCpu) {
  const std::string identity = compilerIdentity(Target::Nvptx);
  EXPECT_NE(identity, compilerIdentity(Target::Cpu));
  EXPECT_NE(identity.find("sm_80"), std::string::npos) << identity;
}

// Native binaries of one target are alike on every device of it: their UUID follows the
// compiler's identity for the target, which differs between targets.
TEST(Nvptx, NativeBinaryUuidNamesTheTarget) {
  EXPECT_EQ(nativeBinaryUuid(Target::Nvptx), nativeBinaryUuid(Target::Nvptx));
  EXPECT_NE(nativeBinaryUuid(Target::Nvptx), nativeBinaryUuid(Target::Cpu));
  EXPECT_NE(nativeBinaryUuid(Target::Cpu), (std::array<uint8_t, 16>{}));
}

}  // namespace
}  // namespace loom::compiler::test
