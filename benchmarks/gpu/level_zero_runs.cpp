// gpu_benchmark through Level Zero: Loom's first GPU device, through the loader.
#include <level_zero/ze_api.h>

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "embedded_files.h"
#include "gpu/gpu_peers.h"
#include "gpu/ze_devices.h"

namespace loom::benchmarks {
namespace {

bool ok(ze_result_t result, const char* what) {
  if (result == ZE_RESULT_SUCCESS) return true;
  std::fprintf(stderr, "Level Zero: %s failed: 0x%x\n", what, result);
  return false;
}

// The loader's handles for one Loom GPU; empty when none is found.
struct Session {
  ze_context_handle_t context = nullptr;
  ze_device_handle_t device = nullptr;
  ze_command_list_handle_t compute = nullptr;  // asynchronous immediate lists
  ze_command_list_handle_t copy = nullptr;
  ze_module_handle_t module = nullptr;
  ze_event_pool_handle_t pool = nullptr;
  ze_event_handle_t done = nullptr;  // signaled after the last append, to wait for a list
};

ze_device_handle_t findLoomGpu(ze_driver_handle_t& driverOut) {
  for (const auto& [driver, device] : levelZeroDevices()) {
    ze_device_properties_t properties{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    zeDeviceGetProperties(device, &properties);
    if (properties.type != ZE_DEVICE_TYPE_GPU) continue;
    std::printf("Level Zero: %s\n", properties.name);
    driverOut = driver;
    return device;
  }
  return nullptr;
}

bool openSession(Session& s) {
  ze_driver_handle_t driver = nullptr;
  s.device = findLoomGpu(driver);
  if (!s.device) {
    std::fprintf(stderr, "Level Zero: no GPU device (loom-info says why; ZE_ENABLE_ALT_DRIVERS?)\n");
    return false;
  }
  ze_context_desc_t contextDesc{ZE_STRUCTURE_TYPE_CONTEXT_DESC};
  if (!ok(zeContextCreate(driver, &contextDesc, &s.context), "zeContextCreate")) return false;
  ze_command_queue_desc_t queueDesc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
  queueDesc.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
  if (!ok(zeCommandListCreateImmediate(s.context, s.device, &queueDesc, &s.compute), "zeCommandListCreateImmediate")) return false;
  queueDesc.ordinal = 1;  // Loom's copy engines
  if (!ok(zeCommandListCreateImmediate(s.context, s.device, &queueDesc, &s.copy), "zeCommandListCreateImmediate")) return false;
  ze_event_pool_desc_t poolDesc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
  if (!ok(zeEventPoolCreate(s.context, &poolDesc, 1, &s.device, &s.pool), "zeEventPoolCreate")) return false;
  ze_event_desc_t eventDesc{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
  if (!ok(zeEventCreate(s.pool, &eventDesc, &s.done), "zeEventCreate")) return false;
  const std::vector<uint8_t> spirv = test::embeddedBytes("kernel_suite.spv");
  ze_module_desc_t moduleDesc{ZE_STRUCTURE_TYPE_MODULE_DESC};
  moduleDesc.format = ZE_MODULE_FORMAT_IL_SPIRV;
  moduleDesc.inputSize = spirv.size();
  moduleDesc.pInputModule = spirv.data();
  return ok(zeModuleCreate(s.context, s.device, &moduleDesc, &s.module, nullptr), "zeModuleCreate kernel_suite.spv");
}

void closeSession(Session& s) {
  if (s.module) zeModuleDestroy(s.module);
  if (s.done) zeEventDestroy(s.done);
  if (s.pool) zeEventPoolDestroy(s.pool);
  if (s.copy) zeCommandListDestroy(s.copy);
  if (s.compute) zeCommandListDestroy(s.compute);
  if (s.context) zeContextDestroy(s.context);
}

ze_kernel_handle_t kernel(const Session& s, const char* name) {
  ze_kernel_desc_t desc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, name};
  ze_kernel_handle_t handle = nullptr;
  ok(zeKernelCreate(s.module, &desc, &handle), name);
  return handle;
}

void* deviceMemory(const Session& s, size_t size) {
  ze_device_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
  void* pointer = nullptr;
  ok(zeMemAllocDevice(s.context, &desc, size, 64, s.device, &pointer), "zeMemAllocDevice");
  return pointer;
}

void* hostMemory(const Session& s, size_t size) {
  ze_host_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
  void* pointer = nullptr;
  ok(zeMemAllocHost(s.context, &desc, size, 64, &pointer), "zeMemAllocHost");
  return pointer;
}

// Waits for everything appended to `list` so far (Level Zero 1.4 has no zeCommandListHostSynchronize).
void synchronize(const Session& s, ze_command_list_handle_t list) {
  ok(zeCommandListAppendBarrier(list, s.done, 0, nullptr), "zeCommandListAppendBarrier");
  ok(zeEventHostSynchronize(s.done, UINT64_MAX), "zeEventHostSynchronize");
  zeEventHostReset(s.done);
}

void measureTriad(const Session& s, const Sizes& sizes, StreamFigures& figures) {
  const size_t n = sizes.triadFloats, bytes = n * sizeof(float);
  std::vector<float> host(n);
  void* a = deviceMemory(s, bytes);
  void* b = deviceMemory(s, bytes);
  void* c = deviceMemory(s, bytes);
  ze_kernel_handle_t triad = kernel(s, "triad");
  if (!a || !b || !c || !triad) return;
  uploadTriadInputs(host, b, c, [&](void* to, const float* from) {
    zeCommandListAppendMemoryCopy(s.copy, to, from, bytes, nullptr, 0, nullptr);
    synchronize(s, s.copy);
  });
  zeKernelSetGroupSize(triad, 256, 1, 1);
  zeKernelSetArgumentValue(triad, 0, sizeof(a), &a);
  zeKernelSetArgumentValue(triad, 1, sizeof(b), &b);
  zeKernelSetArgumentValue(triad, 2, sizeof(c), &c);
  zeKernelSetArgumentValue(triad, 3, sizeof(kTriadScale), &kTriadScale);
  const ze_group_count_t groups{uint32_t(n / 256), 1, 1};
  const double seconds = secondsPerOperation(
      [&](uint32_t count) {
        for (uint32_t i = 0; i < count; ++i) zeCommandListAppendLaunchKernel(s.compute, triad, &groups, nullptr, 0, nullptr);
        synchronize(s, s.compute);
      },
      20);
  figures.triadGBs = triadGBs(bytes, seconds);
  zeCommandListAppendMemoryCopy(s.copy, host.data(), a, bytes, nullptr, 0, nullptr);
  synchronize(s, s.copy);
  figures.correct = triadIsCorrect(host.data(), n, "Loom-L0") && figures.correct;
  zeKernelDestroy(triad);
  for (void* p : {a, b, c}) zeMemFree(s.context, p);
}

void measureLaunches(const Session& s, const Sizes& sizes, StreamFigures& figures) {
  ze_kernel_handle_t empty = kernel(s, "empty");
  void* unused = deviceMemory(s, 64);
  if (!empty || !unused) return;
  zeKernelSetGroupSize(empty, 32, 1, 1);
  zeKernelSetArgumentValue(empty, 0, sizeof(unused), &unused);
  const ze_group_count_t one{1, 1, 1};
  auto launch = [&](uint32_t count) {
    for (uint32_t i = 0; i < count; ++i) zeCommandListAppendLaunchKernel(s.compute, empty, &one, nullptr, 0, nullptr);
    synchronize(s, s.compute);
  };
  measureLaunchLatency(launch, sizes.launches, figures);
  zeKernelDestroy(empty);
  zeMemFree(s.context, unused);
}

void measureCopies(const Session& s, const Sizes& sizes, StreamFigures& figures) {
  const size_t bytes = sizes.copyBytes;
  void* host = hostMemory(s, bytes);
  void* device = deviceMemory(s, bytes);
  void* other = deviceMemory(s, bytes);
  if (!host || !device || !other) return;
  measureCopyBandwidth(
      host, device, other, bytes,
      [&](void* to, const void* from, uint32_t count) {
        for (uint32_t i = 0; i < count; ++i) zeCommandListAppendMemoryCopy(s.copy, to, from, bytes, nullptr, 0, nullptr);
        synchronize(s, s.copy);
      },
      figures);
  for (void* p : {host, device, other}) zeMemFree(s.context, p);
}

// The persisting part of the L2 the device offers (ze_cache_reservation_ext_desc_t on the last level).
size_t reservableCache(const Session& s) {
  uint32_t count = 0;
  zeDeviceGetCacheProperties(s.device, &count, nullptr);
  std::vector<ze_cache_reservation_ext_desc_t> reservations(count, {ZE_STRUCTURE_TYPE_CACHE_RESERVATION_EXT_DESC});
  std::vector<ze_device_cache_properties_t> caches(count, {ZE_STRUCTURE_TYPE_DEVICE_CACHE_PROPERTIES});
  for (uint32_t i = 0; i < count; ++i) caches[i].pNext = &reservations[i];
  if (count == 0 || !ok(zeDeviceGetCacheProperties(s.device, &count, caches.data()), "zeDeviceGetCacheProperties")) return 0;
  return reservations.back().maxCacheReservationSize;
}

void measureGather(const Session& s, StreamFigures& figures) {
  const size_t outBytes = GatherRun::kItems * sizeof(float);
  void* table = deviceMemory(s, GatherRun::tableBytes());
  void* stream = deviceMemory(s, GatherRun::streamBytes());
  void* out = deviceMemory(s, outBytes);
  ze_kernel_handle_t gather = kernel(s, "gather_stream");
  const size_t reservable = reservableCache(s);
  if (!table || !stream || !out || !gather || reservable < GatherRun::tableBytes()) return;
  std::vector<float> host(GatherRun::kTableFloats);
  for (size_t j = 0; j < host.size(); ++j) host[j] = GatherRun::tableValue(j);
  zeCommandListAppendMemoryCopy(s.copy, table, host.data(), GatherRun::tableBytes(), nullptr, 0, nullptr);
  zeCommandListAppendMemoryFill(s.copy, stream, &GatherRun::kStreamValue, sizeof(float), GatherRun::streamBytes(), nullptr, 0, nullptr);
  synchronize(s, s.copy);
  const uint32_t mask = GatherRun::kTableFloats - 1, vectors = GatherRun::kVectors;
  zeKernelSetGroupSize(gather, 256, 1, 1);
  zeKernelSetArgumentValue(gather, 0, sizeof(table), &table);
  zeKernelSetArgumentValue(gather, 1, sizeof(mask), &mask);
  zeKernelSetArgumentValue(gather, 2, sizeof(stream), &stream);
  zeKernelSetArgumentValue(gather, 3, sizeof(vectors), &vectors);
  zeKernelSetArgumentValue(gather, 4, sizeof(out), &out);
  const ze_group_count_t groups{GatherRun::kItems / 256, 1, 1};
  const auto run = [&](uint32_t count) {
    for (uint32_t i = 0; i < count; ++i) zeCommandListAppendLaunchKernel(s.compute, gather, &groups, nullptr, 0, nullptr);
    synchronize(s, s.compute);
  };
  figures.gatherGBs[0] = GatherRun::gigabytesPerSecond(secondsPerOperation(run, 10));
  // The whole persisting part, with the table in it (regionSize counts host pages).
  const size_t pages = GatherRun::tableBytes() / size_t(sysconf(_SC_PAGESIZE));
  if (ok(zeDeviceReserveCacheExt(s.device, 0, reservable), "zeDeviceReserveCacheExt") &&
      ok(zeDeviceSetCacheAdviceExt(s.device, table, pages, ZE_CACHE_EXT_REGION_ZE_CACHE_RESERVE_REGION), "zeDeviceSetCacheAdviceExt"))
    figures.gatherGBs[1] = GatherRun::gigabytesPerSecond(secondsPerOperation(run, 10));
  zeDeviceReserveCacheExt(s.device, 0, 0);
  host.resize(GatherRun::kItems);
  zeCommandListAppendMemoryCopy(s.copy, host.data(), out, outBytes, nullptr, 0, nullptr);
  synchronize(s, s.copy);
  figures.correct = gatherIsCorrect(host.data(), "Loom-L0") && figures.correct;
  zeKernelDestroy(gather);
  for (void* p : {table, stream, out}) zeMemFree(s.context, p);
}

}  // namespace

StreamFigures measureLevelZero(const Sizes& sizes) { return measureStreamApi<Session>(sizes); }

}  // namespace loom::benchmarks
