// Platform and device queries through the ICD loader: names and versions, extensions with their
// versions consistent with the extension strings, OpenCL C versions and features (also as the
// compiler sees them), the FULL_PROFILE minimums, work sizes, and clGetDeviceIDs' type filters.
#include "cl_test_helpers.h"
#include "opencl/float_atomics.h"

#include <algorithm>
#include <cstdlib>
#include <map>

namespace loom::test {
namespace {

using PlatformTest = ClTest;
using DeviceTest = ClTest;

std::map<std::string, cl_version> byName(const std::vector<cl_name_version>& entries) {
  std::map<std::string, cl_version> result;
  for (const cl_name_version& entry : entries) {
    const std::string name(entry.name, strnlen(entry.name, CL_NAME_VERSION_MAX_NAME_SIZE));
    EXPECT_TRUE(result.emplace(name, entry.version).second) << "listed twice: " << name;
  }
  return result;
}

TEST_F(PlatformTest, ReportsNameProfileAndVersions) {
  auto text = [&](cl_platform_info name) {
    return infoString([&](size_t s, void* v, size_t* r) { return clGetPlatformInfo(platform, name, s, v, r); });
  };
  EXPECT_EQ(text(CL_PLATFORM_NAME), "Loom");
  EXPECT_EQ(text(CL_PLATFORM_PROFILE), "FULL_PROFILE");
  EXPECT_FALSE(text(CL_PLATFORM_VENDOR).empty());
  const std::string version = text(CL_PLATFORM_VERSION);
  EXPECT_EQ(version.rfind("OpenCL 3.0 ", 0), 0u) << version;  // "OpenCL<space><major.minor><space><specific>"
  const cl_version numeric =
      infoScalar<cl_version>([&](size_t s, void* v, size_t* r) { return clGetPlatformInfo(platform, CL_PLATFORM_NUMERIC_VERSION, s, v, r); });
  EXPECT_EQ(CL_VERSION_MAJOR(numeric), 3u);
  EXPECT_EQ(CL_VERSION_MINOR(numeric), 0u);
  EXPECT_EQ(text(CL_PLATFORM_ICD_SUFFIX_KHR), "LOOM");
}

TEST_F(PlatformTest, ExtensionsWithVersionMatchTheExtensionString) {
  const std::set<std::string> names = splitWords(
      infoString([&](size_t s, void* v, size_t* r) { return clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS, s, v, r); }));
  const auto versions = byName(infoArray<cl_name_version>(
      [&](size_t s, void* v, size_t* r) { return clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, s, v, r); }));
  EXPECT_TRUE(names.count("cl_khr_icd"));
  std::set<std::string> versioned;
  for (const auto& [name, version] : versions) {
    versioned.insert(name);
    EXPECT_NE(version, 0u) << name;
  }
  EXPECT_EQ(versioned, names);
}

TEST_F(PlatformTest, InfoSizeProtocol) {
  size_t size = 0;
  ASSERT_CL_OK(clGetPlatformInfo(platform, CL_PLATFORM_NAME, 0, nullptr, &size));
  EXPECT_EQ(size, 5u);  // "Loom" and its terminating zero
  char small[4];
  EXPECT_CL(CL_INVALID_VALUE, clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof(small), small, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clGetPlatformInfo(platform, 0x7fff, 0, nullptr, &size));
}

