#pragma once
// The first device of the OpenCL platform whose name contains `platformName`: the real-program
// checks run on one platform at a time (run.sh gives each its own ICD folder, or both in one).
// nullptr when no such platform has a device; `platformNameOut`, when given, gets the full name.
#include <CL/cl.h>

#include <string>
#include <vector>

inline cl_device_id firstDeviceOf(const std::string& platformName, std::string* platformNameOut = nullptr) {
  cl_uint count = 0;
  clGetPlatformIDs(0, nullptr, &count);
  std::vector<cl_platform_id> platforms(count);
  clGetPlatformIDs(count, platforms.data(), nullptr);
  for (cl_platform_id platform : platforms) {
    char name[256] = {};
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof(name), name, nullptr);
    cl_device_id device = nullptr;
    if (std::string(name).find(platformName) == std::string::npos) continue;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) != CL_SUCCESS) continue;
    if (platformNameOut) *platformNameOut = name;
    return device;
  }
  return nullptr;
}
