#pragma once
// What the samples read from the environment, shared by the Level Zero and the OpenCL sample:
// LOOM_SAMPLE_DEVICE_TYPE (unset: Loom's first device, a GPU where Loom lists one, else the CPU;
// cpu or gpu) and a file path that overrides the one compiled in (the relocatable bundle,
// scripts/bundle.sh, points them at its own data).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

enum class SampleDevice { First, Cpu, Gpu };

// The device LOOM_SAMPLE_DEVICE_TYPE asks for; exits on any value but cpu or gpu.
inline SampleDevice sampleDevice() {
  const char* type = std::getenv("LOOM_SAMPLE_DEVICE_TYPE");
  if (type == nullptr) return SampleDevice::First;
  if (std::strcmp(type, "cpu") == 0) return SampleDevice::Cpu;
  if (std::strcmp(type, "gpu") == 0) return SampleDevice::Gpu;
  std::fprintf(stderr, "LOOM_SAMPLE_DEVICE_TYPE must be cpu or gpu, not %s\n", type);
  std::exit(1);
}

inline const char* sampleDeviceName(SampleDevice device) {
  return device == SampleDevice::Gpu ? "GPU" : device == SampleDevice::Cpu ? "CPU" : "Loom";
}

// The environment variable `name` when set; else the file named as `fallback` beside the
// executable, when there is one (an installed sample: cmake --install puts its kernel beside it);
// else the compiled-in `fallback`, in the build folder.
inline std::string sampleFilePath(const char* name, const char* fallback) {
  if (const char* path = std::getenv(name)) return path;
  std::error_code error;
  const std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", error);
  const std::filesystem::path beside = executable.parent_path() / std::filesystem::path(fallback).filename();
  if (!error && std::filesystem::exists(beside)) return beside.string();
  return fallback;
}
