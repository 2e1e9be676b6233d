// Loom's OpenCL C builtin library, compiled to bitcode for spir64 at build time and linked into
// each module on demand. Work-item functions and barriers are not here: the target lowers them.
#define OVL __attribute__((overloadable))
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

// Component-wise vector forms of a scalar function, by halves (3 as 2 + 1). Each macro expands
// its arguments first (through the one-line macro), so types may be macros themselves.
#define VEC1(f, R, T) VEC1_(f, R, T)
#define VEC2(f, T, U) VEC2_(f, T, U)
#define VEC3(f, T) VEC3_(f, T)
#define VEC2S(f, T, S) VEC2S_(f, T, S)
#define VEC1_(f, R, T)                                                        \
  R##2 OVL f(T##2 x) { return (R##2)(f(x.lo), f(x.hi)); }                     \
  R##3 OVL f(T##3 x) { return (R##3)(f(x.s01), f(x.s2)); }                    \
  R##4 OVL f(T##4 x) { return (R##4)(f(x.lo), f(x.hi)); }                     \
  R##8 OVL f(T##8 x) { return (R##8)(f(x.lo), f(x.hi)); }                     \
  R##16 OVL f(T##16 x) { return (R##16)(f(x.lo), f(x.hi)); }
#define VEC2_(f, T, U) VEC2R_(f, T, T, U)
// R: the result's component type, T and U the arguments'.
#define VEC2R(f, R, T, U) VEC2R_(f, R, T, U)
#define VEC2R_(f, R, T, U)                                                                  \
  R##2 OVL f(T##2 x, U##2 y) { return (R##2)(f(x.lo, y.lo), f(x.hi, y.hi)); }               \
  R##3 OVL f(T##3 x, U##3 y) { return (R##3)(f(x.s01, y.s01), f(x.s2, y.s2)); }             \
  R##4 OVL f(T##4 x, U##4 y) { return (R##4)(f(x.lo, y.lo), f(x.hi, y.hi)); }               \
  R##8 OVL f(T##8 x, U##8 y) { return (R##8)(f(x.lo, y.lo), f(x.hi, y.hi)); }               \
  R##16 OVL f(T##16 x, U##16 y) { return (R##16)(f(x.lo, y.lo), f(x.hi, y.hi)); }
#define VEC3_(f, T)                                                                                         \
  T##2 OVL f(T##2 x, T##2 y, T##2 z) { return (T##2)(f(x.lo, y.lo, z.lo), f(x.hi, y.hi, z.hi)); }           \
  T##3 OVL f(T##3 x, T##3 y, T##3 z) { return (T##3)(f(x.s01, y.s01, z.s01), f(x.s2, y.s2, z.s2)); }        \
  T##4 OVL f(T##4 x, T##4 y, T##4 z) { return (T##4)(f(x.lo, y.lo, z.lo), f(x.hi, y.hi, z.hi)); }           \
  T##8 OVL f(T##8 x, T##8 y, T##8 z) { return (T##8)(f(x.lo, y.lo, z.lo), f(x.hi, y.hi, z.hi)); }           \
  T##16 OVL f(T##16 x, T##16 y, T##16 z) { return (T##16)(f(x.lo, y.lo, z.lo), f(x.hi, y.hi, z.hi)); }
// Vector x with scalar y (e.g. fmin(float4, float), ldexp(float4, int)).
#define VEC2S_(f, T, S)                                                        \
  T##2 OVL f(T##2 x, S y) { return f(x, (S##2)(y)); }                          \
  T##3 OVL f(T##3 x, S y) { return f(x, (S##3)(y)); }                          \
  T##4 OVL f(T##4 x, S y) { return f(x, (S##4)(y)); }                          \
  T##8 OVL f(T##8 x, S y) { return f(x, (S##8)(y)); }                          \
  T##16 OVL f(T##16 x, S y) { return f(x, (S##16)(y)); }

