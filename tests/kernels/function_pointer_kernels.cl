// Calls through function pointers (SPV_INTEL_function_pointers): a pointer the host got with
// zeModuleGetFunctionPointer, as an argument and from memory, and one the kernel takes itself.
#pragma OPENCL EXTENSION __cl_clang_function_pointers : enable
typedef int (*unary_t)(int);

int add_one(int x) { return x + 1; }
int square(int x) { return x * x; }

kernel void call_through_argument(long function, global int* data) { data[0] = ((unary_t)function)(data[0]); }

kernel void call_through_table(global const ulong* table, global int* data) {
  const size_t i = get_global_id(0);
  data[i] = ((unary_t)table[i % 2])(data[i]);
}

kernel void call_chosen(global int* data, int which) {
  unary_t chosen = which ? square : add_one;
  data[get_global_id(0)] = chosen(data[get_global_id(0)]);
}
