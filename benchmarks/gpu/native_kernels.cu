// The native CUDA peers of gpu_benchmark: the same triad and gather_stream as kernel_suite.cl, and
// an empty kernel, compiled by nvcc at build time when the CUDA toolkit is present.
extern "C" __global__ void triad(float* a, const float* b, const float* c, float s) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  a[i] = b[i] + s * c[i];
}

extern "C" __global__ void empty(int* unused) {}

extern "C" __global__ void gather_stream(const float* table, unsigned mask, const float4* stream, unsigned vectors, float* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x, n = gridDim.x * blockDim.x;
  float sum = table[(i * 2654435761u) & mask] + table[((i ^ 0x5bd1e995u) * 2246822519u) & mask];
  for (unsigned k = 0; k < vectors; ++k) {
    const float4 s = stream[size_t(k) * n + i];
    sum += s.x + s.y + s.z + s.w;
  }
  out[i] = sum;
}
