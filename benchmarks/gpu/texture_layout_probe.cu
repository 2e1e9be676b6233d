// Texture layout probe: the image_benchmark blur and copy kernels written in CUDA, reading the
// same image through a texture over pitched linear memory (Loom's image layout) and over a CUDA
// array (block-linear), writing to linear memory or to a
// surface. It measures the hardware, not Loom: docs/performance.md says what it showed.
// Build and run on a GPU machine (not part of the CMake build):
//   nvcc -O3 -arch=sm_90 -o texture_layout_probe benchmarks/gpu/texture_layout_probe.cu && ./texture_layout_probe
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
__constant__ float kB[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};
template <class Store>
__global__ void blur(cudaTextureObject_t in, Store store, int w, int h) {
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  float tx = 1.0f / w, ty = 1.0f / h; float4 s = make_float4(0, 0, 0, 0);
  #pragma unroll
  for (int dy = -2; dy <= 2; ++dy)
  #pragma unroll
    for (int dx = -2; dx <= 2; ++dx) {
      float4 v = tex2D<float4>(in, (x + dx + 0.75f) * tx, (y + dy + 0.75f) * ty);
      float k = kB[dx + 2] * kB[dy + 2];
      s.x += k * v.x; s.y += k * v.y; s.z += k * v.z; s.w += k * v.w;
    }
  store(x, y, s);
}
template <class Store>
__global__ void copyk(cudaTextureObject_t in, Store store) {
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  store(x, y, tex2D<float4>(in, x + 0.5f, y + 0.5f));
}
struct GlobalF4 { char* p; size_t pitch; __device__ void operator()(int x, int y, float4 v) const { ((float4*)(p + y * pitch))[x] = v; } };
struct GlobalU8 { char* p; size_t pitch; __device__ void operator()(int x, int y, float4 v) const {
  auto c = [](float f) { return (unsigned char)__float2int_rn(__saturatef(f) * 255.0f); };
  ((uchar4*)(p + y * pitch))[x] = make_uchar4(c(v.x), c(v.y), c(v.z), c(v.w)); } };
struct SurfF4 { cudaSurfaceObject_t s; __device__ void operator()(int x, int y, float4 v) const { surf2Dwrite(v, s, x * 16, y); } };
struct SurfU8 { cudaSurfaceObject_t s; __device__ void operator()(int x, int y, float4 v) const {
  auto c = [](float f) { return (unsigned char)__float2int_rn(__saturatef(f) * 255.0f); };
  surf2Dwrite(make_uchar4(c(v.x), c(v.y), c(v.z), c(v.w)), s, x * 4, y); } };

template <class K> float timeIt(K launch) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  std::vector<float> t;
  for (int r = 0; r < 30; ++r) { cudaEventRecord(a); launch(); cudaEventRecord(b); cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms); }
  std::sort(t.begin(), t.end()); return t[t.size() / 2];
}
// The six timings: blur and copy, each from pitched memory to global, from an array to global,
// and from an array to a surface.
template <class Global, class Surface>
void measure(float r[6], cudaTextureObject_t pitchLinear, cudaTextureObject_t arrayLinear, cudaTextureObject_t pitchPoint,
             cudaTextureObject_t arrayPoint, Global global, Surface surface, int n) {
  dim3 g(n / 16, n / 16), b(16, 16);
  r[0] = timeIt([&] { blur<<<g, b>>>(pitchLinear, global, n, n); });
  r[1] = timeIt([&] { blur<<<g, b>>>(arrayLinear, global, n, n); });
  r[2] = timeIt([&] { blur<<<g, b>>>(arrayLinear, surface, n, n); });
  r[3] = timeIt([&] { copyk<<<g, b>>>(pitchPoint, global); });
  r[4] = timeIt([&] { copyk<<<g, b>>>(arrayPoint, global); });
  r[5] = timeIt([&] { copyk<<<g, b>>>(arrayPoint, surface); });
}
int run(bool isFloat, int n) {
  size_t texel = isFloat ? 16 : 4;
  cudaChannelFormatDesc fmt = isFloat ? cudaCreateChannelDesc<float4>() : cudaCreateChannelDesc<uchar4>();
  void *pin, *pout; size_t pitchIn, pitchOut;
  CK(cudaMallocPitch(&pin, &pitchIn, n * texel, n)); CK(cudaMallocPitch(&pout, &pitchOut, n * texel, n));
  CK(cudaMemset2D(pin, pitchIn, 0x3c, n * texel, n));
  cudaArray_t ain, aout;
  CK(cudaMallocArray(&ain, &fmt, n, n, cudaArraySurfaceLoadStore)); CK(cudaMallocArray(&aout, &fmt, n, n, cudaArraySurfaceLoadStore));
  CK(cudaMemcpy2DToArray(ain, 0, 0, pin, pitchIn, n * texel, n, cudaMemcpyDeviceToDevice));
  cudaResourceDesc rp{}; rp.resType = cudaResourceTypePitch2D; rp.res.pitch2D.devPtr = pin; rp.res.pitch2D.desc = fmt;
  rp.res.pitch2D.width = n; rp.res.pitch2D.height = n; rp.res.pitch2D.pitchInBytes = pitchIn;
  cudaResourceDesc ra{}; ra.resType = cudaResourceTypeArray; ra.res.array.array = ain;
  cudaResourceDesc rs{}; rs.resType = cudaResourceTypeArray; rs.res.array.array = aout;
  cudaTextureDesc lin{}; lin.addressMode[0] = lin.addressMode[1] = cudaAddressModeClamp; lin.filterMode = cudaFilterModeLinear;
  lin.normalizedCoords = 1; lin.readMode = isFloat ? cudaReadModeElementType : cudaReadModeNormalizedFloat;
  cudaTextureDesc pt = lin; pt.filterMode = cudaFilterModePoint; pt.normalizedCoords = 0;
  cudaTextureObject_t tpl, tal, tpp, tap; cudaSurfaceObject_t sout;
  CK(cudaCreateTextureObject(&tpl, &rp, &lin, nullptr)); CK(cudaCreateTextureObject(&tal, &ra, &lin, nullptr));
  CK(cudaCreateTextureObject(&tpp, &rp, &pt, nullptr)); CK(cudaCreateTextureObject(&tap, &ra, &pt, nullptr));
  CK(cudaCreateSurfaceObject(&sout, &rs));
  float r[6];
  if (isFloat)
    measure(r, tpl, tal, tpp, tap, GlobalF4{(char*)pout, pitchOut}, SurfF4{sout}, n);
  else
    measure(r, tpl, tal, tpp, tap, GlobalU8{(char*)pout, pitchOut}, SurfU8{sout}, n);
  CK(cudaDeviceSynchronize());
  printf("%s %dx%d (ms, medians of 30): blur pitch->global %.3f, array->global %.3f, array->surface %.3f | copy pitch->global %.3f, array->global %.3f, array->surface %.3f\n",
         isFloat ? "RGBA float" : "RGBA8", n, n, r[0], r[1], r[2], r[3], r[4], r[5]);
  return 0;
}
int main() { cudaSetDevice(0); run(false, 2048); run(true, 2048); run(false, 2048); run(true, 2048); return 0; }
