// convert_<type><n>[_sat][_rte|_rtz|_rtp|_rtn] for every pair of types at every width, against
// host references: exact integer reasoning, and the host's own rounding modes (fesetround) for
// floating-point results.
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>

#include "builtin_harness.h"

namespace loom::compiler::test::builtins {
namespace {

constexpr size_t kCount = 480;  // inputs per conversion and width
constexpr Type kTypes[] = {Type::Char, Type::UChar, Type::Short, Type::UShort, Type::Int,
                           Type::UInt, Type::Long,  Type::ULong, Type::Float,  Type::Double, Type::Half};
const char* const kModes[] = {"", "_rte", "_rtz", "_rtp", "_rtn"};

// x made integral by the mode; no mode means toward zero, as conversions to integers round.
long double integral(long double x, const std::string& mode) {
  if (mode == "_rte") return std::nearbyint(x);  // the default rounding mode: to nearest even
  if (mode == "_rtp") return std::ceil(x);
  if (mode == "_rtn") return std::floor(x);
  return std::trunc(x);
}

// An exact value rounded to half, float or double by the mode (to nearest without one).
long double roundedTo(Type type, long double value, const std::string& mode) {
  const int direction = mode == "_rtz" ? FE_TOWARDZERO : mode == "_rtp" ? FE_UPWARD : mode == "_rtn" ? FE_DOWNWARD : FE_TONEAREST;
  const int saved = std::fegetround();
  std::fesetround(direction);
  volatile long double exact = value;  // volatile: the conversions happen in this rounding mode
  volatile float single = float(exact);
  volatile double twice = double(exact);
  volatile _Float16 half = _Float16(exact);
  std::fesetround(saved);
  if (type == Type::Half) return (long double)half;
  return type == Type::Float ? (long double)single : (long double)twice;
}

std::optional<long double> toInteger(Type to, Type from, long double x, bool saturate, const std::string& mode) {
  const TypeInfo& d = info(to);
  if (std::isnan(x)) return saturate ? std::optional<long double>(0) : std::nullopt;
  const long double v = info(from).floating ? integral(x, mode) : x;
  if (saturate) return std::clamp(v, d.min, d.max);
  if (info(from).floating) return v < d.min || v > d.max ? std::nullopt : std::optional<long double>(v);
  // Between integers: modulo 2^bits, as C conversions wrap.
  const int bits = int(8 * d.size);
  const __int128 wide = v < 0 ? __int128(int64_t(v)) : __int128(uint64_t(v));
  unsigned __int128 low = (unsigned __int128)wide & ((((unsigned __int128)1) << bits) - 1);
  if (d.isSigned && (low >> (bits - 1)) & 1) return (long double)(__int128(low) - (__int128(1) << bits));
  return (long double)low;
}

std::vector<Builtin> conversionsTo(Type to) {
  std::vector<Builtin> conversions;
  for (Type from : kTypes)
    for (const char* mode : kModes)
      for (bool saturate : {false, true}) {
        if (saturate && info(to).floating) continue;  // _sat is for integer destinations only
        const std::string call =
            std::string("convert_") + info(to).name + "#" + (saturate ? "_sat" : "") + mode + "(A0)";
        conversions.push_back({call, {from}, to, componentwise([=](const Lanes& x) {
                                 if (info(to).floating) return Expected{roundedTo(to, x[0], mode)};
                                 return Expected{toInteger(to, from, x[0], saturate, mode)};
                               })});
      }
  return conversions;
}

class Conversions : public testing::TestWithParam<Type> {};

TEST_P(Conversions, FromEveryTypeWithEveryRoundingModeAtEveryWidth) {
  checkFamily(conversionsTo(GetParam()), kCount);
}

INSTANTIATE_TEST_SUITE_P(ConversionBuiltins, Conversions, testing::ValuesIn(kTypes),
                         [](const testing::TestParamInfo<Type>& type) { return std::string("To_") + builtins::info(type.param).name; });

}  // namespace
}  // namespace loom::compiler::test::builtins
