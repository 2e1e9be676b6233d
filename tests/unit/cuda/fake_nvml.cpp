// A stand-in for libnvidia-ml.so.1 with the entry points Nvml::load needs and a few queries of one
// GPU, each answering NVML_ERROR_NOT_SUPPORTED until the test sets its value: ECC modes
// (fakeNvmlSetEccMode), the enforced power limit, the compute processes, the VBIOS version, the
// P2P status of the GPU with itself over NVLink and over PCI (fakeNvmlSetP2PStatus) and its
// NVLinks (fakeNvmlSetNvLinks; none active until then). Its energy counter always works, so that
// the GPU has a power domain.
#include <algorithm>
#include <cstdio>
#include <cstring>

extern "C" {

namespace {
constexpr int kSuccess = 0, kInvalidArgument = 2, kNotSupported = 3, kInsufficientSize = 7;
constexpr unsigned kMaxProcesses = 8;
constexpr unsigned kMaxLinks = 18;        // NVML_NVLINK_MAX_LINKS
constexpr unsigned kOtherGpuBus = 0xff;  // where the links that do not reach the peer go

struct ProcessInfo {  // nvmlProcessInfo_v2_t
  unsigned pid;
  unsigned long long usedGpuMemory;
  unsigned gpuInstanceId, computeInstanceId;
};

int currentEcc = -1, pendingEcc = -1;
int enforcedPowerLimit = -1;
int processCount = -1;
ProcessInfo processes[kMaxProcesses];
char vbiosVersion[32];
int nvlinkP2PStatus = -1, pciP2PStatus = -1;  // nvmlGpuP2PStatus_t; -1: NOT_SUPPORTED
int otherLinkEnd = 0;                          // a GPU

struct PciInfo {  // nvmlPciInfo_t
  char busIdLegacy[16];
  unsigned domain, bus, device, pciDeviceId, pciSubSystemId;
  char busId[32];
};

// Links 0 to activeLinks - 1 are active; the first linksToPeer of them end at the GPU on bus peerBus.
unsigned activeLinks = 0, linksToPeer = 0, linkVersion = 0, peerBus = 0;
}  // namespace

__attribute__((visibility("default"))) int nvmlInit_v2() { return kSuccess; }

__attribute__((visibility("default"))) int nvmlDeviceGetHandleByPciBusId_v2(const char*, void** device) {
  static int theGpu;
  *device = &theGpu;
  return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetEccMode(void*, int* current, int* pending) {
  if (currentEcc < 0) return kNotSupported;
  *current = currentEcc;
  *pending = pendingEcc;
  return kSuccess;
}

__attribute__((visibility("default"))) void fakeNvmlSetEccMode(int current, int pending) {
  currentEcc = current;
  pendingEcc = pending;
}

__attribute__((visibility("default"))) int nvmlDeviceGetTotalEnergyConsumption(void*, unsigned long long* millijoules) {
  *millijoules = 1000;
  return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetEnforcedPowerLimit(void*, unsigned* milliwatts) {
  if (enforcedPowerLimit < 0) return kNotSupported;
  *milliwatts = unsigned(enforcedPowerLimit);
  return kSuccess;
}

__attribute__((visibility("default"))) void fakeNvmlSetEnforcedPowerLimit(int milliwatts) { enforcedPowerLimit = milliwatts; }

// Like NVML: the count it needs and INSUFFICIENT_SIZE for too small an array.
__attribute__((visibility("default"))) int nvmlDeviceGetComputeRunningProcesses_v2(void*, unsigned* count, ProcessInfo* infos) {
  if (processCount < 0) return kNotSupported;
  const bool fits = *count >= unsigned(processCount);
  *count = unsigned(processCount);
  if (!fits) return kInsufficientSize;
  std::copy(processes, processes + processCount, infos);
  return kSuccess;
}

// `count` processes with these pids and device memory; a negative count: NOT_SUPPORTED.
__attribute__((visibility("default"))) void fakeNvmlSetProcesses(int count, const unsigned* pids, const unsigned long long* usedGpuMemory) {
  processCount = std::min(count, int(kMaxProcesses));
  for (int i = 0; i < processCount; ++i) processes[i] = {pids[i], usedGpuMemory[i], 0, 0};
}

__attribute__((visibility("default"))) int nvmlDeviceGetVbiosVersion(void*, char* version, unsigned length) {
  if (!vbiosVersion[0]) return kNotSupported;
  if (length <= std::strlen(vbiosVersion)) return kInsufficientSize;
  std::strcpy(version, vbiosVersion);
  return kSuccess;
}

// An empty version: NOT_SUPPORTED.
__attribute__((visibility("default"))) void fakeNvmlSetVbiosVersion(const char* version) {
  std::strncpy(vbiosVersion, version, sizeof(vbiosVersion) - 1);
}

// Capability 2 is NVLink, 4 PCI (nvmlGpuP2PCapsIndex_t); others are not answered.
__attribute__((visibility("default"))) int nvmlDeviceGetP2PStatus(void*, void*, int capability, int* status) {
  const int value = capability == 2 ? nvlinkP2PStatus : capability == 4 ? pciP2PStatus : -1;
  if (value < 0) return kNotSupported;
  *status = value;
  return kSuccess;
}

// A negative status: NOT_SUPPORTED.
__attribute__((visibility("default"))) void fakeNvmlSetP2PStatus(int nvlink, int pci) {
  nvlinkP2PStatus = nvlink;
  pciP2PStatus = pci;
}

// Like NVML for a GPU of kMaxLinks links: INVALID_ARGUMENT past them.
__attribute__((visibility("default"))) int nvmlDeviceGetNvLinkState(void*, unsigned link, int* isActive) {
  if (link >= kMaxLinks) return kInvalidArgument;
  *isActive = link < activeLinks ? 1 : 0;
  return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetNvLinkRemotePciInfo_v2(void*, unsigned link, PciInfo* pci) {
  if (link >= activeLinks) return kNotSupported;
  *pci = {};
  pci->bus = link < linksToPeer ? peerBus : kOtherGpuBus;
  std::snprintf(pci->busId, sizeof(pci->busId), "00000000:%02X:00.0", pci->bus);
  return kSuccess;
}

// The peer's links end at a GPU (0), the others at otherLinkEnd (nvmlIntNvLinkDeviceType_t).
__attribute__((visibility("default"))) int nvmlDeviceGetNvLinkRemoteDeviceType(void*, unsigned link, int* type) {
  if (link >= activeLinks) return kNotSupported;
  *type = link < linksToPeer ? 0 : otherLinkEnd;
  return kSuccess;
}

__attribute__((visibility("default"))) void fakeNvmlSetNvLinkOtherEnd(int type) { otherLinkEnd = type; }

__attribute__((visibility("default"))) int nvmlDeviceGetNvLinkVersion(void*, unsigned link, unsigned* version) {
  if (link >= activeLinks) return kNotSupported;
  *version = linkVersion;
  return kSuccess;
}

// `active` links of NVLink `version` (nvmlNvlinkVersion_t), the first `toPeer` of which end at the
// GPU on bus `bus` (domain and device 0), the others at another GPU.
__attribute__((visibility("default"))) void fakeNvmlSetNvLinks(unsigned active, unsigned toPeer, unsigned version,
                                                               unsigned bus) {
  activeLinks = std::min(active, kMaxLinks);
  linksToPeer = toPeer;
  linkVersion = version;
  peerBus = bus;
}

}  // extern "C"