TEST_F(DeviceTest, ReportsNameTypeAndVersions) {
  const cl_device_type type = deviceInfo<cl_device_type>(CL_DEVICE_TYPE) & ~cl_device_type(CL_DEVICE_TYPE_DEFAULT);
  EXPECT_TRUE(type == CL_DEVICE_TYPE_CPU || type == CL_DEVICE_TYPE_GPU) << type;
  EXPECT_FALSE(deviceString(CL_DEVICE_NAME).empty());
  EXPECT_FALSE(deviceString(CL_DEVICE_VENDOR).empty());
  EXPECT_FALSE(deviceString(CL_DRIVER_VERSION).empty());
  EXPECT_EQ(deviceString(CL_DEVICE_PROFILE), "FULL_PROFILE");
  const std::string version = deviceString(CL_DEVICE_VERSION);
  EXPECT_EQ(version.rfind("OpenCL 3.0 ", 0), 0u) << version;
  const cl_version numeric = deviceInfo<cl_version>(CL_DEVICE_NUMERIC_VERSION);
  EXPECT_EQ(numeric, CL_MAKE_VERSION(3, 0, 0));
  EXPECT_EQ(deviceInfo<cl_platform_id>(CL_DEVICE_PLATFORM), platform);
  EXPECT_EQ(deviceInfo<cl_bool>(CL_DEVICE_AVAILABLE), cl_bool(CL_TRUE));
  EXPECT_EQ(deviceInfo<cl_bool>(CL_DEVICE_COMPILER_AVAILABLE), cl_bool(CL_TRUE));
  EXPECT_EQ(deviceInfo<cl_bool>(CL_DEVICE_LINKER_AVAILABLE), cl_bool(CL_TRUE));
  EXPECT_EQ(deviceInfo<cl_device_id>(CL_DEVICE_PARENT_DEVICE), nullptr);
  EXPECT_EQ(deviceInfo<cl_uint>(CL_DEVICE_REFERENCE_COUNT), 1u);  // root devices
  // "OpenCL<space>C<space><major.minor><space>": the highest OpenCL C 1.x version for a 3.0 device.
  const std::string cVersion = deviceString(CL_DEVICE_OPENCL_C_VERSION);
  EXPECT_EQ(cVersion.rfind("OpenCL C 1.", 0), 0u) << cVersion;
  std::vector<uint8_t> uuid = infoArray<uint8_t>([&](size_t s, void* v, size_t* r) { return clGetDeviceInfo(device, CL_DEVICE_UUID_KHR, s, v, r); });
  EXPECT_EQ(uuid.size(), size_t(CL_UUID_SIZE_KHR));
}

TEST_F(DeviceTest, ExtensionsWithVersionMatchTheExtensionString) {
  const std::set<std::string> names = splitWords(deviceString(CL_DEVICE_EXTENSIONS));
  const auto versions = byName(infoArray<cl_name_version>(
      [&](size_t s, void* v, size_t* r) { return clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, s, v, r); }));
  std::set<std::string> versioned;
  for (const auto& [name, version] : versions) {
    versioned.insert(name);
    EXPECT_NE(version, 0u) << name;
  }
  EXPECT_EQ(versioned, names);
  // cl_khr_il_program is listed, so CL_DEVICE_IL_VERSION must name SPIR-V.
  if (names.count("cl_khr_il_program")) { EXPECT_NE(deviceString(CL_DEVICE_IL_VERSION).find("SPIR-V_1."), std::string::npos); }
  // Every platform extension must be supported by every device of the platform.
  const std::set<std::string> platformNames = splitWords(
      infoString([&](size_t s, void* v, size_t* r) { return clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS, s, v, r); }));
  for (const std::string& name : platformNames)
    if (name != "cl_khr_icd") { EXPECT_TRUE(names.count(name)) << name << " is a platform extension the device lacks"; }
}

TEST_F(DeviceTest, IlVersionsWithVersionMatchTheIlString) {
  const std::set<std::string> words = splitWords(deviceString(CL_DEVICE_IL_VERSION));
  const auto entries = infoArray<cl_name_version>(
      [&](size_t s, void* v, size_t* r) { return clGetDeviceInfo(device, CL_DEVICE_ILS_WITH_VERSION, s, v, r); });
  std::set<std::string> fromEntries;
  for (const cl_name_version& entry : entries)
    fromEntries.insert(std::string(entry.name) + "_" + std::to_string(CL_VERSION_MAJOR(entry.version)) + "." +
                       std::to_string(CL_VERSION_MINOR(entry.version)));
  EXPECT_EQ(fromEntries, words);
}

