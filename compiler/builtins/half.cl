// Math, common, relational and geometric functions for half (cl_khr_fp16), built on the float ones.
// Each function converts its half arguments to float (exact), computes in float and rounds the
// result to half once. Float's 24 bits are at least twice half's 11 plus 2, so for +, -, *, / and
// sqrt that rounding gives the correctly rounded half (a double rounding that cannot err); the
// other functions' float errors are a tiny fraction of a half ulp, so the half result is within
// the limits for half. Functions whose float form would round the wrong way for half (fma,
// nextafter, fract) have their own definitions.

FLOAT_RELATIONAL(half, short)

#define HALF_FROM_FLOAT1(name) \
  half OVL name(half x) { return (half)name((float)x); } \
  VEC1(name, half, half)
#define HALF_FROM_FLOAT2(name) \
  half OVL name(half x, half y) { return (half)name((float)x, (float)y); } \
  VEC2(name, half, half)
#define HALF_FROM_FLOAT3(name) \
  half OVL name(half x, half y, half z) { return (half)name((float)x, (float)y, (float)z); } \
  VEC3(name, half)

HALF_FROM_FLOAT1(sqrt) HALF_FROM_FLOAT1(rsqrt) HALF_FROM_FLOAT1(cbrt)
HALF_FROM_FLOAT1(fabs) HALF_FROM_FLOAT1(floor) HALF_FROM_FLOAT1(ceil) HALF_FROM_FLOAT1(trunc)
HALF_FROM_FLOAT1(round) HALF_FROM_FLOAT1(rint) HALF_FROM_FLOAT1(logb)
HALF_FROM_FLOAT1(exp) HALF_FROM_FLOAT1(exp2) HALF_FROM_FLOAT1(exp10) HALF_FROM_FLOAT1(expm1)
HALF_FROM_FLOAT1(log) HALF_FROM_FLOAT1(log2) HALF_FROM_FLOAT1(log10) HALF_FROM_FLOAT1(log1p)
HALF_FROM_FLOAT1(sin) HALF_FROM_FLOAT1(cos) HALF_FROM_FLOAT1(tan)
HALF_FROM_FLOAT1(sinpi) HALF_FROM_FLOAT1(cospi) HALF_FROM_FLOAT1(tanpi)
HALF_FROM_FLOAT1(asin) HALF_FROM_FLOAT1(acos) HALF_FROM_FLOAT1(atan)
HALF_FROM_FLOAT1(asinpi) HALF_FROM_FLOAT1(acospi) HALF_FROM_FLOAT1(atanpi)
HALF_FROM_FLOAT1(sinh) HALF_FROM_FLOAT1(cosh) HALF_FROM_FLOAT1(tanh)
HALF_FROM_FLOAT1(asinh) HALF_FROM_FLOAT1(acosh) HALF_FROM_FLOAT1(atanh)
HALF_FROM_FLOAT1(erf) HALF_FROM_FLOAT1(erfc) HALF_FROM_FLOAT1(tgamma) HALF_FROM_FLOAT1(lgamma)
HALF_FROM_FLOAT1(radians) HALF_FROM_FLOAT1(degrees) HALF_FROM_FLOAT1(sign)
HALF_FROM_FLOAT2(pow) HALF_FROM_FLOAT2(powr) HALF_FROM_FLOAT2(fmod) HALF_FROM_FLOAT2(remainder)
HALF_FROM_FLOAT2(atan2) HALF_FROM_FLOAT2(atan2pi) HALF_FROM_FLOAT2(hypot) HALF_FROM_FLOAT2(copysign)
HALF_FROM_FLOAT2(fdim) HALF_FROM_FLOAT2(maxmag) HALF_FROM_FLOAT2(minmag) HALF_FROM_FLOAT2(step)
HALF_FROM_FLOAT2(fmin) HALF_FROM_FLOAT2(fmax) HALF_FROM_FLOAT2(min) HALF_FROM_FLOAT2(max)
VEC2S(fmin, half, half) VEC2S(fmax, half, half) VEC2S(min, half, half) VEC2S(max, half, half)
HALF_FROM_FLOAT3(clamp)

// mad allows any precision: half's own product and sum, which the target may fuse (a native
// half fma on GPUs).
ELEMENTWISE3(mad, half, x * y + z)

half OVL pown(half x, int n) { return (half)pown((float)x, n); }
VEC2(pown, half, int)
half OVL rootn(half x, int n) { return (half)rootn((float)x, n); }
VEC2(rootn, half, int)
half OVL ldexp(half x, int n) { return (half)ldexp((float)x, n); }
VEC2(ldexp, half, int)
VEC2S(ldexp, half, int)
int OVL ilogb(half x) { return ilogb((float)x); }
VEC1(ilogb, int, half)
half OVL nan(ushort code) { return as_half((ushort)(as_ushort((half)NAN) | code)); }
VEC1(nan, half, ushort)

// The neighbour of x toward y, by stepping the representation.
half OVL nextafter(half x, half y) {
  if (isnan(x) || isnan(y)) return x + y;
  if (x == y) return y;
  if (x == (half)0) return as_half((ushort)(signbit(y) ? 0x8001 : 0x0001));
  return as_half((short)(as_short(x) + (((x < y) == (x > (half)0)) ? 1 : -1)));
}
VEC2(nextafter, half, half)

