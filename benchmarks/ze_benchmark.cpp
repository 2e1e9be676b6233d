// ze_benchmark: Level Zero host overheads and copy/fill bandwidth on the CPU device, through the
// loader, next to memcpy/memset of the same buffers in the same run (the host touches device
// memory directly, which only the CPU device allows; gpu_benchmark measures GPUs).
#include <level_zero/ze_api.h>

#include "embedded_files.h"
#include "ze_check.h"

#include "pocl_peer.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
constexpr uint64_t kTimeout = 60'000'000'000ull;  // 60 s: a wait that takes longer is reported as a failure
double microseconds(Clock::duration d) { return std::chrono::duration<double, std::micro>(d).count(); }
double threadCpuMicroseconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return double(now.tv_sec) * 1e6 + double(now.tv_nsec) / 1e3;
}

struct Session {
  ze_context_handle_t context;
  ze_device_handle_t device;
  ze_command_list_handle_t async;
  ze_module_handle_t module;
  ze_kernel_handle_t empty;
  ze_event_handle_t done;
};

ze_device_handle_t cpuDevice(ze_driver_handle_t driver) {
  uint32_t count = 0;
  CHECK(zeDeviceGet(driver, &count, nullptr));
  std::vector<ze_device_handle_t> devices(count);
  CHECK(zeDeviceGet(driver, &count, devices.data()));
  for (ze_device_handle_t device : devices) {
    ze_device_properties_t properties{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    CHECK(zeDeviceGetProperties(device, &properties));
    if (properties.type == ZE_DEVICE_TYPE_CPU) return device;
  }
  std::fprintf(stderr, "ze_benchmark: the driver has no CPU device\n");
  std::exit(3);
}

Session open() {
  Session s{};
  CHECK(zeInit(0));
  ze_driver_handle_t driver;
  uint32_t count = 1;
  CHECK(zeDriverGet(&count, &driver));
  s.device = cpuDevice(driver);
  ze_device_properties_t properties{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
  CHECK(zeDeviceGetProperties(s.device, &properties));
  std::printf("device: %s\n", properties.name);
  ze_context_desc_t contextDesc{ZE_STRUCTURE_TYPE_CONTEXT_DESC};
  CHECK(zeContextCreate(driver, &contextDesc, &s.context));
  ze_command_queue_desc_t queueDesc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
  queueDesc.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
  CHECK(zeCommandListCreateImmediate(s.context, s.device, &queueDesc, &s.async));
  const std::vector<uint8_t> spirv = loom::test::embeddedBytes("benchmark_kernels.spv");
  ze_module_desc_t moduleDesc{ZE_STRUCTURE_TYPE_MODULE_DESC};
  moduleDesc.format = ZE_MODULE_FORMAT_IL_SPIRV;
  moduleDesc.inputSize = spirv.size();
  moduleDesc.pInputModule = spirv.data();
  CHECK(zeModuleCreate(s.context, s.device, &moduleDesc, &s.module, nullptr));
  ze_kernel_desc_t kernelDesc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "empty_kernel"};
  CHECK(zeKernelCreate(s.module, &kernelDesc, &s.empty));
  CHECK(zeKernelSetGroupSize(s.empty, 1, 1, 1));
  ze_event_pool_desc_t poolDesc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
  ze_event_pool_handle_t pool;
  CHECK(zeEventPoolCreate(s.context, &poolDesc, 1, &s.device, &pool));
  ze_event_desc_t eventDesc{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, 0, ZE_EVENT_SCOPE_FLAG_HOST};
  CHECK(zeEventCreate(pool, &eventDesc, &s.done));
  return s;
}

void finish(const Session& s) {
  CHECK(zeCommandListAppendSignalEvent(s.async, s.done));
  CHECK(zeEventHostSynchronize(s.done, kTimeout));
  CHECK(zeEventHostReset(s.done));
}

void appendOverhead(const Session& s, int launches) {
  const ze_group_count_t groups{1, 1, 1};
  for (int i = 0; i < 100; ++i) CHECK(zeCommandListAppendLaunchKernel(s.async, s.empty, &groups, nullptr, 0, nullptr));
  finish(s);
  const auto start = Clock::now();
  for (int i = 0; i < launches; ++i) CHECK(zeCommandListAppendLaunchKernel(s.async, s.empty, &groups, nullptr, 0, nullptr));
  const auto appended = Clock::now();
  finish(s);
  const auto done = Clock::now();
  std::printf("%-48s %10.2f us\n", "append empty kernel, immediate async list", microseconds(appended - start) / launches);
  std::printf("%-48s %10.2f us\n", "  ... and run it (throughput per launch)", microseconds(done - start) / launches);
}

// What every API call pays to reach Loom, through the loader: a call that does almost nothing (the
// query of an event not signaled). With LOOM_TraceFile set, this includes recording the call.
// The thread's CPU time too: on a busy machine the wall time also counts the time others ran.
void apiCallOverhead(const Session& s, int calls) {
  for (int i = 0; i < 1000; ++i) zeEventQueryStatus(s.done);
  const double cpuStart = threadCpuMicroseconds();
  const auto start = Clock::now();
  for (int i = 0; i < calls; ++i) {
    if (zeEventQueryStatus(s.done) == ZE_RESULT_NOT_READY) continue;
    std::fprintf(stderr, "zeEventQueryStatus: the event should not be signaled\n");
    std::exit(1);
  }
  const auto done = Clock::now();
  const double cpu = threadCpuMicroseconds() - cpuStart;
  std::printf("%-48s %10.3f us (%.3f us of the thread's CPU time)\n", "API call (zeEventQueryStatus, not signaled)",
              microseconds(done - start) / calls, cpu / calls);
}

void submitLatency(const Session& s, int repetitions) {
  const ze_group_count_t groups{1, 1, 1};
  std::vector<double> samples;
  for (int i = 0; i < repetitions; ++i) {
    const auto start = Clock::now();
    CHECK(zeCommandListAppendLaunchKernel(s.async, s.empty, &groups, s.done, 0, nullptr));
    CHECK(zeEventHostSynchronize(s.done, kTimeout));
    samples.push_back(microseconds(Clock::now() - start));
    CHECK(zeEventHostReset(s.done));
  }
  std::sort(samples.begin(), samples.end());
  std::printf("%-48s %10.2f us (median of %d)\n", "submit-to-completion, empty kernel", samples[samples.size() / 2], repetitions);
}

template <typename Operation>
double bestSeconds(int repetitions, Operation&& operation) {
  double best = 1e30;
  for (int i = 0; i < repetitions; ++i) {
    const auto start = Clock::now();
    operation();
    best = std::min(best, std::chrono::duration<double>(Clock::now() - start).count());
  }
  return best;
}

void bandwidth(const Session& s, size_t bytes, int repetitions) {
  ze_device_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
  void *source, *destination;
  CHECK(zeMemAllocDevice(s.context, &desc, bytes, 64, s.device, &source));
  CHECK(zeMemAllocDevice(s.context, &desc, bytes, 64, s.device, &destination));
  std::memset(source, 1, bytes);
  std::memset(destination, 2, bytes);  // touch every page before timing
  const double gigabytes = double(bytes) / 1e9;
  const double zeCopy = bestSeconds(repetitions, [&] {
    CHECK(zeCommandListAppendMemoryCopy(s.async, destination, source, bytes, nullptr, 0, nullptr));
    finish(s);
  });
  const double plainCopy = bestSeconds(repetitions, [&] { std::memcpy(destination, source, bytes); });
  const uint32_t pattern = 0x01020304;
  const double zeFill = bestSeconds(repetitions, [&] {
    CHECK(zeCommandListAppendMemoryFill(s.async, destination, &pattern, sizeof(pattern), bytes, nullptr, 0, nullptr));
    finish(s);
  });
  const double plainFill = bestSeconds(repetitions, [&] { std::memset(destination, 7, bytes); });
  std::printf("%-48s %10.2f GB/s   memcpy %6.2f GB/s   ratio %.2f\n", "zeCommandListAppendMemoryCopy (read+write)",
              2 * gigabytes / zeCopy, 2 * gigabytes / plainCopy, plainCopy / zeCopy);
  std::printf("%-48s %10.2f GB/s   memset %6.2f GB/s   ratio %.2f\n", "zeCommandListAppendMemoryFill (4-byte pattern)",
              gigabytes / zeFill, gigabytes / plainFill, plainFill / zeFill);
  CHECK(zeMemFree(s.context, source));
  CHECK(zeMemFree(s.context, destination));
}

// a = b + scalar * c over 16M floats: 3 x 64 MiB moved per run, kernel against a host loop.
void triad(const Session& s, int repetitions) {
  const uint32_t n = 16u << 20, groupSize = 256;
  ze_device_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
  float* arrays[3];
  for (float*& array : arrays) {
    void* memory;
    CHECK(zeMemAllocDevice(s.context, &desc, n * sizeof(float), 64, s.device, &memory));
    array = static_cast<float*>(memory);
    for (uint32_t i = 0; i < n; ++i) array[i] = float(i % 1000);
  }
  float *a = arrays[0], *b = arrays[1], *c = arrays[2];
  const float scalar = 3.0f;
  ze_kernel_desc_t kernelDesc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "triad"};
  ze_kernel_handle_t kernel;
  CHECK(zeKernelCreate(s.module, &kernelDesc, &kernel));
  CHECK(zeKernelSetGroupSize(kernel, groupSize, 1, 1));
  CHECK(zeKernelSetArgumentValue(kernel, 0, sizeof(a), &a));
  CHECK(zeKernelSetArgumentValue(kernel, 1, sizeof(b), &b));
  CHECK(zeKernelSetArgumentValue(kernel, 2, sizeof(c), &c));
  CHECK(zeKernelSetArgumentValue(kernel, 3, sizeof(scalar), &scalar));
  const ze_group_count_t groups{n / groupSize, 1, 1};
  const double kernelSeconds = bestSeconds(repetitions, [&] {
    CHECK(zeCommandListAppendLaunchKernel(s.async, kernel, &groups, nullptr, 0, nullptr));
    finish(s);
  });
  for (uint32_t i = 0; i < n; i += 4099)
    if (a[i] != b[i] + scalar * c[i]) {
      std::fprintf(stderr, "triad: wrong result at %u\n", i);
      std::exit(1);
    }
  const double hostSeconds = bestSeconds(repetitions, [&] {
    for (uint32_t i = 0; i < n; ++i) a[i] = b[i] + scalar * c[i];
  });
  const double gigabytes = 3.0 * n * sizeof(float) / 1e9;
  const double poclSeconds = poclTriadSeconds(n, repetitions);
  std::printf("%-48s %10.2f GB/s   host loop (1 thread) %6.2f GB/s", "triad kernel, 16M floats", gigabytes / kernelSeconds,
              gigabytes / hostSeconds);
  if (poclSeconds > 0)
    std::printf("   PoCL %6.2f GB/s   Loom/PoCL %.2f\n", gigabytes / poclSeconds, poclSeconds / kernelSeconds);
  else
    std::printf("   (PoCL not installed)\n");
  CHECK(zeKernelDestroy(kernel));
  for (float* array : arrays) CHECK(zeMemFree(s.context, array));
}

}  // namespace

