// Programs: OpenCL C source with -D, -I, -cl-std, -w and -Werror; build logs and status; bad
// options; clCompileProgram with embedded headers and clLinkProgram of objects and libraries;
// binaries round-tripping through clCreateProgramWithBinary; programs from SPIR-V IL and their
// specialization constants; program-scope globals; kernel names; release callbacks.
#include "cl_test_helpers.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace loom::test {
namespace {

class ProgramTest : public ClTest {
 protected:
  // `source` compiled with `header` embedded as "sub/helper.h".
  cl_program compiledWithHelperHeader(const char* source, const char* header) {
    cl_program headerProgram = sourceProgram(header);
    cl_program program = sourceProgram(source);
    const char* names[] = {"sub/helper.h"};
    EXPECT_CL_OK(clCompileProgram(program, 1, &device, "", 1, &headerProgram, names, nullptr, nullptr));
    return program;
  }

  // Runs the one-argument kernel `name` of `p` on one work-item and returns out[0..count).
  std::vector<int> runOnce(cl_program p, const char* name, size_t count = 1) {
    cl_kernel k = kernel(p, name);
    if (!k) return {};
    cl_mem out = buffer(CL_MEM_READ_WRITE, count * sizeof(int));
    setArgs(k, out);
    run1d(k, 1);
    return readBack<int>(out, count);
  }

  cl_int tryBuild(cl_program p, const char* options) { return clBuildProgram(p, 0, nullptr, options, nullptr, nullptr); }

  std::string buildOptions(cl_program p) { return infoString(buildQuery(p, CL_PROGRAM_BUILD_OPTIONS)); }
  cl_program_binary_type binaryType(cl_program p) { return infoScalar<cl_program_binary_type>(buildQuery(p, CL_PROGRAM_BINARY_TYPE)); }

  std::vector<unsigned char> binaryOf(cl_program p) {
    const auto sizes = infoArray<size_t>([&](size_t s, void* v, size_t* r) { return clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, s, v, r); });
    EXPECT_EQ(sizes.size(), 1u);
    if (sizes.size() != 1) return {};
    std::vector<unsigned char> binary(sizes[0]);
    unsigned char* pointers[] = {binary.data()};
    size_t returned = 0;
    EXPECT_CL_OK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(pointers), pointers, &returned));
    EXPECT_EQ(returned, sizeof(pointers));
    return binary;
  }

  cl_program fromBinary(const std::vector<unsigned char>& binary, cl_int* status, cl_int* error) {
    const unsigned char* data = binary.data();
    const size_t length = binary.size();
    cl_program p = clCreateProgramWithBinary(context, 1, &device, &length, &data, status, error);
    if (p) programs.push_back(p);
    return p;
  }
};

const char* const kValueKernel = "kernel void value(global int* out) { out[0] = VALUE; }";

TEST_F(ProgramTest, DefinesFromDashD) {
  cl_program p = build(kValueKernel, "-D VALUE=42");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(runOnce(p, "value"), std::vector<int>{42});
  EXPECT_EQ(buildOptions(p), "-D VALUE=42");
  cl_program attached = build(kValueKernel, "-DVALUE=(6*7+1)");
  EXPECT_EQ(runOnce(attached, "value"), std::vector<int>{43});
  cl_program plain = build(kValueKernel, "-D VALUE");  // defined as 1
  EXPECT_EQ(runOnce(plain, "value"), std::vector<int>{1});
  // Without the definition the source does not compile.
  cl_program undefined = sourceProgram(kValueKernel);
  EXPECT_CL(CL_BUILD_PROGRAM_FAILURE, tryBuild(undefined, ""));
  EXPECT_NE(buildLog(undefined).find("VALUE"), std::string::npos) << buildLog(undefined);
}

TEST_F(ProgramTest, AFunctionDefinedNowhereFailsTheBuild) {
  cl_program p = sourceProgram("int defined_nowhere(int x);\nkernel void k(global int* out) { out[0] = defined_nowhere(1); }");
  EXPECT_CL(CL_BUILD_PROGRAM_FAILURE, tryBuild(p, ""));
  EXPECT_NE(buildLog(p).find("undefined functions (called, but defined in no program): defined_nowhere"), std::string::npos)
      << buildLog(p);
}

