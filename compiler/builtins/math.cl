// Math, common and relational functions for float and double.

#define UNARY_BUILTIN(name, T, builtin) \
  T OVL name(T x) { return builtin(x); } \
  VEC1(name, T, T)
#define BINARY_BUILTIN(name, T, builtin) \
  T OVL name(T x, T y) { return builtin(x, y); } \
  VEC2(name, T, T)
// Functions that are one LLVM intrinsic per component: their vector forms are whole-vector calls
// of the intrinsic (vector_intrinsics.py).
#define UNARY_INTRINSIC(name, T, builtin)                      \
  T OVL name(T x) { return builtin(x); }  \
  DECLARE_VECTORS1(name, T)
#define BINARY_INTRINSIC(name, T, builtin)                     \
  T OVL name(T x, T y) { return builtin(x, y); } \
  DECLARE_VECTORS2(name, T)

// nextafter by stepping the representation: no C library call, which the NVPTX target lacks.
#define NEXTAFTER(T, S, I, TINY)                                            \
  static T loom_nextafter##S(T x, T y) {                                    \
    if (__builtin_isnan(x) || __builtin_isnan(y)) return x + y;            \
    if (x == y) return y;                                                   \
    if (x == (T)0) return __builtin_copysign##S(TINY, y);                   \
    const I bits = __builtin_astype(x, I);                                  \
    return __builtin_astype(bits + (((x < y) == (x > (T)0)) ? 1 : -1), T); \
  }
NEXTAFTER(float, f, int, 0x1p-149f)
NEXTAFTER(double, , long, 0x1p-1074)

// hypot of double as max * sqrt(1 + (min/max)^2): nothing overflows or underflows before the last
// product, within OpenCL's 4 ulp. The C library call it replaces is libdevice's __nv_hypot on
// NVPTX, which returns inf for finite results near DBL_MAX (hypot(0x1.0000000000001p+64, DBL_MAX)
// in OpenCL-CTS test_bruteforce). Float keeps the C library's hypotf (after FLOAT_MATH below).
static double loom_hypot(double x, double y) {
  const double a = __builtin_fabs(x), b = __builtin_fabs(y);
  if (__builtin_isinf(a) || __builtin_isinf(b)) return __builtin_inf();
  if (__builtin_isnan(a) || __builtin_isnan(b)) return a + b;
  const double larger = __builtin_fmax(a, b), smaller = __builtin_fmin(a, b);
  if (larger == 0.0) return 0.0;
  const double ratio = smaller / larger;
  return larger * __builtin_sqrt(__builtin_fma(ratio, ratio, 1.0));
}