int main(int argc, char** argv) {
  // The appends alone, for an instruction count that does not depend on the machine's load:
  // valgrind --tool=callgrind --toggle-collect=zeCommandListAppendLaunchKernel ze_benchmark --append-only
  if (argc > 1 && std::strcmp(argv[1], "--append-only") == 0) {
    appendOverhead(open(), 2000);
    return 0;
  }
  if (argc > 1) {
    std::puts(
        "usage: ZE_ENABLE_ALT_DRIVERS=<path>/libze_loom.so.1 ze_benchmark\n"
        "Prints the host time of an API call that does almost nothing, per append of an empty kernel to an asynchronous immediate command list,\n"
        "the submit-to-completion latency of one empty kernel, and the bandwidth of 64 MiB copies and\n"
        "fills next to memcpy and memset of the same buffers, and a triad kernel next to the same loop on the\n"
        "host and on PoCL (through the OpenCL ICD loader, when installed), all measured in this run, on the\n"
        "driver's CPU device (exit status 3 where it has none).\n"
        "--append-only: only the 2000 appends (to count their instructions under callgrind).");
    return std::strcmp(argv[1], "--help") == 0 ? 0 : 2;
  }
  Session s = open();
  std::printf("%-48s %10s\n", "measurement", "result");
  apiCallOverhead(s, 200000);
  appendOverhead(s, 20000);
  submitLatency(s, 2000);
  bandwidth(s, 64u << 20, 10);
  triad(s, 10);
  return 0;
}
