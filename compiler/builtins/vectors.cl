// vload<n> and vstore<n> for every element type and address space.

#define VLOAD_WIDTH(T, N, AS)                                                               \
  T##N OVL vload##N(size_t offset, const AS T* p) {                                         \
    T##N v;                                                                                 \
    __builtin_memcpy(&v, p + offset * N, sizeof(T) * N);                                    \
    return v;                                                                               \
  }
#define VSTORE_WIDTH(T, N, AS) \
  void OVL vstore##N(T##N v, size_t offset, AS T* p) { __builtin_memcpy(p + offset * N, &v, sizeof(T) * N); }
#define VLOAD3(T, AS) \
  T##3 OVL vload3(size_t offset, const AS T* p) { p += offset * 3; return (T##3)(p[0], p[1], p[2]); }
#define VSTORE3(T, AS) \
  void OVL vstore3(T##3 v, size_t offset, AS T* p) { p += offset * 3; p[0] = v.x, p[1] = v.y, p[2] = v.z; }
#define VLOAD_SPACE(T, AS) \
  VLOAD_WIDTH(T, 2, AS) VLOAD3(T, AS) VLOAD_WIDTH(T, 4, AS) VLOAD_WIDTH(T, 8, AS) VLOAD_WIDTH(T, 16, AS)
#define VSTORE_SPACE(T, AS) \
  VSTORE_WIDTH(T, 2, AS) VSTORE3(T, AS) VSTORE_WIDTH(T, 4, AS) VSTORE_WIDTH(T, 8, AS) VSTORE_WIDTH(T, 16, AS)
#define VECTOR_MEMORY(T)                                                                       \
  VLOAD_SPACE(T, __global) VLOAD_SPACE(T, __local) VLOAD_SPACE(T, __constant) VLOAD_SPACE(T, __private) \
  VLOAD_SPACE(T, __generic)                                                                    \
  VSTORE_SPACE(T, __global) VSTORE_SPACE(T, __local) VSTORE_SPACE(T, __private) VSTORE_SPACE(T, __generic)

VECTOR_MEMORY(char)
VECTOR_MEMORY(uchar)
VECTOR_MEMORY(short)
VECTOR_MEMORY(ushort)
VECTOR_MEMORY(int)
VECTOR_MEMORY(uint)
VECTOR_MEMORY(long)
VECTOR_MEMORY(ulong)
VECTOR_MEMORY(float)
VECTOR_MEMORY(double)
VECTOR_MEMORY(half)

// vload_half, vstore_half and their vector and aligned (vloada_, vstorea_) forms: half values
// are bit patterns in memory, converted exactly to float, and from float or double by a
// rounding mode (to nearest even without one).
float OVL halfToFloat(ushort bits) {
  const uint sign = (uint)(bits & 0x8000) << 16, exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
  if (exponent == 0) return as_float(sign | as_uint((float)mantissa * 0x1p-24f));  // zero or denormal
  if (exponent == 0x1f) return as_float(sign | 0x7f800000 | mantissa << 13);          // infinity or NaN
  return as_float(sign | (exponent + 112) << 23 | mantissa << 13);                     // rebias 15 -> 127
}

enum HalfRounding { kHalfRte, kHalfRtz, kHalfRtp, kHalfRtn };

// The half nearest x in the mode's direction: the magnitude scaled so that its half mantissa is
// the integer part (exact), rounded once, and encoded; a carry into the exponent field is correct.
ushort OVL halfFromDouble(double x, enum HalfRounding mode) {
  const ushort sign = signbit(x) ? 0x8000 : 0;
  if (isnan(x)) return sign | 0x7e00;
  if (isinf(x)) return sign | 0x7c00;
  const double magnitude = fabs(x);
  const bool away = (mode == kHalfRtp && !sign) || (mode == kHalfRtn && sign);
  const int exponent = magnitude < 0x1p-14 ? -14 : ilogb(magnitude);  // denormals share 2^-14's scale
  const double scaled = ldexp(magnitude, 10 - exponent);
  const double mantissa = mode == kHalfRte ? rint(scaled) : away ? ceil(scaled) : trunc(scaled);
  if (exponent > 15) return sign | (mode == kHalfRte || away ? 0x7c00 : 0x7bff);
  const uint bits = (magnitude < 0x1p-14 ? 0 : (uint)(exponent + 14) << 10) + (uint)mantissa;
  if (bits >= 0x7c00) return sign | (mode == kHalfRte || away ? 0x7c00 : 0x7bff);  // rounded past 65504
  return sign | bits;
}

#define VLOAD_HALF_N(NAME, N, STRIDE, AS)                                                              \
  float##N OVL NAME##N(size_t offset, const AS half* p) {                                            \
    const AS ushort* bits = (const AS ushort*)p + offset * STRIDE;                                   \
    float##N result;                                                                                 \
    for (int i = 0; i < N; ++i) ((float*)&result)[i] = halfToFloat(bits[i]);                         \
    return result;                                                                                   \
  }
