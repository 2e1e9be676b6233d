// cl_khr_fp16: the device reports half precision (extension, OpenCL C feature, fp config, vector
// widths), and half kernels from OpenCL C (3.0 and 2.0) and from IL compute correctly rounded
// half results, conversions, vector loads and stores and collective functions (half_kernels.cl,
// half_reference.h).
#include <algorithm>

#include "../kernels/half_reference.h"
#include "cl_test_helpers.h"

namespace loom::test {
namespace {

constexpr size_t kInputs = 256;
constexpr cl_half kScale = 0x3e00;  // 1.5

TEST_F(ClTest, DeviceReportsHalfPrecision) {
  const std::set<std::string> extensions = splitWords(deviceString(CL_DEVICE_EXTENSIONS));
  EXPECT_TRUE(extensions.count("cl_khr_fp16"));
  // The minimum for half is round to nearest (or to zero) with infinities and NaNs; Loom's half is
  // IEEE 754 binary16 with denormals and a correctly rounded fma.
  const cl_device_fp_config ieee = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA;
  EXPECT_EQ(deviceInfo<cl_device_fp_config>(CL_DEVICE_HALF_FP_CONFIG) & ieee, ieee);
  EXPECT_GE(deviceInfo<cl_uint>(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF), 1u);
  EXPECT_GE(deviceInfo<cl_uint>(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF), 1u);
}

class HalfPrecisionTest : public ClTest, public testing::WithParamInterface<ProgramKind> {};

TEST_P(HalfPrecisionTest, ArithmeticMathAndConversionsAreCorrectlyRounded) {
  cl_kernel k = kernelOfKind(GetParam(), "half_kernels", "half_arithmetic");
  ASSERT_NE(k, nullptr);
  const std::vector<cl_half> x = halfInputs(kInputs, 0x0123), y = halfInputs(kInputs, 0x8765);
  cl_mem results = buffer(CL_MEM_WRITE_ONLY, kInputs * kHalfResults * sizeof(cl_half));
  cl_mem saturated = buffer(CL_MEM_WRITE_ONLY, kInputs * sizeof(cl_short));
  cl_mem widened = buffer(CL_MEM_WRITE_ONLY, kInputs * sizeof(cl_float));
  setArgs(k, bufferWith(x), bufferWith(y), kScale, results, saturated, widened);
  ASSERT_NO_FATAL_FAILURE(run1d(k, kInputs));
  const std::vector<cl_half> got = readBack<cl_half>(results, kInputs * kHalfResults);
  const std::vector<cl_half> expected = expectedHalfResults(x, y, kScale);
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_TRUE(sameHalf(got[i], expected[i])) << "input " << i / kHalfResults << " (" << halfToFloat(x[i / kHalfResults])
                                               << ", " << halfToFloat(y[i / kHalfResults]) << ") result " << i % kHalfResults
                                               << ": got 0x" << std::hex << got[i] << ", expected 0x" << expected[i];
  EXPECT_EQ(readBack<cl_short>(saturated, kInputs), expectedSaturated(x));
  const std::vector<float> wide = readBack<cl_float>(widened, kInputs);
  for (size_t i = 0; i < kInputs; ++i)
    EXPECT_TRUE(wide[i] == halfToFloat(x[i]) || (std::isnan(wide[i]) && isHalfNan(x[i]))) << i;
}

TEST_P(HalfPrecisionTest, Half4LoadsMultipliesAndStores) {
  cl_kernel k = kernelOfKind(GetParam(), "half_kernels", "half_vectors");
  ASSERT_NE(k, nullptr);
  const std::vector<cl_half> x = halfInputs(kInputs, 0x4321);
  cl_mem out = buffer(CL_MEM_WRITE_ONLY, kInputs * sizeof(cl_half));
  setArgs(k, bufferWith(x), kScale, out);
  ASSERT_NO_FATAL_FAILURE(run1d(k, kInputs / 4));
  const std::vector<cl_half> got = readBack<cl_half>(out, kInputs), expected = expectedScaled(x, kScale);
  for (size_t i = 0; i < kInputs; ++i) EXPECT_TRUE(sameHalf(got[i], expected[i])) << i << ": got 0x" << std::hex << got[i];
}

TEST_P(HalfPrecisionTest, WorkGroupAndSubGroupFunctionsOfHalf) {
  cl_kernel k = kernelOfKind(GetParam(), "half_kernels", "half_collectives");
  ASSERT_NE(k, nullptr);
  constexpr size_t kGroupSize = 64;
  const std::vector<cl_half> x = halfIntegers(kInputs);
  cl_mem out = buffer(CL_MEM_WRITE_ONLY, 3 * kInputs * sizeof(cl_half));
  setArgs(k, bufferWith(x), out);
  ASSERT_NO_FATAL_FAILURE(run1d(k, kInputs, &kGroupSize));
  const std::vector<cl_half> got = readBack<cl_half>(out, 3 * kInputs);
  const HalfCollectives expected = expectedHalfCollectives(x, kGroupSize);
  for (size_t i = 0; i < kInputs; ++i) {
    EXPECT_EQ(halfToFloat(got[3 * i]), expected.sums[i]) << i;
    EXPECT_EQ(halfToFloat(got[3 * i + 1]), expected.runningMaxima[i]) << i;
    EXPECT_GE(halfToFloat(got[3 * i + 2]), expected.groupMinima[i]) << i;
    EXPECT_TRUE(std::count(x.begin() + i / kGroupSize * kGroupSize, x.begin() + (i / kGroupSize + 1) * kGroupSize, got[3 * i + 2]))
        << i << ": the sub-group minimum is one of the group's values";
  }
}

LOOM_INSTANTIATE_FOR_PROGRAM_KINDS(HalfPrecisionTest);

}  // namespace
}  // namespace loom::test