TEST_F(ProgramTest, IncludePathsFromDashI) {
  char pattern[] = "/tmp/loom-cl-include-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  const std::filesystem::path directory(pattern);
  { std::ofstream(directory / "loom_test_header.h") << "#define HEADER_VALUE 1234\n"; }
  cl_program p = build("#include \"loom_test_header.h\"\nkernel void value(global int* out) { out[0] = HEADER_VALUE; }",
                       "-I " + directory.string());
  std::vector<int> result = p ? runOnce(p, "value") : std::vector<int>{};
  cl_program attached = build("#include <loom_test_header.h>\nkernel void value(global int* out) { out[0] = HEADER_VALUE + 1; }",
                              "-I" + directory.string());
  std::vector<int> attachedResult = attached ? runOnce(attached, "value") : std::vector<int>{};
  cl_program missing = sourceProgram("#include \"loom_test_header.h\"\nkernel void k() {}");
  const cl_int missingResult = tryBuild(missing, "");
  std::filesystem::remove_all(directory);
  EXPECT_EQ(result, std::vector<int>{1234});
  EXPECT_EQ(attachedResult, std::vector<int>{1235});
  EXPECT_CL(CL_BUILD_PROGRAM_FAILURE, missingResult);
  EXPECT_NE(buildLog(missing).find("loom_test_header.h"), std::string::npos) << buildLog(missing);
}

TEST_F(ProgramTest, ClStdSelectsTheOpenClCVersion) {
  const char* source = "kernel void version(global int* out) { out[0] = __OPENCL_C_VERSION__; }";
  const std::pair<const char*, int> cases[] = {{"-cl-std=CL3.0", 300}, {"-cl-std=CL2.0", 200}, {"-cl-std=CL1.2", 120}, {"", 120}};
  for (const auto& [options, expected] : cases) {
    cl_program p = build(source, options);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(runOnce(p, "version"), std::vector<int>{expected}) << options;
  }
  // The generic address space is OpenCL C 2.0 (and 3.0 with the feature), not 1.2.
  const char* generic = R"(
    int load(int* p) { return *p; }
    kernel void uses_generic(global int* out, local int* scratch) {
      scratch[0] = 5;
      barrier(CLK_LOCAL_MEM_FENCE);
      out[0] = load(out + 1) + load(scratch);
    })";
  cl_program v20 = build(generic, "-cl-std=CL2.0");
  ASSERT_NE(v20, nullptr);
  cl_program v12 = sourceProgram(generic);
  EXPECT_CL(CL_BUILD_PROGRAM_FAILURE, tryBuild(v12, "-cl-std=CL1.2"));
  EXPECT_EQ(buildStatus(v12), CL_BUILD_ERROR);
  // An unknown version is an invalid option.
  cl_program unknown = sourceProgram(source);
  EXPECT_CL(CL_INVALID_BUILD_OPTIONS, tryBuild(unknown, "-cl-std=CL9.9"));
}

TEST_F(ProgramTest, WarningsAreLoggedSilencedWithWAndErrorsWithWerror) {
  const char* source = "#warning loom test warning\nkernel void k(global int* out) { out[0] = 1; }";
  cl_program warned = build(source, "");
  ASSERT_NE(warned, nullptr);
  EXPECT_NE(buildLog(warned).find("loom test warning"), std::string::npos) << buildLog(warned);
  cl_program silent = build(source, "-w");
  ASSERT_NE(silent, nullptr);
  EXPECT_EQ(buildLog(silent).find("loom test warning"), std::string::npos) << buildLog(silent);
  cl_program strict = sourceProgram(source);
  EXPECT_CL(CL_BUILD_PROGRAM_FAILURE, tryBuild(strict, "-Werror"));
  EXPECT_EQ(buildStatus(strict), CL_BUILD_ERROR);
  EXPECT_NE(buildLog(strict).find("loom test warning"), std::string::npos) << buildLog(strict);
}

TEST_F(ProgramTest, SyntaxErrorsFailWithALogNamingTheLine) {
  cl_program p = sourceProgram("kernel void fine(global int* out) { out[0] = 1; }\n\nkernel void broken(global int* out) { out[0] = ; }\n");
  EXPECT_EQ(buildStatus(p), CL_BUILD_NONE);
  EXPECT_CL(CL_BUILD_PROGRAM_FAILURE, tryBuild(p, "-cl-std=CL3.0"));
  EXPECT_EQ(buildStatus(p), CL_BUILD_ERROR);
  const std::string log = buildLog(p);
  EXPECT_NE(log.find(":3:"), std::string::npos) << log;
  EXPECT_NE(log.find("error"), std::string::npos) << log;
  cl_int error = CL_SUCCESS;
  EXPECT_EQ(clCreateKernel(p, "fine", &error), nullptr);
  EXPECT_CL(CL_INVALID_PROGRAM_EXECUTABLE, error);
  size_t count = 0;
  EXPECT_CL(CL_INVALID_PROGRAM_EXECUTABLE, clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof(count), &count, nullptr));
  // A fixed source builds in a program of its own.
  EXPECT_NE(build("kernel void fine(global int* out) { out[0] = 1; }"), nullptr);
}

