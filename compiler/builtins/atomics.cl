// OpenCL 1.x atomics (atomic_* for 32 bits, atom_* for 32 and 64 bits) on global, local and
// generic pointers, and memory fences. The translator expresses SPIR-V atomics in these names.
// The __sync builtins become atomicrmw/cmpxchg instructions; the __atomic ones would become
// library calls, since spir64 declares no lock-free atomics.

// min and max by compare-and-swap: __sync_fetch_and_min exists for int only.
#define ATOMIC_SELECT(T, AS, keep)                                                                  \
  T old = *p, seen;                                                                                 \
  while ((seen = __sync_val_compare_and_swap(p, old, keep ? old : v)) != old) old = seen;          \
  return old;

#define ATOMIC_RMW(prefix, T, AS)                                                                  \
  T OVL prefix##add(volatile AS T* p, T v) { return __sync_fetch_and_add(p, v); }                 \
  T OVL prefix##sub(volatile AS T* p, T v) { return __sync_fetch_and_sub(p, v); }                 \
  T OVL prefix##xchg(volatile AS T* p, T v) { return __sync_swap(p, v); }                         \
  T OVL prefix##min(volatile AS T* p, T v) { ATOMIC_SELECT(T, AS, old <= v) }                    \
  T OVL prefix##max(volatile AS T* p, T v) { ATOMIC_SELECT(T, AS, old >= v) }                    \
  T OVL prefix##and(volatile AS T* p, T v) { return __sync_fetch_and_and(p, v); }                 \
  T OVL prefix##or(volatile AS T* p, T v) { return __sync_fetch_and_or(p, v); }                   \
  T OVL prefix##xor(volatile AS T* p, T v) { return __sync_fetch_and_xor(p, v); }                 \
  T OVL prefix##inc(volatile AS T* p) { return __sync_fetch_and_add(p, (T)1); }                   \
  T OVL prefix##dec(volatile AS T* p) { return __sync_fetch_and_sub(p, (T)1); }                   \
  T OVL prefix##cmpxchg(volatile AS T* p, T expected, T desired) {                                \
    return __sync_val_compare_and_swap(p, expected, desired);                                     \
  }

#define ATOMIC_SPACES(prefix, T) ATOMIC_RMW(prefix, T, __global) ATOMIC_RMW(prefix, T, __local) ATOMIC_RMW(prefix, T, __generic)

ATOMIC_SPACES(atomic_, int)
ATOMIC_SPACES(atomic_, uint)
ATOMIC_SPACES(atom_, int)
ATOMIC_SPACES(atom_, uint)
ATOMIC_SPACES(atom_, long)
ATOMIC_SPACES(atom_, ulong)

// Floating-point atomics (cl_ext_float_atomics: the translator turns atomic_fetch_add, _sub, _min
// and _max on atomic_float and atomic_double into these). Add and sub are an atomicrmw fadd, which
// clang cannot write for spir64 (it has no lock-free atomics there): the compiler turns each call
// of __loom_atomic_fadd into one (materializeFloatAtomicAdds), which NVPTX makes atom.add.f32/f64
// and x86 a compare-and-swap loop. Min and max follow fmin and fmax, as the extension asks (a
// quiet NaN operand loses), by compare-and-swap on the bits, which terminates when NaNs are stored.
// Exchange swaps the bits.
#define FLOAT_SELECT(T, B, AS, name, pick)                                                      \
  T OVL name(volatile AS T* p, T v) {                                                          \
    volatile AS B* bits = (volatile AS B*)p;                                                   \
    B old = *bits, seen;                                                                       \
    while ((seen = __sync_val_compare_and_swap(bits, old, as_##B(pick(as_##T(old), v)))) != old) old = seen; \
    return as_##T(old);                                                                        \
  }
#define FLOAT_ATOMICS(T, B, AS)                                                     \
  T OVL __loom_atomic_fadd(volatile AS T* p, T v);                                  \
  T OVL atomic_add(volatile AS T* p, T v) { return __loom_atomic_fadd(p, v); }      \
  T OVL atomic_sub(volatile AS T* p, T v) { return __loom_atomic_fadd(p, -v); }     \
  FLOAT_SELECT(T, B, AS, atomic_min, fmin)                                          \
  FLOAT_SELECT(T, B, AS, atomic_max, fmax)                                          \
  T OVL atomic_xchg(volatile AS T* p, T v) { return as_##T(__sync_swap((volatile AS B*)p, as_##B(v))); }
FLOAT_ATOMICS(float, uint, __global) FLOAT_ATOMICS(float, uint, __local) FLOAT_ATOMICS(float, uint, __generic)
FLOAT_ATOMICS(double, ulong, __global) FLOAT_ATOMICS(double, ulong, __local) FLOAT_ATOMICS(double, ulong, __generic)

// All work-items of a group run on one thread, one after another; a fence orders this thread's
// accesses against other groups and the host.
void OVL mem_fence(cl_mem_fence_flags flags) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
void OVL read_mem_fence(cl_mem_fence_flags flags) { __atomic_thread_fence(__ATOMIC_ACQUIRE); }
void OVL write_mem_fence(cl_mem_fence_flags flags) { __atomic_thread_fence(__ATOMIC_RELEASE); }
