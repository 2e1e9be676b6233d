// Uses a function another module exports (dynamic linking), and exports one that does too.
#pragma OPENCL EXTENSION __cl_clang_function_pointers : enable
int exported_helper(int x);

int helper_plus_one(int x) { return exported_helper(x) + 1; }

kernel void use_import(global int* out) { out[0] = helper_plus_one(5); }

kernel void call_pointer(long function, global int* out) { out[0] = ((int (*)(int))function)(out[0]); }
