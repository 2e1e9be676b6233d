#include <algorithm>
#include <cstring>

#include "ze_test.h"

namespace loom::test {
namespace {

class ModuleTest : public ZeTest {
 protected:
  ze_result_t build(const std::vector<uint8_t>& input, ze_module_format_t format, ze_module_handle_t* out,
                    std::string* log = nullptr, const ze_module_constants_t* constants = nullptr, const char* flags = "") {
    ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC};
    desc.format = format;
    desc.inputSize = input.size();
    desc.pInputModule = input.data();
    desc.pBuildFlags = flags;
    desc.pConstants = constants;
    ze_module_build_log_handle_t buildLog = nullptr;
    ze_result_t result = zeModuleCreate(context, device, &desc, out, &buildLog);
    if (result == ZE_RESULT_SUCCESS) modules.push_back(*out);
    size_t size = 0;
    EXPECT_ZE(zeModuleBuildLogGetString(buildLog, &size, nullptr));
    std::string text(size, '\0');
    EXPECT_ZE(zeModuleBuildLogGetString(buildLog, &size, text.data()));
    if (log) *log = text.c_str();
    EXPECT_ZE(zeModuleBuildLogDestroy(buildLog));
    return result;
  }

  int runSingle(ze_module_handle_t from, const char* name) {
    ze_kernel_handle_t k = kernel(from, name);
    int* out = shared<int>(1);
    *out = -1;
    setArguments(k, out);
    launch(k, 1, 1);
    return *out;
  }
};

TEST_F(ModuleTest, ListsKernelsAndHasNoImports) {
  ze_module_handle_t m = module("api_kernels.spv");
  uint32_t count = 0;
  ASSERT_ZE(zeModuleGetKernelNames(m, &count, nullptr));
  std::vector<const char*> names(count);
  ASSERT_ZE(zeModuleGetKernelNames(m, &count, names.data()));
  EXPECT_TRUE(std::any_of(names.begin(), names.end(), [](const char* n) { return std::string(n) == "reduce_in_groups"; }));
  ze_module_properties_t properties{ZE_STRUCTURE_TYPE_MODULE_PROPERTIES};
  ASSERT_ZE(zeModuleGetProperties(m, &properties));
  EXPECT_EQ(properties.flags, 0u);
}

TEST_F(ModuleTest, MalformedSpirvFailsWithABuildLogThatSaysWhy) {
  std::vector<uint8_t> spirv = readKernelFile("api_kernels.spv");
  ze_module_handle_t m = nullptr;
  std::string log;
  std::vector<uint8_t> wrongMagic = spirv;
  wrongMagic[0] ^= 0xff;
  EXPECT_EQ(build(wrongMagic, ZE_MODULE_FORMAT_IL_SPIRV, &m, &log), ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
  EXPECT_NE(log.find("magic"), std::string::npos) << log;
  std::vector<uint8_t> truncated(spirv.begin(), spirv.begin() + spirv.size() / 2 + 2);
  EXPECT_EQ(build(truncated, ZE_MODULE_FORMAT_IL_SPIRV, &m, &log), ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
  EXPECT_FALSE(log.empty());
  std::vector<uint8_t> noise(4096);
  for (size_t i = 0; i < noise.size(); ++i) noise[i] = uint8_t(i * 2654435761u >> 13);
  EXPECT_EQ(build(noise, ZE_MODULE_FORMAT_IL_SPIRV, &m, &log), ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
  EXPECT_EQ(build(spirv, ZE_MODULE_FORMAT_IL_SPIRV, &m, &log, nullptr, "-no-such-option"), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(log.find("-no-such-option"), std::string::npos) << log;
}

TEST_F(ModuleTest, NativeBinaryRoundTripsAndCorruptionIsRejected) {
  ze_module_handle_t m = module("api_kernels.spv", "-ze-opt-level=2");
  size_t size = 0;
  ASSERT_ZE(zeModuleGetNativeBinary(m, &size, nullptr));
  std::vector<uint8_t> binary(size);
  ASSERT_ZE(zeModuleGetNativeBinary(m, &size, binary.data()));
  ze_module_handle_t fromBinary = nullptr;
  ASSERT_ZE(build(binary, ZE_MODULE_FORMAT_NATIVE, &fromBinary));
  EXPECT_EQ(runSingle(fromBinary, "call_helper"), 42);
  for (size_t cut : {size_t(1), size_t(63), binary.size() / 2, binary.size() - 1}) {
    std::vector<uint8_t> truncated(binary.begin(), binary.begin() + cut);
    ze_module_handle_t bad = nullptr;
    EXPECT_EQ(build(truncated, ZE_MODULE_FORMAT_NATIVE, &bad), ZE_RESULT_ERROR_INVALID_NATIVE_BINARY) << cut;
  }
  for (size_t at : {size_t(30), binary.size() / 3, binary.size() - 70}) {
    std::vector<uint8_t> flipped = binary;
    flipped[at] ^= 0x40;
    ze_module_handle_t bad = nullptr;
    EXPECT_EQ(build(flipped, ZE_MODULE_FORMAT_NATIVE, &bad), ZE_RESULT_ERROR_INVALID_NATIVE_BINARY) << at;
  }
}

TEST_F(ModuleTest, SpecializationConstantsChangeTheKernel) {
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

TEST_F(ModuleTest, GlobalPointersAndFunctionPointersReachTheModule) {
  ze_module_handle_t m = module("api_kernels.spv");
  void* global = nullptr;
  size_t size = 0;
  ASSERT_ZE(zeModuleGetGlobalPointer(m, "counter_global", &size, &global));
  EXPECT_EQ(size, sizeof(int));
  EXPECT_EQ(*static_cast<int*>(global), 41);
  *static_cast<int*>(global) = 99;
  EXPECT_EQ(runSingle(m, "increment_global"), 100);
  EXPECT_EQ(*static_cast<int*>(global), 100);
  EXPECT_EQ(zeModuleGetGlobalPointer(m, "no_such_global", &size, &global), ZE_RESULT_ERROR_INVALID_GLOBAL_NAME);
  void* function = nullptr;
  ASSERT_ZE(zeModuleGetFunctionPointer(m, "exported_helper", &function));
  ASSERT_NE(function, nullptr);
  EXPECT_EQ(reinterpret_cast<int (*)(int)>(function)(5), 15);  // CPU code: callable from the host
  EXPECT_EQ(zeModuleGetFunctionPointer(m, "no_such_function", &function), ZE_RESULT_ERROR_INVALID_FUNCTION_NAME);
}

TEST_F(ModuleTest, DynamicLinkingResolvesImportsFromAnotherModule) {
  ze_module_handle_t importer = module("import_kernels.spv");
  ze_module_properties_t properties{ZE_STRUCTURE_TYPE_MODULE_PROPERTIES};
  ASSERT_ZE(zeModuleGetProperties(importer, &properties));
  EXPECT_TRUE(properties.flags & ZE_MODULE_PROPERTY_FLAG_IMPORTS);
  ze_kernel_desc_t desc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "use_import"};
  ze_kernel_handle_t unlinked = nullptr;
  EXPECT_EQ(zeKernelCreate(importer, &desc, &unlinked), ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED);
  ze_module_build_log_handle_t linkLog = nullptr;
  EXPECT_EQ(zeModuleDynamicLink(1, &importer, &linkLog), ZE_RESULT_ERROR_MODULE_LINK_FAILURE);
  EXPECT_ZE(zeModuleBuildLogDestroy(linkLog));
  ze_module_handle_t both[2] = {importer, module("api_kernels.spv")};
  ASSERT_ZE(zeModuleDynamicLink(2, both, nullptr));
  EXPECT_EQ(runSingle(importer, "use_import"), 16);
}

}  // namespace
}  // namespace loom::test