#define VLOAD_HALF_SPACE(AS)                                                                            \
  float OVL vload_half(size_t offset, const AS half* p) { return halfToFloat(((const AS ushort*)p)[offset]); } \
  VLOAD_HALF_N(vload_half, 2, 2, AS) VLOAD_HALF_N(vload_half, 3, 3, AS) VLOAD_HALF_N(vload_half, 4, 4, AS)   \
  VLOAD_HALF_N(vload_half, 8, 8, AS) VLOAD_HALF_N(vload_half, 16, 16, AS)                                 \
  VLOAD_HALF_N(vloada_half, 2, 2, AS) VLOAD_HALF_N(vloada_half, 3, 4, AS) VLOAD_HALF_N(vloada_half, 4, 4, AS) \
  VLOAD_HALF_N(vloada_half, 8, 8, AS) VLOAD_HALF_N(vloada_half, 16, 16, AS)
VLOAD_HALF_SPACE(__global)
VLOAD_HALF_SPACE(__local)
VLOAD_HALF_SPACE(__constant)
VLOAD_HALF_SPACE(__private)
VLOAD_HALF_SPACE(__generic)

// N is empty for the scalar form; COMPONENTS is then 1.
#define VSTORE_HALF_N(NAME, T, N, COMPONENTS, STRIDE, SUFFIX, MODE, AS)                                \
  void OVL NAME##N##SUFFIX(T##N data, size_t offset, AS half* p) {                                   \
    AS ushort* bits = (AS ushort*)p + offset * STRIDE;                                               \
    for (int i = 0; i < COMPONENTS; ++i) bits[i] = halfFromDouble(((T*)&data)[i], MODE);             \
  }
#define VSTORE_HALF_MODE(T, SUFFIX, MODE, AS)                                                          \
  VSTORE_HALF_N(vstore_half, T, , 1, 1, SUFFIX, MODE, AS) VSTORE_HALF_N(vstore_half, T, 2, 2, 2, SUFFIX, MODE, AS) \
  VSTORE_HALF_N(vstore_half, T, 3, 3, 3, SUFFIX, MODE, AS) VSTORE_HALF_N(vstore_half, T, 4, 4, 4, SUFFIX, MODE, AS) \
  VSTORE_HALF_N(vstore_half, T, 8, 8, 8, SUFFIX, MODE, AS) VSTORE_HALF_N(vstore_half, T, 16, 16, 16, SUFFIX, MODE, AS) \
  VSTORE_HALF_N(vstorea_half, T, 2, 2, 2, SUFFIX, MODE, AS) VSTORE_HALF_N(vstorea_half, T, 3, 3, 4, SUFFIX, MODE, AS) \
  VSTORE_HALF_N(vstorea_half, T, 4, 4, 4, SUFFIX, MODE, AS) VSTORE_HALF_N(vstorea_half, T, 8, 8, 8, SUFFIX, MODE, AS) \
  VSTORE_HALF_N(vstorea_half, T, 16, 16, 16, SUFFIX, MODE, AS)
#define VSTORE_HALF_SPACE(T, AS)                                                                       \
  VSTORE_HALF_MODE(T, , kHalfRte, AS) VSTORE_HALF_MODE(T, _rte, kHalfRte, AS)                          \
  VSTORE_HALF_MODE(T, _rtz, kHalfRtz, AS) VSTORE_HALF_MODE(T, _rtp, kHalfRtp, AS) VSTORE_HALF_MODE(T, _rtn, kHalfRtn, AS)
#define VSTORE_HALF_TYPE(T) \
  VSTORE_HALF_SPACE(T, __global) VSTORE_HALF_SPACE(T, __local) VSTORE_HALF_SPACE(T, __private) VSTORE_HALF_SPACE(T, __generic)
VSTORE_HALF_TYPE(float)
VSTORE_HALF_TYPE(double)
