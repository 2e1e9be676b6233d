// Geometric functions for float and double, scalars and 2-, 3- and 4-vectors.

#define GEOMETRIC(T, S)                                                                             \
  T OVL dot(T x, T y) { return x * y; }                                                             \
  T OVL dot(T##2 x, T##2 y) { return x.x * y.x + x.y * y.y; }                                       \
  T OVL dot(T##3 x, T##3 y) { return x.x * y.x + x.y * y.y + x.z * y.z; }                           \
  T OVL dot(T##4 x, T##4 y) { return x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w; }               \
  T##3 OVL cross(T##3 a, T##3 b) { return (T##3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); } \
  T##4 OVL cross(T##4 a, T##4 b) { return (T##4)(cross(a.xyz, b.xyz), (T)0); }                    \
  GEOMETRIC_WIDTH(T, S, )                                                                           \
  GEOMETRIC_WIDTH(T, S, 2)                                                                          \
  GEOMETRIC_WIDTH(T, S, 3)                                                                          \
  GEOMETRIC_WIDTH(T, S, 4)

#define GEOMETRIC_WIDTH(T, S, N)                                                                    \
  T OVL length(T##N x) { return __builtin_sqrt##S(dot(x, x)); }                                    \
  T OVL distance(T##N x, T##N y) { return length(x - y); }                                         \
  T##N OVL normalize(T##N x) { T l = length(x); return l == (T)0 ? x : x / l; }                     \
  T OVL fast_length(T##N x) { return length(x); }                                                 \
  T OVL fast_distance(T##N x, T##N y) { return distance(x, y); }                                   \
  T##N OVL fast_normalize(T##N x) { return normalize(x); }

GEOMETRIC(float, f)
GEOMETRIC(double, )
