#pragma once
// NVIDIA's management library (NVML), opened at run time with dlopen like the CUDA driver: Loom
// never links libnvidia-ml, and works on without it (no GPU telemetry). Only the declarations
// Loom calls, as NVML's public ABI defines them.
#include <memory>
#include <string>

namespace loom::backends::cuda {

constexpr const char* kNvmlLibrary = "libnvidia-ml.so.1";

using nvmlReturn_t = int;
constexpr nvmlReturn_t NVML_SUCCESS = 0;
constexpr nvmlReturn_t NVML_ERROR_NOT_SUPPORTED = 3;
constexpr nvmlReturn_t NVML_ERROR_NOT_FOUND = 6;
constexpr nvmlReturn_t NVML_ERROR_INSUFFICIENT_SIZE = 7;
using nvmlDevice_t = struct nvmlDevice_st*;

// nvmlClockType_t
constexpr int NVML_CLOCK_GRAPHICS = 0;
constexpr int NVML_CLOCK_MEM = 2;
// nvmlTemperatureSensors_t and nvmlTemperatureThresholds_t
constexpr int NVML_TEMPERATURE_GPU = 0;
constexpr int NVML_TEMPERATURE_THRESHOLD_SHUTDOWN = 0;
// nvmlEnableState_t
constexpr int NVML_FEATURE_ENABLED = 1;
// nvmlSamplingType_t
constexpr int NVML_GPU_UTILIZATION_SAMPLES = 1;
// nvmlValueType_t
constexpr int NVML_VALUE_TYPE_DOUBLE = 0;
constexpr int NVML_VALUE_TYPE_UNSIGNED_INT = 1;
constexpr int NVML_VALUE_TYPE_UNSIGNED_LONG = 2;
constexpr int NVML_VALUE_TYPE_UNSIGNED_LONG_LONG = 3;
// A value NVML does not know, such as a process's memory in some virtualized setups.
constexpr unsigned long long NVML_VALUE_NOT_AVAILABLE = ~0ull;
constexpr unsigned int NVML_DEVICE_VBIOS_VERSION_BUFFER_SIZE = 32;
// nvmlClocksThrottleReasons bits
constexpr unsigned long long kNvmlThrottleApplicationsClocksSetting = 0x2;
constexpr unsigned long long kNvmlThrottleSwPowerCap = 0x4;
constexpr unsigned long long kNvmlThrottleSwThermalSlowdown = 0x20;
constexpr unsigned long long kNvmlThrottleHwThermalSlowdown = 0x40;
constexpr unsigned long long kNvmlThrottleHwPowerBrakeSlowdown = 0x80;

struct nvmlMemory_t {
  unsigned long long total, free, used;
};

union nvmlValue_t {
  double dVal;
  unsigned int uiVal;
  unsigned long ulVal;
  unsigned long long ullVal;
  signed long long sllVal;
};

// The entries of nvmlDeviceGetComputeRunningProcesses_v2. Not _v3: its entries grew to 32 bytes
// in R535 drivers and shrank back to these 24 in later ones, while _v2's never changed.
struct nvmlProcessInfo_v2_t {
  unsigned int pid;
  unsigned long long usedGpuMemory;  // bytes, or NVML_VALUE_NOT_AVAILABLE
  unsigned int gpuInstanceId, computeInstanceId;
};
static_assert(sizeof(nvmlProcessInfo_v2_t) == 24, "NVML's layout");

// The links a GPU may have; GPUs with fewer fail the queries of the others.
constexpr unsigned int NVML_NVLINK_MAX_LINKS = 18;
// nvmlIntNvLinkDeviceType_t: what an NVLink's other end is (GPU 0, IBM NPU 1, unknown 0xFF).
constexpr int NVML_NVLINK_DEVICE_TYPE_SWITCH = 2;

struct nvmlPciInfo_t {
  char busIdLegacy[16];
  unsigned int domain, bus, device;
  unsigned int pciDeviceId, pciSubSystemId;
  char busId[32];
};
static_assert(sizeof(nvmlPciInfo_t) == 68, "NVML's layout");

struct nvmlSample_t {
  unsigned long long timeStamp;  // CPU time in microseconds
  nvmlValue_t sampleValue;
};

class Nvml {
 public:
  // The process's NVML, opened and initialized once; nullptr, with `error` saying why, when the
  // library is missing or nvmlInit fails. Never unloaded: telemetry may be read until exit.
  static std::shared_ptr<const Nvml> shared(std::string& error);
  // Opens `library` and calls nvmlInit_v2; entry points other than those two and the device lookup
  // are optional (older drivers lack some) and stay null when absent.
  static std::unique_ptr<Nvml> load(const std::string& library, std::string& error);

  nvmlReturn_t (*nvmlInit_v2)() = nullptr;
  nvmlReturn_t (*nvmlDeviceGetHandleByPciBusId_v2)(const char* pciBusId, nvmlDevice_t* device) = nullptr;
#define LOOM_NVML_FUNCTION(name, ...) nvmlReturn_t (*name)(nvmlDevice_t, __VA_ARGS__) = nullptr;
#include "backends/cuda/nvml_functions.inl"
#undef LOOM_NVML_FUNCTION

 private:
  Nvml() = default;
};

}  // namespace loom::backends::cuda