TEST_F(ProgramTest, GarbageOptionsAreInvalidBuildOptions) {
  for (const char* options : {"-fancy-nonsense", "--definitely-not-an-option", "-D", "-cl-std=", "-I"}) {
    cl_program p = sourceProgram("kernel void k() {}");
    EXPECT_CL(CL_INVALID_BUILD_OPTIONS, tryBuild(p, options)) << "options: " << options;
  }
}

TEST_F(ProgramTest, BuildStatusTypeAndQueries) {
  const char* parts[] = {"kernel void alpha(global int* o) { o[0] = 1; }\n", "kernel void beta(global int* o) { o[0] = 2; }\nGARBAGE",
                         "kernel void gamma(global int* o) { o[0] = 3; }\n"};
  const size_t lengths[] = {0, std::strlen(parts[1]) - 7, 0};  // 0: zero-terminated; the second drops GARBAGE
  cl_int error = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(context, 3, parts, lengths, &error);
  ASSERT_CL_OK(error);
  programs.push_back(p);
  const std::string expectedSource = std::string(parts[0]) + std::string(parts[1], lengths[1]) + parts[2];
  EXPECT_EQ(infoString([&](size_t s, void* v, size_t* r) { return clGetProgramInfo(p, CL_PROGRAM_SOURCE, s, v, r); }), expectedSource);
  EXPECT_EQ(binaryType(p), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_NONE));
  ASSERT_CL_OK(tryBuild(p, "-cl-std=CL3.0"));
  EXPECT_EQ(buildStatus(p), CL_BUILD_SUCCESS);
  EXPECT_EQ(binaryType(p), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_EXECUTABLE));
  EXPECT_EQ(infoScalar<size_t>([&](size_t s, void* v, size_t* r) { return clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, s, v, r); }), 3u);
  EXPECT_EQ(splitWords(infoString([&](size_t s, void* v, size_t* r) { return clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, s, v, r); }), ';'),
            (std::set<std::string>{"alpha", "beta", "gamma"}));
  EXPECT_EQ(infoScalar<cl_context>([&](size_t s, void* v, size_t* r) { return clGetProgramInfo(p, CL_PROGRAM_CONTEXT, s, v, r); }), context);
  EXPECT_EQ(infoScalar<cl_uint>([&](size_t s, void* v, size_t* r) { return clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, s, v, r); }), 1u);
  EXPECT_EQ(infoArray<cl_device_id>([&](size_t s, void* v, size_t* r) { return clGetProgramInfo(p, CL_PROGRAM_DEVICES, s, v, r); }),
            std::vector<cl_device_id>{device});
  expectReferenceCounting(p, clGetProgramInfo, CL_PROGRAM_REFERENCE_COUNT, clRetainProgram, clReleaseProgram);
  EXPECT_EQ(runOnce(p, "gamma"), std::vector<int>{3});
  // A program with kernels attached cannot be rebuilt.
  EXPECT_CL(CL_INVALID_OPERATION, tryBuild(p, ""));
  EXPECT_CL(CL_INVALID_VALUE, clGetProgramInfo(p, 0x7fff, 0, nullptr, nullptr));
}

struct Notified {
  std::atomic<int> calls{0};
  cl_program program = nullptr;
};
void CL_CALLBACK buildNotify(cl_program p, void* data) {
  auto* notified = static_cast<Notified*>(data);
  notified->program = p;
  notified->calls.fetch_add(1);
}

TEST_F(ProgramTest, BuildCallsTheNotifyFunction) {
  cl_program p = sourceProgram("kernel void k(global int* o) { o[0] = 9; }");
  Notified notified;
  ASSERT_CL_OK(clBuildProgram(p, 1, &device, "", buildNotify, &notified));
  ASSERT_TRUE(eventually([&] { return notified.calls.load() == 1; }));
  EXPECT_EQ(notified.program, p);
  EXPECT_EQ(buildStatus(p), CL_BUILD_SUCCESS);
  int data = 0;
  EXPECT_CL(CL_INVALID_VALUE, clBuildProgram(p, 1, &device, "", nullptr, &data));  // user_data without pfn_notify
  EXPECT_CL(CL_INVALID_VALUE, clBuildProgram(p, 1, nullptr, "", nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clBuildProgram(p, 0, &device, "", nullptr, nullptr));
  const cl_device_id notDevice = reinterpret_cast<cl_device_id>(context);
  EXPECT_CL(CL_INVALID_DEVICE, clBuildProgram(p, 1, &notDevice, "", nullptr, nullptr));
}

const char* const kUser = R"(
#include "sub/helper.h"
kernel void use_helper(global int* out) { out[0] = helper_value(5) + HELPER_BIAS; }
)";
const char* const kHelper = "int helper_value(int x) { return x * 3 + 1; }";

