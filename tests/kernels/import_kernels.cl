// Uses a function another module exports (dynamic linking).
int exported_helper(int x);
kernel void use_import(global int* out) { out[0] = exported_helper(5) + 1; }