// A function that is one component-wise expression of its arguments x, y and z, at every width
// (the scalar type and its vectors): the vector forms compute in whole vectors (mad of float16 is
// one llvm.fmuladd of <16 x float>), so each component rounds as the scalar form does and the CPU
// target keeps or widens the vector as a whole. The expression follows the type argument.
#define ELEMENTWISE1(f, T, ...) ELEMENTWISE_(ELEMENTWISE1_N, f, T, __VA_ARGS__)
#define ELEMENTWISE2(f, T, ...) ELEMENTWISE_(ELEMENTWISE2_N, f, T, __VA_ARGS__)
#define ELEMENTWISE3(f, T, ...) ELEMENTWISE_(ELEMENTWISE3_N, f, T, __VA_ARGS__)
#define ELEMENTWISE_(M, f, T, ...)                                                                     \
  M(f, T, __VA_ARGS__) M(f, T##2, __VA_ARGS__) M(f, T##3, __VA_ARGS__) M(f, T##4, __VA_ARGS__)         \
  M(f, T##8, __VA_ARGS__) M(f, T##16, __VA_ARGS__)
#define ELEMENTWISE1_N(f, T, ...) T OVL f(T x) { return __VA_ARGS__; }
#define ELEMENTWISE2_N(f, T, ...) T OVL f(T x, T y) { return __VA_ARGS__; }
#define ELEMENTWISE3_N(f, T, ...) T OVL f(T x, T y, T z) { return __VA_ARGS__; }

// Declarations of vector forms defined outside OpenCL C (vector_intrinsics.py).
#define DECLARE_VECTORS1(f, T) DECLARE_VECTORS_(DECLARE1_N, f, T)
#define DECLARE_VECTORS2(f, T) DECLARE_VECTORS_(DECLARE2_N, f, T)
#define DECLARE_VECTORS3(f, T) DECLARE_VECTORS_(DECLARE3_N, f, T)
#define DECLARE_VECTORS_(M, f, T) M(f, T##2) M(f, T##3) M(f, T##4) M(f, T##8) M(f, T##16)
#define DECLARE1_N(f, T) T OVL f(T x);
#define DECLARE2_N(f, T) T OVL f(T x, T y);
#define DECLARE3_N(f, T) T OVL f(T x, T y, T z);

// Vector forms of f(x, AS P* second) and f(x, y, AS P* second), component by component through
// the scalar function's generic form.
#define VEC_POINTER(f, T, P, AS) VEC_POINTER_(f, T, P, AS)
#define VEC_POINTER_(f, T, P, AS)                                                                     \
  VEC_POINTER_N(f, T, P, AS, 2) VEC_POINTER_N(f, T, P, AS, 3) VEC_POINTER_N(f, T, P, AS, 4)            \
  VEC_POINTER_N(f, T, P, AS, 8) VEC_POINTER_N(f, T, P, AS, 16)
#define VEC_POINTER_N(f, T, P, AS, N)                                                                 \
  T##N OVL f(T##N x, AS P##N* second) {                                                               \
    T##N result;                                                                                      \
    P##N seconds;                                                                                     \
    for (int i = 0; i < N; ++i) ((T*)&result)[i] = f(((T*)&x)[i], &((P*)&seconds)[i]);               \
    *second = seconds;                                                                                \
    return result;                                                                                    \
  }
#define VEC_POINTER2(f, T, P, AS) VEC_POINTER2_(f, T, P, AS)
#define VEC_POINTER2_(f, T, P, AS)                                                                    \
  VEC_POINTER2_N(f, T, P, AS, 2) VEC_POINTER2_N(f, T, P, AS, 3) VEC_POINTER2_N(f, T, P, AS, 4)         \
  VEC_POINTER2_N(f, T, P, AS, 8) VEC_POINTER2_N(f, T, P, AS, 16)
#define VEC_POINTER2_N(f, T, P, AS, N)                                                                \
  T##N OVL f(T##N x, T##N y, AS P##N* second) {                                                       \
    T##N result;                                                                                      \
    P##N seconds;                                                                                     \
    for (int i = 0; i < N; ++i) ((T*)&result)[i] = f(((T*)&x)[i], ((T*)&y)[i], &((P*)&seconds)[i]);  \
    *second = seconds;                                                                                \
    return result;                                                                                    \
  }

#include "math.cl"
#include "integer.cl"
#include "geometric.cl"
#include "half.cl"
#include "conversions.cl"
#include "vectors.cl"
#include "atomics.cl"
#include "async_copies.cl"
#include "shuffles.cl"
#include "sub_groups.cl"
#include "generic_pointers.cl"
#include "sub_group_non_uniform.cl"
#include "sub_group_block_io.cl"
#include "work_group_collectives.cl"
#include "images.cl"
#include "global_barrier.cl"
