// Integer functions for every integer type and vector width.

#define IS_UNSIGNED(T) ((T)-1 > (T)0)
#define MAX_OF(T, U) (IS_UNSIGNED(T) ? (T)(U)~(U)0 : (T)((U)~(U)0 >> 1))
#define MIN_OF(T, U) (IS_UNSIGNED(T) ? (T)0 : (T)~((U)~(U)0 >> 1))

// Bit counts use the builtins' l forms: long long is 128 bits wide in OpenCL C.
#define INTEGER_COMMON(T, U)                                                                  \
  T OVL min(T x, T y) { return x < y ? x : y; }                                               \
  VEC2(min, T, T)                                                                             \
  VEC2S(min, T, T)                                                                            \
  T OVL max(T x, T y) { return x > y ? x : y; }                                               \
  VEC2(max, T, T)                                                                             \
  VEC2S(max, T, T)                                                                            \
  T OVL clamp(T x, T lo, T hi) { return min(max(x, lo), hi); }                               \
  VEC3(clamp, T)                                                                              \
  U OVL abs(T x) { return x < (T)0 ? (U)(-(U)x) : (U)x; }                                     \
  VEC1(abs, U, T)                                                                             \
  U OVL abs_diff(T x, T y) { return x > y ? (U)((U)x - (U)y) : (U)((U)y - (U)x); }            \
  VEC2R(abs_diff, U, T, T)                                                                    \
  T OVL hadd(T x, T y) { return (x >> 1) + (y >> 1) + (x & y & (T)1); }                        \
  VEC2(hadd, T, T)                                                                            \
  T OVL rhadd(T x, T y) { return (x >> 1) + (y >> 1) + ((x | y) & (T)1); }                     \
  VEC2(rhadd, T, T)                                                                           \
  T OVL add_sat(T x, T y) { T r; return __builtin_add_overflow(x, y, &r) ? (y > (T)0 ? MAX_OF(T, U) : MIN_OF(T, U)) : r; } \
  VEC2(add_sat, T, T)                                                                         \
  T OVL sub_sat(T x, T y) { T r; return __builtin_sub_overflow(x, y, &r) ? (y > (T)0 ? MIN_OF(T, U) : MAX_OF(T, U)) : r; } \
  VEC2(sub_sat, T, T)                                                                         \
  T OVL popcount(T x) { return (T)__builtin_popcountl((ulong)(U)x); }                         \
  VEC1(popcount, T, T)                                                                        \
  T OVL clz(T x) { return (U)x == 0 ? (T)(sizeof(T) * 8) : (T)(__builtin_clzl((ulong)(U)x) - (64 - sizeof(T) * 8)); } \
  VEC1(clz, T, T)                                                                             \
  T OVL ctz(T x) { return (U)x == 0 ? (T)(sizeof(T) * 8) : (T)__builtin_ctzl((ulong)(U)x); } \
  VEC1(ctz, T, T)                                                                             \
  T OVL rotate(T x, T n) { const uint bits = sizeof(T) * 8; uint s = (uint)((U)n % bits); return s == 0 ? x : (T)(((U)x << s) | ((U)x >> (bits - s))); } \
  VEC2(rotate, T, T)

// Integers narrower than 64 bits compute mul_hi and mad_sat exactly in a wider type W.
#define NARROW_INTEGER(T, U, W)                                                                \
  INTEGER_COMMON(T, U)                                                                        \
  T OVL mad_sat(T a, T b, T c) { W r = (W)a * (W)b + (W)c;                                    \
    return r < (W)MIN_OF(T, U) ? MIN_OF(T, U) : r > (W)MAX_OF(T, U) ? MAX_OF(T, U) : (T)r; }  \
  VEC3(mad_sat, T)                                                                            \
  T OVL mul_hi(T x, T y) { return (T)(((W)x * (W)y) >> (sizeof(T) * 8)); }                   \
  VEC2(mul_hi, T, T)                                                                          \
  T OVL mad_hi(T a, T b, T c) { return mul_hi(a, b) + c; }                                     \
  VEC3(mad_hi, T)

