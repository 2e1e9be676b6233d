// The kernel suite: the same OpenCL C on Loom and on PoCL (benchmarks/cl_kernel_suite.cpp).

kernel void triad(global float* a, global const float* b, global const float* c, float s) {
  size_t i = get_global_id(0);
  a[i] = b[i] + s * c[i];
}

// C = A * B for square n x n matrices, in 16 x 16 tiles staged through local memory.
#define TILE 16
kernel void sgemm(global const float* a, global const float* b, global float* c, int n) {
  local float tileA[TILE][TILE];
  local float tileB[TILE][TILE];
  int row = get_global_id(1), column = get_global_id(0);
  int localRow = get_local_id(1), localColumn = get_local_id(0);
  float sum = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    tileA[localRow][localColumn] = a[row * n + t + localColumn];
    tileB[localRow][localColumn] = b[(t + localRow) * n + column];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; ++k) sum += tileA[localRow][k] * tileB[k][localColumn];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[row * n + column] = sum;
}

// One body per work-item: the acceleration from every other body (rsqrt-bound).
kernel void nbody(global const float4* positions, global float4* accelerations, int count, float softening) {
  size_t i = get_global_id(0);
  float4 mine = positions[i];
  float3 acceleration = (float3)(0.0f);
  for (int j = 0; j < count; ++j) {
    float4 other = positions[j];
    float3 d = other.xyz - mine.xyz;
    float distanceSquared = dot(d, d) + softening;
    float inverse = rsqrt(distanceSquared);
    acceleration += d * (other.w * inverse * inverse * inverse);
  }
  accelerations[i] = (float4)(acceleration, 0.0f);
}