TEST_F(ProgramTest, CompileWithEmbeddedHeadersAndLinkTwoObjects) {
  cl_program header = sourceProgram("#define HELPER_BIAS 100\nint helper_value(int x);\n");
  cl_program user = sourceProgram(kUser);
  cl_program helper = sourceProgram(kHelper);
  const char* names[] = {"sub/helper.h"};
  ASSERT_CL_OK(clCompileProgram(user, 1, &device, "-cl-std=CL3.0", 1, &header, names, nullptr, nullptr)) << buildLog(user);
  ASSERT_CL_OK(clCompileProgram(helper, 1, &device, "-cl-std=CL3.0", 0, nullptr, nullptr, nullptr, nullptr)) << buildLog(helper);
  EXPECT_EQ(binaryType(user), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT));
  EXPECT_EQ(buildStatus(user), CL_BUILD_SUCCESS);
  // A compiled object has no kernels to create yet.
  cl_int error = CL_SUCCESS;
  EXPECT_EQ(clCreateKernel(user, "use_helper", &error), nullptr);
  EXPECT_CL(CL_INVALID_PROGRAM_EXECUTABLE, error);
  cl_program linked = link({user, helper});
  ASSERT_NE(linked, nullptr);
  EXPECT_EQ(binaryType(linked), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_EXECUTABLE));
  EXPECT_EQ(buildStatus(linked), CL_BUILD_SUCCESS);
  EXPECT_EQ(infoString([&](size_t s, void* v, size_t* r) { return clGetProgramInfo(linked, CL_PROGRAM_KERNEL_NAMES, s, v, r); }),
            "use_helper");
  EXPECT_EQ(runOnce(linked, "use_helper"), std::vector<int>{116});
  // Without the embedded header the include is not found.
  cl_program lonely = sourceProgram(kUser);
  EXPECT_CL(CL_COMPILE_PROGRAM_FAILURE, clCompileProgram(lonely, 1, &device, "", 0, nullptr, nullptr, nullptr, nullptr));
  EXPECT_NE(buildLog(lonely).find("sub/helper.h"), std::string::npos) << buildLog(lonely);
  // Inconsistent header arguments.
  EXPECT_CL(CL_INVALID_VALUE, clCompileProgram(lonely, 1, &device, "", 1, nullptr, names, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clCompileProgram(lonely, 1, &device, "", 1, &header, nullptr, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_COMPILER_OPTIONS, clCompileProgram(helper, 1, &device, "-fancy-nonsense", 0, nullptr, nullptr, nullptr, nullptr));
}

TEST_F(ProgramTest, LinkReportsUnresolvedSymbolsAndRejectsExecutables) {
  cl_program user = sourceProgram("int helper_value(int x);\nkernel void use_helper(global int* out) { out[0] = helper_value(5); }");
  ASSERT_CL_OK(clCompileProgram(user, 1, &device, "", 0, nullptr, nullptr, nullptr, nullptr));
  cl_int error = CL_SUCCESS;
  cl_program linked = clLinkProgram(context, 1, &device, "", 1, &user, nullptr, nullptr, &error);
  if (linked) programs.push_back(linked);
  EXPECT_CL(CL_LINK_PROGRAM_FAILURE, error);
  if (linked) {
    EXPECT_EQ(buildStatus(linked), CL_BUILD_ERROR);
    EXPECT_NE(buildLog(linked).find("helper_value"), std::string::npos) << buildLog(linked);
  }
  // A built executable is not a linker input.
  cl_program executable = build("kernel void k() {}");
  const cl_program inputs[] = {user, executable};
  cl_program bad = clLinkProgram(context, 1, &device, "", 2, inputs, nullptr, nullptr, &error);
  EXPECT_EQ(bad, nullptr);
  EXPECT_CL(CL_INVALID_OPERATION, error);
  EXPECT_EQ(clLinkProgram(context, 1, &device, "", 0, nullptr, nullptr, nullptr, &error), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, error);
}

TEST_F(ProgramTest, LinkCreatesAndUsesALibrary) {
  cl_program helper = sourceProgram(kHelper);
  ASSERT_CL_OK(clCompileProgram(helper, 1, &device, "", 0, nullptr, nullptr, nullptr, nullptr));
  cl_program library = link({helper}, "-create-library");
  ASSERT_NE(library, nullptr);
  EXPECT_EQ(binaryType(library), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_LIBRARY));
  cl_program user = compiledWithHelperHeader(kUser, "#define HELPER_BIAS 0\nint helper_value(int x);\n");
  cl_program linked = link({user, library});
  ASSERT_NE(linked, nullptr);
  EXPECT_EQ(runOnce(linked, "use_helper"), std::vector<int>{16});

  // The library's binary loads back as a library, and links the same way.
  cl_int status = -1, error = -1;
  cl_program reloaded = fromBinary(binaryOf(library), &status, &error);
  ASSERT_CL_OK(error);
  EXPECT_CL_OK(status);
  EXPECT_EQ(binaryType(reloaded), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_LIBRARY));
  cl_program relinked = link({user, reloaded});
  ASSERT_NE(relinked, nullptr);
  EXPECT_EQ(runOnce(relinked, "use_helper"), std::vector<int>{16});
}

