// Half precision in Level Zero: a SPIR-V module that declares Float16 (half_kernels.cl) builds and
// computes correctly rounded half results, conversions and vector loads and stores
// (half_reference.h); the module properties report fp16 (device_test.cpp).
#include "../kernels/half_reference.h"
#include "ze_test_helpers.h"

namespace loom::test {
namespace {

using HalfPrecisionTest = ZeTest;

constexpr size_t kInputs = 256;
constexpr uint16_t kScale = 0x3e00;  // 1.5

TEST_F(HalfPrecisionTest, SpirvWithFloat16ComputesCorrectlyRoundedHalves) {
  ze_module_handle_t halves = module("half_kernels.spv");
  ASSERT_NE(halves, nullptr);
  ze_kernel_handle_t arithmetic = kernel(halves, "half_arithmetic");
  ze_kernel_handle_t vectors = kernel(halves, "half_vectors");
  ASSERT_NE(arithmetic, nullptr);
  ASSERT_NE(vectors, nullptr);
  const std::vector<uint16_t> x = halfInputs(kInputs, 0x0123), y = halfInputs(kInputs, 0x8765);
  uint16_t* xs = deviceMemory<uint16_t>(kInputs);
  uint16_t* ys = deviceMemory<uint16_t>(kInputs);
  uint16_t* results = deviceMemory<uint16_t>(kInputs * kHalfResults);
  int16_t* saturated = deviceMemory<int16_t>(kInputs);
  float* widened = deviceMemory<float>(kInputs);
  uint16_t* scaled = deviceMemory<uint16_t>(kInputs);
  upload(xs, x);
  upload(ys, y);
  setArguments(arithmetic, xs, ys, kScale, results, saturated, widened);
  launch(arithmetic, kInputs / 64, 64);
  setArguments(vectors, xs, kScale, scaled);
  launch(vectors, 1, kInputs / 4);
  const std::vector<uint16_t> got = download(results, kInputs * kHalfResults), expected = expectedHalfResults(x, y, kScale);
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_TRUE(sameHalf(got[i], expected[i])) << "input " << i / kHalfResults << " result " << i % kHalfResults << ": got 0x"
                                               << std::hex << got[i] << ", expected 0x" << expected[i];
  EXPECT_EQ(download(saturated, kInputs), expectedSaturated(x));
  const std::vector<float> wide = download(widened, kInputs);
  for (size_t i = 0; i < kInputs; ++i)
    EXPECT_TRUE(wide[i] == halfToFloat(x[i]) || (std::isnan(wide[i]) && isHalfNan(x[i]))) << i;
  const std::vector<uint16_t> product = download(scaled, kInputs), wanted = expectedScaled(x, kScale);
  for (size_t i = 0; i < kInputs; ++i) EXPECT_TRUE(sameHalf(product[i], wanted[i])) << i << ": got 0x" << std::hex << product[i];
}

}  // namespace
}  // namespace loom::test
