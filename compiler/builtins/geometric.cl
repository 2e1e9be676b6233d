// Geometric functions for float and double, scalars and 2-, 3- and 4-vectors.

// The largest component magnitude (NaN components ignored), for overflow-free lengths.
#define MAX_MAGNITUDE(T)                                                                            \
  T OVL maxMagnitude(T x) { return fabs(x); }                                                       \
  T OVL maxMagnitude(T##2 x) { return fmax(fabs(x.x), fabs(x.y)); }                                 \
  T OVL maxMagnitude(T##3 x) { return fmax(maxMagnitude(x.xy), fabs(x.z)); }                        \
  T OVL maxMagnitude(T##4 x) { return fmax(maxMagnitude(x.xy), maxMagnitude(x.zw)); }
MAX_MAGNITUDE(float)
MAX_MAGNITUDE(double)

#define GEOMETRIC(T, S, MIN_NORMAL)                                                                 \
  T OVL dot(T x, T y) { return x * y; }                                                             \
  T OVL dot(T##2 x, T##2 y) { return x.x * y.x + x.y * y.y; }                                       \
  T OVL dot(T##3 x, T##3 y) { return x.x * y.x + x.y * y.y + x.z * y.z; }                           \
  T OVL dot(T##4 x, T##4 y) { return x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w; }               \
  T##3 OVL cross(T##3 a, T##3 b) { return (T##3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); } \
  T##4 OVL cross(T##4 a, T##4 b) { return (T##4)(cross(a.xyz, b.xyz), (T)0); }                    \
  GEOMETRIC_WIDTH(T, S, MIN_NORMAL, )                                                               \
  GEOMETRIC_WIDTH(T, S, MIN_NORMAL, 2)                                                              \
  GEOMETRIC_WIDTH(T, S, MIN_NORMAL, 3)                                                              \
  GEOMETRIC_WIDTH(T, S, MIN_NORMAL, 4)

// length: the sum of squares directly when it neither overflows nor loses precision to
// denormals, else of the vector scaled by its largest component (as hypot does).
#define GEOMETRIC_WIDTH(T, S, MIN_NORMAL, N)                                                        \
  T OVL length(T##N x) {                                                                            \
    const T squares = dot(x, x);                                                                    \
    if (squares >= MIN_NORMAL && squares <= MAX_FINITE(T)) return __builtin_sqrt##S(squares);      \
    const T largest = maxMagnitude(x);                                                              \
    if (largest == (T)0 || isinf(largest)) return largest;                                          \
    const T##N scaled = x / largest;                                                                \
    return largest * __builtin_sqrt##S(dot(scaled, scaled));                                        \
  }                                                                                                 \
  T OVL distance(T##N x, T##N y) { return length(x - y); }                                         \
  T##N OVL normalize(T##N x) {                                                                      \
    const T largest = maxMagnitude(x);                                                              \
    if (largest == (T)0) return x;                                                                  \
    const T##N scaled = x / largest; /* no overflow, no denormals in the sum of squares */         \
    return scaled / __builtin_sqrt##S(dot(scaled, scaled));                                         \
  }                                                                                                 \
  T OVL fast_length(T##N x) { return length(x); }                                                 \
  T OVL fast_distance(T##N x, T##N y) { return distance(x, y); }                                   \
  T##N OVL fast_normalize(T##N x) { return normalize(x); }

#define MAX_FINITE(T) ((T)(sizeof(T) == 4 ? FLT_MAX : DBL_MAX))
GEOMETRIC(float, f, FLT_MIN)
GEOMETRIC(double, , DBL_MIN)
