// Asynchronous copies between global and local memory, and prefetch. Every work-item of the
// group calls them with the same arguments: each copies its share of the elements, and
// wait_group_events is a barrier, after which the whole copy is visible to the group. (The
// translator expresses SPIR-V's OpGroupAsyncCopy as the strided form.)

size_t groupLinearLocalId() {
  return get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2));
}
size_t groupWorkItems() { return get_local_size(0) * get_local_size(1) * get_local_size(2); }

#define ASYNC_COPY(T)                                                                                          \
  event_t OVL async_work_group_strided_copy(__local T* dst, const __global T* src, size_t count, size_t stride, \
                                            event_t event) {                                                   \
    for (size_t i = groupLinearLocalId(); i < count; i += groupWorkItems()) dst[i] = src[i * stride];          \
    return event;                                                                                              \
  }                                                                                                            \
  event_t OVL async_work_group_strided_copy(__global T* dst, const __local T* src, size_t count, size_t stride, \
                                            event_t event) {                                                   \
    for (size_t i = groupLinearLocalId(); i < count; i += groupWorkItems()) dst[i * stride] = src[i];          \
    return event;                                                                                              \
  }                                                                                                            \
  event_t OVL async_work_group_copy(__local T* dst, const __global T* src, size_t count, event_t event) {       \
    return async_work_group_strided_copy(dst, src, count, 1, event);                                           \
  }                                                                                                            \
  event_t OVL async_work_group_copy(__global T* dst, const __local T* src, size_t count, event_t event) {       \
    return async_work_group_strided_copy(dst, src, count, 1, event);                                           \
  }                                                                                                            \
  void OVL prefetch(const __global T* p, size_t count) {}
#define ASYNC_COPY_VECTORS(T) \
  ASYNC_COPY(T) ASYNC_COPY(T##2) ASYNC_COPY(T##3) ASYNC_COPY(T##4) ASYNC_COPY(T##8) ASYNC_COPY(T##16)
ASYNC_COPY_VECTORS(char) ASYNC_COPY_VECTORS(uchar) ASYNC_COPY_VECTORS(short) ASYNC_COPY_VECTORS(ushort)
ASYNC_COPY_VECTORS(int) ASYNC_COPY_VECTORS(uint) ASYNC_COPY_VECTORS(long) ASYNC_COPY_VECTORS(ulong)
ASYNC_COPY_VECTORS(float) ASYNC_COPY_VECTORS(double) ASYNC_COPY_VECTORS(half)

void OVL wait_group_events(int count, event_t* events) { barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); }