TEST_F(ProgramTest, ExecutableBinariesRoundTrip) {
  cl_program original = build("kernel void squares(global int* o) { size_t i = get_global_id(0); o[i] = (int)(i * i); }");
  ASSERT_NE(original, nullptr);
  const std::vector<unsigned char> binary = binaryOf(original);
  ASSERT_FALSE(binary.empty());
  cl_int status = -1, error = -1;
  cl_program loaded = fromBinary(binary, &status, &error);
  ASSERT_CL_OK(error);
  EXPECT_CL_OK(status);
  ASSERT_CL_OK(tryBuild(loaded, ""));
  EXPECT_EQ(buildStatus(loaded), CL_BUILD_SUCCESS);
  EXPECT_EQ(binaryType(loaded), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_EXECUTABLE));
  cl_kernel k = kernel(loaded, "squares");
  cl_mem out = buffer(CL_MEM_READ_WRITE, 64 * sizeof(int));
  setArgs(k, out);
  ASSERT_NO_FATAL_FAILURE(run1d(k, 64));
  const std::vector<int> values = readBack<int>(out, 64);
  for (int i = 0; i < 64; ++i) ASSERT_EQ(values[i], i * i);
  // The binary of the loaded program is the same binary again.
  EXPECT_EQ(binaryOf(loaded), binary);
}

TEST_F(ProgramTest, CompiledObjectBinariesRoundTripIntoALink) {
  cl_program helper = sourceProgram(kHelper);
  ASSERT_CL_OK(clCompileProgram(helper, 1, &device, "", 0, nullptr, nullptr, nullptr, nullptr));
  const std::vector<unsigned char> binary = binaryOf(helper);
  ASSERT_FALSE(binary.empty());
  cl_int status = -1, error = -1;
  cl_program reloaded = fromBinary(binary, &status, &error);
  ASSERT_CL_OK(error);
  EXPECT_EQ(binaryType(reloaded), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT));
  cl_program user = compiledWithHelperHeader(kUser, "#define HELPER_BIAS 1000\nint helper_value(int x);\n");
  cl_program linked = link({user, reloaded});
  ASSERT_NE(linked, nullptr);
  EXPECT_EQ(runOnce(linked, "use_helper"), std::vector<int>{1016});
}

// Makes the first OpTypeInt of a SPIR-V module signed: the module still parses, and the
// translator would read it, but SPIRV-Tools' validator rejects it (a kernel's integers have no
// signedness).
bool signFirstIntegerType(std::vector<unsigned char>& spirv) {
  constexpr uint32_t kOpTypeInt = 21;
  for (size_t at = 5 * 4; at + 16 <= spirv.size();) {
    uint32_t word = 0;
    std::memcpy(&word, &spirv[at], 4);
    if ((word & 0xffff) == kOpTypeInt && (word >> 16) == 4) {
      const uint32_t signedness = 1;
      std::memcpy(&spirv[at + 12], &signedness, 4);
      return true;
    }
    if ((word >> 16) == 0) return false;
    at += (word >> 16) * 4;
  }
  return false;
}

