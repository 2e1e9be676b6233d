// Calls a function another module exports (dynamic linking).
int linked_helper(int x);

kernel void call_import(global int* out) { out[get_global_id(0)] = linked_helper((int)get_global_id(0)); }