TEST_F(DeviceTest, OpenClCVersionsIncludeTheOnesTheCompilerAccepts) {
  const auto entries = infoArray<cl_name_version>(
      [&](size_t s, void* v, size_t* r) { return clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, s, v, r); });
  std::set<cl_version> versions;
  for (const cl_name_version& entry : entries) {
    EXPECT_STREQ(entry.name, "OpenCL C");
    versions.insert(entry.version);
  }
  EXPECT_TRUE(versions.count(CL_MAKE_VERSION(1, 2, 0)));
  EXPECT_TRUE(versions.count(CL_MAKE_VERSION(3, 0, 0)));  // -cl-std=CL3.0 builds (ProgramTest)
  // The numeric 1.x version matches the string.
  const cl_version numeric = deviceInfo<cl_version>(CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR);
  const std::string text = deviceString(CL_DEVICE_OPENCL_C_VERSION);
  EXPECT_EQ(text.substr(0, 12), "OpenCL C " + std::to_string(CL_VERSION_MAJOR(numeric)) + "." +
                                    std::to_string(CL_VERSION_MINOR(numeric)));
}

// OpenCL C 3.0 features against the queries they stand for (OpenCL 3.0 API spec, 4.2 and the
// table of optional features).
TEST_F(DeviceTest, OpenClCFeaturesAgreeWithTheDeviceQueries) {
  const auto features = byName(infoArray<cl_name_version>(
      [&](size_t s, void* v, size_t* r) { return clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, s, v, r); }));
  for (const auto& [name, version] : features) {
    EXPECT_EQ(name.rfind("__opencl_c_", 0), 0u) << name;
    EXPECT_EQ(CL_VERSION_MAJOR(version), 3u) << name;
  }
  const std::set<std::string> extensions = splitWords(deviceString(CL_DEVICE_EXTENSIONS));
  auto has = [&](const char* name) { return features.count(name) != 0; };
  EXPECT_EQ(has("__opencl_c_fp64"), extensions.count("cl_khr_fp64") != 0);
  EXPECT_EQ(has("__opencl_c_fp64"), deviceInfo<cl_device_fp_config>(CL_DEVICE_DOUBLE_FP_CONFIG) != 0);
  EXPECT_EQ(has("__opencl_c_fp16"), extensions.count("cl_khr_fp16") != 0);
  EXPECT_EQ(has("__opencl_c_fp16"), deviceInfo<cl_device_fp_config>(CL_DEVICE_HALF_FP_CONFIG) != 0);
  EXPECT_TRUE(has("__opencl_c_int64"));  // required for FULL_PROFILE
  EXPECT_EQ(has("__opencl_c_images"), deviceInfo<cl_bool>(CL_DEVICE_IMAGE_SUPPORT) == CL_TRUE);
  EXPECT_EQ(has("__opencl_c_pipes"), deviceInfo<cl_bool>(CL_DEVICE_PIPE_SUPPORT) == CL_TRUE);
  EXPECT_EQ(has("__opencl_c_generic_address_space"),
            deviceInfo<cl_bool>(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT) == CL_TRUE);
  EXPECT_EQ(has("__opencl_c_program_scope_global_variables"), deviceInfo<size_t>(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE) != 0);
  EXPECT_EQ(has("__opencl_c_device_enqueue"),
            deviceInfo<cl_device_device_enqueue_capabilities>(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES) != 0);
  EXPECT_EQ(has("__opencl_c_subgroups"), deviceInfo<cl_uint>(CL_DEVICE_MAX_NUM_SUB_GROUPS) != 0);
  EXPECT_EQ(has("__opencl_c_work_group_collective_functions"),
            deviceInfo<cl_bool>(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT) == CL_TRUE);
  const auto atomics = deviceInfo<cl_device_atomic_capabilities>(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES);
  EXPECT_EQ(has("__opencl_c_atomic_order_acq_rel"), (atomics & CL_DEVICE_ATOMIC_ORDER_ACQ_REL) != 0);
  EXPECT_EQ(has("__opencl_c_atomic_order_seq_cst"), (atomics & CL_DEVICE_ATOMIC_ORDER_SEQ_CST) != 0);
  EXPECT_EQ(has("__opencl_c_atomic_scope_device"), (atomics & CL_DEVICE_ATOMIC_SCOPE_DEVICE) != 0);
  EXPECT_EQ(has("__opencl_c_atomic_scope_all_devices"), (atomics & CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES) != 0);
  // cl_ext_float_atomics: a feature per type, operation and memory, as the capability bits say.
  const auto single = deviceInfo<cl_device_fp_atomic_capabilities_ext>(CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT);
  const auto doubles = deviceInfo<cl_device_fp_atomic_capabilities_ext>(CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT);
  EXPECT_EQ(has("__opencl_c_ext_fp32_global_atomic_add"), (single & CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT) != 0);
  EXPECT_EQ(has("__opencl_c_ext_fp32_local_atomic_add"), (single & CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT) != 0);
  EXPECT_EQ(has("__opencl_c_ext_fp32_global_atomic_min_max"), (single & CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT) != 0);
  EXPECT_EQ(has("__opencl_c_ext_fp32_local_atomic_min_max"), (single & CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT) != 0);
  EXPECT_EQ(has("__opencl_c_ext_fp64_global_atomic_add"), (doubles & CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT) != 0);
  EXPECT_EQ(has("__opencl_c_ext_fp64_local_atomic_add"), (doubles & CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT) != 0);
  EXPECT_EQ(has("__opencl_c_ext_fp64_global_atomic_min_max"), (doubles & CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT) != 0);
  EXPECT_EQ(has("__opencl_c_ext_fp64_local_atomic_min_max"), (doubles & CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT) != 0);
  const auto halves = deviceInfo<cl_device_fp_atomic_capabilities_ext>(CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT);
  EXPECT_EQ(has("__opencl_c_ext_fp16_global_atomic_load_store"), (halves & CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT) != 0);
  EXPECT_EQ(has("__opencl_c_ext_fp16_local_atomic_load_store"), (halves & CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT) != 0);
  EXPECT_EQ(has("__opencl_c_ext_fp16_global_atomic_add"), (halves & CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT) != 0);
  EXPECT_EQ(has("__opencl_c_ext_fp16_local_atomic_add"), (halves & CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT) != 0);
  EXPECT_EQ(has("__opencl_c_ext_fp16_global_atomic_min_max"), (halves & CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT) != 0);
  EXPECT_EQ(has("__opencl_c_ext_fp16_local_atomic_min_max"), (halves & CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT) != 0);
  EXPECT_EQ(halves != 0, extensions.count("cl_khr_fp16") != 0);
  EXPECT_EQ(extensions.count("cl_ext_float_atomics") != 0, single != 0);
}

