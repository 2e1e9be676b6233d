// Math and common builtins for float, double and half at every vector width, against long double
// references, within the OpenCL C specification's ULP limits (OpenCL C 3.0, 7.4).
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "builtin_harness.h"

namespace loom::compiler::test::builtins {
namespace {

constexpr size_t kCount = 2400;  // inputs per function and width
constexpr long double kPi = 3.141592653589793238462643383279502884L;
constexpr double kAnyValue = INFINITY;

using Real1 = long double (*)(long double);
using Real2 = long double (*)(long double, long double);

Builtin unary(Type type, const std::string& name, std::function<long double(long double)> f, double ulps) {
  return {name + "(A0)", {type}, type, componentwise([f](const Lanes& x) { return Expected{f(x[0])}; }), ulps};
}
Builtin binary(Type type, const std::string& call, std::function<long double(long double, long double)> f, double ulps,
               Type second = Type::Float) {
  const Type argument1 = second == Type::Int ? Type::Int : type;
  return {call, {type, argument1}, type, componentwise([f](const Lanes& x) { return Expected{f(x[0], x[1])}; }), ulps};
}
Builtin ternary(Type type, const std::string& call, std::function<Expected(const Lanes&)> f, double ulps) {
  return {call, {type, type, type}, type, componentwise(std::move(f)), ulps};
}

// The *pi references reduce x exactly (remainder) to |r| <= 1/2 or near it before multiplying by
// pi, so that long double's rounding of pi * r stays far below the type's ulp.
long double sinpi(long double x) {
  long double r = std::remainder(x, 2.0L);  // [-1, 1]
  if (r > 0.5L) r = 1 - r;                   // sin(pi r) = sin(pi (1 - r))
  if (r < -0.5L) r = -1 - r;
  return r == 0 ? std::copysign(0.0L, x) : std::sin(kPi * r);
}
long double cospi(long double x) {
  const long double a = std::fabs(std::remainder(x, 2.0L));  // [0, 1]
  if (a == 0.5L) return 0;
  return a < 0.25L ? std::cos(kPi * a) : a <= 0.75L ? std::sin(kPi * (0.5L - a)) : -std::cos(kPi * (1 - a));
}
long double tanpi(long double x) {
  const long double r = std::fmod(x, 2.0L), odd = std::fabs(r) >= 1 ? -1 : 1;
  if (std::fabs(r) == 0 || std::fabs(r) == 1) return std::copysign(0.0L, x * odd);
  if (std::fabs(r) == 0.5L || std::fabs(r) == 1.5L) return r == 0.5L || r == -1.5L ? INFINITY : -INFINITY;  // n + 0.5, n even
  return std::tan(kPi * std::remainder(x, 1.0L));
}

// powr: pow for x >= 0 with its own special cases (OpenCL C 3.0, 7.5.1).
long double powr(long double x, long double y) {
  if (x < 0 || std::isnan(x) || std::isnan(y)) return NAN;
  if ((x == 0 && y == 0) || (std::isinf(x) && y == 0) || (x == 1 && std::isinf(y))) return NAN;
  return std::pow(std::fabs(x), y);  // powr(-0, y) is powr(+0, y)
}
long double rootn(long double x, long double n) {
  if (n == 0 || (x < 0 && std::fmod(n, 2) == 0)) return NAN;
  const long double magnitude = std::pow(std::fabs(x), 1.0L / n);
  return std::fmod(n, 2) != 0 ? std::copysign(magnitude, x) : magnitude;
}
// IEEE leaves the sign of fmin(-0, +0) open, so both zeros are accepted.
Expected eitherZero(long double value) {
  return value == 0 ? Expected{0.0L, std::nullopt, -0.0L} : Expected{value};
}
Expected maxmag(const Lanes& x) {
  const long double a = std::fabs(x[0]), b = std::fabs(x[1]);
  return eitherZero(a > b ? x[0] : b > a ? x[1] : std::fmax(x[0], x[1]));
}
Expected minmag(const Lanes& x) {
  const long double a = std::fabs(x[0]), b = std::fabs(x[1]);
  return eitherZero(a < b ? x[0] : b < a ? x[1] : std::fmin(x[0], x[1]));
}

// The neighbour of half x toward y: the representation stepped by one.
long double halfNextafter(long double x, long double y) {
  if (std::isnan(x) || std::isnan(y)) return NAN;
  if (x == y) return y;
  if (x == 0) return std::copysign(0x1p-24L, y);
  _Float16 h = _Float16(x);
  uint16_t bits;
  std::memcpy(&bits, &h, 2);
  bits += (x < y) == (x > 0) ? 1 : -1;
  std::memcpy(&h, &bits, 2);
  return h;
}

// fma of halves rounded once to half: x * y is exact in long double, and the error of the long
// double sum (TwoSum) turns it into the exact sum rounded to odd, which rounds to half as the
// exact sum does (long double keeps more than two bits beyond half's).
long double halfFma(long double x, long double y, long double z) {
  const long double product = x * y, sum = product + z;
  if (!std::isfinite(sum)) return sum;
  const long double zPart = sum - product, productPart = sum - zPart;
  const long double error = (product - productPart) + (z - zPart);
  int exponent;
  const bool odd = uint64_t(std::ldexp(std::frexp(sum, &exponent), 64)) & 1;
  if (error == 0 || odd) return sum;
  return std::nextafter(sum, error > 0 ? (long double)INFINITY : -(long double)INFINITY);
}

// The float or double reference of fma: the host's fma in the type itself, one rounding, where
// long double would add a second.
long double typeFma(Type t, const Lanes& x) {
  if (t == Type::Half) return halfFma(x[0], x[1], x[2]);
  if (t == Type::Float) return std::fma(float(x[0]), float(x[1]), float(x[2]));
  return std::fma(double(x[0]), double(x[1]), double(x[2]));
}

// mad in float or double as Loom computes it: the product and the sum each rounded to the type,
// or both at once where the target fuses them (fma(a, b, -0) is the product alone, signed zeros
// included). Half's mad may be computed in float: any value.
Expected typeMad(Type t, const Lanes& x) {
  auto inType = [t](long double a, long double b, long double c) -> long double {
    if (t == Type::Float) return std::fma(float(a), float(b), float(c));
    return std::fma(double(a), double(b), double(c));
  };
  return Expected{inType(inType(x[0], x[1], -0.0L), 1, x[2]), std::nullopt, typeFma(t, x)};
}

long double typeNextafter(Type t, long double x, long double y) {
  if (t == Type::Half) return halfNextafter(x, y);
  if (t == Type::Float) return std::nextafter(float(x), float(y));
  return std::nextafter(double(x), double(y));
}

// Half functions compute in float and round once: held to 1 ulp where the specification's limits
// for half are 2 ulp or more; correctly rounded ones stay exact.
std::vector<Builtin> forHalf(std::vector<Builtin> functions) {
  for (Builtin& builtin : functions)
    if (builtin.ulps > 0 && std::isfinite(builtin.ulps)) builtin.ulps = 1;
  return functions;
}

// The math functions of one floating-point type (OpenCL C 3.0, tables 7.x of ULP values).
std::vector<Builtin> mathFunctions(Type t) {
  std::vector<Builtin> f = {
      unary(t, "acos", Real1(std::acos), 4), unary(t, "acosh", Real1(std::acosh), 4),
      unary(t, "acospi", [](long double x) { return std::acos(x) / kPi; }, 5), unary(t, "asin", Real1(std::asin), 4),
      unary(t, "asinh", Real1(std::asinh), 4), unary(t, "asinpi", [](long double x) { return std::asin(x) / kPi; }, 5),
      unary(t, "atan", Real1(std::atan), 5), unary(t, "atanh", Real1(std::atanh), 5),
      unary(t, "atanpi", [](long double x) { return std::atan(x) / kPi; }, 5), unary(t, "cbrt", Real1(std::cbrt), 2),
      unary(t, "ceil", Real1(std::ceil), 0), unary(t, "cos", Real1(std::cos), 4), unary(t, "cosh", Real1(std::cosh), 4),
      unary(t, "cospi", cospi, 4), unary(t, "erfc", Real1(std::erfc), 16), unary(t, "erf", Real1(std::erf), 16),
      unary(t, "exp", Real1(std::exp), 3), unary(t, "exp2", Real1(std::exp2), 3),
      unary(t, "exp10", [](long double x) { return std::pow(10.0L, x); }, 3), unary(t, "expm1", Real1(std::expm1), 3),
      unary(t, "fabs", Real1(std::fabs), 0), unary(t, "floor", Real1(std::floor), 0), unary(t, "log", Real1(std::log), 3),
      unary(t, "log2", Real1(std::log2), 3), unary(t, "log10", Real1(std::log10), 3), unary(t, "log1p", Real1(std::log1p), 2),
      unary(t, "logb", Real1(std::logb), 0), unary(t, "rint", Real1(std::rint), 0), unary(t, "round", Real1(std::round), 0),
      unary(t, "sin", Real1(std::sin), 4), unary(t, "sinh", Real1(std::sinh), 4), unary(t, "sinpi", sinpi, 4),
      unary(t, "rsqrt", [](long double x) { return 1 / std::sqrt(x); }, 2),
      // Correctly rounded for double: the host's own sqrt, as long double would round twice
      // (harmlessly for half: 64 bits are more than twice half's 11 plus 2).
      unary(t, "sqrt", [t](long double x) { return t == Type::Double ? std::sqrt(double(x)) : std::sqrt(x); },
            t == Type::Float ? 3 : 0),
      unary(t, "tan", Real1(std::tan), 5),
      unary(t, "tanh", Real1(std::tanh), 5), unary(t, "tanpi", tanpi, 6), unary(t, "tgamma", Real1(std::tgamma), 16),
      unary(t, "trunc", Real1(std::trunc), 0),
      // lgamma's precision is undefined: only its special values are checked.
      unary(t, "lgamma", Real1(std::lgamma), kAnyValue),
      binary(t, "atan2(A0, A1)", Real2(std::atan2), 6),
      binary(t, "atan2pi(A0, A1)", [](long double y, long double x) { return std::atan2(y, x) / kPi; }, 6),
      binary(t, "copysign(A0, A1)", Real2(std::copysign), 0), binary(t, "fdim(A0, A1)", Real2(std::fdim), 0),
      binary(t, "fmod(A0, A1)", Real2(std::fmod), 0), binary(t, "hypot(A0, A1)", Real2(std::hypot), 4),
      {"maxmag(A0, A1)", {t, t}, t, componentwise(maxmag)}, {"minmag(A0, A1)", {t, t}, t, componentwise(minmag)},
      binary(t, "nextafter(A0, A1)", [t](long double x, long double y) { return typeNextafter(t, x, y); }, 0),
      binary(t, "pow(A0, A1)", Real2(std::pow), 16), binary(t, "powr(A0, A1)", powr, 16),
      binary(t, "remainder(A0, A1)", Real2(std::remainder), 0),
      binary(t, "pown(A0, A1)", Real2(std::pow), 16, Type::Int), binary(t, "rootn(A0, A1)", rootn, 16, Type::Int),
      binary(t, "ldexp(A0, A1)", [](long double x, long double n) { return std::ldexp(x, int(n)); }, 0, Type::Int),
      binary(t, "ldexp(A0, S1)", [](long double x, long double n) { return std::ldexp(x, int(n)); }, 0, Type::Int),
      ternary(t, "fma(A0, A1, A2)", [t](const Lanes& x) { return Expected{typeFma(t, x)}; }, 0),
  };
  f.push_back(t == Type::Half ? ternary(t, "mad(A0, A1, A2)", [](const Lanes& x) { return Expected{x[0] * x[1] + x[2]}; }, kAnyValue)
                              : ternary(t, "mad(A0, A1, A2)", [t](const Lanes& x) { return typeMad(t, x); }, 0));
  for (const char* call : {"fmin(A0, A1)", "fmin(A0, S1)", "fmax(A0, A1)", "fmax(A0, S1)"}) {
    const bool min = call[2] == 'i';
    f.push_back({call, {t, t}, t, componentwise([min](const Lanes& x) {
                   return eitherZero(min ? std::fmin(x[0], x[1]) : std::fmax(x[0], x[1]));
                 }), 0});
  }
  return t == Type::Half ? forHalf(f) : f;
}

// Functions with a second result through a pointer: the kernels pass the address of a private
// variable, which OpenCL C 1.2 and 3.0 (generic) programs reach through different overloads.
std::vector<Builtin> pointerFunctions(Type t) {
  auto withSecond = [t](const std::string& call, Type second, std::function<Expected(const Lanes&)> f, double ulps) {
    Builtin builtin{call, {t}, t, componentwise(std::move(f)), ulps, second};
    if (call.find("A1") != std::string::npos) builtin.arguments.push_back(t);
    return builtin;
  };
  return {
      withSecond("fract(A0, R)", t, [t](const Lanes& x) {
        const long double below = t == Type::Half ? 0x1.ffcp-1L : t == Type::Float ? 0x1.fffffep-1L : 0x1.fffffffffffffp-1L;
        if (std::isnan(x[0])) return Expected{NAN, NAN};
        if (std::isinf(x[0])) return Expected{std::copysign(0.0L, x[0]), x[0]};
        if (x[0] == 0) return Expected{x[0], x[0]};
        return Expected{std::fmin(x[0] - std::floor(x[0]), below), std::floor(x[0])};
      }, 0),
      withSecond("modf(A0, R)", t, [](const Lanes& x) {
        long double whole;
        const long double fraction = std::modf(x[0], &whole);
        return Expected{fraction, whole};
      }, 0),
      withSecond("frexp(A0, R)", Type::Int, [](const Lanes& x) {
        int e = 0;
        const long double m = std::frexp(x[0], &e);
        return Expected{m, std::isfinite(x[0]) ? std::optional<long double>(e) : std::optional<long double>(0)};
      }, 0),
      withSecond("sincos(A0, R)", t, [](const Lanes& x) {
        Expected both{std::sin(x[0])};
        both.second = std::cos(x[0]);
        return both;
      }, 4),
      withSecond("lgamma_r(A0, R)", Type::Int, [](const Lanes& x) {
        int sign = 0;
        const long double value = lgammal_r(x[0], &sign);
        const bool pole = x[0] <= 0 && x[0] == std::floor(x[0]) && x[0] != 0;
        return Expected{value, std::isfinite(x[0]) && !pole ? std::optional<long double>(sign) : std::nullopt};
      }, kAnyValue),
      withSecond("remquo(A0, A1, R)", Type::Int, [](const Lanes& x) {
        const long double r = std::remainder(x[0], x[1]);
        if (std::isnan(r)) return Expected{r};
        // The low 7 bits of the nearest integer quotient: |x| modulo 128 |y| first (exact).
        const long double m = std::fmod(std::fabs(x[0]), 128 * std::fabs(x[1]));
        const long double low = (m - std::remainder(m, std::fabs(x[1]))) / std::fabs(x[1]);
        const int bits = int(low) & 127;
        return Expected{r, std::signbit(x[0]) != std::signbit(x[1]) ? -bits : bits};
      }, 0),
  };
}

// Functions of floating-point arguments with integer results.
std::vector<Builtin> integerResults(Type t) {
  const Type bits = t == Type::Half ? Type::UShort : t == Type::Float ? Type::UInt : Type::ULong;
  return {
      {"ilogb(A0)", {t}, Type::Int, componentwise([](const Lanes& x) {
         if (std::isnan(x[0]) || std::isinf(x[0])) return Expected{INT32_MAX};
         return Expected{x[0] == 0 ? INT32_MIN : std::ilogb(x[0])};
       })},
      // nan(code) is a quiet NaN: its payload is not checked.
      {"nan(A0)", {bits}, t, componentwise([](const Lanes&) { return Expected{NAN}; })},
  };
}

// fma in T, rounded once: the host has no fma of its own for _Float16.
template <typename T>
T fusedMultiplyAdd(T a, T b, T c) {
  if constexpr (std::is_same_v<T, _Float16>) return T(halfFma(a, b, c));
  else return std::fma(a, b, c);
}

// Common functions (OpenCL C 3.0, 6.15.4). mix and smoothstep follow their formulas in the type's
// precision, with or without a fused multiply-add. fmin, fmax and isfinite take T through double
// (exactly): the host's C library has no _Float16 forms.
template <typename T>
std::vector<Builtin> commonFunctions(Type t) {
  auto mix = [](const Lanes& x) {
    const T x0 = T(x[0]), difference = T(x[1]) - x0, a = T(x[2]);
    return Expected{T(x0 + T(difference * a)), std::nullopt, fusedMultiplyAdd(difference, a, x0)};
  };
  auto smoothstep = [](const Lanes& x) {
    const T e0 = T(x[0]), e1 = T(x[1]), v = T(x[2]);
    const T s = T(std::fmin(std::fmax(double(T(T(v - e0) / T(e1 - e0))), 0.0), 1.0));
    return Expected{(long double)s * s * (3 - 2 * (long double)s)};
  };
  auto inUnitInterval = [](Lanes& x) { x[2] = std::isfinite(x[2]) ? std::fabs(std::fmod(x[2], 1.0L)) : 0.5L; };
  auto ordered = [](Lanes& x) {
    if (std::isnan(x[0]) || std::isnan(x[1])) x[0] = x[1] = 0;
    if (x[0] > x[1]) std::swap(x[0], x[1]);
  };
  auto rangeFirst = [ordered](Lanes& x) {  // clamp(x, lo, hi): lo <= hi
    Lanes bounds = {x[1], x[2]};
    ordered(bounds);
    x[1] = bounds[0], x[2] = bounds[1];
  };
  auto edgesBelow = [ordered](Lanes& x) {  // smoothstep(e0, e1, x): e0 < e1
    ordered(x);
    if (x[0] == x[1]) x[1] = x[0] + 1;
    if (!std::isfinite(double(T(x[1] - x[0])))) x[0] = -1, x[1] = 1;
  };
  auto clampRef = componentwise([](const Lanes& x) { return eitherZero(std::fmin(std::fmax(x[0], x[1]), x[2])); });
  auto stepRef = componentwise([](const Lanes& x) { return Expected{x[1] < x[0] ? 0.0L : 1.0L}; });
  std::vector<Builtin> f = {
      {"clamp(A0, A1, A2)", {t, t, t}, t, clampRef, 0, {}, {}, {1, 2, 3, 4, 8, 16}, false, rangeFirst},
      {"clamp(A0, S1, S2)", {t, t, t}, t, clampRef, 0, {}, {}, {2, 3, 4, 8, 16}, false, rangeFirst},
      unary(t, "degrees", [](long double x) { return x * (180 / kPi); }, 2),
      unary(t, "radians", [](long double x) { return x * (kPi / 180); }, 2),
      {"mix(A0, A1, A2)", {t, t, t}, t, componentwise(mix), 0, {}, {}, {1, 2, 3, 4, 8, 16}, false, inUnitInterval},
      {"mix(A0, A1, S2)", {t, t, t}, t, componentwise(mix), 0, {}, {}, {2, 3, 4, 8, 16}, false, inUnitInterval},
      unary(t, "sign", [](long double x) { return x > 0 ? 1.0L : x < 0 ? -1.0L : std::isnan(x) ? 0.0L : x; }, 0),
      {"smoothstep(A0, A1, A2)", {t, t, t}, t, componentwise(smoothstep), 3, {}, {}, {1, 2, 3, 4, 8, 16}, false, edgesBelow},
      {"smoothstep(S0, S1, A2)", {t, t, t}, t, componentwise(smoothstep), 3, {}, {}, {2, 3, 4, 8, 16}, false, edgesBelow},
      {"step(A0, A1)", {t, t}, t, stepRef, 0},
      {"step(S0, A1)", {t, t}, t, stepRef, 0, {}, {}, {2, 3, 4, 8, 16}},
  };
  for (const char* call : {"min(A0, A1)", "min(A0, S1)", "max(A0, A1)", "max(A0, S1)"}) {
    const bool min = call[1] == 'i';
    f.push_back({call, {t, t}, t, componentwise([min](const Lanes& x) {
                   return eitherZero(min ? std::fmin(x[0], x[1]) : std::fmax(x[0], x[1]));
                 }), 0});
  }
  return f;
}

// Relational functions: 1 or 0 for scalars, -1 or 0 per component of vectors.
std::vector<Builtin> relationalFunctions(Type t) {
  const Type truth = t == Type::Half ? Type::Short : t == Type::Float ? Type::Int : Type::Long;
  auto test2 = [t, truth](const std::string& name, std::function<bool(long double, long double)> f) {
    return Builtin{name + "(A0, A1)", {t, t}, Type::Int,
                   componentwise([f](const Lanes& x) { return Expected{f(x[0], x[1]) ? 1.0L : 0.0L}; }), 0, {}, truth};
  };
  auto test1 = [t, truth](const std::string& name, std::function<bool(long double)> f) {
    return Builtin{name + "(A0)", {t}, Type::Int, componentwise([f](const Lanes& x) { return Expected{f(x[0]) ? 1.0L : 0.0L}; }),
                   0, {}, truth};
  };
  const long double minNormal = t == Type::Half ? 0x1p-14L : t == Type::Float ? FLT_MIN : DBL_MIN;
  return {
      test2("isequal", [](long double x, long double y) { return x == y; }),
      test2("isnotequal", [](long double x, long double y) { return x != y; }),
      test2("isgreater", [](long double x, long double y) { return x > y; }),
      test2("isgreaterequal", [](long double x, long double y) { return x >= y; }),
      test2("isless", [](long double x, long double y) { return x < y; }),
      test2("islessequal", [](long double x, long double y) { return x <= y; }),
      test2("islessgreater", [](long double x, long double y) { return x < y || x > y; }),
      test2("isordered", [](long double x, long double y) { return !std::isnan(x) && !std::isnan(y); }),
      test2("isunordered", [](long double x, long double y) { return std::isnan(x) || std::isnan(y); }),
      test1("isfinite", [](long double x) { return std::isfinite(x); }),
      test1("isinf", [](long double x) { return std::isinf(x); }),
      test1("isnan", [](long double x) { return std::isnan(x); }),
      test1("isnormal", [minNormal](long double x) { return std::isfinite(x) && std::fabs(x) >= minNormal; }),
      test1("signbit", [](long double x) { return std::signbit(x); }),
  };
}

// half_ functions: 8192 ulp (OpenCL C 3.0, 7.4). native_ precision is implementation-defined;
// Loom computes them as the half_ ones, so they are held to the same bound.
std::vector<Builtin> reducedPrecisionFunctions() {
  const Type t = Type::Float;
  std::vector<Builtin> f;
  for (const char* prefix : {"half_", "native_"}) {
    const std::string p = prefix;
    f.push_back(unary(t, p + "cos", Real1(std::cos), 8192));
    f.push_back(unary(t, p + "exp", Real1(std::exp), 8192));
    f.push_back(unary(t, p + "exp2", Real1(std::exp2), 8192));
    f.push_back(unary(t, p + "exp10", [](long double x) { return std::pow(10.0L, x); }, 8192));
    f.push_back(unary(t, p + "log", Real1(std::log), 8192));
    f.push_back(unary(t, p + "log2", Real1(std::log2), 8192));
    f.push_back(unary(t, p + "log10", Real1(std::log10), 8192));
    f.push_back(unary(t, p + "recip", [](long double x) { return 1 / x; }, 8192));
    f.push_back(unary(t, p + "rsqrt", [](long double x) { return 1 / std::sqrt(x); }, 8192));
    f.push_back(unary(t, p + "sin", Real1(std::sin), 8192));
    f.push_back(unary(t, p + "sqrt", Real1(std::sqrt), 8192));
    f.push_back(unary(t, p + "tan", Real1(std::tan), 8192));
    f.push_back(binary(t, p + "divide(A0, A1)", [](long double x, long double y) { return x / y; }, 8192));
    // powr is defined for x >= 0 only.
    Builtin powrBuiltin = binary(t, p + "powr(A0, A1)", powr, 8192);
    powrBuiltin.prepare = [](Lanes& x) { x[0] = std::fabs(x[0]); };
    f.push_back(powrBuiltin);
  }
  return f;
}

// Geometric functions on 1 to 4 components. Inputs are finite; dot and length take non-negative
// ones so that no cancellation hides rounding errors; cross takes small integers, exact in float.
std::vector<Builtin> geometricFunctions(Type t) {
  auto sumOfSquares = [](const std::vector<Lanes>& x) {
    long double sum = 0;
    for (long double v : x[0]) sum += v * v;
    return sum;
  };
  auto finite = [](Lanes& x) {
    for (long double& v : x) v = std::isfinite(v) ? v : 1;
  };
  auto positive = [](Lanes& x) {
    for (long double& v : x) v = std::isfinite(v) ? std::fabs(v) : 1;
  };
  auto length = [sumOfSquares](const std::vector<Lanes>& x) { return std::vector<Expected>{Expected{std::sqrt(sumOfSquares(x))}}; };
  auto normalize = [sumOfSquares](const std::vector<Lanes>& x) {
    const long double norm = std::sqrt(sumOfSquares(x));
    std::vector<Expected> result;
    for (long double v : x[0]) result.push_back(Expected{norm == 0 ? v : v / norm});
    return result;
  };
  auto dot = [](const std::vector<Lanes>& x) {
    long double sum = 0;
    for (size_t i = 0; i < x[0].size(); ++i) sum += x[0][i] * x[1][i];
    return std::vector<Expected>{Expected{sum}};
  };
  // distance(x, y) is length(x - y), the difference rounded to the type.
  auto distance = [t, length](const std::vector<Lanes>& x) {
    Lanes difference(x[0].size());
    for (size_t i = 0; i < difference.size(); ++i)
      difference[i] = representable(t, x[0][i] - x[1][i]);
    return length({difference});
  };
  auto cross = [](const std::vector<Lanes>& x) {
    const Lanes &a = x[0], &b = x[1];
    std::vector<Expected> result = {Expected{a[1] * b[2] - a[2] * b[1]}, Expected{a[2] * b[0] - a[0] * b[2]},
                                    Expected{a[0] * b[1] - a[1] * b[0]}};
    if (a.size() == 4) result.push_back(Expected{0.0L});
    return result;
  };
  const std::vector<int> widths = {1, 2, 3, 4};
  std::vector<Builtin> f = {
      {"dot(A0, A1)", {t, t}, t, dot, 4, {}, {}, widths, true, positive},
      {"cross(A0, A1)", {t, t}, t, cross, 0, {}, {}, {3, 4}, false,
       [](Lanes& x) {
         for (long double& v : x) v = std::isfinite(v) ? std::fmod(std::trunc(v), 1000.0L) : 7;
       }},
  };
  for (const char* prefix : {"", "fast_"}) {
    if (*prefix && t != Type::Float) break;  // fast_ functions are float only
    const double ulps = *prefix ? 8192 : 4;  // fast_: half_sqrt's precision
    const std::string p = prefix;
    f.push_back({p + "length(A0)", {t}, t, length, ulps, {}, {}, widths, true, finite});
    f.push_back({p + "distance(A0, A1)", {t, t}, t, distance, ulps, {}, {}, widths, true, finite});
    f.push_back({p + "normalize(A0)", {t}, t, normalize, ulps, {}, {}, widths, false, finite});
  }
  return f;
}

TEST(GeometricBuiltins, FloatAndDoubleForOneToFourComponents) {
  checkFamily(geometricFunctions(Type::Float), kCount);
  checkFamily(geometricFunctions(Type::Double), kCount);
}

TEST(GeometricBuiltins, HalfForOneToFourComponents) { checkFamily(geometricFunctions(Type::Half), kCount); }

TEST(MathBuiltins, FloatFunctionsWithPointerResultsForOpenClC12AndGenericPointers) {
  checkFamily(pointerFunctions(Type::Float), kCount);
  checkFamily(pointerFunctions(Type::Float), kCount, "-cl-std=CL3.0");
}

TEST(MathBuiltins, DoubleFunctionsWithPointerResultsForOpenClC12AndGenericPointers) {
  checkFamily(pointerFunctions(Type::Double), kCount);
  checkFamily(pointerFunctions(Type::Double), kCount, "-cl-std=CL3.0");
}

TEST(MathBuiltins, HalfFunctionsWithPointerResultsForOpenClC12AndGenericPointers) {
  checkFamily(pointerFunctions(Type::Half), kCount);
  checkFamily(pointerFunctions(Type::Half), kCount, "-cl-std=CL3.0");
}

TEST(MathBuiltins, IlogbAndNanForFloatAndDouble) {
  checkFamily(integerResults(Type::Float), kCount);
  checkFamily(integerResults(Type::Double), kCount);
  checkFamily(integerResults(Type::Half), kCount);
}

TEST(MathBuiltins, HalfAndNativeFunctionsAreWithinTheHalfUlpLimit) { checkFamily(reducedPrecisionFunctions(), kCount); }

TEST(CommonBuiltins, FloatAndDoubleAtEveryWidth) {
  checkFamily(commonFunctions<float>(Type::Float), kCount);
  checkFamily(commonFunctions<double>(Type::Double), kCount);
}

TEST(CommonBuiltins, HalfAtEveryWidth) { checkFamily(commonFunctions<_Float16>(Type::Half), kCount); }

TEST(RelationalBuiltins, FloatAndDoubleAtEveryWidth) {
  checkFamily(relationalFunctions(Type::Float), kCount);
  checkFamily(relationalFunctions(Type::Double), kCount);
  checkFamily(relationalFunctions(Type::Half), kCount);
}

TEST(MathBuiltins, FloatFunctionsAtEveryWidthAreWithinTheirUlpLimits) {
  checkFamily(mathFunctions(Type::Float), kCount);
}

TEST(MathBuiltins, HalfFunctionsAtEveryWidthAreWithinOneUlp) { checkFamily(mathFunctions(Type::Half), kCount); }

TEST(MathBuiltins, DoubleFunctionsAtEveryWidthAreWithinTheirUlpLimits) {
  checkFamily(mathFunctions(Type::Double), kCount);
}

}  // namespace
}  // namespace loom::compiler::test::builtins