NARROW_INTEGER(char, uchar, int)
NARROW_INTEGER(uchar, uchar, int)
NARROW_INTEGER(short, ushort, int)
NARROW_INTEGER(ushort, ushort, int)
NARROW_INTEGER(int, uint, long)
NARROW_INTEGER(uint, uint, ulong)

INTEGER_COMMON(long, ulong)
INTEGER_COMMON(ulong, ulong)
// 64-bit: the high half of the 128-bit product from 32-bit pieces (no 128-bit type on spir64).
ulong OVL mul_hi(ulong a, ulong b) {
  ulong aLo = a & 0xffffffffUL, aHi = a >> 32, bLo = b & 0xffffffffUL, bHi = b >> 32;
  ulong low = aLo * bLo, cross1 = aLo * bHi, cross2 = aHi * bLo;
  ulong carry = ((low >> 32) + (cross1 & 0xffffffffUL) + (cross2 & 0xffffffffUL)) >> 32;
  return aHi * bHi + (cross1 >> 32) + (cross2 >> 32) + carry;
}
long OVL mul_hi(long a, long b) {
  return (long)(mul_hi((ulong)a, (ulong)b) - (a < 0 ? (ulong)b : 0) - (b < 0 ? (ulong)a : 0));
}
// a * b + c exactly in 128 bits (high, low), then saturated.
ulong OVL mad_sat(ulong a, ulong b, ulong c) {
  ulong low = a * b + c, high = mul_hi(a, b) + (low < c ? 1 : 0);
  return high ? ULONG_MAX : low;
}
long OVL mad_sat(long a, long b, long c) {
  ulong low = (ulong)a * (ulong)b, sum = low + (ulong)c;
  long high = mul_hi(a, b) + (c < 0 ? -1 : 0) + (sum < low ? 1 : 0);
  if (high == ((long)sum >> 63)) return (long)sum;
  return high < 0 ? LONG_MIN : LONG_MAX;
}
VEC3(mad_sat, long)
VEC3(mad_sat, ulong)
VEC2(mul_hi, long, long)
VEC2(mul_hi, ulong, ulong)
long OVL mad_hi(long a, long b, long c) { return mul_hi(a, b) + c; }
ulong OVL mad_hi(ulong a, ulong b, ulong c) { return mul_hi(a, b) + c; }
VEC3(mad_hi, long)
VEC3(mad_hi, ulong)

int OVL mul24(int x, int y) { return ((x << 8) >> 8) * ((y << 8) >> 8); }
uint OVL mul24(uint x, uint y) { return (x & 0xffffff) * (y & 0xffffff); }
int OVL mad24(int x, int y, int z) { return mul24(x, y) + z; }
uint OVL mad24(uint x, uint y, uint z) { return mul24(x, y) + z; }
VEC2(mul24, int, int)
VEC2(mul24, uint, uint)
VEC3(mad24, int)
VEC3(mad24, uint)

short OVL upsample(char hi, uchar lo) { return (short)((ushort)(uchar)hi << 8 | lo); }
ushort OVL upsample(uchar hi, uchar lo) { return (ushort)((ushort)hi << 8 | lo); }
int OVL upsample(short hi, ushort lo) { return (int)((uint)(ushort)hi << 16 | lo); }
uint OVL upsample(ushort hi, ushort lo) { return (uint)hi << 16 | lo; }
long OVL upsample(int hi, uint lo) { return (long)((ulong)(uint)hi << 32 | lo); }
ulong OVL upsample(uint hi, uint lo) { return (ulong)hi << 32 | lo; }
VEC2R(upsample, short, char, uchar)
VEC2R(upsample, ushort, uchar, uchar)
VEC2R(upsample, int, short, ushort)
VEC2R(upsample, uint, ushort, ushort)
VEC2R(upsample, long, int, uint)
VEC2R(upsample, ulong, uint, uint)