// The OpenCL C 3.0 feature macros a kernel sees are exactly the features the device reports
// (OpenCL C 3.0 spec, 6.2.1: the macro is defined iff the device supports the feature).
TEST_F(DeviceTest, FeatureMacrosInKernelsMatchCL_DEVICE_OPENCL_C_FEATURES) {
  static const char* const kFeatures[] = {
      "__opencl_c_3d_image_writes", "__opencl_c_atomic_order_acq_rel", "__opencl_c_atomic_order_seq_cst",
      "__opencl_c_atomic_scope_device", "__opencl_c_atomic_scope_all_devices", "__opencl_c_device_enqueue",
      "__opencl_c_generic_address_space", "__opencl_c_fp64", "__opencl_c_fp16", "__opencl_c_images", "__opencl_c_int64",
      "__opencl_c_pipes", "__opencl_c_program_scope_global_variables", "__opencl_c_read_write_images",
      "__opencl_c_subgroups", "__opencl_c_work_group_collective_functions", "__opencl_c_ext_fp16_global_atomic_add",
      "__opencl_c_ext_fp16_global_atomic_load_store", "__opencl_c_ext_fp16_local_atomic_add",
      "__opencl_c_ext_fp16_local_atomic_load_store", "__opencl_c_ext_fp16_global_atomic_min_max",
      "__opencl_c_ext_fp16_local_atomic_min_max", "__opencl_c_ext_fp32_global_atomic_add",
      "__opencl_c_ext_fp32_local_atomic_add", "__opencl_c_ext_fp32_global_atomic_min_max",
      "__opencl_c_ext_fp32_local_atomic_min_max", "__opencl_c_ext_fp64_global_atomic_add",
      "__opencl_c_ext_fp64_local_atomic_add", "__opencl_c_ext_fp64_global_atomic_min_max",
      "__opencl_c_ext_fp64_local_atomic_min_max"};
  std::string source = "kernel void features(global int* out) {\n";
  int index = 0;
  for (const char* feature : kFeatures)
    source += "#ifdef " + std::string(feature) + "\n  out[" + std::to_string(index) + "] = 1;\n#else\n  out[" +
              std::to_string(index) + "] = 0;\n#endif\n", ++index;
  source += "}\n";
  cl_kernel k = buildKernel(source, "features");
  ASSERT_NE(k, nullptr);
  const size_t count = std::size(kFeatures);
  cl_mem out = buffer(CL_MEM_READ_WRITE, count * sizeof(int));
  setArgs(k, out);
  ASSERT_NO_FATAL_FAILURE(run1d(k, 1));
  const std::vector<int> defined = readBack<int>(out, count);
  const auto features = byName(infoArray<cl_name_version>(
      [&](size_t s, void* v, size_t* r) { return clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, s, v, r); }));
  for (size_t i = 0; i < count; ++i)
    EXPECT_EQ(defined[i] == 1, features.count(kFeatures[i]) != 0)
        << kFeatures[i] << (defined[i] ? " is defined in kernels but not reported" : " is reported but not defined in kernels");
}

