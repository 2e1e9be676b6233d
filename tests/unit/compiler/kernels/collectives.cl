// Work-group collective functions: votes, calls in a loop through a function, and a kernel that
// uses none (work_group_collectives_test.cpp compiles the kernels for each type from source).

kernel void votes(global const int* in, global int* out) {
  size_t i = get_global_linear_id(), n = get_global_size(0) * get_global_size(1) * get_global_size(2);
  out[i] = work_group_all(in[i]);
  out[n + i] = work_group_any(in[i]);
}

// Collectives in a loop, through a function of the program: each round adds the group's total.
int add_group_total(int x) { return x + work_group_reduce_add(x) % 1000; }

kernel void totals_in_loop(global int* data, int rounds) {
  size_t i = get_global_id(0);
  int x = data[i];
  for (int round = 0; round < rounds; ++round) x = add_group_total(x);
  data[i] = x;
}

kernel void no_collectives(global int* data) { data[get_global_id(0)] += 1; }
