// The module object: building from SPIR-V and from Loom's native binary, build logs, kernel
// names, specialization constants, global and function pointers, and dynamic linking.
#include <algorithm>
#include <set>

#include "ze_test_helpers.h"

namespace loom::test {
namespace {

class ModuleTest : public ZeTest {
 protected:
  // Builds `input`; the module (on success) is destroyed with the test; the log goes to *log.
  ze_result_t build(const std::vector<uint8_t>& input, ze_module_format_t format, ze_module_handle_t* out,
                    std::string* log = nullptr, const ze_module_constants_t* constants = nullptr, const char* flags = "") {
    ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC};
    desc.format = format;
    desc.inputSize = input.size();
    desc.pInputModule = input.data();
    desc.pBuildFlags = flags;
    desc.pConstants = constants;
    ze_module_build_log_handle_t buildLog = nullptr;
    *out = nullptr;
    const ze_result_t result = zeModuleCreate(context, device, &desc, out, &buildLog);
    if (result == ZE_RESULT_SUCCESS) modules.push_back(*out);
    if (result == ZE_RESULT_SUCCESS || result == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE) {
      EXPECT_NE(buildLog, nullptr) << "a build returns its log whether or not it succeeds";
    }
    const std::string text = takeBuildLog(buildLog);
    if (log) *log = text;
    return result;
  }

  // Runs the single-argument kernel `name` (global int* out) once and returns out[0].
  int runSingle(ze_module_handle_t from, const char* name) {
    ze_kernel_handle_t k = kernel(from, name);
    int* out = shared<int>(1);
    *out = -1;
    setArguments(k, out);
    launch(k, 1, 1);
    return *out;
  }

