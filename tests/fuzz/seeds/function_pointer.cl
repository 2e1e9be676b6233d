// Seed: a call through a function pointer (SPV_INTEL_function_pointers), which SPIRV-Tools'
// validator does not fully know.
#pragma OPENCL EXTENSION __cl_clang_function_pointers : enable
int twice(int x) { return 2 * x; }
int thrice(int x) { return 3 * x; }
kernel void function_pointer(global int* data, int which) {
  int (*pick)(int) = which ? twice : thrice;
  data[get_global_id(0)] = pick(data[get_global_id(0)]);
}