TEST_F(DeviceTest, WorkSizesAreConsistentWithLaunches) {
  const cl_uint dimensions = deviceInfo<cl_uint>(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
  EXPECT_GE(dimensions, 3u);
  const auto sizes = infoArray<size_t>(
      [&](size_t s, void* v, size_t* r) { return clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, s, v, r); });
  ASSERT_EQ(sizes.size(), dimensions);
  const size_t maxGroup = deviceInfo<size_t>(CL_DEVICE_MAX_WORK_GROUP_SIZE);
  EXPECT_GE(maxGroup, 1u);
  for (size_t size : sizes) EXPECT_GE(size, 1u);

  cl_kernel k = buildKernel("kernel void count(global int* n) { atomic_inc(n); }", "count");
  ASSERT_NE(k, nullptr);
  size_t kernelGroup = 0;
  ASSERT_CL_OK(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(kernelGroup), &kernelGroup, nullptr));
  EXPECT_GE(kernelGroup, 1u);
  EXPECT_LE(kernelGroup, maxGroup);
  const int zero = 0;
  cl_mem counter = bufferWith(std::vector<int>{zero});
  setArgs(k, counter);
  // The largest group the kernel allows, along dimension 0, runs every work-item once.
  const size_t local = std::min(kernelGroup, sizes[0]);
  const size_t global = local * 2;
  ASSERT_CL_OK(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr));
  EXPECT_EQ(readBack<int>(counter, 1)[0], int(global));
  // A group above CL_KERNEL_WORK_GROUP_SIZE whose every dimension is allowed.
  if (sizes[0] * sizes[1] > kernelGroup && sizes[1] >= 2) {
    const size_t tooLarge[2] = {std::min(sizes[0], kernelGroup), 2};
    const size_t globals[2] = {tooLarge[0], 2};
    EXPECT_CL(CL_INVALID_WORK_GROUP_SIZE, clEnqueueNDRangeKernel(queue, k, 2, nullptr, globals, tooLarge, 0, nullptr, nullptr));
  }
  // A dimension above its CL_DEVICE_MAX_WORK_ITEM_SIZES entry in a group that is otherwise small enough.
  for (cl_uint d = 0; d < 3; ++d) {
    if (sizes[d] + 1 > kernelGroup) continue;
    size_t locals[3] = {1, 1, 1}, globals[3] = {1, 1, 1};
    locals[d] = globals[d] = sizes[d] + 1;
    EXPECT_CL(CL_INVALID_WORK_ITEM_SIZE, clEnqueueNDRangeKernel(queue, k, 3, nullptr, globals, locals, 0, nullptr, nullptr));
  }
}

