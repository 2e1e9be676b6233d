// convert_<type><n>[_sat][_rte|_rtz|_rtp|_rtn]() for every pair of types and vector width
// (OpenCL C 3.0, 6.4.3). The default rounding is toward zero to integers and to nearest even
// to floating point; _sat applies to integer destinations only.

// Destination types (FOR_EVERY_TYPE, FOR_EVERY_INTEGER) and source types (FOR_EVERY_SOURCE) are
// separate macros because a macro cannot expand within its own expansion.
#define FOR_EVERY_TYPE(MACRO, ...)                                                                      \
  MACRO(char, __VA_ARGS__) MACRO(uchar, __VA_ARGS__) MACRO(short, __VA_ARGS__) MACRO(ushort, __VA_ARGS__) \
  MACRO(int, __VA_ARGS__) MACRO(uint, __VA_ARGS__) MACRO(long, __VA_ARGS__) MACRO(ulong, __VA_ARGS__)     \
  MACRO(float, __VA_ARGS__) MACRO(double, __VA_ARGS__) MACRO(half, __VA_ARGS__)
#define FOR_EVERY_SOURCE(MACRO, ...)                                                                    \
  MACRO(char, __VA_ARGS__) MACRO(uchar, __VA_ARGS__) MACRO(short, __VA_ARGS__) MACRO(ushort, __VA_ARGS__) \
  MACRO(int, __VA_ARGS__) MACRO(uint, __VA_ARGS__) MACRO(long, __VA_ARGS__) MACRO(ulong, __VA_ARGS__)     \
  MACRO(float, __VA_ARGS__) MACRO(double, __VA_ARGS__) MACRO(half, __VA_ARGS__)
#define FOR_EVERY_INTEGER(MACRO, ...)                                                                   \
  MACRO(char, __VA_ARGS__) MACRO(uchar, __VA_ARGS__) MACRO(short, __VA_ARGS__) MACRO(ushort, __VA_ARGS__) \
  MACRO(int, __VA_ARGS__) MACRO(uint, __VA_ARGS__) MACRO(long, __VA_ARGS__) MACRO(ulong, __VA_ARGS__)
#define FOR_EVERY_MODE(MACRO, ...) \
  MACRO(_rte, __VA_ARGS__) MACRO(_rtz, __VA_ARGS__) MACRO(_rtp, __VA_ARGS__) MACRO(_rtn, __VA_ARGS__)

// Vector forms of a scalar conversion, component by component.
#define CONVERT_VECTOR(D, S, N, SUFFIX)                                                      \
  D##N OVL convert_##D##N##SUFFIX(S##N x) {                                                 \
    D##N result;                                                                            \
    for (int i = 0; i < N; ++i) ((D*)&result)[i] = convert_##D##SUFFIX(((S*)&x)[i]);        \
    return result;                                                                          \
  }
#define CONVERT_VECTORS(SUFFIX, D, S)                                                        \
  CONVERT_VECTOR(D, S, 2, SUFFIX) CONVERT_VECTOR(D, S, 3, SUFFIX) CONVERT_VECTOR(D, S, 4, SUFFIX) \
  CONVERT_VECTOR(D, S, 8, SUFFIX) CONVERT_VECTOR(D, S, 16, SUFFIX)

// Default rounding: C conversions.
#define CONVERT_WIDTH(D, S, N) D##N OVL convert_##D##N(S##N x) { return __builtin_convertvector(x, D##N); }
#define CONVERT_FROM(S, D)                                   \
  D OVL convert_##D(S x) { return (D)x; }                    \
  CONVERT_WIDTH(D, S, 2) CONVERT_WIDTH(D, S, 3) CONVERT_WIDTH(D, S, 4) CONVERT_WIDTH(D, S, 8) CONVERT_WIDTH(D, S, 16)
#define CONVERT_TO(D, unused) FOR_EVERY_SOURCE(CONVERT_FROM, D)
FOR_EVERY_TYPE(CONVERT_TO, )

