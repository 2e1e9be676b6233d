kernel void empty_kernel() {}
