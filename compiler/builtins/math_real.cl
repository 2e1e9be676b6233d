// Math functions written once for float and double: math.cl includes this file once per type,
// with REAL the type, REAL_UINT its unsigned integer of the same size and REAL_BELOW_ONE the
// largest value below 1.

// sinpi, cospi and tanpi reduce x modulo 2 with fmod, which is exact, so large arguments keep
// their accuracy; then they evaluate sin, cos or tan of pi times a value in [-1/4, 1/4].
REAL OVL sinpi(REAL x) {
  REAL r = fmod(fabs(x), (REAL)2);
  const REAL sign = r >= (REAL)1 ? (REAL)-1 : (REAL)1;  // sin(pi (r + 1)) = -sin(pi r)
  if (r >= (REAL)1) r -= (REAL)1;
  if (r > (REAL)0.5) r = (REAL)1 - r;  // sin(pi r) = sin(pi (1 - r))
  const REAL v = sign * (r <= (REAL)0.25 ? sin((REAL)M_PI * r) : cos((REAL)M_PI * ((REAL)0.5 - r)));
  if (v == (REAL)0) return copysign((REAL)0, x);  // sinpi(n) is +0 for positive n, -0 for negative n
  return x < (REAL)0 ? -v : v;
}
VEC1(sinpi, REAL, REAL)

REAL OVL cospi(REAL x) {
  REAL r = fmod(fabs(x), (REAL)2);
  if (r > (REAL)1) r = (REAL)2 - r;  // cos(pi (2 - r)) = cos(pi r)
  REAL sign = (REAL)1;
  if (r > (REAL)0.5) {  // cos(pi r) = -cos(pi (1 - r))
    r = (REAL)1 - r;
    sign = (REAL)-1;
  }
  return sign * (r <= (REAL)0.25 ? cos((REAL)M_PI * r) : sin((REAL)M_PI * ((REAL)0.5 - r)));
}
VEC1(cospi, REAL, REAL)

// tanpi has period 1; the parity of the integer part only picks the signs of its zeros and poles.
REAL OVL tanpi(REAL x) {
  const REAL a = fabs(x), r = fmod(a, (REAL)1);
  const bool odd = fmod(a, (REAL)2) >= (REAL)1;
  REAL v;
  if (r == (REAL)0)
    v = odd ? (REAL)-0.0 : (REAL)0;
  else if (r == (REAL)0.5)
    v = odd ? -(REAL)INFINITY : (REAL)INFINITY;
  else if (r <= (REAL)0.25)
    v = tan((REAL)M_PI * r);
  else if (r <= (REAL)0.75)
    v = (REAL)1 / tan((REAL)M_PI * ((REAL)0.5 - r));
  else
    v = tan((REAL)M_PI * (r - (REAL)1));
  return x < (REAL)0 ? -v : v;
}
VEC1(tanpi, REAL, REAL)

REAL OVL cbrt(REAL x) { return (REAL)accurateCbrt((double)x); }
VEC1(cbrt, REAL, REAL)

REAL OVL acospi(REAL x) { return acos(x) * (REAL)M_1_PI; }
VEC1(acospi, REAL, REAL)
REAL OVL asinpi(REAL x) { return asin(x) * (REAL)M_1_PI; }
VEC1(asinpi, REAL, REAL)
REAL OVL atanpi(REAL x) { return atan(x) * (REAL)M_1_PI; }
VEC1(atanpi, REAL, REAL)
REAL OVL atan2pi(REAL y, REAL x) { return atan2(y, x) * (REAL)M_1_PI; }
VEC2(atan2pi, REAL, REAL)

// pow with the exponent as double: exact for every int, and float results are then rounded once.
REAL OVL pown(REAL x, int n) { return (REAL)__builtin_pow((double)x, (double)n); }
VEC2(pown, REAL, int)

// pow restricted to x >= 0, with its own special cases (OpenCL C 3.0, 7.5.1).
REAL OVL powr(REAL x, REAL y) {
  if (x < (REAL)0 || isnan(x) || isnan(y)) return (REAL)NAN;
  if ((x == (REAL)0 && y == (REAL)0) || (isinf(x) && y == (REAL)0) || (x == (REAL)1 && isinf(y))) return (REAL)NAN;
  return pow(fabs(x), y);  // fabs: powr(-0, y) is powr(+0, y)
}
VEC2(powr, REAL, REAL)

// rootn(x, n) = 2^q (m 2^r)^(1/n) for x = m 2^e and e = q n + r: the rounding error of 1/n then
// scales with log(m 2^r) / n, which is below 1, instead of with log(x).
REAL OVL rootn(REAL x, int n) {
  if (n == 0 || (x < (REAL)0 && (n & 1) == 0)) return (REAL)NAN;
  const REAL a = fabs(x), inverse = (REAL)1 / (REAL)n;
  REAL magnitude;
  if (a == (REAL)0 || isinf(a) || isnan(a)) {
    magnitude = pow(a, inverse);
  } else {
    int e;
    const REAL m = __builtin_frexp(a, &e);
    const int q = e / n, r = e - q * n;
    magnitude = ldexp(pow(ldexp(m, r), inverse), q);
  }
  return (n & 1) ? copysign(magnitude, x) : magnitude;
}
VEC2(rootn, REAL, int)