// FULL_PROFILE minimums and self-consistency of the memory queries (OpenCL 3.0, table 5).
TEST_F(DeviceTest, MeetsFullProfileMinimums) {
  EXPECT_EQ(deviceInfo<cl_uint>(CL_DEVICE_ADDRESS_BITS), 64u);
  EXPECT_EQ(deviceInfo<cl_bool>(CL_DEVICE_ENDIAN_LITTLE), cl_bool(CL_TRUE));
  EXPECT_GE(deviceInfo<cl_uint>(CL_DEVICE_MEM_BASE_ADDR_ALIGN), 1024u);  // bits of long16
  EXPECT_GE(deviceInfo<size_t>(CL_DEVICE_MAX_PARAMETER_SIZE), 1024u);
  EXPECT_GE(deviceInfo<cl_ulong>(CL_DEVICE_LOCAL_MEM_SIZE), 32u * 1024);
  EXPECT_GE(deviceInfo<cl_ulong>(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE), 64u * 1024);
  EXPECT_GE(deviceInfo<cl_uint>(CL_DEVICE_MAX_CONSTANT_ARGS), 8u);
  EXPECT_GE(deviceInfo<cl_uint>(CL_DEVICE_MAX_COMPUTE_UNITS), 1u);
  const cl_ulong global = deviceInfo<cl_ulong>(CL_DEVICE_GLOBAL_MEM_SIZE);
  const cl_ulong maxAlloc = deviceInfo<cl_ulong>(CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  EXPECT_LE(maxAlloc, global);
  EXPECT_GE(maxAlloc, std::max<cl_ulong>(std::min<cl_ulong>(1ull << 30, global / 4), 32ull << 20));
  const auto fp = deviceInfo<cl_device_fp_config>(CL_DEVICE_SINGLE_FP_CONFIG);
  EXPECT_EQ(fp & (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN), cl_device_fp_config(CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN));
  EXPECT_TRUE(deviceInfo<cl_command_queue_properties>(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES) & CL_QUEUE_PROFILING_ENABLE);
  EXPECT_TRUE(deviceInfo<cl_device_exec_capabilities>(CL_DEVICE_EXECUTION_CAPABILITIES) & CL_EXEC_KERNEL);
  EXPECT_GE(deviceInfo<size_t>(CL_DEVICE_PROFILING_TIMER_RESOLUTION), 1u);
  EXPECT_GE(deviceInfo<size_t>(CL_DEVICE_PRINTF_BUFFER_SIZE), 1024u * 1024);
}

TEST_F(DeviceTest, GetDeviceIdsFiltersByType) {
  cl_uint all = 0;
  ASSERT_CL_OK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &all));
  ASSERT_GE(all, 1u);
  std::vector<cl_device_id> devices(all);
  ASSERT_CL_OK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, all, devices.data(), nullptr));
  std::map<cl_device_type, cl_uint> ofType;
  for (cl_device_id d : devices) {
    cl_device_type type = 0;
    ASSERT_CL_OK(clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof(type), &type, nullptr));
    ++ofType[type & ~cl_device_type(CL_DEVICE_TYPE_DEFAULT)];
  }
  for (cl_device_type type : {cl_device_type(CL_DEVICE_TYPE_CPU), cl_device_type(CL_DEVICE_TYPE_GPU)}) {
    cl_uint matches = 0;
    const cl_int status = clGetDeviceIDs(platform, type, 0, nullptr, &matches);
    EXPECT_EQ(status, ofType[type] ? CL_SUCCESS : CL_DEVICE_NOT_FOUND) << type;
    EXPECT_EQ(matches, ofType[type]) << type;
  }
  // CL_DEVICE_TYPE_DEFAULT names one device.
  cl_uint defaults = 0;
  ASSERT_CL_OK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 0, nullptr, &defaults));
  EXPECT_EQ(defaults, 1u);
  // A list shorter than the matches holds the first ones.
  cl_device_id first = nullptr;
  cl_uint reported = 0;
  ASSERT_CL_OK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &first, &reported));
  EXPECT_EQ(first, devices[0]);
  EXPECT_EQ(reported, all);
  cl_uint none = 77;
  EXPECT_CL(CL_DEVICE_NOT_FOUND, clGetDeviceIDs(platform, CL_DEVICE_TYPE_ACCELERATOR, 0, nullptr, &none));
  EXPECT_CL(CL_DEVICE_NOT_FOUND, clGetDeviceIDs(platform, CL_DEVICE_TYPE_CUSTOM, 0, nullptr, &none));
  EXPECT_CL(CL_INVALID_DEVICE_TYPE, clGetDeviceIDs(platform, cl_device_type(1) << 40, 0, nullptr, &none));
  EXPECT_CL(CL_INVALID_VALUE, clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, &first, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, nullptr));
}

