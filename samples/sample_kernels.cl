kernel void vector_add(global const float* a, global const float* b, global float* sum) {
  size_t i = get_global_id(0);
  sum[i] = a[i] + b[i];
}

// Each work-group reduces its slice in local memory, then adds its total to *result.
kernel void reduce_sum(global const int* values, global int* result, local int* partial) {
  size_t local_id = get_local_id(0);
  partial[local_id] = values[get_global_id(0)];
  for (size_t stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (local_id < stride) partial[local_id] += partial[local_id + stride];
  }
  if (local_id == 0) atomic_add(result, partial[0]);
}