// Saturating conversions to integer types. From integers: negative values compare as long,
// others as ulong, so every source/destination pair compares without overflow. From floating
// point: NaN is 0, and the limits as floating point are powers of two (or 0), so compares are exact;
// in half, limits beyond its range are infinities, which only infinities reach.
#define SAT_FROM_INTEGER(D, S, DMIN, DMAX)                                           \
  D OVL convert_##D##_sat(S x) {                                                     \
    if (x < (S)0) return (DMIN) == 0 || (long)x < (long)(DMIN) ? (D)(DMIN) : (D)x;   \
    return (ulong)x > (ulong)(DMAX) ? (D)(DMAX) : (D)x;                              \
  }
#define SAT_FROM_FLOAT(D, S, DMIN, DMAX)        \
  D OVL convert_##D##_sat(S x) {                \
    if (isnan(x)) return 0;                     \
    if (x <= (S)(DMIN)) return (D)(DMIN);       \
    if (x >= (S)(DMAX)) return (D)(DMAX);       \
    return (D)x;                                \
  }
#define SAT_TO(D, DMIN, DMAX)                                                                                          \
  SAT_FROM_INTEGER(D, char, DMIN, DMAX) SAT_FROM_INTEGER(D, uchar, DMIN, DMAX) SAT_FROM_INTEGER(D, short, DMIN, DMAX)   \
  SAT_FROM_INTEGER(D, ushort, DMIN, DMAX) SAT_FROM_INTEGER(D, int, DMIN, DMAX) SAT_FROM_INTEGER(D, uint, DMIN, DMAX)   \
  SAT_FROM_INTEGER(D, long, DMIN, DMAX) SAT_FROM_INTEGER(D, ulong, DMIN, DMAX) SAT_FROM_FLOAT(D, float, DMIN, DMAX)    \
  SAT_FROM_FLOAT(D, double, DMIN, DMAX) SAT_FROM_FLOAT(D, half, DMIN, DMAX)                                           \
  FOR_EVERY_SOURCE(SAT_VECTORS_FROM, D)
#define SAT_VECTORS_FROM(S, D) CONVERT_VECTORS(_sat, D, S)

SAT_TO(char, CHAR_MIN, CHAR_MAX)
SAT_TO(uchar, 0, UCHAR_MAX)
SAT_TO(short, SHRT_MIN, SHRT_MAX)
SAT_TO(ushort, 0, USHRT_MAX)
SAT_TO(int, INT_MIN, INT_MAX)
SAT_TO(uint, 0, UINT_MAX)
SAT_TO(long, LONG_MIN, LONG_MAX)
SAT_TO(ulong, 0, ULONG_MAX)

// x made integral by each rounding mode (exact); integers already are.
#define INTEGRAL_IDENTITY(T, unused)                 \
  T OVL integral_rte(T x) { return x; }              \
  T OVL integral_rtz(T x) { return x; }              \
  T OVL integral_rtp(T x) { return x; }              \
  T OVL integral_rtn(T x) { return x; }
FOR_EVERY_INTEGER(INTEGRAL_IDENTITY, )
#define INTEGRAL_REAL(T, unused)                     \
  T OVL integral_rte(T x) { return rint(x); }        \
  T OVL integral_rtz(T x) { return trunc(x); }       \
  T OVL integral_rtp(T x) { return ceil(x); }        \
  T OVL integral_rtn(T x) { return floor(x); }
INTEGRAL_REAL(float, )
INTEGRAL_REAL(double, )
INTEGRAL_REAL(half, )

// To integers: made integral by the mode, then converted as without it (exactly, or saturated).
#define TO_INTEGER_ROUNDED(MODE, D, S)                                                                 \
  D OVL convert_##D##MODE(S x) { return convert_##D(integral##MODE(x)); }                              \
  D OVL convert_##D##_sat##MODE(S x) { return convert_##D##_sat(integral##MODE(x)); }                  \
  CONVERT_VECTORS(MODE, D, S) CONVERT_VECTORS(_sat##MODE, D, S)
#define TO_INTEGER_FROM(S, D) FOR_EVERY_MODE(TO_INTEGER_ROUNDED, D, S)
#define TO_INTEGER(D, unused) FOR_EVERY_SOURCE(TO_INTEGER_FROM, D)
FOR_EVERY_INTEGER(TO_INTEGER, )

// An integer magnitude rounded to R's precision toward zero, or away from zero when `away`, then
// signed: the bits below the precision are dropped (exact) and, away from zero, one unit of the
// last kept bit is added in R, where the sum is exact too.
#define DIRECTED_FROM_MAGNITUDE(R, PRECISION)                                        \
  R OVL directed_##R(ulong magnitude, bool negative, bool away) {                    \
    const int length = 64 - clz(magnitude);                                          \
    const ulong unit = length > PRECISION ? 1UL << (length - PRECISION) : 1UL;       \
    const ulong dropped = magnitude & (unit - 1);                                    \
    R result = (R)(magnitude - dropped);                                             \
    if (away && dropped) result += (R)unit;                                          \
    return negative ? -result : result;                                              \
  }
