// What the CPU device reports: read from the machine, never assumed.
#include <sys/sysinfo.h>
#include <unistd.h>

#include <fstream>
#include <functional>
#include <string>

#include "backends/cpu/cpu_backend.h"
#include "loom/compiler/work_group_context.h"

namespace loom::backends::cpu {

namespace {

std::string cpuinfoField(const std::string& field) {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.compare(0, field.size(), field) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const auto start = line.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? std::string() : line.substr(start);
  }
  return {};
}

uint32_t readMaxFrequencyMHz() {
  std::ifstream maxFrequency("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
  uint64_t kHz = 0;
  if (maxFrequency >> kHz && kHz > 0) return static_cast<uint32_t>(kHz / 1000);
  const std::string mhz = cpuinfoField("cpu MHz");
  return mhz.empty() ? 0 : static_cast<uint32_t>(std::stod(mhz));
}

uint32_t vendorIdFromCpuid(const std::string& vendor) {
  if (vendor == "GenuineIntel") return 0x8086;
  if (vendor == "AuthenticAMD") return 0x1022;
  return 0;
}

// float lanes of the widest vector unit the CPU has
uint32_t simdWidth() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return 16;
  if (__builtin_cpu_supports("avx2") || __builtin_cpu_supports("avx")) return 8;
  return 4;
}

long cacheSize(int name) {
  long size = sysconf(name);
  return size > 0 ? size : 0;
}

}  // namespace

core::DeviceInfo describeHostCpu() {
  core::DeviceInfo info;
  info.type = core::DeviceType::Cpu;
  info.backendName = "cpu";
  info.name = cpuinfoField("model name");
  if (info.name.empty()) info.name = "x86-64 CPU";
  info.vendorId = vendorIdFromCpuid(cpuinfoField("vendor_id"));
  const std::string family = cpuinfoField("cpu family"), model = cpuinfoField("model");
  info.deviceId = static_cast<uint32_t>((family.empty() ? 0 : std::stoul(family)) << 8 | (model.empty() ? 0 : std::stoul(model)));
  const size_t nameHash = std::hash<std::string>{}("loom-cpu:" + info.name);
  for (int i = 0; i < 8; ++i) info.uuid[i] = static_cast<uint8_t>(nameHash >> (8 * i));
  info.coreClockMHz = readMaxFrequencyMHz();
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  info.computeUnits = static_cast<uint32_t>(cores > 0 ? cores : 1);
  info.numEusPerSubslice = info.computeUnits;
  info.simdWidth = simdWidth();
  struct sysinfo system {};
  sysinfo(&system);
  info.globalMemorySize = uint64_t(system.totalram) * system.mem_unit;
  info.maxAllocationSize = info.globalMemorySize / 2;
  info.memoryBusWidth = 64;  // the data width of one DDR channel; the channel count is not visible to user space
  info.maxWorkGroupSize = compiler::kMaxWorkGroupSize;
  info.maxGroupSize = {compiler::kMaxWorkGroupSize, compiler::kMaxWorkGroupSize, compiler::kMaxWorkGroupSize};
  info.maxGroupCount = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
  info.maxSharedLocalMemory = 64 * 1024;
  info.subGroupSizes = {1};
  // Each queue is an engine with a thread of its own: several let applications overlap
  // independent work (a copy beside a kernel) without many idle threads.
  info.computeQueues = 4;
  info.copyQueues = 2;
  info.maxArgumentsSize = 4096;
  info.l1CacheSize = static_cast<uint64_t>(cacheSize(_SC_LEVEL1_DCACHE_SIZE));
  const long l3 = cacheSize(_SC_LEVEL3_CACHE_SIZE);
  info.lastLevelCacheSize = static_cast<uint64_t>(l3 ? l3 : cacheSize(_SC_LEVEL2_CACHE_SIZE));
  const long line = cacheSize(_SC_LEVEL1_DCACHE_LINESIZE);
  info.cacheLineSize = static_cast<uint32_t>(line ? line : 64);
  info.supportsFp16 = true;
  info.supportsFp64 = true;
  info.supportsInt64Atomics = true;
  info.supportsFloatAtomics = true;
  info.unifiedMemory = true;
  info.images = core::linearImageLimits();
  return info;
}

}  // namespace loom::backends::cpu
