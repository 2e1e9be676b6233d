// The simple path: no barriers, work-item queries, argument layout and kernel attributes.

kernel void add_vectors(global const float* a, global const float* b, global float* sum) {
  size_t i = get_global_id(0);
  sum[i] = a[i] + b[i];
}

// work_item_ids: every work-item function, in a record of 27 values per work-item.
#include "../../../kernels/work_item_kernels.cl"

// Only what is the same for every group of a run along x, but the global id.
kernel void global_ids(global ulong* out) {
  global ulong* record = out + (get_global_id(1) * get_global_size(0) + get_global_id(0) - get_global_offset(0)) * 4;
  record[0] = get_global_id(0);
  record[1] = get_global_id(1);
  record[2] = get_local_size(0);
  record[3] = get_group_id(1);
}

#include "../../../kernels/mixed_t.h"

kernel void mixed_arguments(global double* out, mixed_t m, char c, short s, long l, float f, double d, uchar u,
                            local float* scratch, constant int* table) {
  out[0] = m.c;
  out[1] = m.i;
  out[2] = m.d;
  out[3] = m.s;
  out[4] = c;
  out[5] = s;
  out[6] = l;
  out[7] = f;
  out[8] = d;
  out[9] = u;
  out[10] = table[1];
  scratch[0] = 1.0f;
}

kernel __attribute__((reqd_work_group_size(8, 4, 1))) __attribute__((vec_type_hint(float4))) void fixed_group(global int* out) {
  out[get_global_id(0)] = (int)get_local_size(0);
}

kernel __attribute__((work_group_size_hint(16, 1, 1))) void hinted_group(global int* out) { out[0] = 1; }

// A private array indexed at run time stays in memory: 64 bytes of private memory.
kernel void private_table(global const int* in, global int* out) {
  int table[16];
  for (int i = 0; i < 16; ++i) table[i] = i * in[16];
  out[get_global_id(0)] = table[in[get_global_id(0)] & 15];
}