TEST_F(DeviceTest, NoGpuOnACpuOnlyMachineIsDeviceNotFound) {
  cl_uint all = 0;
  ASSERT_CL_OK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &all));
  std::vector<cl_device_id> devices(all);
  ASSERT_CL_OK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, all, devices.data(), nullptr));
  for (cl_device_id d : devices) {
    cl_device_type type = 0;
    ASSERT_CL_OK(clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof(type), &type, nullptr));
    if (type & CL_DEVICE_TYPE_GPU) GTEST_SKIP() << "Loom lists a GPU on this machine";
  }
  cl_uint count = 5;
  cl_device_id gpu = nullptr;
  EXPECT_CL(CL_DEVICE_NOT_FOUND, clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &gpu, &count));
  EXPECT_EQ(gpu, nullptr);
}

TEST_F(DeviceTest, UnsupportedPartitioningAndUnknownQueriesFail) {
  const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_uint count = 0;
  EXPECT_CL(CL_INVALID_VALUE, clCreateSubDevices(device, equally, 0, nullptr, &count));
  // Without tiles (sub_device_test.cpp covers devices with them), no partition at all.
  if (!std::getenv("LOOM_CpuSubDevices") && !std::getenv("ZE_FLAT_DEVICE_HIERARCHY")) {
    EXPECT_EQ(deviceInfo<cl_uint>(CL_DEVICE_PARTITION_MAX_SUB_DEVICES), 0u);
    const cl_device_partition_property numa[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, CL_DEVICE_AFFINITY_DOMAIN_NUMA, 0};
    EXPECT_CL(CL_INVALID_VALUE, clCreateSubDevices(device, numa, 0, nullptr, &count)) << "a device without tiles";
  }
  size_t size = 0;
  EXPECT_CL(CL_INVALID_VALUE, clGetDeviceInfo(device, 0x7ffff, 0, nullptr, &size));
  cl_uint tooSmall = 0;
  EXPECT_CL(CL_INVALID_VALUE, clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(tooSmall), &tooSmall, nullptr));
  // Root devices: retain and release succeed and change nothing.
  EXPECT_CL_OK(clRetainDevice(device));
  EXPECT_CL_OK(clReleaseDevice(device));
  EXPECT_EQ(deviceInfo<cl_uint>(CL_DEVICE_REFERENCE_COUNT), 1u);
}

TEST_F(DeviceTest, DeviceAndHostTimersAdvance) {
  cl_ulong device0 = 0, host0 = 0, device1 = 0, host1 = 0, hostOnly = 0;
  ASSERT_CL_OK(clGetDeviceAndHostTimer(device, &device0, &host0));
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  ASSERT_CL_OK(clGetDeviceAndHostTimer(device, &device1, &host1));
  ASSERT_CL_OK(clGetHostTimer(device, &hostOnly));
  EXPECT_GT(device1, device0);
  EXPECT_GE(host1 - host0, 2'000'000u);
  EXPECT_GE(hostOnly, host1);
  EXPECT_CL(CL_INVALID_VALUE, clGetDeviceAndHostTimer(device, nullptr, &host0));
}

}  // namespace
}  // namespace loom::test
