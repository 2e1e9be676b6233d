#pragma once
// A device of the platform over a core device: a root device, or a sub-device (a tile of a root)
// that clCreateSubDevices made, which is reference counted.
#include <string>
#include <utility>
#include <vector>

#include "loom/core/device.h"
#include "opencl/api_object.h"

namespace loom::cl {

class Platform;

class Device : public _cl_device_id, public RefCounted {
 public:
  static constexpr Magic kMagic = Magic::Device;
  // `parent` is null for a root device.
  Device(Platform& platform, core::Device& device, Device* parent = nullptr)
      : platform_(platform), device_(device), parent_(parent) {}

  Platform& platform() const { return platform_; }
  core::Device& core() const { return device_; }
  const core::DeviceInfo& info() const { return device_.info(); }
  cl_device_type type() const;
  bool isCpu() const { return info().type == core::DeviceType::Cpu; }
  // The warps of a block are all resident and scheduled independently; the CPU runs a group's
  // work-items (its sub-groups) one after another, so one cannot wait for a later one.
  bool independentSubGroupProgress() const { return !isCpu(); }
  Device* parent() const { return parent_; }

  // Partitioning: a device whose core device has tiles is partitioned by affinity domain (NUMA,
  // or the next partitionable level, the same here) into one sub-device per tile.
  bool partitionable() const { return !device_.subDevices().empty(); }
  static constexpr cl_device_affinity_domain kAffinityDomains =
      CL_DEVICE_AFFINITY_DOMAIN_NUMA | CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE;
  // CL_DEVICE_PARTITION_TYPE: how the parent made this sub-device; empty for a root device.
  std::vector<cl_device_partition_property> partitionType() const;

  // Extensions and OpenCL C features with their versions, as the device queries report them.
  std::vector<std::pair<std::string, cl_version>> extensions() const;
  std::vector<std::pair<std::string, cl_version>> openClCFeatures() const;
  // Sub-groups in the largest work-group (CL_DEVICE_MAX_NUM_SUB_GROUPS).
  cl_uint maxNumSubGroups() const;

  cl_int getInfo(cl_device_info name, size_t size, void* value, size_t* sizeRet) const;

 private:
  Platform& platform_;
  core::Device& device_;
  Device* parent_;
};

// Retains a sub-device (root devices are not reference counted); releaseDevice destroys a
// sub-device with its last reference.
void retainDevice(Device& device);
void releaseDevice(Device& device);

}  // namespace loom::cl
