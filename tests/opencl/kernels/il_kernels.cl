// Kernels the OpenCL API tests load with clCreateProgramWithIL (compiled to SPIR-V at build time).

kernel void il_scale(global const int* in, global int* out, int factor) {
  size_t i = get_global_id(0);
  out[i] = in[i] * factor;
}

kernel void il_fill_ids(global uint* out) { out[get_global_id(0)] = (uint)get_global_id(0) + 1000u; }
