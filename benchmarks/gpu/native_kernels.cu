// The native CUDA peers of gpu_benchmark: the same triad as kernel_suite.cl, and an empty kernel,
// compiled by nvcc at build time when the CUDA toolkit is present.
extern "C" __global__ void triad(float* a, const float* b, const float* c, float s) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  a[i] = b[i] + s * c[i];
}

extern "C" __global__ void empty(int* unused) {}
