// gpu_benchmark in native CUDA: CUDA device 0 through the driver API (opened as Loom's backend
// opens it), kernels compiled by nvcc at build time (native_kernels.cu).
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "backends/cuda/cuda_driver.h"
#include "embedded_files.h"
#include "gpu/gpu_peers.h"

namespace loom::benchmarks {
namespace {

using namespace backends::cuda;  // the driver API types Loom declares (cuda_api.h)

struct Session {
  std::unique_ptr<Driver> driver;
  CUdevice device = 0;
  CUcontext context = nullptr;
  CUstream stream = nullptr;
  CUmodule module = nullptr;
};

bool ok(const Session& s, CUresult result, const char* what) {
  if (result == CUDA_SUCCESS) return true;
  std::fprintf(stderr, "CUDA: %s\n", s.driver->describe(what, result).c_str());
  return false;
}

bool openSession(Session& s) {
  std::string error;
  s.driver = Driver::load(backends::cuda::kDriverLibrary, error);
  if (!s.driver) {
    std::fprintf(stderr, "CUDA: %s\n", error.c_str());
    return false;
  }
  const test::EmbeddedFile* image = test::findEmbeddedFile("native_kernels.fatbin");
  if (!image) {
    std::fprintf(stderr, "CUDA: no native kernels (the build had no nvcc)\n");
    return false;
  }
  char name[256] = {};
  if (!ok(s, s.driver->cuInit(0), "cuInit") || !ok(s, s.driver->cuDeviceGet(&s.device, 0), "cuDeviceGet") ||
      !ok(s, s.driver->cuDevicePrimaryCtxRetain(&s.context, s.device), "cuDevicePrimaryCtxRetain") ||
      !ok(s, s.driver->cuCtxSetCurrent(s.context), "cuCtxSetCurrent") ||
      !ok(s, s.driver->cuStreamCreate(&s.stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate"))
    return false;
  s.driver->cuDeviceGetName(name, sizeof(name), s.device);
  std::printf("CUDA: %s\n", name);
  return ok(s, s.driver->cuModuleLoadDataEx(&s.module, image->bytes, 0, nullptr, nullptr), "cuModuleLoadDataEx");
}

void closeSession(Session& s) {
  if (!s.driver) return;
  if (s.module) s.driver->cuModuleUnload(s.module);
  if (s.stream) s.driver->cuStreamDestroy(s.stream);
  if (s.context) s.driver->cuDevicePrimaryCtxRelease(s.device);
}

CUfunction function(const Session& s, const char* name) {
  CUfunction f = nullptr;
  ok(s, s.driver->cuModuleGetFunction(&f, s.module, name), name);
  return f;
}

CUdeviceptr deviceMemory(const Session& s, size_t bytes) {
  CUdeviceptr pointer = 0;
  ok(s, s.driver->cuMemAlloc(&pointer, bytes), "cuMemAlloc");
  return pointer;
}

void* pointer(CUdeviceptr address) { return reinterpret_cast<void*>(address); }
CUdeviceptr address(const void* pointer) { return reinterpret_cast<CUdeviceptr>(pointer); }

void copy(const Session& s, void* to, const void* from, size_t bytes) {
  s.driver->cuMemcpyAsync(address(to), address(from), bytes, s.stream);
}
void synchronize(const Session& s) { ok(s, s.driver->cuStreamSynchronize(s.stream), "cuStreamSynchronize"); }

void measureTriad(const Session& s, const Sizes& sizes, StreamFigures& figures) {
  const size_t n = sizes.triadFloats, bytes = n * sizeof(float);
  std::vector<float> host(n);
  CUdeviceptr a = deviceMemory(s, bytes), b = deviceMemory(s, bytes), c = deviceMemory(s, bytes);
  CUfunction triad = function(s, "triad");
  if (!a || !b || !c || !triad) return;
  // A copy from pageable memory has read it when cuMemcpyAsync returns.
  uploadTriadInputs(host, pointer(b), pointer(c), [&](void* to, const float* from) { copy(s, to, from, bytes); });
  float scale = kTriadScale;
  void* parameters[] = {&a, &b, &c, &scale};
  const double seconds = secondsPerOperation(
      [&](uint32_t count) {
        for (uint32_t i = 0; i < count; ++i)
          s.driver->cuLaunchKernel(triad, unsigned(n / 256), 1, 1, 256, 1, 1, 0, s.stream, parameters, nullptr);
        synchronize(s);
      },
      20);
  figures.triadGBs = triadGBs(bytes, seconds);
  copy(s, host.data(), pointer(a), bytes);
  synchronize(s);
  figures.correct = triadIsCorrect(host.data(), n, "CUDA") && figures.correct;
  for (CUdeviceptr p : {a, b, c}) s.driver->cuMemFree(p);
}

void measureLaunches(const Session& s, const Sizes& sizes, StreamFigures& figures) {
  CUfunction empty = function(s, "empty");
  CUdeviceptr unused = deviceMemory(s, 64);
  if (!empty || !unused) return;
  void* parameters[] = {&unused};
  auto launch = [&](uint32_t count) {
    for (uint32_t i = 0; i < count; ++i) s.driver->cuLaunchKernel(empty, 1, 1, 1, 32, 1, 1, 0, s.stream, parameters, nullptr);
    synchronize(s);
  };
  measureLaunchLatency(launch, sizes.launches, figures);
  s.driver->cuMemFree(unused);
}

void measureCopies(const Session& s, const Sizes& sizes, StreamFigures& figures) {
  const size_t bytes = sizes.copyBytes;
  void* host = nullptr;
  if (!ok(s, s.driver->cuMemHostAlloc(&host, bytes, CU_MEMHOSTALLOC_PORTABLE), "cuMemHostAlloc")) return;
  CUdeviceptr device = deviceMemory(s, bytes), other = deviceMemory(s, bytes);
  if (device && other) {
    measureCopyBandwidth(
        host, pointer(device), pointer(other), bytes,
        [&](void* to, const void* from, uint32_t count) {
          for (uint32_t i = 0; i < count; ++i) copy(s, to, from, bytes);
          synchronize(s);
        },
        figures);
  }
  for (CUdeviceptr p : {device, other})
    if (p) s.driver->cuMemFree(p);
  s.driver->cuMemFreeHost(host);
}

// The same run with the table in the persisting L2: the context's limit at the device's maximum
// and the stream's access-policy window over the table, every hit persisting, as CUDA's guide does.
void measureGather(const Session& s, StreamFigures& figures) {
  const size_t outBytes = GatherRun::kItems * sizeof(float);
  CUdeviceptr table = deviceMemory(s, GatherRun::tableBytes()), stream = deviceMemory(s, GatherRun::streamBytes());
  CUdeviceptr out = deviceMemory(s, outBytes);
  CUfunction gather = function(s, "gather_stream");
  int reservable = 0;
  s.driver->cuDeviceGetAttribute(&reservable, DeviceAttribute::MaxPersistingL2CacheSize, s.device);
  if (!table || !stream || !out || !gather || size_t(reservable) < GatherRun::tableBytes()) return;
  std::vector<float> host(GatherRun::kTableFloats);
  for (size_t j = 0; j < host.size(); ++j) host[j] = GatherRun::tableValue(j);
  copy(s, pointer(table), host.data(), GatherRun::tableBytes());
  uint32_t bits = 0;
  std::memcpy(&bits, &GatherRun::kStreamValue, sizeof(bits));
  s.driver->cuMemsetD32Async(stream, bits, GatherRun::streamBytes() / 4, s.stream);
  synchronize(s);
  uint32_t mask = GatherRun::kTableFloats - 1, vectors = GatherRun::kVectors;
  void* parameters[] = {&table, &mask, &stream, &vectors, &out};
  const auto run = [&](uint32_t count) {
    for (uint32_t i = 0; i < count; ++i)
      s.driver->cuLaunchKernel(gather, GatherRun::kItems / 256, 1, 1, 256, 1, 1, 0, s.stream, parameters, nullptr);
    synchronize(s);
  };
  figures.gatherGBs[0] = GatherRun::gigabytesPerSecond(secondsPerOperation(run, 10));
  CUstreamAttrValue window{};
  window.accessPolicyWindow = {pointer(table), GatherRun::tableBytes(), 1.0f, AccessProperty::Persisting, AccessProperty::Streaming};
  if (ok(s, s.driver->cuCtxSetLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE, size_t(reservable)), "cuCtxSetLimit") &&
      ok(s, s.driver->cuStreamSetAttribute(s.stream, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, &window), "cuStreamSetAttribute"))
    figures.gatherGBs[1] = GatherRun::gigabytesPerSecond(secondsPerOperation(run, 10));
  window.accessPolicyWindow.num_bytes = 0;
  s.driver->cuStreamSetAttribute(s.stream, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, &window);
  s.driver->cuCtxSetLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE, 0);
  s.driver->cuCtxResetPersistingL2Cache();
  host.resize(GatherRun::kItems);
  copy(s, host.data(), pointer(out), outBytes);
  synchronize(s);
  figures.correct = gatherIsCorrect(host.data(), "CUDA") && figures.correct;
  for (CUdeviceptr p : {table, stream, out}) s.driver->cuMemFree(p);
}

}  // namespace

StreamFigures measureCuda(const Sizes& sizes) { return measureStreamApi<Session>(sizes); }

}  // namespace loom::benchmarks