VEC2S(ldexp, REAL, int)

REAL OVL nan(REAL_UINT code) { return __builtin_astype(__builtin_astype((REAL)NAN, REAL_UINT) | code, REAL); }
VEC1(nan, REAL, REAL_UINT)

// OpenCL's FP_ILOGB0 and FP_ILOGBNAN, not the host C library's. Through frexp (its exponent is one
// more than ilogb's), which every target provides: the C library's ilogb is no function of NVPTX.
int OVL ilogb(REAL x) {
  if (isnan(x) || isinf(x)) return isnan(x) ? FP_ILOGBNAN : INT_MAX;
  if (x == (REAL)0) return FP_ILOGB0;
  int e;
  __builtin_frexp(x, &e);
  return e - 1;
}
VEC1(ilogb, int, REAL)

// Functions with a second result through a pointer, for every address space.
#define REAL_POINTER_FUNCTIONS(AS)                                                                      \
  REAL OVL fract(REAL x, AS REAL* whole) {                                                            \
    *whole = floor(x);                                                                                \
    if (isnan(x) || x == (REAL)0) return x;                                                           \
    if (isinf(x)) return copysign((REAL)0, x);                                                        \
    return fmin(x - floor(x), REAL_BELOW_ONE);                                                        \
  }                                                                                                   \
  REAL OVL modf(REAL x, AS REAL* whole) {                                                             \
    *whole = trunc(x);                                                                                \
    return isinf(x) ? copysign((REAL)0, x) : copysign(x - trunc(x), x); /* exact, signed like x */    \
  }                                                                                                   \
  REAL OVL frexp(REAL x, AS int* exponent) {                                                          \
    int e;                                                                                            \
    const REAL m = __builtin_frexp(x, &e);                                                            \
    *exponent = isinf(x) || isnan(x) ? 0 : e;                                                         \
    return m;                                                                                         \
  }                                                                                                   \
  REAL OVL sincos(REAL x, AS REAL* cosine) {                                                          \
    *cosine = cos(x);                                                                                 \
    return sin(x);                                                                                    \
  }                                                                                                   \
  REAL OVL lgamma_r(REAL x, AS int* sign) {                                                           \
    *sign = gammaSign(x);                                                                             \
    return lgamma(x);                                                                                 \
  }                                                                                                   \
  REAL OVL remquo(REAL x, REAL y, AS int* quotient) {                                                 \
    *quotient = quotientBits(x, y);                                                                   \
    return remainder(x, y);                                                                           \
  }                                                                                                   \
  VEC_POINTER(fract, REAL, REAL, AS) VEC_POINTER(modf, REAL, REAL, AS) VEC_POINTER(frexp, REAL, int, AS) \
  VEC_POINTER(sincos, REAL, REAL, AS) VEC_POINTER(lgamma_r, REAL, int, AS) VEC_POINTER2(remquo, REAL, int, AS)

// The sign of Gamma(x) for lgamma_r: negative between -2k-1 and -2k; -0 counts as negative.
int OVL gammaSign(REAL x) {
  if (x > (REAL)0 || isnan(x)) return 1;
  if (x == (REAL)0) return signbit(x) ? -1 : 1;
  return fmod(floor(x), (REAL)2) != (REAL)0 ? -1 : 1;
}

// remquo's quotient: the sign of x / y and the low 7 bits of the integer nearest x / y. |x| is
// reduced modulo 128 |y| (fmod is exact), then the quotient's bits are taken off one by one; each
// subtraction is exact (Sterbenz). Ties round to even, as remainder does.
int OVL quotientBits(REAL x, REAL y) {
  const REAL divisor = fabs(y);
  if (isnan(x) || isnan(y) || isinf(x) || divisor == (REAL)0) return 0;
  REAL left = fmod(fabs(x), (REAL)128 * divisor);
  int quotient = 0;
  for (int bit = 64; bit >= 1; bit >>= 1) {
    if (left >= (REAL)bit * divisor) {
      left -= (REAL)bit * divisor;
      quotient += bit;
    }
  }
  if ((REAL)2 * left > divisor || ((REAL)2 * left == divisor && (quotient & 1))) ++quotient;
  quotient &= 127;
  return signbit(x) != signbit(y) ? -quotient : quotient;
}

REAL_POINTER_FUNCTIONS(__generic)  // first: the vector forms of all spaces call it
REAL_POINTER_FUNCTIONS(__global)
REAL_POINTER_FUNCTIONS(__local)
REAL_POINTER_FUNCTIONS(__private)
#undef REAL_POINTER_FUNCTIONS
