#include "opencl/platform/platform.h"

#include <cstring>

#include "loom/core/futex.h"
#include "loom/core/runtime.h"
#include "opencl/device/device.h"
#include "opencl/info.h"
#include "opencl/validation.h"

namespace loom::cl {

Platform& Platform::get() {
  static Platform* platform = new Platform();  // never destroyed: handles may outlive static destructors
  return *platform;
}

Platform::Platform() {
  for (core::Device* device : core::Runtime::get().devices()) {
    devices_.push_back(std::make_unique<Device>(*this, *device));
    deviceView_.push_back(devices_.back().get());
  }
}

std::vector<std::pair<std::string, cl_version>> Platform::extensions() {
  return {{"cl_khr_icd", CL_MAKE_VERSION(1, 0, 0)},
          {"cl_khr_il_program", CL_MAKE_VERSION(1, 0, 0)},
          {"cl_khr_extended_versioning", CL_MAKE_VERSION(1, 0, 0)},
          {"cl_khr_device_uuid", CL_MAKE_VERSION(1, 0, 0)}};
}

std::string joinExtensionNames(const std::vector<std::pair<std::string, cl_version>>& extensions) {
  std::string names;
  for (const auto& [name, version] : extensions) names += name + " ";
  return names;
}

std::vector<cl_name_version> toNameVersions(const std::vector<std::pair<std::string, cl_version>>& items) {
  std::vector<cl_name_version> result;
  for (const auto& [name, version] : items) {
    cl_name_version entry{};
    entry.version = version;
    std::strncpy(entry.name, name.c_str(), CL_NAME_VERSION_MAX_NAME_SIZE - 1);
    result.push_back(entry);
  }
  return result;
}

}  // namespace loom::cl

using namespace loom::cl;

extern "C" {

LOOM_ICD_EXPORT CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id* platforms, cl_uint* num_platforms) {
  CL_REQUIRE(num_entries != 0 || platforms == nullptr, CL_INVALID_VALUE, "num_entries is 0 but platforms is not null");
  CL_REQUIRE(platforms != nullptr || num_platforms != nullptr, CL_INVALID_VALUE, "platforms and num_platforms are null");
  if (platforms) platforms[0] = &Platform::get();
  if (num_platforms) *num_platforms = 1;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries, cl_platform_id* platforms, cl_uint* num_platforms) {
  return clIcdGetPlatformIDsKHR(num_entries, platforms, num_platforms);
}

LOOM_ICD_EXPORT CL_API_ENTRY cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name, size_t param_value_size,
                                                  void* param_value, size_t* param_value_size_ret) {
  CL_REQUIRE(platform == nullptr || objectOf<Platform>(platform), CL_INVALID_PLATFORM, "not a Loom platform");
  const InfoRequest out{param_value_size, param_value, param_value_size_ret};
  switch (param_name) {
    case CL_PLATFORM_PROFILE: return out.string("FULL_PROFILE");
    case CL_PLATFORM_VERSION: return out.string(std::string("OpenCL 3.0 Loom ") + kLoomVersion);
    case CL_PLATFORM_NUMERIC_VERSION: return out.scalar<cl_version>(CL_MAKE_VERSION(3, 0, 0));
    case CL_PLATFORM_NAME: return out.string("Loom");
    case CL_PLATFORM_VENDOR: return out.string("Loom Developers");
    case CL_PLATFORM_EXTENSIONS: return out.string(joinExtensionNames(Platform::extensions()));
    case CL_PLATFORM_EXTENSIONS_WITH_VERSION: return out.array(toNameVersions(Platform::extensions()));
    case CL_PLATFORM_ICD_SUFFIX_KHR: return out.string("LOOM");
    case CL_PLATFORM_HOST_TIMER_RESOLUTION: return out.scalar<cl_ulong>(1);
    default: CL_FAIL(CL_INVALID_VALUE, "unknown param_name");
  }
}

CL_API_ENTRY cl_int CL_API_CALL clUnloadCompiler() { return CL_SUCCESS; }

CL_API_ENTRY cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform) {
  CL_REQUIRE(objectOf<Platform>(platform), CL_INVALID_PLATFORM, "not a Loom platform");
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetHostTimer(cl_device_id device, cl_ulong* host_timestamp) {
  CL_REQUIRE(objectOf<Device>(device), CL_INVALID_DEVICE, "not a Loom device");
  CL_REQUIRE(host_timestamp, CL_INVALID_VALUE, "host_timestamp is null");
  *host_timestamp = loom::core::monotonicNanoseconds();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceAndHostTimer(cl_device_id device, cl_ulong* device_timestamp,
                                                        cl_ulong* host_timestamp) {
  Device* object = objectOf<Device>(device);
  CL_REQUIRE(object, CL_INVALID_DEVICE, "not a Loom device");
  CL_REQUIRE(device_timestamp && host_timestamp, CL_INVALID_VALUE, "a timestamp pointer is null");
  *device_timestamp = object->core().backend().timestamp();
  *host_timestamp = loom::core::monotonicNanoseconds();
  return CL_SUCCESS;
}

}  // extern "C"
