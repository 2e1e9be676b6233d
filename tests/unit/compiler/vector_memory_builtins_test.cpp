// vload_half, vstore_half (every rounding mode) and their aligned forms, at every width, against
// the host's _Float16 conversions. (Plain vloadn and vstoren move every other test's data.)
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstring>

#include "builtin_harness.h"
#include "kernel_runner.h"

namespace loom::compiler::test::builtins {
namespace {

constexpr size_t kCount = 2400;  // inputs per function and width
const std::vector<int> kAlignedWidths = {2, 4, 8, 16};  // vloada_half3 and vstorea_half3 use a stride of 4

long double fromHalf(long double bits) {
  const uint16_t word = uint16_t(bits);
  _Float16 half;
  std::memcpy(&half, &word, 2);
  return (long double)half;
}

// x rounded to half by the mode (to nearest even without one); NaN as the quiet NaN Loom stores.
long double toHalfBits(long double x, const std::string& mode) {
  if (std::isnan(x)) return std::signbit(x) ? 0xfe00 : 0x7e00;
  const int direction = mode == "_rtz" ? FE_TOWARDZERO : mode == "_rtp" ? FE_UPWARD : mode == "_rtn" ? FE_DOWNWARD : FE_TONEAREST;
  const int saved = std::fegetround();
  std::fesetround(direction);
  volatile double exact = double(x);  // float and double inputs are exact in double
  volatile _Float16 half = _Float16(exact);
  std::fesetround(saved);
  uint16_t word;
  std::memcpy(&word, const_cast<_Float16*>(&half), 2);
  return word;
}

std::vector<Builtin> halfFunctions() {
  std::vector<Builtin> f;
  for (const char* name : {"vload_half", "vloada_half"}) {
    Builtin load{std::string(name) + "#(i, (const global half*)a0)", {Type::UShort}, Type::Float,
                 componentwise([](const Lanes& x) { return Expected{fromHalf(x[0])}; })};
    if (name[5] == 'a') load.widths = kAlignedWidths;
    f.push_back(load);
  }
  // The store's result is the private vector it wrote, returned by a comma expression.
  for (Type t : {Type::Float, Type::Double})
    for (const char* name : {"vstore_half", "vstorea_half"})
      for (std::string mode : {"", "_rte", "_rtz", "_rtp", "_rtn"}) {
        Builtin store{"(" + std::string(name) + "#" + mode + "(A0, 0, (half*)R), r)", {t}, Type::UShort,
                      componentwise([mode](const Lanes& x) {
                        const long double bits = toHalfBits(x[0], mode);
                        return Expected{bits, bits};
                      }),
                      0, Type::UShort};
        if (name[6] == 'a') store.widths = kAlignedWidths;
        f.push_back(store);
      }
  return f;
}

TEST(VectorMemoryBuiltins, HalfLoadsAndStoresWithEveryRoundingModeAtEveryWidth) {
  checkFamily(halfFunctions(), kCount);
  checkFamily(halfFunctions(), kCount, "-cl-std=CL3.0");  // generic pointers
}

// The aligned 3-component forms step over 4 halves per offset, as 4-component vectors do.
TEST(VectorMemoryBuiltins, AlignedThreeComponentHalfFormsUseAStrideOfFour) {
  const char* source = R"(
    kernel void k(global const ushort* in, global ushort* out) {
      const float3 v = vloada_half3(1, (const global half*)in);
      vstorea_half3(v * 2.0f, 1, (global half*)out);
    })";
  auto executable = load(compileOpenClSource({source, "", {}}));
  ASSERT_NE(executable, nullptr);
  std::string log;
  WorkGroupFunction function = executable->kernel("k", log);
  ASSERT_NE(function, nullptr) << log;
  // 1, 2, 3 (as half) at offset 1, that is at 4, 5 and 6.
  const std::vector<uint16_t> in = {0, 0, 0, 0, 0x3c00, 0x4000, 0x4200, 0};
  std::vector<uint16_t> out(8, 0xffff);
  Arguments(*executable->program().info.findKernel("k")).set(0, in.data()).set(1, out.data()).run(function, Range{});
  EXPECT_EQ(out, (std::vector<uint16_t>{0xffff, 0xffff, 0xffff, 0xffff, 0x4000, 0x4400, 0x4600, 0xffff}));
}

}  // namespace
}  // namespace loom::compiler::test::builtins