DIRECTED_FROM_MAGNITUDE(float, 24)
DIRECTED_FROM_MAGNITUDE(double, 53)

// From integers to floating point: the C conversion rounds to nearest even; the other modes round
// the magnitude toward or away from zero as the sign asks.
#define TO_REAL_FROM_INTEGER(S, R)                                                                       \
  R OVL convert_##R##_rte(S x) { return (R)x; }                                                        \
  R OVL convert_##R##_rtz(S x) { return directed_##R((ulong)abs(x), x < (S)0, false); }                \
  R OVL convert_##R##_rtp(S x) { return directed_##R((ulong)abs(x), x < (S)0, x > (S)0); }             \
  R OVL convert_##R##_rtn(S x) { return directed_##R((ulong)abs(x), x < (S)0, x < (S)0); }             \
  FOR_EVERY_MODE(CONVERT_VECTORS, R, S)
FOR_EVERY_INTEGER(TO_REAL_FROM_INTEGER, float)
FOR_EVERY_INTEGER(TO_REAL_FROM_INTEGER, double)

// Exact conversions: every mode gives the same value.
#define TO_REAL_EXACT(MODE, R, S) R OVL convert_##R##MODE(S x) { return (R)x; } CONVERT_VECTORS(MODE, R, S)
FOR_EVERY_MODE(TO_REAL_EXACT, float, float)
FOR_EVERY_MODE(TO_REAL_EXACT, double, double)
FOR_EVERY_MODE(TO_REAL_EXACT, double, float)
FOR_EVERY_MODE(TO_REAL_EXACT, half, half)
FOR_EVERY_MODE(TO_REAL_EXACT, float, half)
FOR_EVERY_MODE(TO_REAL_EXACT, double, half)

// To a narrower floating-point type R from S: the nearest R (one rounding), moved one step when it
// lies on the wrong side of x.
#define NARROWING(R, S)                                                                 \
  R OVL convert_##R##_rte(S x) { return (R)x; }                                         \
  R OVL convert_##R##_rtz(S x) {                                                        \
    const R r = (R)x;                                                                   \
    return fabs((S)r) > fabs(x) ? nextafter(r, (R)0) : r;                               \
  }                                                                                     \
  R OVL convert_##R##_rtp(S x) {                                                        \
    const R r = (R)x;                                                                   \
    return (S)r < x ? nextafter(r, (R)INFINITY) : r;                                    \
  }                                                                                     \
  R OVL convert_##R##_rtn(S x) {                                                        \
    const R r = (R)x;                                                                   \
    return (S)r > x ? nextafter(r, -(R)INFINITY) : r;                                   \
  }                                                                                     \
  FOR_EVERY_MODE(CONVERT_VECTORS, R, S)
NARROWING(float, double)
NARROWING(half, float)
NARROWING(half, double)

// From integers to half: magnitudes from 2^17 on round as 2^17 does in every mode (to infinity
// or to the largest half); smaller ones are exact in float, which then rounds to half by the mode.
#define HALF_SCALE(S, unused)                                             \
  float OVL halfScale(S x) {                                              \
    if (x < (S)0) return (long)x < -0x20000L ? -0x1p17f : (float)x;       \
    return (ulong)x > 0x20000UL ? 0x1p17f : (float)x;                     \
  }
FOR_EVERY_INTEGER(HALF_SCALE, )
#define TO_HALF_FROM_INTEGER_MODE(MODE, S) \
  half OVL convert_half##MODE(S x) { return convert_half##MODE(halfScale(x)); } CONVERT_VECTORS(MODE, half, S)
#define TO_HALF_FROM_INTEGER(S, unused) FOR_EVERY_MODE(TO_HALF_FROM_INTEGER_MODE, S)
FOR_EVERY_INTEGER(TO_HALF_FROM_INTEGER, )
