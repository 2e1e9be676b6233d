#pragma once
// A root device of the platform, over a core device.
#include <string>
#include <utility>
#include <vector>

#include "loom/core/device.h"
#include "opencl/api_object.h"

namespace loom::cl {

class Platform;

class Device : public _cl_device_id {
 public:
  static constexpr Magic kMagic = Magic::Device;
  Device(Platform& platform, core::Device& device) : platform_(platform), device_(device) {}

  Platform& platform() const { return platform_; }
  core::Device& core() const { return device_; }
  const core::DeviceInfo& info() const { return device_.info(); }
  cl_device_type type() const;
  bool isCpu() const { return info().type == core::DeviceType::Cpu; }

  // Extensions and OpenCL C features with their versions, as the device queries report them.
  std::vector<std::pair<std::string, cl_version>> extensions() const;
  std::vector<std::pair<std::string, cl_version>> openClCFeatures() const;
  // Sub-groups in the largest work-group (CL_DEVICE_MAX_NUM_SUB_GROUPS).
  cl_uint maxNumSubGroups() const;

  cl_int getInfo(cl_device_info name, size_t size, void* value, size_t* sizeRet) const;

 private:
  Platform& platform_;
  core::Device& device_;
};

}  // namespace loom::cl