// fma rounded once: the product of two halves is exact in float (22 bits), and the float sum's
// rounding error is recovered exactly (TwoSum). Where the sum was inexact, it is moved to its odd
// neighbour on the side of the exact value (rounding to odd), which then rounds to half as the
// exact value would, since float keeps more than two bits beyond half's.
half OVL fma(half a, half b, half c) {
  const float product = (float)a * (float)b, addend = (float)c;
  float sum = product + addend;
  if (!isfinite(sum)) return (half)sum;
  const float addendPart = sum - product, productPart = sum - addendPart;
  const float error = (product - productPart) + (addend - addendPart);
  if (error != 0.0f && (as_uint(sum) & 1) == 0) sum = as_float(as_uint(sum) + ((error > 0.0f) == (sum > 0.0f) ? 1 : -1));
  return (half)sum;
}
VEC3(fma, half)

// mix and smoothstep follow their formulas in half arithmetic, as for float.
ELEMENTWISE3(mix, half, x + (y - x) * z)  // mix(x, y, a)
half OVL smoothstep(half e0, half e1, half x) {
  const half t = clamp((x - e0) / (e1 - e0), (half)0, (half)1);
  return t * t * ((half)3 - (half)2 * t);
}
VEC3(smoothstep, half)

#define HALF_BELOW_ONE 0x1.ffcp-1h

// Functions with a second result through a pointer, for every address space: the float function
// with a private second result of type FLOAT_SECOND, both rounded to half (exact but for sincos
// and lgamma_r).
#define HALF_WITH_SECOND(name, SECOND, FLOAT_SECOND, AS)                                          \
  half OVL name(half x, AS SECOND* second) {                                                      \
    FLOAT_SECOND floatSecond;                                                                     \
    const half result = (half)name((float)x, &floatSecond);                                       \
    *second = (SECOND)floatSecond;                                                                \
    return result;                                                                                \
  }
#define HALF_POINTER_FUNCTIONS(AS)                                                                      \
  HALF_WITH_SECOND(modf, half, float, AS) HALF_WITH_SECOND(sincos, half, float, AS)                     \
  HALF_WITH_SECOND(frexp, int, int, AS) HALF_WITH_SECOND(lgamma_r, int, int, AS)                        \
  half OVL fract(half x, AS half* whole) {                                                            \
    float floatWhole;                                                                                 \
    const half fraction = (half)fract((float)x, &floatWhole);                                         \
    *whole = (half)floatWhole;                                                                        \
    return fraction >= HALF_BELOW_ONE ? HALF_BELOW_ONE : fraction; /* 1 - 2^-24 rounds up to 1 */     \
  }                                                                                                   \
  half OVL remquo(half x, half y, AS int* quotient) {                                                 \
    int q;                                                                                            \
    const half remainder = (half)remquo((float)x, (float)y, &q);                                      \
    *quotient = q;                                                                                    \
    return remainder;                                                                                 \
  }                                                                                                   \
  VEC_POINTER(fract, half, half, AS) VEC_POINTER(modf, half, half, AS) VEC_POINTER(frexp, half, int, AS) \
  VEC_POINTER(sincos, half, half, AS) VEC_POINTER(lgamma_r, half, int, AS) VEC_POINTER2(remquo, half, int, AS)
HALF_POINTER_FUNCTIONS(__generic)  // first: the vector forms of all spaces call it
HALF_POINTER_FUNCTIONS(__global)
HALF_POINTER_FUNCTIONS(__local)
HALF_POINTER_FUNCTIONS(__private)
#undef HALF_POINTER_FUNCTIONS
#undef HALF_WITH_SECOND

// Geometric functions: in float, where neither sums of squares overflow nor denormals lose
// precision for half values, rounded to half once.
half OVL dot(half x, half y) { return (half)((float)x * (float)y); }
half OVL length(half x) { return fabs(x); }
half OVL distance(half x, half y) { return (half)fabs((float)x - (float)y); }
half OVL normalize(half x) { return (half)normalize((float)x); }
#define TO_FLOAT(x, N) __builtin_convertvector(x, float##N)
#define HALF_GEOMETRIC(N)                                                                                  \
  half OVL dot(half##N x, half##N y) { return (half)dot(TO_FLOAT(x, N), TO_FLOAT(y, N)); }                 \
  half OVL length(half##N x) { return (half)length(TO_FLOAT(x, N)); }                                      \
  half OVL distance(half##N x, half##N y) { return (half)length(TO_FLOAT(x, N) - TO_FLOAT(y, N)); }        \
  half##N OVL normalize(half##N x) { return __builtin_convertvector(normalize(TO_FLOAT(x, N)), half##N); }
HALF_GEOMETRIC(2)
HALF_GEOMETRIC(3)
HALF_GEOMETRIC(4)
half3 OVL cross(half3 a, half3 b) { return __builtin_convertvector(cross(TO_FLOAT(a, 3), TO_FLOAT(b, 3)), half3); }
half4 OVL cross(half4 a, half4 b) { return __builtin_convertvector(cross(TO_FLOAT(a, 4), TO_FLOAT(b, 4)), half4); }
#undef TO_FLOAT
