// A function called through a pointer that asks for its work-item's id: no target can give it one.
#pragma OPENCL EXTENSION __cl_clang_function_pointers : enable
int plus_id(int x) { return x + (int)get_global_id(0); }
int twice(int x) { return 2 * x; }

kernel void call_chosen(global int* data, int which) {
  int (*chosen)(int) = which ? twice : plus_id;
  data[get_global_id(0)] = chosen(data[get_global_id(0)]);
}
