// Loom's OpenCL C builtin library, compiled to bitcode for spir64 at build time and linked into
// each module on demand. Work-item functions and barriers are not here: the target lowers them.
#define OVL __attribute__((overloadable))

// Component-wise vector forms of a scalar function, by halves (3 as 2 + 1).
#define VEC1(f, R, T)                                                         \
  R##2 OVL f(T##2 x) { return (R##2)(f(x.lo), f(x.hi)); }                     \
  R##3 OVL f(T##3 x) { return (R##3)(f(x.s01), f(x.s2)); }                    \
  R##4 OVL f(T##4 x) { return (R##4)(f(x.lo), f(x.hi)); }                     \
  R##8 OVL f(T##8 x) { return (R##8)(f(x.lo), f(x.hi)); }                     \
  R##16 OVL f(T##16 x) { return (R##16)(f(x.lo), f(x.hi)); }
#define VEC2(f, T, U)                                                                        \
  T##2 OVL f(T##2 x, U##2 y) { return (T##2)(f(x.lo, y.lo), f(x.hi, y.hi)); }                \
  T##3 OVL f(T##3 x, U##3 y) { return (T##3)(f(x.s01, y.s01), f(x.s2, y.s2)); }              \
  T##4 OVL f(T##4 x, U##4 y) { return (T##4)(f(x.lo, y.lo), f(x.hi, y.hi)); }                \
  T##8 OVL f(T##8 x, U##8 y) { return (T##8)(f(x.lo, y.lo), f(x.hi, y.hi)); }                \
  T##16 OVL f(T##16 x, U##16 y) { return (T##16)(f(x.lo, y.lo), f(x.hi, y.hi)); }
#define VEC3(f, T)                                                                                          \
  T##2 OVL f(T##2 x, T##2 y, T##2 z) { return (T##2)(f(x.lo, y.lo, z.lo), f(x.hi, y.hi, z.hi)); }           \
  T##3 OVL f(T##3 x, T##3 y, T##3 z) { return (T##3)(f(x.s01, y.s01, z.s01), f(x.s2, y.s2, z.s2)); }        \
  T##4 OVL f(T##4 x, T##4 y, T##4 z) { return (T##4)(f(x.lo, y.lo, z.lo), f(x.hi, y.hi, z.hi)); }           \
  T##8 OVL f(T##8 x, T##8 y, T##8 z) { return (T##8)(f(x.lo, y.lo, z.lo), f(x.hi, y.hi, z.hi)); }           \
  T##16 OVL f(T##16 x, T##16 y, T##16 z) { return (T##16)(f(x.lo, y.lo, z.lo), f(x.hi, y.hi, z.hi)); }
// Vector x with scalar y (e.g. fmin(float4, float)).
#define VEC2S(f, T, S)                                                         \
  T##2 OVL f(T##2 x, S y) { return f(x, (T##2)(y)); }                          \
  T##3 OVL f(T##3 x, S y) { return f(x, (T##3)(y)); }                          \
  T##4 OVL f(T##4 x, S y) { return f(x, (T##4)(y)); }                          \
  T##8 OVL f(T##8 x, S y) { return f(x, (T##8)(y)); }                          \
  T##16 OVL f(T##16 x, S y) { return f(x, (T##16)(y)); }

#include "math.cl"
#include "integer.cl"
#include "geometric.cl"
#include "conversions.cl"
#include "vectors.cl"
#include "atomics.cl"
#include "async_copies.cl"
#include "shuffles.cl"
