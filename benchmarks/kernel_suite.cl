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

// The acceleration a body at `mine` gets from `other` (its mass in w).
__attribute__((always_inline)) float3 pull(float4 mine, float4 other, float softening) {
  float3 d = other.xyz - mine.xyz;
  float distanceSquared = dot(d, d) + softening;
  float inverse = rsqrt(distanceSquared);
  return d * (other.w * inverse * inverse * inverse);
}

// One body per work-item: the acceleration from every other body (rsqrt-bound).
kernel void nbody(global const float4* positions, global float4* accelerations, int count, float softening) {
  size_t i = get_global_id(0);
  float4 mine = positions[i];
  float3 acceleration = (float3)(0.0f);
  for (int j = 0; j < count; ++j) acceleration += pull(mine, positions[j], softening);
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
    for (int j = 0; j < groupSize; ++j) acceleration += pull(mine, staged[j], softening);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  accelerations[i] = (float4)(acceleration, 0.0f);
}

// C = A * B blocked for registers: each work-group of columnItems x rowItems computes a block of
// 8 rowItems x 8 columnItems of C, each work-item 8 x 8 of its elements (strided by rowItems and
// columnItems), from 16-deep slices of A and B staged in local memory (`sliceA` transposed,
// [k][row], its rows padded by 4 against bank conflicts): every element of B read from global
// memory serves 8 rowItems rows. The next slices are loaded into registers while the current ones
// are computed. n is a multiple of the block's sides.
#define SLICE 16
#define PER_ITEM 8
#define MAX_LOADS 16
__attribute__((always_inline)) void sgemmBlock(global const float* a, global const float* b, global float* c, int n,
                                               local float* sliceA, local float* sliceB, const int rowItems,
                                               const int columnItems) {
  const int blockRows = rowItems * PER_ITEM, blockColumns = columnItems * PER_ITEM, groupItems = rowItems * columnItems;
  const int pitchA = blockRows + 4;
  const int loadsA = blockRows * SLICE / groupItems, loadsB = blockColumns * SLICE / groupItems;
  const int localColumn = get_local_id(0), localRow = get_local_id(1);
  const int item = localRow * columnItems + localColumn;
  const int rowBase = get_group_id(1) * blockRows, columnBase = get_group_id(0) * blockColumns;
  // What each work-item loads of a slice: elements item + groupItems * load, row-major.
  global const float* fromA = a + (rowBase + item / SLICE) * n + item % SLICE;
  global const float* fromB = b + (item / blockColumns) * n + columnBase + item % blockColumns;
  const int strideA = groupItems / SLICE * n, strideB = groupItems / blockColumns * n;
  float nextA[MAX_LOADS], nextB[MAX_LOADS];
#pragma unroll
  for (int load = 0; load < loadsA; ++load) nextA[load] = fromA[load * strideA];
#pragma unroll
  for (int load = 0; load < loadsB; ++load) nextB[load] = fromB[load * strideB];
  float sum[PER_ITEM][PER_ITEM];
#pragma unroll
  for (int i = 0; i < PER_ITEM; ++i)
#pragma unroll
    for (int j = 0; j < PER_ITEM; ++j) sum[i][j] = 0.0f;
  for (int t = 0; t < n; t += SLICE) {
#pragma unroll
    for (int load = 0; load < loadsA; ++load) {
      const int element = item + groupItems * load;
      sliceA[element % SLICE * pitchA + element / SLICE] = nextA[load];
    }
#pragma unroll
    for (int load = 0; load < loadsB; ++load) sliceB[item + groupItems * load] = nextB[load];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t + SLICE < n) {
      fromA += SLICE;
      fromB += SLICE * n;
#pragma unroll
      for (int load = 0; load < loadsA; ++load) nextA[load] = fromA[load * strideA];
#pragma unroll
      for (int load = 0; load < loadsB; ++load) nextB[load] = fromB[load * strideB];
    }
#pragma unroll
    for (int k = 0; k < SLICE; ++k) {
      float rowValues[PER_ITEM], columnValues[PER_ITEM];
#pragma unroll
      for (int i = 0; i < PER_ITEM; ++i) {
        rowValues[i] = sliceA[k * pitchA + localRow + rowItems * i];
        columnValues[i] = sliceB[k * blockColumns + localColumn + columnItems * i];
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
    for (int j = 0; j < PER_ITEM; ++j)
      c[(rowBase + localRow + rowItems * i) * n + columnBase + localColumn + columnItems * j] = sum[i][j];
}

// Blocks of 256 rows x 128 columns.
__attribute__((reqd_work_group_size(16, 32, 1)))
kernel void sgemmBlocked(global const float* a, global const float* b, global float* c, int n) {
  local float sliceA[SLICE * (256 + 4)];
  local float sliceB[SLICE * 128];
  sgemmBlock(a, b, c, n, sliceA, sliceB, 32, 16);
}

// Blocks of 512 rows x 64 columns: half the reads of B, twice those of A.
__attribute__((reqd_work_group_size(8, 64, 1)))
kernel void sgemmTall(global const float* a, global const float* b, global float* c, int n) {
  local float sliceA[SLICE * (512 + 4)];
  local float sliceB[SLICE * 64];
  sgemmBlock(a, b, c, n, sliceA, sliceB, 64, 8);
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

// gpu_benchmark's cache reservation run: two gathers from a table at scattered places and a stream
// of float4s per work-item, laid out so that the stream passes more bytes than the L2 holds
// between two visits of a table line (gpu_peers.h, GatherRun).
kernel void gather_stream(global const float* table, uint mask, global const float4* stream, uint vectors, global float* out) {
  const uint i = get_global_id(0), n = get_global_size(0);
  float sum = table[(i * 2654435761u) & mask] + table[((i ^ 0x5bd1e995u) * 2246822519u) & mask];
  for (uint k = 0; k < vectors; ++k) {
    const float4 s = stream[(size_t)k * n + i];
    sum += s.x + s.y + s.z + s.w;
  }
  out[i] = sum;
}

// Each work-item sums the whole of a small buffer: reads that ignore where the chunks of an
// allocation live (implicit scaling, benchmarks/gpu/scaling_benchmark.cpp).
kernel void sumWhole(global const float* small, global float* sums, int count) {
  float sum = 0.0f;
  for (int k = 0; k < count; ++k) sum += small[k];
  sums[get_global_id(0)] = sum;
}