// any/all look at the most significant bit of signed integers.
#define ANY_ALL(T)                                                                 \
  int OVL any(T x) { return x < 0; }                                               \
  int OVL any(T##2 x) { return any(x.lo) | any(x.hi); }                            \
  int OVL any(T##3 x) { return any(x.s01) | any(x.s2); }                           \
  int OVL any(T##4 x) { return any(x.lo) | any(x.hi); }                            \
  int OVL any(T##8 x) { return any(x.lo) | any(x.hi); }                            \
  int OVL any(T##16 x) { return any(x.lo) | any(x.hi); }                           \
  int OVL all(T x) { return x < 0; }                                               \
  int OVL all(T##2 x) { return all(x.lo) & all(x.hi); }                            \
  int OVL all(T##3 x) { return all(x.s01) & all(x.s2); }                           \
  int OVL all(T##4 x) { return all(x.lo) & all(x.hi); }                            \
  int OVL all(T##8 x) { return all(x.lo) & all(x.hi); }                            \
  int OVL all(T##16 x) { return all(x.lo) & all(x.hi); }
ANY_ALL(char)
ANY_ALL(short)
ANY_ALL(int)
ANY_ALL(long)

// select(a, b, c): scalar c picks b when non-zero; vector c picks per component by its sign bit.
#define SELECT_SCALAR(T, C) T OVL select(T a, T b, C c) { return c ? b : a; }
#define SELECT_TYPES(T)  SELECT_SCALAR(T, char) SELECT_SCALAR(T, uchar) SELECT_SCALAR(T, short) SELECT_SCALAR(T, ushort) \
  SELECT_SCALAR(T, int) SELECT_SCALAR(T, uint) SELECT_SCALAR(T, long) SELECT_SCALAR(T, ulong)
SELECT_TYPES(char) SELECT_TYPES(uchar) SELECT_TYPES(short) SELECT_TYPES(ushort) SELECT_TYPES(int) SELECT_TYPES(uint)
SELECT_TYPES(long) SELECT_TYPES(ulong) SELECT_TYPES(float) SELECT_TYPES(double) SELECT_TYPES(half)

#define BITSELECT(T) T OVL bitselect(T a, T b, T c) { return (a & ~c) | (b & c); } VEC3(bitselect, T)
BITSELECT(char) BITSELECT(uchar) BITSELECT(short) BITSELECT(ushort) BITSELECT(int) BITSELECT(uint) BITSELECT(long) BITSELECT(ulong)
float OVL bitselect(float a, float b, float c) { return as_float(bitselect(as_uint(a), as_uint(b), as_uint(c))); }
double OVL bitselect(double a, double b, double c) { return as_double(bitselect(as_ulong(a), as_ulong(b), as_ulong(c))); }
VEC3(bitselect, float)
VEC3(bitselect, double)
half OVL bitselect(half a, half b, half c) { return as_half(bitselect(as_ushort(a), as_ushort(b), as_ushort(c))); }
VEC3(bitselect, half)

// Vector select: each component of c picks b where its most significant bit is set.
#define SELECT_VECTOR(T, S, n)                                                          \
  T##n OVL select(T##n a, T##n b, S##n c) {                                             \
    const S##n mask = c >> (S##n)(sizeof(S) * 8 - 1);                                   \
    return as_##T##n(bitselect(as_##S##n(a), as_##S##n(b), mask));                     \
  }                                                                                     \
  T##n OVL select(T##n a, T##n b, u##S##n c) { return select(a, b, as_##S##n(c)); }
#define SELECT_VECTORS(T, S) \
  SELECT_VECTOR(T, S, 2) SELECT_VECTOR(T, S, 3) SELECT_VECTOR(T, S, 4) SELECT_VECTOR(T, S, 8) SELECT_VECTOR(T, S, 16)
SELECT_VECTORS(char, char) SELECT_VECTORS(uchar, char) SELECT_VECTORS(short, short) SELECT_VECTORS(ushort, short)
SELECT_VECTORS(int, int) SELECT_VECTORS(uint, int) SELECT_VECTORS(long, long) SELECT_VECTORS(ulong, long)
SELECT_VECTORS(float, int) SELECT_VECTORS(double, long) SELECT_VECTORS(half, short)
