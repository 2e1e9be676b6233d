// cl_ext_float_atomics on atomic_float and atomic_double (OpAtomicFAddEXT, OpAtomicFMinEXT and
// OpAtomicFMaxEXT in SPIR-V) in global, local and generic memory.

// Work-item i applies `operation` (0 add, 1 sub, 2 min, 3 max) with operand[i] to location[i],
// kept in `space` (0 global, 1 local, 2 generic), and writes the value it returned to old[i].
#define APPLY(T, A)                                                                                          \
  T apply_##T(volatile A* p, T operand, int operation) {                                                     \
    switch (operation) {                                                                                     \
      case 0: return atomic_fetch_add(p, operand);                                                           \
      case 1: return atomic_fetch_sub_explicit(p, operand, memory_order_relaxed);                            \
      case 2: return atomic_fetch_min_explicit(p, operand, memory_order_seq_cst, memory_scope_device);        \
      default: return atomic_fetch_max(p, operand);                                                          \
    }                                                                                                        \
  }                                                                                                          \
  T apply_global_##T(volatile global A* p, T operand, int operation) {                                       \
    switch (operation) {                                                                                     \
      case 0: return atomic_fetch_add_explicit(p, operand, memory_order_relaxed, memory_scope_device);       \
      case 1: return atomic_fetch_sub(p, operand);                                                           \
      case 2: return atomic_fetch_min(p, operand);                                                           \
      default: return atomic_fetch_max_explicit(p, operand, memory_order_relaxed);                           \
    }                                                                                                        \
  }                                                                                                          \
  T apply_local_##T(volatile local A* p, T operand, int operation) {                                         \
    switch (operation) {                                                                                     \
      case 0: return atomic_fetch_add_explicit(p, operand, memory_order_relaxed, memory_scope_work_group);   \
      case 1: return atomic_fetch_sub_explicit(p, operand, memory_order_relaxed, memory_scope_work_group);   \
      case 2: return atomic_fetch_min_explicit(p, operand, memory_order_relaxed, memory_scope_work_group);   \
      default: return atomic_fetch_max_explicit(p, operand, memory_order_relaxed, memory_scope_work_group);  \
    }                                                                                                        \
  }                                                                                                          \
  kernel void apply_##T##_atomics(global T* location, global const T* operand, global T* old, int operation, \
                                  int space) {                                                               \
    local T scratch[64];                                                                                     \
    const size_t i = get_global_id(0), l = get_local_id(0);                                                  \
    scratch[l] = location[i];                                                                                \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                            \
    if (space == 0) old[i] = apply_global_##T((volatile global A*)&location[i], operand[i], operation);      \
    if (space == 1) old[i] = apply_local_##T((volatile local A*)&scratch[l], operand[i], operation);         \
    if (space == 2) {                                                                                        \
      volatile generic A* p = l % 2 ? (volatile generic A*)&scratch[l] : (volatile generic A*)&location[i];  \
      old[i] = apply_##T(p, operand[i], operation);                                                          \
    }                                                                                                        \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                            \
    if (space == 1 || (space == 2 && l % 2)) location[i] = scratch[l];                                       \
  }
APPLY(float, atomic_float)
APPLY(double, atomic_double)

// Every work-item on the same locations: adds 1 to counter (returning each of 0..n-1 once) and
// its value to sum (integers: exact in any order), takes its value into the minimum and maximum,
// and the same in a __local location of its group.
#define HAMMER(T, A)                                                                                              \
  kernel void hammer_##T(volatile global A* counter, global T* taken, volatile global A* sum,                     \
                         volatile global A* extremes, global const T* values, global T* group_results) {          \
    local A group[3];                                                                                             \
    const size_t i = get_global_id(0);                                                                            \
    if (get_local_id(0) == 0) {                                                                                   \
      atomic_init(&group[0], 0);                                                                                  \
      atomic_init(&group[1], values[i]);                                                                          \
      atomic_init(&group[2], values[i]);                                                                          \
    }                                                                                                             \
    work_group_barrier(CLK_LOCAL_MEM_FENCE);                                                                      \
    taken[i] = atomic_fetch_add(counter, 1);                                                                      \
    atomic_fetch_add_explicit(sum, values[i], memory_order_relaxed, memory_scope_device);                         \
    atomic_fetch_min(&extremes[0], values[i]);                                                                    \
    atomic_fetch_max(&extremes[1], values[i]);                                                                    \
    atomic_fetch_sub_explicit(&group[0], values[i], memory_order_relaxed, memory_scope_work_group);               \
    atomic_fetch_min_explicit(&group[1], values[i], memory_order_relaxed, memory_scope_work_group);               \
    atomic_fetch_max_explicit(&group[2], values[i], memory_order_relaxed, memory_scope_work_group);               \
    work_group_barrier(CLK_LOCAL_MEM_FENCE);                                                                      \
    if (get_local_id(0) < 3) group_results[3 * get_group_id(0) + get_local_id(0)] = atomic_load(&group[get_local_id(0)]); \
  }
HAMMER(float, atomic_float)
HAMMER(double, atomic_double)

// atomic_load and atomic_store of atomic floats keep every bit (-0, NaN payloads).
kernel void load_store_float(volatile global atomic_float* from, global float* loaded, volatile global atomic_float* to,
                             global const float* stored) {
  const size_t i = get_global_id(0);
  loaded[i] = atomic_load(&from[i]);
  atomic_store(&to[i], stored[i]);
}

// The SPIR-V built-ins themselves, as SYCL compilers call them, on global and local pointers
// (scope Device = 1, Workgroup = 2; semantics 0: relaxed): min and max of location[i] and
// operand[i] in global memory, and in local memory, then their sum added in global memory.
#define SPIRV_BUILTINS(T, AS)                                                                        \
  T __attribute__((overloadable)) __spirv_AtomicFAddEXT(volatile AS T* p, int scope, int semantics, T v); \
  T __attribute__((overloadable)) __spirv_AtomicFMinEXT(volatile AS T* p, int scope, int semantics, T v); \
  T __attribute__((overloadable)) __spirv_AtomicFMaxEXT(volatile AS T* p, int scope, int semantics, T v);
SPIRV_BUILTINS(float, global)
SPIRV_BUILTINS(float, local)
SPIRV_BUILTINS(double, global)
SPIRV_BUILTINS(double, local)
#define SPIRV_EXTREMES(T)                                                                                   \
  kernel void spirv_##T##_extremes(global T* low, global T* high, global const T* operand, global T* old) { \
    local T scratch[2 * 64];                                                                                \
    const size_t i = get_global_id(0), l = get_local_id(0);                                                 \
    scratch[2 * l] = low[i];                                                                                \
    scratch[2 * l + 1] = high[i];                                                                           \
    old[2 * i] = __spirv_AtomicFMinEXT(&low[i], 1, 0, operand[i]);                                         \
    old[2 * i + 1] = __spirv_AtomicFMaxEXT(&high[i], 1, 0, operand[i]);                                    \
    __spirv_AtomicFMinEXT(&scratch[2 * l], 2, 0, operand[i]);                                              \
    __spirv_AtomicFMaxEXT(&scratch[2 * l + 1], 2, 0, operand[i]);                                          \
    __spirv_AtomicFAddEXT(&low[i], 1, 0, scratch[2 * l]);                                                  \
    __spirv_AtomicFAddEXT(&high[i], 1, 0, scratch[2 * l + 1]);                                             \
  }
SPIRV_EXTREMES(float)
SPIRV_EXTREMES(double)
