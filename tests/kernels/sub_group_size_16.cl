// A kernel that requires sub-groups of 16, which no Loom device has (the CPU's are 1, a GPU's 32).
__attribute__((intel_reqd_sub_group_size(16))) kernel void sixteen(global int* out) { out[0] = 16; }
