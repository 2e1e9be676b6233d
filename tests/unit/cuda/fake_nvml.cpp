// A stand-in for libnvidia-ml.so.1 with the entry points Nvml::load needs and the ECC query: one
// GPU whose ECC modes the test sets with fakeNvmlSetEccMode; until then its memory has no error
// correction (NVML_ERROR_NOT_SUPPORTED).
extern "C" {

namespace {
int currentEcc = -1, pendingEcc = -1;
}

__attribute__((visibility("default"))) int nvmlInit_v2() { return 0; }

__attribute__((visibility("default"))) int nvmlDeviceGetHandleByPciBusId_v2(const char*, void** device) {
  static int theGpu;
  *device = &theGpu;
  return 0;
}

__attribute__((visibility("default"))) int nvmlDeviceGetEccMode(void*, int* current, int* pending) {
  if (currentEcc < 0) return 3;  // NVML_ERROR_NOT_SUPPORTED
  *current = currentEcc;
  *pending = pendingEcc;
  return 0;
}

__attribute__((visibility("default"))) void fakeNvmlSetEccMode(int current, int pending) {
  currentEcc = current;
  pendingEcc = pending;
}

}  // extern "C"
