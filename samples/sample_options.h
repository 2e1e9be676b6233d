#pragma once
// What the samples read from the environment, shared by the Level Zero and the OpenCL sample:
// LOOM_SAMPLE_DEVICE_TYPE (cpu, the default, or gpu) and a file path that overrides the one
// compiled in (the relocatable bundle, scripts/bundle.sh, points them at its own data).
#include <cstdio>
#include <cstdlib>
#include <cstring>

// True when LOOM_SAMPLE_DEVICE_TYPE asks for the GPU; exits on any value but cpu or gpu.
inline bool sampleWantsGpu() {
  const char* type = std::getenv("LOOM_SAMPLE_DEVICE_TYPE");
  if (type == nullptr || std::strcmp(type, "cpu") == 0) return false;
  if (std::strcmp(type, "gpu") == 0) return true;
  std::fprintf(stderr, "LOOM_SAMPLE_DEVICE_TYPE must be cpu or gpu, not %s\n", type);
  std::exit(1);
}

// The environment variable `name` when set, else the compiled-in `fallback`.
inline const char* sampleFilePath(const char* name, const char* fallback) {
  const char* path = std::getenv(name);
  return path != nullptr ? path : fallback;
}