#define FLOAT_MATH(T, S)                                       \
  UNARY_INTRINSIC(sqrt, T, __builtin_sqrt##S)                  \
  UNARY_INTRINSIC(fabs, T, __builtin_fabs##S)                  \
  UNARY_INTRINSIC(floor, T, __builtin_floor##S)                \
  UNARY_INTRINSIC(ceil, T, __builtin_ceil##S)                  \
  UNARY_INTRINSIC(trunc, T, __builtin_trunc##S)                \
  UNARY_INTRINSIC(round, T, __builtin_round##S)                \
  UNARY_INTRINSIC(rint, T, __builtin_rint##S)                  \
  UNARY_BUILTIN(exp, T, __builtin_exp##S)                      \
  UNARY_BUILTIN(exp2, T, __builtin_exp2##S)                    \
  T OVL exp10(T x) { return __builtin_pow##S((T)10, x); }    \
  VEC1(exp10, T, T)                                            \
  UNARY_BUILTIN(expm1, T, __builtin_expm1##S)                  \
  UNARY_BUILTIN(log, T, __builtin_log##S)                      \
  UNARY_BUILTIN(log2, T, __builtin_log2##S)                    \
  UNARY_BUILTIN(log10, T, __builtin_log10##S)                  \
  UNARY_BUILTIN(log1p, T, __builtin_log1p##S)                  \
  UNARY_BUILTIN(logb, T, __builtin_logb##S)                    \
  UNARY_BUILTIN(sin, T, __builtin_sin##S)                      \
  UNARY_BUILTIN(cos, T, __builtin_cos##S)                      \
  UNARY_BUILTIN(tan, T, __builtin_tan##S)                      \
  UNARY_BUILTIN(asin, T, __builtin_asin##S)                    \
  UNARY_BUILTIN(acos, T, __builtin_acos##S)                    \
  UNARY_BUILTIN(atan, T, __builtin_atan##S)                    \
  UNARY_BUILTIN(sinh, T, __builtin_sinh##S)                    \
  UNARY_BUILTIN(cosh, T, __builtin_cosh##S)                    \
  UNARY_BUILTIN(tanh, T, __builtin_tanh##S)                    \
  UNARY_BUILTIN(asinh, T, __builtin_asinh##S)                  \
  UNARY_BUILTIN(acosh, T, __builtin_acosh##S)                  \
  UNARY_BUILTIN(atanh, T, __builtin_atanh##S)                  \
  UNARY_BUILTIN(erf, T, __builtin_erf##S)                      \
  UNARY_BUILTIN(erfc, T, __builtin_erfc##S)                    \
  UNARY_BUILTIN(tgamma, T, __builtin_tgamma##S)                \
  UNARY_BUILTIN(lgamma, T, __builtin_lgamma##S)                \
  BINARY_BUILTIN(pow, T, __builtin_pow##S)                     \
  BINARY_BUILTIN(fmod, T, __builtin_fmod##S)                   \
  BINARY_BUILTIN(remainder, T, __builtin_remainder##S)         \
  BINARY_BUILTIN(atan2, T, __builtin_atan2##S)                 \
  BINARY_INTRINSIC(copysign, T, __builtin_copysign##S)         \
  BINARY_BUILTIN(fdim, T, __builtin_fdim##S)                   \
  BINARY_BUILTIN(nextafter, T, loom_nextafter##S)              \
  BINARY_INTRINSIC(fmin, T, __builtin_fmin##S)                 \
  BINARY_INTRINSIC(fmax, T, __builtin_fmax##S)                 \
  VEC2S(fmin, T, T)                                            \
  VEC2S(fmax, T, T)                                            \
  ELEMENTWISE1(rsqrt, T, (T)1 / sqrt(x))                       \
  T OVL fma(T a, T b, T c) { return __builtin_fma##S(a, b, c); } \
  DECLARE_VECTORS3(fma, T)                                     \
  /* mad: a product and a sum, which the target may fuse */    \
  ELEMENTWISE3(mad, T, x * y + z)                              \
  T OVL ldexp(T x, int n) { return __builtin_ldexp##S(x, n); } \
  VEC2(ldexp, T, int)                                          \
  T OVL maxmag(T x, T y) { T ax = __builtin_fabs##S(x), ay = __builtin_fabs##S(y); return ax > ay ? x : ay > ax ? y : __builtin_fmax##S(x, y); } \
  VEC2(maxmag, T, T)                                           \
  T OVL minmag(T x, T y) { T ax = __builtin_fabs##S(x), ay = __builtin_fabs##S(y); return ax < ay ? x : ay < ax ? y : __builtin_fmin##S(x, y); } \
  VEC2(minmag, T, T)                                           \
  /* common */                                                 \
  ELEMENTWISE3(clamp, T, fmin(fmax(x, y), z)) /* x, lo, hi */ \
  ELEMENTWISE3(mix, T, x + (y - x) * z)        /* x, y, a */  \
  ELEMENTWISE2(step, T, y < x ? (T)0 : (T)1)   /* edge, x */  \
  T OVL smoothstep(T e0, T e1, T x) { T t = clamp((x - e0) / (e1 - e0), (T)0, (T)1); return t * t * ((T)3 - (T)2 * t); } \
  VEC3(smoothstep, T)                                          \
  ELEMENTWISE1(radians, T, x * (T)(M_PI / 180.0))              \
  ELEMENTWISE1(degrees, T, x * (T)(180.0 / M_PI))              \
  T OVL sign(T x) { return x > (T)0 ? (T)1 : x < (T)0 ? (T)-1 : __builtin_isnan(x) ? (T)0 : x; } \
  VEC1(sign, T, T)                                             \
  ELEMENTWISE2(max, T, fmax(x, y))                             \
  VEC2S(max, T, T)                                             \
  ELEMENTWISE2(min, T, fmin(x, y))                             \
  VEC2S(min, T, T)

FLOAT_MATH(float, f)
FLOAT_MATH(double, )
BINARY_BUILTIN(hypot, float, __builtin_hypotf)
BINARY_BUILTIN(hypot, double, loom_hypot)

// Relational: scalars return 0 or 1, vectors 0 or -1 per component.
#define RELATIONAL1(name, T, I, expression)            \
  int OVL name(T x) { return (expression); }          \
  I##2 OVL name(T##2 x) { return -(I##2)(name(x.lo), name(x.hi)); } \
  I##3 OVL name(T##3 x) { return -(I##3)(name(x.s01) & (I)1, name(x.s2)); } \
  I##4 OVL name(T##4 x) { return -(I##4)(name(x.lo) & (I)1, name(x.hi) & (I)1); } \
  I##8 OVL name(T##8 x) { return -(I##8)(name(x.lo) & (I)1, name(x.hi) & (I)1); } \
  I##16 OVL name(T##16 x) { return -(I##16)(name(x.lo) & (I)1, name(x.hi) & (I)1); }
#define FLOAT_RELATIONAL(T, I)                                     \
  RELATIONAL1(isnan, T, I, __builtin_isnan(x))                     \
  RELATIONAL1(isinf, T, I, __builtin_isinf(x))                     \
  RELATIONAL1(isfinite, T, I, __builtin_isfinite(x))               \
  RELATIONAL1(isnormal, T, I, __builtin_isnormal(x))               \
  RELATIONAL1(signbit, T, I, __builtin_signbit(x) != 0)

FLOAT_RELATIONAL(float, int)
FLOAT_RELATIONAL(double, long)

// cbrt of double: the C library's result (up to 2 ulp off and more) improved by one Newton step
// whose residual r^3 - x is computed exactly with fma, on x scaled by 2^(-3k) into [1, 8) so
// that neither overflow nor denormals get in the way.
double OVL accurateCbrt(double x) {
  if (x == 0 || isinf(x) || isnan(x)) return x;
  const int e = ilogb(x), k = (e >= 0 ? e : e - 2) / 3;  // floor(e / 3)
  const double y = ldexp(x, -3 * k), r = __builtin_cbrt(y);
  const double square = r * r, squareLow = fma(r, r, -square);
  const double cube = square * r, cubeLow = fma(square, r, -cube) + squareLow * r;
  const double residual = (cube - y) + cubeLow;
  return ldexp(r - residual / (3 * square), k);
}

#define REAL float
#define REAL_UINT uint
#define REAL_BELOW_ONE 0x1.fffffep-1f
#include "math_real.cl"
#undef REAL
#undef REAL_UINT
#undef REAL_BELOW_ONE
#define REAL double
#define REAL_UINT ulong
#define REAL_BELOW_ONE 0x1.fffffffffffffp-1
#include "math_real.cl"
#undef REAL
#undef REAL_UINT
#undef REAL_BELOW_ONE

// Native and half precision variants: Loom computes them at full precision.
#define NATIVE_MATH(prefix)                                                          \
  ELEMENTWISE1(prefix##sqrt, float, sqrt(x))                                       \
  UNARY_BUILTIN(prefix##exp, float, __builtin_expf)                                \
  UNARY_BUILTIN(prefix##exp2, float, __builtin_exp2f)                              \
  float OVL prefix##exp10(float x) { return __builtin_powf(10.0f, x); }            \
  VEC1(prefix##exp10, float, float)                                                \
  UNARY_BUILTIN(prefix##log, float, __builtin_logf)                                \
  UNARY_BUILTIN(prefix##log2, float, __builtin_log2f)                              \
  UNARY_BUILTIN(prefix##log10, float, __builtin_log10f)                            \
  UNARY_BUILTIN(prefix##sin, float, __builtin_sinf)                                \
  UNARY_BUILTIN(prefix##cos, float, __builtin_cosf)                                \
  UNARY_BUILTIN(prefix##tan, float, __builtin_tanf)                                \
  ELEMENTWISE1(prefix##rsqrt, float, 1.0f / sqrt(x))                               \
  ELEMENTWISE1(prefix##recip, float, 1.0f / x)                                     \
  ELEMENTWISE2(prefix##divide, float, x / y)                                       \
  float OVL prefix##powr(float x, float y) { return powr(x, y); }                 \
  VEC2(prefix##powr, float, float)

NATIVE_MATH(native_)
NATIVE_MATH(half_)
