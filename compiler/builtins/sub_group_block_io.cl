// Intel's sub-group block reads and writes of buffers (cl_intel_subgroups, cl_intel_subgroups_char,
// _short and _long, cl_intel_subgroup_local_block_io; SPIR-V's OpSubgroupBlockReadINTEL and
// OpSubgroupBlockWriteINTEL, which the translator names so: no _ui for uint). A block is one
// element per work-item of the sub-group: work-item i reads (writes) element i of block k into
// (from) component k, blocks laid out one after another, as wide as the largest sub-group.
// On the CPU that is a plain load or store of consecutive elements; a warp's accesses coalesce.
#define SG_BLOCK_N(T, suffix, AS, N, count)                                                    \
  T##N OVL intel_sub_group_block_read##suffix##N(const AS T* p) {                             \
    const uint id = get_sub_group_local_id(), width = get_max_sub_group_size();                \
    T##N data;                                                                                 \
    for (uint k = 0; k < count; ++k) ((T*)&data)[k] = p[id + k * width];                       \
    return data;                                                                               \
  }                                                                                            \
  void OVL intel_sub_group_block_write##suffix##N(AS T* p, T##N data) {                        \
    const uint id = get_sub_group_local_id(), width = get_max_sub_group_size();                \
    for (uint k = 0; k < count; ++k) p[id + k * width] = ((T*)&data)[k];                       \
  }
#define SG_BLOCKS(T, suffix, AS) \
  SG_BLOCK_N(T, suffix, AS, , 1) SG_BLOCK_N(T, suffix, AS, 2, 2) SG_BLOCK_N(T, suffix, AS, 4, 4) SG_BLOCK_N(T, suffix, AS, 8, 8)
#define SG_BLOCKS_IN_BOTH(T, suffix) SG_BLOCKS(T, suffix, __global) SG_BLOCKS(T, suffix, __local)
SG_BLOCKS_IN_BOTH(uint, )
SG_BLOCKS_IN_BOTH(ushort, _us)
SG_BLOCKS_IN_BOTH(ulong, _ul)
SG_BLOCKS_IN_BOTH(uchar, _uc)
SG_BLOCK_N(uchar, _uc, __global, 16, 16)
SG_BLOCK_N(uchar, _uc, __local, 16, 16)
