kernel void empty_kernel() {}

kernel void triad(global float* a, global const float* b, global const float* c, float scalar) {
  size_t i = get_global_id(0);
  a[i] = b[i] + scalar * c[i];
}