// Loom does not validate again the SPIR-V its own frontend wrote; a compiled object's binary that
// comes back from the application is validated, also when it is linked alone.
TEST_F(ProgramTest, ObjectBinariesFromTheApplicationAreValidatedWhenLinked) {
  cl_program object = sourceProgram("kernel void k(global int* out) { out[0] = 3; }");
  ASSERT_CL_OK(clCompileProgram(object, 1, &device, "", 0, nullptr, nullptr, nullptr, nullptr));
  cl_program good = link({object});
  ASSERT_NE(good, nullptr);
  EXPECT_EQ(runOnce(good, "k"), std::vector<int>{3});
  std::vector<unsigned char> binary = binaryOf(object);
  ASSERT_TRUE(signFirstIntegerType(binary));
  cl_int status = -1, error = -1;
  cl_program reloaded = fromBinary(binary, &status, &error);
  ASSERT_CL_OK(error);
  cl_program linked = clLinkProgram(context, 1, &device, "", 1, &reloaded, nullptr, nullptr, &error);
  if (linked) programs.push_back(linked);
  EXPECT_CL(CL_LINK_PROGRAM_FAILURE, error);
  if (linked) {
    EXPECT_NE(buildLog(linked).find("OpTypeInt"), std::string::npos) << buildLog(linked);
  }
}

TEST_F(ProgramTest, GarbageBinariesAreInvalidBinary) {
  const std::string text = "this is not a program binary, just some text long enough to look like one";
  const std::vector<unsigned char> garbage(text.begin(), text.end());
  cl_int status = CL_SUCCESS, error = CL_SUCCESS;
  EXPECT_EQ(fromBinary(garbage, &status, &error), nullptr);
  EXPECT_CL(CL_INVALID_BINARY, error);
  EXPECT_CL(CL_INVALID_BINARY, status);
  // A truncated real binary is garbage too.
  cl_program original = build("kernel void k(global int* o) { o[0] = 1; }");
  std::vector<unsigned char> truncated = binaryOf(original);
  ASSERT_GT(truncated.size(), 64u);
  truncated.resize(truncated.size() / 2);
  status = CL_SUCCESS;
  cl_program loaded = fromBinary(truncated, &status, &error);
  if (loaded) {
    // Accepted at creation: the build must then fail instead of running broken code.
    EXPECT_NE(tryBuild(loaded, ""), CL_SUCCESS);
  } else {
    EXPECT_CL(CL_INVALID_BINARY, error);
    EXPECT_CL(CL_INVALID_BINARY, status);
  }
  const unsigned char* none[] = {nullptr};
  const size_t length = 16;
  EXPECT_EQ(clCreateProgramWithBinary(context, 1, &device, &length, none, nullptr, &error), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, error);
}

TEST_F(ProgramTest, ProgramFromIlRuns) {
  const std::vector<uint8_t> il = readKernelFile("il_kernels.spv");
  ASSERT_FALSE(il.empty());
  cl_program p = ilProgram(il);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(infoArray<uint8_t>([&](size_t s, void* v, size_t* r) { return clGetProgramInfo(p, CL_PROGRAM_IL, s, v, r); }), il);
  ASSERT_CL_OK(tryBuild(p, "")) << buildLog(p);
  EXPECT_EQ(splitWords(infoString([&](size_t s, void* v, size_t* r) { return clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, s, v, r); }), ';'),
            (std::set<std::string>{"il_scale", "il_fill_ids"}));
  std::vector<int> input(100);
  for (int i = 0; i < 100; ++i) input[i] = i - 50;
  cl_mem in = bufferWith(input);
  cl_mem out = buffer(CL_MEM_READ_WRITE, input.size() * sizeof(int));
  cl_kernel k = kernel(p, "il_scale");
  setArgs(k, in, out, -3);
  ASSERT_NO_FATAL_FAILURE(run1d(k, input.size()));
  const std::vector<int> result = readBack<int>(out, input.size());
  for (int i = 0; i < 100; ++i) ASSERT_EQ(result[i], (i - 50) * -3);
  // Not SPIR-V.
  const char garbage[64] = "definitely not SPIR-V";
  cl_int error = CL_SUCCESS;
  EXPECT_EQ(clCreateProgramWithIL(context, garbage, sizeof(garbage), &error), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, error);
  EXPECT_EQ(clCreateProgramWithIL(context, nullptr, 0, &error), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, error);
}

// An IL program with a kernel that takes an image names it, and it is created like the others
// (image_kernel_test.cpp runs it).
TEST_F(ProgramTest, AnIlProgramWithAnImageKernelNamesAndCreatesIt) {
  cl_program p = ilProgram(readKernelFile("image_kernels.spv"));
  ASSERT_NE(p, nullptr);
  ASSERT_CL_OK(tryBuild(p, "")) << buildLog(p);
  EXPECT_EQ(splitWords(infoString([&](size_t s, void* v, size_t* r) { return clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, s, v, r); }), ';'),
            (std::set<std::string>{"copy_first_pixel", "sample_at", "add_one"}));
  EXPECT_NE(kernel(p, "copy_first_pixel"), nullptr);

  std::vector<int> input(64);
  for (int i = 0; i < 64; ++i) input[i] = i;
  cl_mem data = bufferWith(input);
  cl_kernel addOne = kernel(p, "add_one");
  setArgs(addOne, data);
  ASSERT_NO_FATAL_FAILURE(run1d(addOne, input.size()));
  const std::vector<int> result = readBack<int>(data, input.size());
  for (int i = 0; i < 64; ++i) ASSERT_EQ(result[i], i + 1) << i;
}

