// ZE_extension_float_atomics: the driver lists it, zeDeviceGetModuleProperties reports the
// capabilities through its pNext chain, and a SPIR-V module using OpAtomicFAddEXT, OpAtomicFMinEXT
// and OpAtomicFMaxEXT on float and double in global and local memory computes exact results, and
// half atomics in SPIR-V change only their half of a word.
#include <algorithm>
#include <cstring>

#include "../kernels/float_atomic_reference.h"
#include "../kernels/half_atomics_reference.h"
#include "ze_test_helpers.h"

namespace loom::test {
namespace {

using FloatAtomicsTest = ZeTest;

constexpr ze_device_fp_atomic_ext_flags_t kAddMinMax =
    ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_ADD | ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_MIN_MAX |
    ZE_DEVICE_FP_ATOMIC_EXT_FLAG_LOCAL_ADD | ZE_DEVICE_FP_ATOMIC_EXT_FLAG_LOCAL_MIN_MAX;

TEST_F(FloatAtomicsTest, TheDriverListsTheExtension) {
  EXPECT_EQ(listedExtensionVersion(ZE_FLOAT_ATOMICS_EXT_NAME), uint32_t(ZE_FLOAT_ATOMICS_EXT_VERSION_1_0));
}

TEST_F(FloatAtomicsTest, ModulePropertiesReportTheCapabilitiesThroughPNext) {
  ze_float_atomic_ext_properties_t atomics{ZE_STRUCTURE_TYPE_FLOAT_ATOMIC_EXT_PROPERTIES};
  atomics.fp16Flags = atomics.fp32Flags = atomics.fp64Flags = 0xdeadbeef;
  ze_device_module_properties_t properties{ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES, &atomics};
  ASSERT_ZE(zeDeviceGetModuleProperties(device, &properties));
  EXPECT_EQ(properties.pNext, &atomics);
  EXPECT_EQ(atomics.fp32Flags & kAddMinMax, kAddMinMax);
  EXPECT_EQ(atomics.fp16Flags, properties.flags & ZE_DEVICE_MODULE_FLAG_FP16 ? atomics.fp32Flags : 0u);
  EXPECT_TRUE(atomics.fp32Flags & ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_LOAD_STORE);
  const bool fp64 = properties.flags & ZE_DEVICE_MODULE_FLAG_FP64;
  EXPECT_EQ(atomics.fp64Flags, fp64 ? atomics.fp32Flags : 0u);
}

// Half atomics in SPIR-V as other producers write them (tests/kernels/half_atomics.spvasm, whose
// comment gives the slots): add, min, max, exchange, store and load on halves that share their
// 32-bit words with neighbours, which keep their bits.
TEST_F(FloatAtomicsTest, HalfAtomicsInSpirvChangeOnlyTheirHalf) {
  ze_kernel_handle_t halves = kernel(module("half_atomics.spv"), "half_atomics");
  ASSERT_NE(halves, nullptr);
  const std::vector<uint16_t> start = half_atomics::startingBits();
  uint16_t* bits = shared<uint16_t>(start.size());
  uint16_t* operands = shared<uint16_t>(half_atomics::kOperands.size());
  std::copy(start.begin(), start.end(), bits);
  std::copy(half_atomics::kOperands.begin(), half_atomics::kOperands.end(), operands);
  setArguments(halves, bits, operands);
  launch(halves, uint32_t(half_atomics::kOperands.size()), 1);
  half_atomics::expectResults(bits);
}

TEST_F(FloatAtomicsTest, ManyWorkItemsAddTakeMinimaAndMaximaExactly) {
  constexpr uint32_t kGroups = 64, kGroupSize = 128;
  constexpr size_t kItems = size_t(kGroups) * kGroupSize;
  ze_kernel_handle_t sums = kernel(module("float_atomic_kernels.spv"), "float_atomic_sums");
  ASSERT_NE(sums, nullptr);
  const std::vector<float> values = floatAtomicValues(kItems);
  float* in = deviceMemory<float>(kItems);
  float* counter = deviceMemory<float>(1);
  float* taken = deviceMemory<float>(kItems);
  float* floats = deviceMemory<float>(3);
  double* doubles = deviceMemory<double>(3);
  double* groups = deviceMemory<double>(3 * kGroups);
  upload(in, values);
  upload(counter, std::vector<float>{0.0f});
  upload(floats, floatAtomicInitialFloats());
  upload(doubles, floatAtomicInitialDoubles());
  setArguments(sums, in, counter, taken, floats, doubles, groups);
  launch(sums, kGroups, kGroupSize);
  const FloatAtomicResults expected = expectedFloatAtomics(values, kGroupSize);
  EXPECT_EQ(download(counter, 1), std::vector<float>{float(kItems)});
  std::vector<float> seen = download(taken, kItems);
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, expected.taken) << "each old value of the counter once";
  EXPECT_EQ(download(floats, 3), expected.floats);
  EXPECT_EQ(download(doubles, 3), expected.doubles);
  EXPECT_EQ(download(groups, 3 * kGroups), expected.groups);
}

}  // namespace
}  // namespace loom::test