  std::vector<uint8_t> nativeBinaryOf(ze_module_handle_t m) {
    size_t size = 0;
    EXPECT_ZE(zeModuleGetNativeBinary(m, &size, nullptr));
    std::vector<uint8_t> binary(size);
    EXPECT_ZE(zeModuleGetNativeBinary(m, &size, binary.data()));
    return binary;
  }
};

TEST_F(ModuleTest, ASuccessfulBuildHasAnEmptyishLog) {
  ze_module_handle_t m = nullptr;
  std::string log = "unset";
  ASSERT_ZE(build(readKernelFile("api_kernels.spv"), ZE_MODULE_FORMAT_IL_SPIRV, &m, &log));
  EXPECT_LT(log.size(), 200u) << log;
  EXPECT_EQ(log.find("error"), std::string::npos) << log;
}

// Programs (and level-zero-tests) destroy a module before its kernels, which the model runtime
// accepts: the module stays until its last kernel is destroyed, and that kernel keeps working.
TEST_F(ModuleTest, AKernelOutlivesItsDestroyedModule) {
  const std::vector<uint8_t> spirv = readKernelFile("api_kernels.spv");
  ze_module_desc_t moduleDesc{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_IL_SPIRV, spirv.size(), spirv.data()};
  ze_module_handle_t destroyed = nullptr;
  ASSERT_ZE(zeModuleCreate(context, device, &moduleDesc, &destroyed, nullptr));
  ze_kernel_desc_t kernelDesc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "add_vectors"};
  ze_kernel_handle_t first = nullptr, second = nullptr;
  ASSERT_ZE(zeKernelCreate(destroyed, &kernelDesc, &first));
  ASSERT_ZE(zeKernelCreate(destroyed, &kernelDesc, &second));
  ASSERT_ZE(zeModuleDestroy(destroyed));
  EXPECT_EQ(zeModuleDestroy(destroyed), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(zeKernelCreate(destroyed, &kernelDesc, &first), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_ZE(zeKernelDestroy(first));
  EXPECT_EQ(zeKernelDestroy(first), ZE_RESULT_ERROR_INVALID_ARGUMENT);

  float* data = shared<float>(16);
  for (int i = 0; i < 16; ++i) data[i] = float(i);
  setArguments(second, data, data, data);
  launch(second, 1, 16);
  EXPECT_EQ(data[15], 30.0f) << "the last kernel still runs the module's code";
  EXPECT_ZE(zeKernelDestroy(second));
  EXPECT_EQ(zeKernelDestroy(second), ZE_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_F(ModuleTest, KernelNamesAreThoseOfTheSource) {
  ze_module_handle_t m = module("api_kernels.spv");
  uint32_t count = 0;
  ASSERT_ZE(zeModuleGetKernelNames(m, &count, nullptr));
  std::vector<const char*> names(count);
  ASSERT_ZE(zeModuleGetKernelNames(m, &count, names.data()));
  const std::set<std::string> found(names.begin(), names.end());
  const std::set<std::string> expected = {
      "add_vectors",     "empty_kernel", "work_item_ids", "reduce_in_groups", "reverse_in_groups", "early_exit_then_barrier",
      "mixed_arguments", "atomics",      "math_functions", "fixed_group",     "increment_global",  "call_helper"};
  EXPECT_EQ(found, expected);
  uint32_t fewer = 2;
  ASSERT_ZE(zeModuleGetKernelNames(m, &fewer, names.data()));
  EXPECT_EQ(fewer, 2u);
}

// A module with a kernel that takes an image names it, and it is created like the others
// (image_test.cpp runs it).
TEST_F(ModuleTest, AModuleWithAnImageKernelNamesAndCreatesIt) {
  ze_module_handle_t m = module("image_kernels.spv");
  ASSERT_NE(m, nullptr);
  uint32_t count = 0;
  ASSERT_ZE(zeModuleGetKernelNames(m, &count, nullptr));
  std::vector<const char*> names(count);
  ASSERT_ZE(zeModuleGetKernelNames(m, &count, names.data()));
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()), (std::set<std::string>{"copy_first_pixel", "sample_at", "add_one"}));

  EXPECT_NE(kernel(m, "copy_first_pixel"), nullptr);

  ze_kernel_handle_t addOne = kernel(m, "add_one");
  ASSERT_NE(addOne, nullptr);
  int* data = shared<int>(64);
  for (int i = 0; i < 64; ++i) data[i] = i;
  setArguments(addOne, data);
  launch(addOne, 1, 64);
  for (int i = 0; i < 64; ++i) ASSERT_EQ(data[i], i + 1) << i;
}

TEST_F(ModuleTest, AModuleWithoutImportsHasNoPropertyFlags) {
  ze_module_properties_t properties{ZE_STRUCTURE_TYPE_MODULE_PROPERTIES};
  ASSERT_ZE(zeModuleGetProperties(module("api_kernels.spv"), &properties));
  EXPECT_EQ(properties.flags, 0u);
}

TEST_F(ModuleTest, SpirvWithAWrongMagicNumberFailsWithALogThatSaysSo) {
  std::vector<uint8_t> spirv = readKernelFile("api_kernels.spv");
  spirv[0] ^= 0xff;
  ze_module_handle_t m = nullptr;
  std::string log;
  EXPECT_EQ(build(spirv, ZE_MODULE_FORMAT_IL_SPIRV, &m, &log), ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
  EXPECT_EQ(m, nullptr);
  EXPECT_NE(log.find("magic"), std::string::npos) << log;
}

TEST_F(ModuleTest, TruncatedAndRandomSpirvFailsWithANonEmptyLog) {
  const std::vector<uint8_t> spirv = readKernelFile("api_kernels.spv");
  std::vector<uint8_t> truncated(spirv.begin(), spirv.begin() + spirv.size() / 2 + 2);
  std::vector<uint8_t> noise(4096);
  for (size_t i = 0; i < noise.size(); ++i) noise[i] = uint8_t(i * 2654435761u >> 13);
  for (const auto* input : {&truncated, &noise}) {
    ze_module_handle_t m = nullptr;
    std::string log;
    EXPECT_EQ(build(*input, ZE_MODULE_FORMAT_IL_SPIRV, &m, &log), ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    EXPECT_FALSE(log.empty());
  }
}

TEST_F(ModuleTest, AnUnknownBuildOptionIsNamedInTheLog) {
  ze_module_handle_t m = nullptr;
  std::string log;
  EXPECT_EQ(build(readKernelFile("api_kernels.spv"), ZE_MODULE_FORMAT_IL_SPIRV, &m, &log, nullptr, "-no-such-option"),
            ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(log.find("-no-such-option"), std::string::npos) << log;
}

TEST_F(ModuleTest, ABadFormatIsAnInvalidEnumeration) {
  ze_module_handle_t m = nullptr;
  EXPECT_EQ(build(readKernelFile("api_kernels.spv"), static_cast<ze_module_format_t>(5), &m),
            ZE_RESULT_ERROR_INVALID_ENUMERATION);
}

TEST_F(ModuleTest, TheNativeBinaryBuildsAModuleWhoseKernelsRun) {
  const std::vector<uint8_t> binary = nativeBinaryOf(module("api_kernels.spv", "-ze-opt-level=2"));
  ASSERT_FALSE(binary.empty());
  ze_module_handle_t fromBinary = nullptr;
  ASSERT_ZE(build(binary, ZE_MODULE_FORMAT_NATIVE, &fromBinary));
  EXPECT_EQ(runSingle(fromBinary, "call_helper"), 42);
  EXPECT_EQ(nativeBinaryOf(fromBinary), binary) << "the round trip is exact";
}

TEST_F(ModuleTest, TruncatedOrCorruptedNativeBinariesAreRejected) {
  const std::vector<uint8_t> binary = nativeBinaryOf(module("api_kernels.spv"));
  ASSERT_GT(binary.size(), 128u);
  for (size_t cut : {size_t(1), size_t(63), binary.size() / 2, binary.size() - 1}) {
    std::vector<uint8_t> truncated(binary.begin(), binary.begin() + cut);
    ze_module_handle_t bad = nullptr;
    EXPECT_EQ(build(truncated, ZE_MODULE_FORMAT_NATIVE, &bad), ZE_RESULT_ERROR_INVALID_NATIVE_BINARY) << "cut at " << cut;
  }
  for (size_t at : {size_t(30), binary.size() / 3, binary.size() - 70}) {
    std::vector<uint8_t> flipped = binary;
    flipped[at] ^= 0x40;
    ze_module_handle_t bad = nullptr;
    EXPECT_EQ(build(flipped, ZE_MODULE_FORMAT_NATIVE, &bad), ZE_RESULT_ERROR_INVALID_NATIVE_BINARY) << "flipped " << at;
  }
  ze_module_handle_t bad = nullptr;
  EXPECT_EQ(build(readKernelFile("api_kernels.spv"), ZE_MODULE_FORMAT_NATIVE, &bad), ZE_RESULT_ERROR_INVALID_NATIVE_BINARY)
      << "SPIR-V is not a native binary";
}

TEST_F(ModuleTest, SpecializationConstantsChangeTheKernelsResult) {
  const std::vector<uint8_t> spirv = readKernelFile("spec_constant.spv");
  ze_module_handle_t byDefault = nullptr, specialized = nullptr;
  ASSERT_ZE(build(spirv, ZE_MODULE_FORMAT_IL_SPIRV, &byDefault));
  EXPECT_EQ(runSingle(byDefault, "spec_value"), 5);
  uint32_t ids[1] = {7};
  const uint32_t value = 123;
  const void* values[1] = {&value};
  ze_module_constants_t constants{1, ids, values};
  ASSERT_ZE(build(spirv, ZE_MODULE_FORMAT_IL_SPIRV, &specialized, nullptr, &constants));
  EXPECT_EQ(runSingle(specialized, "spec_value"), 123);
}

// tests/kernels/block_order_slip.spvasm lists a loop's exit before the body that dominates it, as
// level-zero-tests' sysman_matrix_multiplication.spv does: it builds and runs. (Its warning is
// checked by the compiler's ProducerSlips tests: a build from the compiler cache has no log.)
TEST_F(ModuleTest, BlocksListedBeforeTheirDominatorsBuildAndRun) {
  ze_module_handle_t m = nullptr;
  std::string log;
  ASSERT_ZE(build(readKernelFile("block_order_slip.spv"), ZE_MODULE_FORMAT_IL_SPIRV, &m, &log)) << log;
  EXPECT_EQ(runSingle(m, "sum_below_five"), 10);
}

TEST_F(ModuleTest, AProgramScopeGlobalIsSharedBetweenHostAndKernel) {
  ze_module_handle_t m = module("api_kernels.spv");
  void* global = nullptr;
  size_t size = 0;
  ASSERT_ZE(zeModuleGetGlobalPointer(m, "counter_global", &size, &global));
  ASSERT_NE(global, nullptr);
  EXPECT_EQ(size, sizeof(int));
  int* counter = static_cast<int*>(global);
  EXPECT_EQ(download(counter, 1)[0], 41) << "the initializer";
  upload(counter, std::vector<int>{99});
  EXPECT_EQ(runSingle(m, "increment_global"), 100) << "the kernel reads the host's write";
  EXPECT_EQ(download(counter, 1)[0], 100) << "the host reads the kernel's write";
  EXPECT_EQ(zeModuleGetGlobalPointer(m, "no_such_global", &size, &global), ZE_RESULT_ERROR_INVALID_GLOBAL_NAME);
}

TEST_F(ModuleTest, FunctionPointersAreGivenForExportedFunctions) {
  ze_module_handle_t m = module("api_kernels.spv");
  void* function = nullptr;
  ASSERT_ZE(zeModuleGetFunctionPointer(m, "exported_helper", &function));
  EXPECT_NE(function, nullptr);
  EXPECT_EQ(zeModuleGetFunctionPointer(m, "no_such_function", &function), ZE_RESULT_ERROR_INVALID_FUNCTION_NAME);
  EXPECT_EQ(zeModuleGetFunctionPointer(m, "call_helper", &function), ZE_RESULT_ERROR_UNSUPPORTED_FEATURE) << "a kernel";
}

TEST_F(ModuleTest, OnTheCpuAFunctionPointerIsCallableFromTheHost) {
  SKIP_UNLESS_CPU_DEVICE("functions the host can call");
  ze_module_handle_t m = module("api_kernels.spv");
  void* function = nullptr;
  ASSERT_ZE(zeModuleGetFunctionPointer(m, "exported_helper", &function));
  ASSERT_NE(function, nullptr);
  EXPECT_EQ(reinterpret_cast<int (*)(int)>(function)(5), 15);
}

TEST_F(ModuleTest, AKernelCallsThroughAFunctionPointerArgument) {
  ze_module_handle_t m = module("function_pointer_kernels.spv");
  void* addOne = nullptr;
  ASSERT_ZE(zeModuleGetFunctionPointer(m, "add_one", &addOne));
  ze_kernel_handle_t k = kernel(m, "call_through_argument");
  int* data = shared<int>(1);
  *data = 41;
  setArguments(k, reinterpret_cast<int64_t>(addOne), data);
  launch(k, 1, 1);
  EXPECT_EQ(*data, 42);
}

TEST_F(ModuleTest, KernelsCallFunctionPointersTheyReadFromMemory) {
  ze_module_handle_t m = module("function_pointer_kernels.spv");
  void* addOne = nullptr;
  void* square = nullptr;
  ASSERT_ZE(zeModuleGetFunctionPointer(m, "add_one", &addOne));
  ASSERT_ZE(zeModuleGetFunctionPointer(m, "square", &square));
  EXPECT_NE(addOne, square);
  auto* table = shared<uint64_t>(2);
  table[0] = reinterpret_cast<uint64_t>(addOne);
  table[1] = reinterpret_cast<uint64_t>(square);
  constexpr int kItems = 64;
  int* data = shared<int>(kItems);
  for (int i = 0; i < kItems; ++i) data[i] = i;
  ze_kernel_handle_t k = kernel(m, "call_through_table");
  setArguments(k, table, data);
  launch(k, 2, kItems / 2);
  for (int i = 0; i < kItems; ++i) EXPECT_EQ(data[i], i % 2 ? i * i : i + 1) << i;
}

TEST_F(ModuleTest, AKernelCallsThroughAPointerItTakesItself) {
  ze_module_handle_t m = module("function_pointer_kernels.spv");
  ze_kernel_handle_t k = kernel(m, "call_chosen");
  int* data = shared<int>(1);
  for (int which : {0, 1}) {
    *data = 7;
    setArguments(k, data, which);
    launch(k, 1, 1);
    EXPECT_EQ(*data, which ? 49 : 8) << which;
  }
}

TEST_F(ModuleTest, DynamicLinkingResolvesAnImportFromAnotherModule) {
  ze_module_handle_t importer = module("import_kernels.spv");
  ze_module_properties_t properties{ZE_STRUCTURE_TYPE_MODULE_PROPERTIES};
  ASSERT_ZE(zeModuleGetProperties(importer, &properties));
  EXPECT_TRUE(properties.flags & ZE_MODULE_PROPERTY_FLAG_IMPORTS);
  ze_kernel_desc_t desc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "use_import"};
  ze_kernel_handle_t unlinked = nullptr;
  EXPECT_EQ(zeKernelCreate(importer, &desc, &unlinked), ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED);
  ze_module_handle_t both[2] = {importer, module("api_kernels.spv")};
  ASSERT_ZE(zeModuleDynamicLink(2, both, nullptr));
  ASSERT_ZE(zeModuleGetProperties(importer, &properties));
  EXPECT_FALSE(properties.flags & ZE_MODULE_PROPERTY_FLAG_IMPORTS);
  EXPECT_EQ(runSingle(importer, "use_import"), 16);  // exported_helper(5) + 1
}

TEST_F(ModuleTest, AnImportingModuleGivesFunctionPointersOnceLinked) {
  ze_module_handle_t importer = module("import_kernels.spv");
  void* function = nullptr;
  EXPECT_EQ(zeModuleGetFunctionPointer(importer, "helper_plus_one", &function), ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED);
  ze_module_handle_t both[2] = {importer, module("api_kernels.spv")};
  ASSERT_ZE(zeModuleDynamicLink(2, both, nullptr));
  ASSERT_ZE(zeModuleGetFunctionPointer(importer, "helper_plus_one", &function));
  ze_kernel_handle_t k = kernel(importer, "call_pointer");
  int* out = shared<int>(1);
  *out = 4;
  setArguments(k, reinterpret_cast<int64_t>(function), out);
  launch(k, 1, 1);
  EXPECT_EQ(*out, 13);  // exported_helper(4) + 1
}

TEST_F(ModuleTest, LinkingWithoutTheExporterFailsWithALogNamingTheImport) {
  ze_module_handle_t importer = module("import_kernels.spv");
  ze_module_build_log_handle_t linkLog = nullptr;
  EXPECT_EQ(zeModuleDynamicLink(1, &importer, &linkLog), ZE_RESULT_ERROR_MODULE_LINK_FAILURE);
  const std::string log = takeBuildLog(linkLog);
  EXPECT_NE(log.find("exported_helper"), std::string::npos) << log;
}

TEST_F(ModuleTest, ModulesOfDifferentKindsOfDeviceDoNotLink) {
  uint32_t count = 0;
  ASSERT_ZE(zeDeviceGet(driver, &count, nullptr));
  std::vector<ze_device_handle_t> devices(count);
  ASSERT_ZE(zeDeviceGet(driver, &count, devices.data()));
  const ze_device_type_t ownType = deviceType();
  auto other = std::find_if(devices.begin(), devices.end(), [&](ze_device_handle_t candidate) {
    ze_device_properties_t properties{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    EXPECT_ZE(zeDeviceGetProperties(candidate, &properties));
    return properties.type != ownType;
  });
  if (other == devices.end()) GTEST_SKIP() << "no device of another kind (CPU and GPU) in the driver";
  ze_module_handle_t importer = module("import_kernels.spv");
  const std::vector<uint8_t> spirv = readKernelFile("api_kernels.spv");
  ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC};
  desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
  desc.inputSize = spirv.size();
  desc.pInputModule = spirv.data();
  ze_module_handle_t exporter = nullptr;
  ASSERT_ZE(zeModuleCreate(context, *other, &desc, &exporter, nullptr));
  modules.push_back(exporter);
  ze_module_handle_t both[2] = {importer, exporter};
  ze_module_build_log_handle_t linkLog = nullptr;
  EXPECT_EQ(zeModuleDynamicLink(2, both, &linkLog), ZE_RESULT_ERROR_MODULE_LINK_FAILURE);
  const std::string log = takeBuildLog(linkLog);
  EXPECT_NE(log.find("different kinds of device"), std::string::npos) << log;
}

}  // namespace
}  // namespace loom::test
