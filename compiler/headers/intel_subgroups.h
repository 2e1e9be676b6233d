// Intel's sub-group functions for OpenCL C programs, which clang 15 does not declare:
// cl_intel_subgroups (shuffles, block reads and writes of buffers; no images), its char, short and
// long variants, and cl_intel_subgroup_local_block_io. Loom's builtin library defines them (what
// SPIR-V has no instruction for, such as intel_sub_group_broadcast of shorts, by name).
#define cl_intel_subgroups_char 1
#define cl_intel_subgroups_long 1
#define cl_intel_subgroup_local_block_io 1

#define __LOOM_OVL __attribute__((overloadable))
#define __LOOM_SHUFFLES(T)                                                                             \
  T __LOOM_OVL intel_sub_group_shuffle(T, uint);                                                       \
  T __LOOM_OVL intel_sub_group_shuffle_xor(T, uint);                                                   \
  T __LOOM_OVL intel_sub_group_shuffle_down(T, T, uint);                                               \
  T __LOOM_OVL intel_sub_group_shuffle_up(T, T, uint);
#define __LOOM_SHUFFLE_VECTORS(T) \
  __LOOM_SHUFFLES(T) __LOOM_SHUFFLES(T##2) __LOOM_SHUFFLES(T##3) __LOOM_SHUFFLES(T##4) __LOOM_SHUFFLES(T##8) __LOOM_SHUFFLES(T##16)
__LOOM_SHUFFLE_VECTORS(float)
__LOOM_SHUFFLE_VECTORS(int)
__LOOM_SHUFFLE_VECTORS(uint)
__LOOM_SHUFFLES(long)
__LOOM_SHUFFLES(ulong)
#ifdef cl_khr_fp64
__LOOM_SHUFFLES(double)
#endif

// Block reads and writes of one element per work-item, `name` with the widths of `N`.
#define __LOOM_BLOCK(T, name, AS, N)                                                                 \
  T##N __LOOM_OVL intel_sub_group_block_read##name##N(const AS T*);                                  \
  void __LOOM_OVL intel_sub_group_block_write##name##N(AS T*, T##N);
#define __LOOM_BLOCKS(T, name) \
  __LOOM_BLOCK(T, name, __global, ) __LOOM_BLOCK(T, name, __global, 2) __LOOM_BLOCK(T, name, __global, 4) \
  __LOOM_BLOCK(T, name, __global, 8) __LOOM_BLOCK(T, name, __local, ) __LOOM_BLOCK(T, name, __local, 2)  \
  __LOOM_BLOCK(T, name, __local, 4) __LOOM_BLOCK(T, name, __local, 8)
__LOOM_BLOCKS(uint, )
__LOOM_BLOCKS(uint, _ui)
__LOOM_BLOCKS(ushort, _us)
__LOOM_BLOCKS(uchar, _uc)
__LOOM_BLOCK(uchar, _uc, __global, 16)
__LOOM_BLOCK(uchar, _uc, __local, 16)
__LOOM_BLOCKS(ulong, _ul)

// The char and short variants: Intel's names for broadcast, reductions and scans, and shuffles.
#define __LOOM_COLLECTIVES(T)                                                                         \
  T __LOOM_OVL intel_sub_group_reduce_add(T);                                                         \
  T __LOOM_OVL intel_sub_group_reduce_min(T);                                                         \
  T __LOOM_OVL intel_sub_group_reduce_max(T);                                                         \
  T __LOOM_OVL intel_sub_group_scan_inclusive_add(T);                                                 \
  T __LOOM_OVL intel_sub_group_scan_inclusive_min(T);                                                 \
  T __LOOM_OVL intel_sub_group_scan_inclusive_max(T);                                                 \
  T __LOOM_OVL intel_sub_group_scan_exclusive_add(T);                                                 \
  T __LOOM_OVL intel_sub_group_scan_exclusive_min(T);                                                 \
  T __LOOM_OVL intel_sub_group_scan_exclusive_max(T);                                                 \
  T __LOOM_OVL intel_sub_group_broadcast(T, uint);                                                    \
  T##2 __LOOM_OVL intel_sub_group_broadcast(T##2, uint);                                              \
  T##3 __LOOM_OVL intel_sub_group_broadcast(T##3, uint);                                              \
  T##4 __LOOM_OVL intel_sub_group_broadcast(T##4, uint);                                              \
  T##8 __LOOM_OVL intel_sub_group_broadcast(T##8, uint);                                              \
  __LOOM_SHUFFLE_VECTORS(T)
__LOOM_COLLECTIVES(char)
__LOOM_COLLECTIVES(uchar)
__LOOM_COLLECTIVES(short)
__LOOM_COLLECTIVES(ushort)

#undef __LOOM_COLLECTIVES
#undef __LOOM_BLOCKS
#undef __LOOM_BLOCK
#undef __LOOM_SHUFFLE_VECTORS
#undef __LOOM_SHUFFLES
#undef __LOOM_OVL
