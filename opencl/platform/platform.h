#pragma once
// The one Loom platform and its devices, created on first use over the core runtime.
#include <memory>
#include <string>
#include <vector>

#include "opencl/api_object.h"

namespace loom::cl {

class Device;

class Platform : public _cl_platform_id {
 public:
  static constexpr Magic kMagic = Magic::Platform;
  static Platform& get();

  const std::vector<Device*>& devices() const { return deviceView_; }
  // The platform's extensions, as CL_PLATFORM_EXTENSIONS lists them.
  static std::vector<std::pair<std::string, cl_version>> extensions();

 private:
  Platform();
  std::vector<std::unique_ptr<Device>> devices_;
  std::vector<Device*> deviceView_;
};

// Version strings shared by platform and device queries.
inline constexpr const char* kLoomVersion = "0.3";
std::string joinExtensionNames(const std::vector<std::pair<std::string, cl_version>>& extensions);
std::vector<cl_name_version> toNameVersions(const std::vector<std::pair<std::string, cl_version>>& items);

}  // namespace loom::cl
