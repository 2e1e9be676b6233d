// Half precision (cl_khr_fp16) as real programs use it: half buffers, a half argument, arithmetic,
// a math function, conversions and vector loads and stores (half_reference.h computes the same on
// the host). The SPIR-V of this file declares the Float16 capability.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

// Per input i: kHalfResults halves, a saturated short and the input widened to float.
kernel void half_arithmetic(global const half* x, global const half* y, half scale, global half* results,
                            global short* saturated, global float* widened) {
  const size_t i = get_global_id(0);
  global half* out = results + 5 * i;
  out[0] = x[i] + y[i];
  out[1] = x[i] * scale;
  out[2] = x[i] / y[i];
  out[3] = sqrt(x[i]);
  out[4] = convert_half_rtz((float)x[i] * 1.0009765625f);  // x (1 + 2^-10): rounds below x's next half
  saturated[i] = convert_short_sat(x[i]);
  widened[i] = vload_half(i, x);
}

// Four halves per work-item, loaded and stored as half4.
kernel void half_vectors(global const half* x, half scale, global half* out) {
  const size_t i = get_global_id(0);
  vstore4(vload4(i, x) * scale, i, out);
}

// Work-group and sub-group functions of half, on small integers whose sums are exact in any order.
kernel void half_collectives(global const half* x, global half* out) {
  const size_t i = get_global_id(0);
  out[3 * i] = work_group_reduce_add(x[i]);
  out[3 * i + 1] = work_group_scan_inclusive_max(x[i]);
  out[3 * i + 2] = sub_group_broadcast(sub_group_reduce_min(x[i]), 0);
}
