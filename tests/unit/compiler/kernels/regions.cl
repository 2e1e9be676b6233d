// Kernels run as barrier regions (loops over the work-items between barriers, vectorized across
// them): values live across barriers in loops, work-items that return early, groups of every
// shape and size, local atomics on shared counters, and loops given implicit barriers.

// Work-items past the end return before the barriers; the others pass values around the active
// part of the group in a loop, each keeping a private running value across the barriers.
kernel void rotate_active(global uint* data, uint n, int rounds, local uint* tile) {
  size_t l = get_local_id(0), g = get_global_id(0);
  if (g >= n) return;
  size_t active = min((size_t)n - get_group_id(0) * get_local_size(0), get_local_size(0));
  uint value = data[g];
  for (int round = 0; round < rounds; ++round) {
    tile[l] = value;
    barrier(CLK_LOCAL_MEM_FENCE);
    value = value * 3u + tile[(l + 1) % active];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  data[g] = value;
}

// An inclusive scan of each group (of any size up to the device's largest), the input kept in a
// private variable across all the barriers; returns inclusive plus exclusive sums.
kernel void scan_groups(global uint* data, local uint* scratch) {
  size_t l = get_local_id(0), n = get_local_size(0);
  uint mine = data[get_global_id(0)];
  scratch[l] = mine;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t offset = 1; offset < n; offset *= 2) {
    uint add = l >= offset ? scratch[l - offset] : 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    scratch[l] += add;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  data[get_global_id(0)] = scratch[l] * 2u - mine;
}

// 3-D groups: each work-item takes the value of the work-item mirrored through the group's centre.
kernel void mirror_in_groups(global int* data, local int* tile) {
  size_t x = get_local_id(0), y = get_local_id(1), z = get_local_id(2);
  size_t nx = get_local_size(0), ny = get_local_size(1), nz = get_local_size(2);
  size_t index = (get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0) + get_global_id(0);
  tile[get_local_linear_id()] = data[index];
  barrier(CLK_LOCAL_MEM_FENCE);
  data[index] = tile[((nz - 1 - z) * ny + (ny - 1 - y)) * nx + (nx - 1 - x)];
}

// Private values changed under divergent branches in a loop with barriers.
kernel void divergent_updates(global uint* data, uint rounds, local uint* tile) {
  size_t l = get_local_id(0);
  uint value = (uint)l;
  for (uint round = 0; round < rounds; ++round) {
    if (l % 2 == 0) value += round;
    tile[l] = value;
    barrier(CLK_LOCAL_MEM_FENCE);
    value += tile[get_local_size(0) - 1 - l];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  data[get_global_id(0)] = value;
}

// Local atomics with every work-item hitting the same few counters: exact counts, tickets that
// are all different, and one winner of a compare-and-swap per group.
kernel void local_counters(global const uchar* data, global uint* bins, global uint* tickets, global int* winners,
                           uint perItem) {
  local uint counts[16];
  local uint next;
  local int owner;
  size_t l = get_local_id(0), g = get_global_id(0);
  if (l < 16) counts[l] = 0;  // groups of at least 16
  if (l == 0) {
    next = 0;
    owner = -1;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint k = 0; k < perItem; ++k) atomic_inc(&counts[data[g * perItem + k] & 15]);
  atomic_add(&counts[l % 3], 2u);
  tickets[g] = atomic_inc(&next);
  winners[g] = atomic_cmpxchg(&owner, -1, (int)l) == -1;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 16) atomic_add(&bins[l], counts[l]);
}

// An n-body-like loop without barriers: a trip count the same for every work-item, a
// floating-point accumulator, only loads. It runs as barrier regions, every work-item doing one
// iteration before any does the next. Work-items past the end return before it.
kernel void pull(global const float4* bodies, global float4* out, int count, uint n) {
  size_t i = get_global_id(0);
  if (i >= n) return;
  float4 mine = bodies[i];
  float4 sum = (float4)(0.0f);
  for (int j = 0; j < count; ++j) {
    float4 d = bodies[j] - mine;
    sum += d * (bodies[j].w / (d.x * d.x + d.y * d.y + d.z * d.z + 0.5f));
  }
  out[i] = (float4)(sum.x, sum.y, sum.z, (float)i);
}

// Conflicting local atomics alone between two barriers: a loop over work-items the vectorizer
// would take if nothing stopped it.
kernel void local_conflicts(global uint* out) {
  local uint counts[4];
  size_t l = get_local_id(0);
  if (l < 4) counts[l] = 0;  // groups of at least 4
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(&counts[l & 3], (uint)l);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 4) out[get_group_id(0) * 4 + l] = counts[l];
}