TEST_F(ProgramTest, IlProgramsCheckTheirOptions) {
  const std::vector<uint8_t> il = readKernelFile("il_kernels.spv");
  ASSERT_FALSE(il.empty());
  for (const char* options : {"-fancy-nonsense", "-cl-std=CL9.9", "-D"}) {
    cl_program p = ilProgram(il);
    ASSERT_NE(p, nullptr);
    EXPECT_CL(CL_INVALID_BUILD_OPTIONS, tryBuild(p, options)) << options;
    EXPECT_NE(buildLog(p).find(options), std::string::npos) << buildLog(p);  // the log names it
    EXPECT_CL(CL_INVALID_COMPILER_OPTIONS, clCompileProgram(p, 1, &device, options, 0, nullptr, nullptr, nullptr, nullptr))
        << options;
  }
  // Options for OpenCL C (macros, include paths, the language version) mean nothing to IL: accepted.
  cl_program p = ilProgram(il);
  ASSERT_CL_OK(tryBuild(p, "-DUNUSED=1 -I /nonexistent -cl-std=CL3.0 -cl-mad-enable")) << buildLog(p);
  cl_program object = ilProgram(il);
  ASSERT_CL_OK(clCompileProgram(object, 1, &device, "", 0, nullptr, nullptr, nullptr, nullptr));
  cl_int error = CL_SUCCESS;
  EXPECT_EQ(clLinkProgram(context, 1, &device, "-fancy-nonsense", 1, &object, nullptr, nullptr, &error), nullptr);
  EXPECT_CL(CL_INVALID_LINKER_OPTIONS, error);
}

// tests/kernels/spec_constant.spvasm: spec_value stores specialization constant 7 (a uint,
// default 5) to out[0].
TEST_F(ProgramTest, SpecializationConstantsOfIlPrograms) {
  const std::vector<uint8_t> il = readKernelFile("spec_constant.spv");
  ASSERT_FALSE(il.empty());
  cl_program byDefault = ilProgram(il);
  ASSERT_CL_OK(tryBuild(byDefault, "")) << buildLog(byDefault);
  EXPECT_EQ(runOnce(byDefault, "spec_value"), std::vector<int>{5});

  cl_program specialized = ilProgram(il);
  const cl_uint value = 42;
  ASSERT_CL_OK(clSetProgramSpecializationConstant(specialized, 7, sizeof(value), &value));
  ASSERT_CL_OK(tryBuild(specialized, "")) << buildLog(specialized);
  EXPECT_EQ(runOnce(specialized, "spec_value"), std::vector<int>{42});

  // A value set after a build applies to the next build.
  cl_program rebuilt = ilProgram(il);
  ASSERT_CL_OK(tryBuild(rebuilt, ""));
  const cl_uint later = 77;
  ASSERT_CL_OK(clSetProgramSpecializationConstant(rebuilt, 7, sizeof(later), &later));
  ASSERT_CL_OK(tryBuild(rebuilt, ""));
  EXPECT_EQ(runOnce(rebuilt, "spec_value"), std::vector<int>{77});

  EXPECT_CL(CL_INVALID_SPEC_ID, clSetProgramSpecializationConstant(specialized, 8, sizeof(value), &value));
  const cl_ulong wide = 1;
  EXPECT_CL(CL_INVALID_VALUE, clSetProgramSpecializationConstant(specialized, 7, sizeof(wide), &wide));
  EXPECT_CL(CL_INVALID_VALUE, clSetProgramSpecializationConstant(specialized, 7, sizeof(value), nullptr));
  cl_program source = sourceProgram("kernel void k() {}");
  EXPECT_CL(CL_INVALID_PROGRAM, clSetProgramSpecializationConstant(source, 7, sizeof(value), &value));
}

