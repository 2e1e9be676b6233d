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