// A private array accumulated over tiles of local memory between barriers, indexed by short
// constant loops (CLBlast's GEMM keeps its results so): a region loop the vectorizer can take.
kernel void tile_dot(global const float* a, global const float* w, global float* out, int k) {
  local float tile[4][64];  // groups of at most 64
  int l = get_local_id(0), size = get_local_size(0);
  float acc[2] = {0.0f, 0.0f};
  for (int t = 0; t < k; t += 4) {
    for (int d = 0; d < 4; ++d) tile[d][l] = a[(t + d) * get_global_size(0) + get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int d = 0; d < 4; ++d) {
      acc[0] += tile[d][l] * w[t + d];
      acc[1] += tile[d][size - 1 - l] * w[t + d];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = acc[0] - 2.0f * acc[1];
}

// CLBlast's GEMM shape: the groups whose columns reach past the matrix take the other, checked
// side of a branch the compiler sees as divergent; both sides wait at barriers only while k covers
// a whole tile (the same group-invariant test on each side), else every work-item returns
// without one.
kernel void column_sums(global const float* a, global const float* w, global float* out, int width, int k) {
  local float tile[4 * 64];  // groups of at most 32, two columns each
  const int l = get_local_id(0), span = get_local_size(0) * 2;
  const int first = get_group_id(0) * span, column = first + l * 2;
  float acc[2] = {0.0f, 0.0f};
  int t = 0;
  if (column < (width / span) * span) {
    for (; t < (k / 4) * 4; t += 4) {
      for (int d = 0; d < 4; ++d)
        for (int j = 0; j < 2; ++j) tile[d * span + l * 2 + j] = a[(t + d) * width + column + j];
      barrier(CLK_LOCAL_MEM_FENCE);
      for (int d = 0; d < 4; ++d)
        for (int j = 0; j < 2; ++j) acc[j] += tile[d * span + span - 1 - (l * 2 + j)] * w[t + d];
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (; t < k; ++t)
      for (int j = 0; j < 2; ++j) acc[j] += a[t * width + column + j] * w[t];
    for (int j = 0; j < 2; ++j) out[column + j] = acc[j];
  } else {
    for (; t < (k / 4) * 4; t += 4) {
      for (int d = 0; d < 4; ++d)
        for (int j = 0; j < 2; ++j) tile[d * span + l * 2 + j] = column + j < width ? a[(t + d) * width + column + j] : 0.0f;
      barrier(CLK_LOCAL_MEM_FENCE);
      for (int d = 0; d < 4; ++d)
        for (int j = 0; j < 2; ++j) acc[j] += tile[d * span + span - 1 - (l * 2 + j)] * w[t + d];
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (; t < k; ++t)
      for (int j = 0; j < 2; ++j) acc[j] += (column + j < width ? a[t * width + column + j] : 0.0f) * w[t];
    for (int j = 0; j < 2; ++j)
      if (column + j < width) out[column + j] = acc[j];
  }
}

// The first two work-items of each group return before the barrier when `quit` > 4 (a
// group-invariant test after a divergent one): they must sit out the region after it.
kernel void return_when_asked(global int* data, int quit, local int* tile) {
  int l = get_local_id(0), size = get_local_size(0);
  if (l < 2 && quit > 4) return;
  tile[l] = l * 3 + (int)get_group_id(0) * 100;
  barrier(CLK_LOCAL_MEM_FENCE);
  data[get_global_id(0)] = tile[l < 2 ? l : 2 + (l - 1) % (size - 2)];
}

// clpeak's float16 mad chains, in whole numbers that every step keeps exact (fused or not): a loop
// of `count` iterations, uniform, so it gets implicit barriers and keeps two float16 values per
// work-item across them.
kernel void mad_chain16(global float16* out, int count) {
  const float lid = (float)get_local_id(0);
  float16 x = (float16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) + lid;
  float16 y = (float16)(lid * 2.0f - 3.0f);
  const float16 minusOne = (float16)(-1.0f);
  for (int i = 0; i < count; ++i) {
    x = mad(x, minusOne, y);  // y - x
    y = mad(y, minusOne, x);  // x - y
  }
  out[get_global_id(0)] = x * 3.0f + y;
}

// As mad_chain16 with eight rounds of the two mads per iteration: a chain of sixteen dependent
// mads per work-item and iteration, which the CPU target runs for two work-items side by side.
#define MINUS_Y_X(x, y, minusOne) x = mad(x, minusOne, y); y = mad(y, minusOne, x);
kernel void mad_chain16_long(global float16* out, int count) {
  const float lid = (float)get_local_id(0);
  float16 x = (float16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) + lid;
  float16 y = (float16)(lid * 2.0f - 3.0f);
  const float16 minusOne = (float16)(-1.0f);
  for (int i = 0; i < count; ++i) {
    MINUS_Y_X(x, y, minusOne) MINUS_Y_X(x, y, minusOne) MINUS_Y_X(x, y, minusOne) MINUS_Y_X(x, y, minusOne)
    MINUS_Y_X(x, y, minusOne) MINUS_Y_X(x, y, minusOne) MINUS_Y_X(x, y, minusOne) MINUS_Y_X(x, y, minusOne)
  }
  out[get_global_id(0)] = x * 3.0f + y;
}

// float16 values live across a barrier: out[i] = fma(in[mirror of i], 2 * in[i] + 1, in[i]).
kernel void mirror_fma16(global const float16* in, global float16* out, local float16* scratch) {
  const size_t l = get_local_id(0), n = get_local_size(0);
  const float16 mine = in[get_global_id(0)];
  const float16 twice = mad(mine, (float16)(2.0f), (float16)(1.0f));
  scratch[l] = mine;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = fma(scratch[n - 1 - l], twice, mine);
}
