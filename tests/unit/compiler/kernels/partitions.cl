// Kernels the code generator may put into partitions of their own: they share a program-scope
// variable, a static one, a constant table and an exported function, of which a program has one.

global int shared_counter = 0;
static global int hidden_total = 100;
constant int table[4] = {10, 20, 30, 40};

int exported_twice(int x) { return 2 * x; }

kernel void bump(global int* out) {
  out[0] = atomic_add(&shared_counter, 1) + 1;
  hidden_total += 5;
}

kernel void read_counters(global int* out) {
  out[0] = shared_counter;
  out[1] = hidden_total;
}

kernel void look_up(global int* out) { out[0] = table[get_global_id(0) & 3] + exported_twice(1); }

kernel void look_up_last(global int* out) { out[0] = table[3] + exported_twice(2); }