// n-body as implicit scaling's users write it: each work-group stages the positions through local
// memory, NBODY_TILE at a time, so that a tile reads each position from global memory (perhaps
// another tile's) once per work-group. The group size divides `count` and is at most NBODY_TILE.
#define NBODY_TILE 256
kernel void nbodyTiled(global const float4* positions, global float4* accelerations, int count, float softening) {
  local float4 staged[NBODY_TILE];
  const size_t i = get_global_id(0);
  const int localId = get_local_id(0), groupSize = get_local_size(0);
  const float4 mine = positions[i];
  float3 acceleration = (float3)(0.0f);
  float4 next = positions[localId];
  for (int start = 0; start < count; start += groupSize) {
    staged[localId] = next;
    barrier(CLK_LOCAL_MEM_FENCE);
    // The next slice is on its way while this one is computed.
    if (start + groupSize < count) next = positions[start + groupSize + localId];
    for (int j = 0; j < groupSize; ++j) {
      float4 other = staged[j];
      float3 d = other.xyz - mine.xyz;
      float distanceSquared = dot(d, d) + softening;
      float inverse = rsqrt(distanceSquared);
      acceleration += d * (other.w * inverse * inverse * inverse);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  accelerations[i] = (float4)(acceleration, 0.0f);
}

// C = A * B blocked for registers: each 16 x 32 work-group computes a 256 x 128 block of C, each
// work-item 8 x 8 of its elements (strided by 32 rows and 16 columns), from 16-deep slices of A
// and B staged in local memory: every element of B read from global memory serves 256 rows. The
// next slices are loaded into registers while the current ones are computed. n is a multiple of
// 256.
#define BLOCK_ROWS 256
#define BLOCK_COLUMNS 128
#define SLICE 16
#define GROUP_ITEMS 512
#define PER_ITEM 8
#define LOADS_A (BLOCK_ROWS * SLICE / GROUP_ITEMS)
#define LOADS_B (BLOCK_COLUMNS * SLICE / GROUP_ITEMS)
__attribute__((reqd_work_group_size(16, 32, 1)))
kernel void sgemmBlocked(global const float* a, global const float* b, global float* c, int n) {
  local float sliceA[SLICE][BLOCK_ROWS + 4];  // transposed: [k][row]; padded against bank conflicts
  local float sliceB[SLICE][BLOCK_COLUMNS];
  const int localColumn = get_local_id(0), localRow = get_local_id(1);
  const int item = localRow * 16 + localColumn;
  const int rowBase = get_group_id(1) * BLOCK_ROWS, columnBase = get_group_id(0) * BLOCK_COLUMNS;
  // What each work-item loads of a slice: elements item + GROUP_ITEMS * load, row-major.
  global const float* fromA = a + (rowBase + item / SLICE) * n + item % SLICE;
  global const float* fromB = b + (item / BLOCK_COLUMNS) * n + columnBase + item % BLOCK_COLUMNS;
  float nextA[LOADS_A], nextB[LOADS_B];
#pragma unroll
  for (int load = 0; load < LOADS_A; ++load) nextA[load] = fromA[load * (GROUP_ITEMS / SLICE) * n];
#pragma unroll
  for (int load = 0; load < LOADS_B; ++load) nextB[load] = fromB[load * (GROUP_ITEMS / BLOCK_COLUMNS) * n];
  float sum[PER_ITEM][PER_ITEM];
#pragma unroll
  for (int i = 0; i < PER_ITEM; ++i)
#pragma unroll
    for (int j = 0; j < PER_ITEM; ++j) sum[i][j] = 0.0f;
  for (int t = 0; t < n; t += SLICE) {
#pragma unroll
    for (int load = 0; load < LOADS_A; ++load) {
      const int element = item + GROUP_ITEMS * load;
      sliceA[element % SLICE][element / SLICE] = nextA[load];
    }
#pragma unroll
    for (int load = 0; load < LOADS_B; ++load) {
      const int element = item + GROUP_ITEMS * load;
      sliceB[element / BLOCK_COLUMNS][element % BLOCK_COLUMNS] = nextB[load];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t + SLICE < n) {
      fromA += SLICE;
      fromB += SLICE * n;
#pragma unroll
      for (int load = 0; load < LOADS_A; ++load) nextA[load] = fromA[load * (GROUP_ITEMS / SLICE) * n];
#pragma unroll
      for (int load = 0; load < LOADS_B; ++load) nextB[load] = fromB[load * (GROUP_ITEMS / BLOCK_COLUMNS) * n];
    }
#pragma unroll
    for (int k = 0; k < SLICE; ++k) {
      float rowValues[PER_ITEM], columnValues[PER_ITEM];
#pragma unroll
      for (int i = 0; i < PER_ITEM; ++i) {
        rowValues[i] = sliceA[k][localRow + 32 * i];
        columnValues[i] = sliceB[k][localColumn + 16 * i];
      }
#pragma unroll
      for (int i = 0; i < PER_ITEM; ++i)
#pragma unroll
        for (int j = 0; j < PER_ITEM; ++j) sum[i][j] = mad(rowValues[i], columnValues[j], sum[i][j]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
#pragma unroll
  for (int i = 0; i < PER_ITEM; ++i)
#pragma unroll
    for (int j = 0; j < PER_ITEM; ++j) c[(rowBase + localRow + 32 * i) * n + columnBase + localColumn + 16 * j] = sum[i][j];
}

// Each work-group sums its slice in local memory; one partial sum per group.
kernel void reduce(global const float* values, global float* partials, local float* scratch) {
  size_t local_id = get_local_id(0);
  scratch[local_id] = values[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
    if (local_id < stride) scratch[local_id] += scratch[local_id + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (local_id == 0) partials[get_group_id(0)] = scratch[0];
}

// 256-bin histogram: per-group counts with local atomics, merged with global atomics.
kernel void histogram(global const uchar* data, global uint* bins, uint perItem) {
  local uint counts[256];
  for (size_t b = get_local_id(0); b < 256; b += get_local_size(0)) counts[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t start = get_global_id(0) * perItem;
  for (uint k = 0; k < perItem; ++k) atomic_inc(&counts[data[start + k]]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t b = get_local_id(0); b < 256; b += get_local_size(0)) atomic_add(&bins[b], counts[b]);
}

// 3x3 convolution of a width x height image; the border is left untouched.
kernel void convolution3x3(global const float* input, global float* output, constant float* weights, int width,
                           int height) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1) return;
  float sum = 0.0f;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) sum += weights[(dy + 1) * 3 + dx + 1] * input[(y + dy) * width + x + dx];
  output[y * width + x] = sum;
}

float cumulativeNormal(float x) {
  const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f, a5 = 1.330274429f;
  float k = 1.0f / (1.0f + 0.2316419f * fabs(x));
  float poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
  float value = 1.0f - 0.3989422804f * exp(-0.5f * x * x) * poly;
  return x < 0.0f ? 1.0f - value : value;
}

kernel void blackScholes(global const float* spot, global const float* strike, global const float* years,
                         global float* call, global float* put, float rate, float volatility) {
  size_t i = get_global_id(0);
  float s = spot[i], k = strike[i], t = years[i];
  float root = sqrt(t);
  float d1 = (log(s / k) + (rate + 0.5f * volatility * volatility) * t) / (volatility * root);
  float d2 = d1 - volatility * root;
  float discounted = k * exp(-rate * t);
  call[i] = s * cumulativeNormal(d1) - discounted * cumulativeNormal(d2);
  put[i] = discounted * cumulativeNormal(-d2) - s * cumulativeNormal(-d1);
}

kernel void empty(global int* unused) {}

// Each work-item sums the whole of a small buffer: reads that ignore where the chunks of an
// allocation live (implicit scaling, benchmarks/gpu/scaling_benchmark.cpp).
kernel void sumWhole(global const float* small, global float* sums, int count) {
  float sum = 0.0f;
  for (int k = 0; k < count; ++k) sum += small[k];
  sums[get_global_id(0)] = sum;
}
