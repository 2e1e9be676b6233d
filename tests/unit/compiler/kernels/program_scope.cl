// Program-scope variables and functions other modules and the host can reach.

global int counter_global = 41;
global float table_global[4] = {1.5f, 2.5f, 3.5f, 4.5f};

kernel void increment_global(global int* out) { out[0] = ++counter_global; }

int exported_helper(int x) { return x * 3; }

kernel void call_helper(global int* out) { out[0] = exported_helper(14) + (int)table_global[1]; }