// tests/kernels/composite_constructs.spvasm: OpCompositeConstruct of vectors, an array and a struct
// from values that are not constants, valid SPIR-V that LLVM's SPIR-V translator 15 crashes on.
TEST_F(ProgramTest, IlProgramsBuildingCompositesOfValuesThatAreNotConstantsRun) {
  const std::vector<uint8_t> il = readKernelFile("composite_constructs.spv");
  ASSERT_FALSE(il.empty());
  cl_program program = ilProgram(il);
  ASSERT_CL_OK(tryBuild(program, "")) << buildLog(program);
  EXPECT_EQ(runOnce(program, "composites", 12), (std::vector<int>{3, 4, 4, 7, 4, 3, 7, 7, 3, 4, 7, 7}));
}

// tests/kernels/no_integer_wrap.spvasm: arithmetic decorated NoSignedWrap and NoUnsignedWrap
// (SPV_KHR_no_integer_wrap_decoration), which the device lists the extension for.
TEST_F(ProgramTest, IlProgramsWithNoIntegerWrapDecorationsRun) {
  const std::vector<uint8_t> il = readKernelFile("no_integer_wrap.spv");
  ASSERT_FALSE(il.empty());
  cl_program program = ilProgram(il);
  ASSERT_CL_OK(tryBuild(program, "")) << buildLog(program);
  std::vector<cl_uint> data = {0, 1, 7, 1000000};
  cl_mem buffer = this->buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, data.size() * sizeof(cl_uint), data.data());
  cl_kernel k = kernel(program, "wrap_free");
  ASSERT_CL_OK(clSetKernelArg(k, 0, sizeof(buffer), &buffer));
  const size_t global = data.size();
  ASSERT_CL_OK(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
  ASSERT_CL_OK(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, data.size() * sizeof(cl_uint), data.data(), 0, nullptr, nullptr));
  EXPECT_EQ(data, (std::vector<cl_uint>{5, 8, 26, 3000005}));
}

TEST_F(ProgramTest, ProgramScopeGlobalVariablesPersistAcrossLaunches) {
  const char* source = R"(
    global int counter = 5;
    global int table[4] = {10, 20, 30, 40};
    constant int bias = 1000;
    kernel void bump(global int* out) {
      counter += 1;
      table[1] += counter;
      out[0] = counter;
      out[1] = table[1];
      out[2] = table[3] + bias;
    })";
  cl_program p = build(source, "-cl-std=CL3.0");
  ASSERT_NE(p, nullptr);
  size_t total = 0;
  ASSERT_CL_OK(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE, sizeof(total), &total, nullptr));
  EXPECT_GE(total, 5 * sizeof(int));
  cl_kernel k = kernel(p, "bump");
  cl_mem out = buffer(CL_MEM_READ_WRITE, 3 * sizeof(int));
  setArgs(k, out);
  ASSERT_NO_FATAL_FAILURE(run1d(k, 1));
  EXPECT_EQ(readBack<int>(out, 3), (std::vector<int>{6, 26, 1040}));
  ASSERT_NO_FATAL_FAILURE(run1d(k, 1));
  EXPECT_EQ(readBack<int>(out, 3), (std::vector<int>{7, 33, 1040}));
  // Another program of the same source has its own variables.
  cl_program other = build(source, "-cl-std=CL3.0");
  EXPECT_EQ(runOnce(other, "bump", 3), (std::vector<int>{6, 26, 1040}));
  // OpenCL C 1.2 allows only constant program-scope variables.
  cl_program old = sourceProgram(source);
  EXPECT_CL(CL_BUILD_PROGRAM_FAILURE, tryBuild(old, "-cl-std=CL1.2"));
}

// OpenCL 3.0: with no program-scope global destructors on any device the release callback is an
// invalid operation, and the program says it has no destructors.
TEST_F(ProgramTest, ReleaseCallbacksAreInvalidWithoutGlobalDestructors) {
  cl_int error = CL_SUCCESS;
  const char* source = "kernel void k(global int* o) { o[0] = 1; }";
  cl_program p = clCreateProgramWithSource(context, 1, &source, nullptr, &error);
  ASSERT_CL_OK(error);
  ASSERT_CL_OK(tryBuild(p, ""));
  cl_bool destructors = CL_TRUE;
  ASSERT_CL_OK(clGetProgramInfo(p, CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT, sizeof(destructors), &destructors, nullptr));
  EXPECT_EQ(destructors, CL_FALSE);
  EXPECT_CL(CL_INVALID_OPERATION, clSetProgramReleaseCallback(p, [](cl_program, void*) {}, nullptr));
  EXPECT_CL(CL_INVALID_PROGRAM, clSetProgramReleaseCallback(nullptr, [](cl_program, void*) {}, nullptr));
  EXPECT_CL_OK(clReleaseProgram(p));
}

}  // namespace
}  // namespace loom::test
