// Integer builtins (OpenCL C 3.0, 6.15.3), and select and bitselect, for every integer type at
// every vector width, against exact 128-bit references.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "builtin_harness.h"

namespace loom::compiler::test::builtins {
namespace {

constexpr size_t kCount = 1200;  // inputs per function and width
constexpr Type kIntegers[] = {Type::Char, Type::UChar, Type::Short, Type::UShort, Type::Int, Type::UInt, Type::Long, Type::ULong};

using Wide = __int128;

// x * y modulo 2^128: ulong products reach 2^128, past __int128 (the wrapped bits are what hi() reads).
Wide wrappingProduct(Wide x, Wide y) { return Wide((unsigned __int128)x * (unsigned __int128)y); }

Type unsignedOf(Type t) { return info(t).isSigned ? Type(int(t) + 1) : t; }
int bitsOf(Type t) { return int(8 * info(t).size); }

// A wide value reduced modulo 2^bits into t's range, as C arithmetic on t wraps.
long double wrap(Type t, Wide value) {
  const int bits = bitsOf(t);
  unsigned __int128 low = (unsigned __int128)value & ((((unsigned __int128)1) << bits) - 1);
  if (info(t).isSigned && (low >> (bits - 1)) & 1) return (long double)(Wide(low) - (Wide(1) << bits));
  return (long double)low;
}
long double saturate(Type t, Wide value) {
  return (long double)std::clamp<Wide>(value, Wide(info(t).min), Wide((unsigned __int128)(uint64_t)info(t).max));
}
Wide wide(long double value) { return value < 0 ? Wide(int64_t(value)) : Wide(uint64_t(value)); }

Builtin integer(Type t, const std::string& call, int arity, std::function<long double(Wide, Wide, Wide)> f, Type result) {
  return {call, std::vector<Type>(arity, t), result, componentwise([f](const Lanes& x) {
            return Expected{f(wide(x[0]), x.size() > 1 ? wide(x[1]) : 0, x.size() > 2 ? wide(x[2]) : 0)};
          })};
}

std::vector<Builtin> integerFunctions(Type t) {
  const int bits = bitsOf(t);
  const Type u = unsignedOf(t);
  const Wide modulus = Wide(1) << bits;
  auto asUnsigned = [modulus](Wide x) { return x < 0 ? x + modulus : x; };
  auto hi = [bits](Wide product) { return product >> bits; };  // floor, as an arithmetic shift
  std::vector<Builtin> f = {
      integer(t, "abs(A0)", 1, [](Wide x, Wide, Wide) { return (long double)(x < 0 ? -x : x); }, u),
      integer(t, "abs_diff(A0, A1)", 2, [](Wide x, Wide y, Wide) { return (long double)(x > y ? x - y : y - x); }, u),
      integer(t, "add_sat(A0, A1)", 2, [t](Wide x, Wide y, Wide) { return saturate(t, x + y); }, t),
      integer(t, "sub_sat(A0, A1)", 2, [t](Wide x, Wide y, Wide) { return saturate(t, x - y); }, t),
      integer(t, "hadd(A0, A1)", 2, [t](Wide x, Wide y, Wide) { return wrap(t, (x + y) >> 1); }, t),
      integer(t, "rhadd(A0, A1)", 2, [t](Wide x, Wide y, Wide) { return wrap(t, (x + y + 1) >> 1); }, t),
      integer(t, "clz(A0)", 1, [=](Wide x, Wide, Wide) {
        int n = 0;
        for (int bit = bits - 1; bit >= 0 && !((asUnsigned(x) >> bit) & 1); --bit) ++n;
        return (long double)n;
      }, t),
      integer(t, "ctz(A0)", 1, [=](Wide x, Wide, Wide) {
        int n = 0;
        while (n < bits && !((asUnsigned(x) >> n) & 1)) ++n;
        return (long double)n;
      }, t),
      integer(t, "popcount(A0)", 1, [=](Wide x, Wide, Wide) {
        int n = 0;
        for (int bit = 0; bit < bits; ++bit) n += int((asUnsigned(x) >> bit) & 1);
        return (long double)n;
      }, t),
      integer(t, "mul_hi(A0, A1)", 2, [=](Wide x, Wide y, Wide) { return wrap(t, hi(wrappingProduct(x, y))); }, t),
      integer(t, "mad_hi(A0, A1, A2)", 3, [=](Wide x, Wide y, Wide z) { return wrap(t, hi(wrappingProduct(x, y)) + z); }, t),
      integer(t, "mad_sat(A0, A1, A2)", 3, [t](Wide x, Wide y, Wide z) {
        // |x * y| may pass 2^127 for 64-bit types: saturate the product first, which keeps the sum's side.
        const Wide limit = Wide(1) << 100;
        const bool huge = (x != 0 && y != 0) && (x > limit / (y < 0 ? -y : y) || -x > limit / (y < 0 ? -y : y));
        if (huge) return saturate(t, (x < 0) != (y < 0) ? -limit : limit);
        return saturate(t, x * y + z);
      }, t),
      integer(t, "rotate(A0, A1)", 2, [=](Wide x, Wide n, Wide) {
        const int s = int(asUnsigned(n) % bits);
        const Wide v = asUnsigned(x);
        return wrap(t, s == 0 ? v : ((v << s) | (v >> (bits - s))) & (modulus - 1));
      }, t),
      integer(t, "max(A0, A1)", 2, [](Wide x, Wide y, Wide) { return (long double)std::max(x, y); }, t),
      integer(t, "max(A0, S1)", 2, [](Wide x, Wide y, Wide) { return (long double)std::max(x, y); }, t),
      integer(t, "min(A0, A1)", 2, [](Wide x, Wide y, Wide) { return (long double)std::min(x, y); }, t),
      integer(t, "min(A0, S1)", 2, [](Wide x, Wide y, Wide) { return (long double)std::min(x, y); }, t),
      integer(t, "bitselect(A0, A1, A2)", 3, [=](Wide a, Wide b, Wide c) {
        return wrap(t, (asUnsigned(a) & ~asUnsigned(c)) | (asUnsigned(b) & asUnsigned(c)));
      }, t),
  };
  for (const char* call : {"clamp(A0, A1, A2)", "clamp(A0, S1, S2)"}) {
    Builtin clamp = integer(t, call, 3, [](Wide x, Wide lo, Wide hi) { return (long double)std::min(std::max(x, lo), hi); }, t);
    clamp.prepare = [](Lanes& x) { if (x[1] > x[2]) std::swap(x[1], x[2]); };  // undefined otherwise
    if (call[9] == 'S') clamp.widths = {2, 3, 4, 8, 16};
    f.push_back(clamp);
  }
  if (t == Type::Long || t == Type::ULong) return f;
  // upsample(hi, lo): the next wider type from hi and an unsigned lo.
  Builtin upsample = integer(t, "upsample(A0, A1)", 2, [=](Wide x, Wide y, Wide) {
    return (long double)(x * modulus + asUnsigned(y));
  }, Type(int(t) + 2));
  upsample.arguments[1] = u;
  f.push_back(upsample);
  if (t != Type::Int && t != Type::UInt) return f;
  // mul24 and mad24: only 24-bit operands are defined.
  auto within24 = [t](Lanes& x) {
    for (size_t i = 0; i < 2; ++i) x[i] = std::fmod(x[i], t == Type::Int ? 8388608.0L : 16777216.0L);
  };
  Builtin mul24 = integer(t, "mul24(A0, A1)", 2, [t](Wide x, Wide y, Wide) { return wrap(t, x * y); }, t);
  Builtin mad24 = integer(t, "mad24(A0, A1, A2)", 3, [t](Wide x, Wide y, Wide z) { return wrap(t, x * y + z); }, t);
  mul24.prepare = mad24.prepare = within24;
  f.push_back(mul24);
  f.push_back(mad24);
  return f;
}

// select(a, b, c): scalars pick b when c is non-zero, vectors when c's most significant bit is set.
std::vector<Builtin> selects() {
  std::vector<Builtin> f;
  for (Type t : {Type::Char, Type::UChar, Type::Short, Type::UShort, Type::Int, Type::UInt, Type::Long, Type::ULong, Type::Float,
                 Type::Double}) {
    const size_t size = info(t).size;
    const Type selector = size == 1 ? Type::Char : size == 2 ? Type::Short : size == 4 ? Type::Int : Type::Long;
    for (Type c : {selector, unsignedOf(selector)}) {
      f.push_back({"select(A0, A1, A2)", {t, t, c}, t, [c](const std::vector<Lanes>& x) {
                     std::vector<Expected> picked(x[0].size());
                     const long double msb = std::ldexp(1.0L, 8 * int(info(c).size) - 1);
                     for (size_t lane = 0; lane < picked.size(); ++lane) {
                       const long double s = x[2][lane];
                       const bool pickB = picked.size() > 1 ? s < 0 || s >= msb : s != 0;
                       picked[lane] = Expected{pickB ? x[1][lane] : x[0][lane]};
                     }
                     return picked;
                   }});
    }
  }
  return f;
}

// any and all look at the most significant bit of each component; bitselect of floating-point
// values selects bits.
template <typename Real, typename Bits>
long double selectBits(long double a, long double b, long double c) {
  const Real values[3] = {Real(a), Real(b), Real(c)};
  Bits bits[3];
  std::memcpy(bits, values, sizeof bits);
  const Bits selected = (bits[0] & ~bits[2]) | (bits[1] & bits[2]);
  Real result;
  std::memcpy(&result, &selected, sizeof result);
  return result;
}

std::vector<Builtin> anyAllAndBitselect() {
  std::vector<Builtin> f;
  for (Type t : {Type::Char, Type::Short, Type::Int, Type::Long})
    for (bool any : {true, false}) {
      Builtin test{any ? "any(A0)" : "all(A0)", {t}, Type::Int, [any](const std::vector<Lanes>& x) {
                     size_t negative = 0;
                     for (long double v : x[0]) negative += v < 0;
                     return std::vector<Expected>{Expected{(any ? negative > 0 : negative == x[0].size()) ? 1.0L : 0.0L}};
                   }};
      test.reduces = true;
      f.push_back(test);
    }
  f.push_back({"bitselect(A0, A1, A2)", {Type::Float, Type::Float, Type::Float}, Type::Float,
               componentwise([](const Lanes& x) { return Expected{selectBits<float, uint32_t>(x[0], x[1], x[2])}; })});
  f.push_back({"bitselect(A0, A1, A2)", {Type::Double, Type::Double, Type::Double}, Type::Double,
               componentwise([](const Lanes& x) { return Expected{selectBits<double, uint64_t>(x[0], x[1], x[2])}; })});
  return f;
}

TEST(RelationalBuiltins, AnyAllAndFloatingPointBitselectAtEveryWidth) { checkFamily(anyAllAndBitselect(), kCount); }

class IntegerFunctions : public testing::TestWithParam<Type> {};

TEST_P(IntegerFunctions, AtEveryWidth) { checkFamily(integerFunctions(GetParam()), kCount, "-cl-std=CL3.0"); }  // ctz: 2.0

INSTANTIATE_TEST_SUITE_P(IntegerBuiltins, IntegerFunctions, testing::ValuesIn(kIntegers),
                         [](const testing::TestParamInfo<Type>& type) { return std::string(builtins::info(type.param).name); });

TEST(RelationalBuiltins, SelectForEveryTypeAndSelectorAtEveryWidth) { checkFamily(selects(), kCount); }

}  // namespace
}  // namespace loom::compiler::test::builtins
