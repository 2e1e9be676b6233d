// Intel's global_barrier() (an IGC builtin that level-zero-tests' cooperative kernels call, and
// that SPIR-V imports by its plain name): every work-item of the launch waits until all work-items
// of all groups have reached it. Only a cooperative launch, whose groups all run at once, may call it.
//
// The groups meet at a counter that only grows: each group's first work-item adds one when its
// group has arrived, and the group leaves once the count reaches the next multiple of the number
// of groups. No reset is needed between barriers or launches, as long as every group of a launch
// passes the same barriers (which the function's contract requires). The counter is a variable of
// the program that calls the function; on a root device such programs run their kernels on tile 0.
static volatile global ulong loom_global_barrier_arrivals;

void global_barrier(void) {
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0 && get_local_id(1) == 0 && get_local_id(2) == 0) {
    const ulong groups = (ulong)get_num_groups(0) * get_num_groups(1) * get_num_groups(2);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);  // the group's writes, before its arrival
    const ulong arrived = __sync_fetch_and_add(&loom_global_barrier_arrivals, (ulong)1) + 1;
    const ulong leaveAt = (arrived + groups - 1) / groups * groups;
    while (loom_global_barrier_arrivals < leaveAt) {
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST);  // the other groups' writes, before the group reads on
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
}
