#include "opencl/device/device.h"

#include "opencl/platform/platform.h"
#include "opencl/validation.h"

namespace loom::cl {

cl_device_type Device::type() const {
  return isCpu() ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU;
}

std::vector<std::pair<std::string, cl_version>> Device::extensions() const {
  std::vector<std::pair<std::string, cl_version>> list = {
      {"cl_khr_byte_addressable_store", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_global_int32_base_atomics", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_global_int32_extended_atomics", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_local_int32_base_atomics", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_local_int32_extended_atomics", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_il_program", CL_MAKE_VERSION(1, 0, 0)},
      // SPIR-V's NoSignedWrap and NoUnsignedWrap decorations: the translator reads them as LLVM's nsw and nuw.
      {"cl_khr_spirv_no_integer_wrap_decoration", CL_MAKE_VERSION(1, 0, 0)},
      // -cl-std=CLC++ (C++ for OpenCL 1.0) through clang; CL_DEVICE_CXX_FOR_OPENCL_NUMERIC_VERSION_EXT says which.
      {"cl_ext_cxx_for_opencl", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_extended_versioning", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_device_uuid", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_intel_unified_shared_memory", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_subgroup_shuffle", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_subgroup_shuffle_relative", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_subgroup_extended_types", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_subgroup_non_uniform_vote", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_subgroup_ballot", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_subgroup_non_uniform_arithmetic", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_subgroup_clustered_reduce", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_subgroup_rotate", CL_MAKE_VERSION(1, 0, 0)},
      // Buffers only: Intel's sub-group image block reads and writes are not supported.
      {"cl_intel_subgroups", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_intel_subgroups_char", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_intel_subgroups_short", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_intel_subgroups_long", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_intel_subgroup_local_block_io", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_intel_spirv_subgroups", CL_MAKE_VERSION(1, 0, 0)},
      // fp32, fp64 (with cl_khr_fp64) and fp16 (with cl_khr_fp16) load, store, exchange, add, min
      // and max in global and local memory.
      {"cl_ext_float_atomics", CL_MAKE_VERSION(1, 0, 0)},
  };
  // The extension promises sub-groups independent forward progress, which a GPU's warps have and
  // a CPU's work-items, run one after another, do not; the CPU has sub-groups as the optional
  // OpenCL 3.0 feature __opencl_c_subgroups.
  if (independentSubGroupProgress()) list.push_back({"cl_khr_subgroups", CL_MAKE_VERSION(1, 0, 0)});
  if (info().images.supported) {
    list.push_back({"cl_khr_image2d_from_buffer", CL_MAKE_VERSION(1, 0, 0)});
    list.push_back({"cl_khr_depth_images", CL_MAKE_VERSION(1, 0, 0)});
    if (info().images.writes3d) list.push_back({"cl_khr_3d_image_writes", CL_MAKE_VERSION(1, 0, 0)});
  }
  if (info().supportsFp64) list.push_back({"cl_khr_fp64", CL_MAKE_VERSION(1, 0, 0)});
  if (info().supportsFp16) list.push_back({"cl_khr_fp16", CL_MAKE_VERSION(1, 0, 0)});
  if (info().supportsInt64Atomics) {
    list.push_back({"cl_khr_int64_base_atomics", CL_MAKE_VERSION(1, 0, 0)});
    list.push_back({"cl_khr_int64_extended_atomics", CL_MAKE_VERSION(1, 0, 0)});
  }
  return list;
}

std::vector<std::pair<std::string, cl_version>> Device::openClCFeatures() const {
  const cl_version v3 = CL_MAKE_VERSION(3, 0, 0);
  std::vector<std::pair<std::string, cl_version>> features = {{"__opencl_c_int64", v3},
                                                              {"__opencl_c_atomic_order_acq_rel", v3},
                                                              {"__opencl_c_atomic_order_seq_cst", v3},
                                                              {"__opencl_c_atomic_scope_device", v3},
                                                              {"__opencl_c_atomic_scope_all_devices", v3},
                                                              {"__opencl_c_program_scope_global_variables", v3},
                                                              {"__opencl_c_generic_address_space", v3},
                                                              {"__opencl_c_subgroups", v3},
                                                              {"__opencl_c_work_group_collective_functions", v3},
                                                              {"__opencl_c_ext_fp32_global_atomic_add", v3},
                                                              {"__opencl_c_ext_fp32_local_atomic_add", v3},
                                                              {"__opencl_c_ext_fp32_global_atomic_min_max", v3},
                                                              {"__opencl_c_ext_fp32_local_atomic_min_max", v3}};
  if (info().supportsFp16)
    for (const char* fp16 : {"__opencl_c_fp16", "__opencl_c_ext_fp16_global_atomic_load_store", "__opencl_c_ext_fp16_local_atomic_load_store",
                             "__opencl_c_ext_fp16_global_atomic_add", "__opencl_c_ext_fp16_local_atomic_add",
                             "__opencl_c_ext_fp16_global_atomic_min_max", "__opencl_c_ext_fp16_local_atomic_min_max"})
      features.emplace_back(fp16, v3);
  if (info().images.supported) {
    features.emplace_back("__opencl_c_images", v3);
    features.emplace_back("__opencl_c_read_write_images", v3);
    if (info().images.writes3d) features.emplace_back("__opencl_c_3d_image_writes", v3);
  }
  if (!info().supportsFp64) return features;
  for (const char* fp64 : {"__opencl_c_fp64", "__opencl_c_ext_fp64_global_atomic_add", "__opencl_c_ext_fp64_local_atomic_add",
                           "__opencl_c_ext_fp64_global_atomic_min_max", "__opencl_c_ext_fp64_local_atomic_min_max"})
    features.emplace_back(fp64, v3);
  return features;
}

std::vector<cl_device_partition_property> Device::partitionType() const {
  if (!parent_) return {};
  return {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, CL_DEVICE_AFFINITY_DOMAIN_NUMA, 0};
}

void retainDevice(Device& device) {
  if (device.parent()) device.retain();
}

void releaseDevice(Device& device) {
  if (device.parent() && device.release()) delete &device;
}

cl_uint Device::maxNumSubGroups() const {
  const uint32_t size = info().subGroupSizes.empty() ? 1 : info().subGroupSizes.back();
  return (info().maxWorkGroupSize + size - 1) / size;
}

}  // namespace loom::cl

using namespace loom::cl;

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type, cl_uint num_entries,
                                               cl_device_id* devices, cl_uint* num_devices) {
  CL_REQUIRE(platform == nullptr || objectOf<Platform>(platform), CL_INVALID_PLATFORM, "not a Loom platform");
  constexpr cl_device_type kKnownTypes =
      CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM | CL_DEVICE_TYPE_DEFAULT;
  CL_REQUIRE(device_type == CL_DEVICE_TYPE_ALL || (device_type & ~kKnownTypes) == 0, CL_INVALID_DEVICE_TYPE,
             "unknown device_type bits");
  CL_REQUIRE(num_entries != 0 || devices == nullptr, CL_INVALID_VALUE, "num_entries is 0 but devices is not null");
  CL_REQUIRE(devices != nullptr || num_devices != nullptr, CL_INVALID_VALUE, "devices and num_devices are null");
  std::vector<Device*> matching;
  for (Device* device : Platform::get().devices()) {
    // The default device is the first one (GPUs are listed first).
    const bool isDefault = matching.empty() && device == Platform::get().devices().front();
    if (device_type == CL_DEVICE_TYPE_ALL || (device_type & device->type()) ||
        ((device_type & CL_DEVICE_TYPE_DEFAULT) && isDefault))
      matching.push_back(device);
  }
  CL_REQUIRE(!matching.empty(), CL_DEVICE_NOT_FOUND, "no device of that type");
  for (cl_uint i = 0; devices && i < num_entries && i < matching.size(); ++i) devices[i] = matching[i];
  if (num_devices) *num_devices = static_cast<cl_uint>(matching.size());
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device, cl_device_info param_name, size_t param_value_size,
                                                void* param_value, size_t* param_value_size_ret) {
  Device* object = objectOf<Device>(device);
  CL_REQUIRE(object, CL_INVALID_DEVICE, "not a Loom device");
  return object->getInfo(param_name, param_value_size, param_value, param_value_size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clCreateSubDevices(cl_device_id in_device, const cl_device_partition_property* properties,
                                                   cl_uint num_devices, cl_device_id* out_devices, cl_uint* num_devices_ret) {
  Device* device = objectOf<Device>(in_device);
  CL_REQUIRE(device, CL_INVALID_DEVICE, "not a Loom device");
  CL_REQUIRE(properties, CL_INVALID_VALUE, "properties is null");
  CL_REQUIRE(properties[0] == CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, CL_INVALID_VALUE,
             "only CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN is supported");
  CL_REQUIRE(device->partitionable(), CL_INVALID_VALUE, "the device has no tiles to partition it into");
  const auto domain = static_cast<cl_device_affinity_domain>(properties[1]);
  CL_REQUIRE(domain == CL_DEVICE_AFFINITY_DOMAIN_NUMA || domain == CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE,
             CL_INVALID_VALUE, "the affinity domain is not NUMA or NEXT_PARTITIONABLE");
  CL_REQUIRE(properties[2] == 0, CL_INVALID_VALUE, "properties is not terminated after the affinity domain");
  const auto& tiles = device->core().subDevices();
  const auto count = static_cast<cl_uint>(tiles.size());
  CL_REQUIRE(!out_devices || num_devices >= count, CL_INVALID_VALUE, "num_devices is less than the sub-devices");
  for (cl_uint i = 0; out_devices && i < count; ++i) out_devices[i] = new Device(device->platform(), *tiles[i], device);
  if (num_devices_ret) *num_devices_ret = count;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainDevice(cl_device_id device) {
  Device* object = objectOf<Device>(device);
  CL_REQUIRE(object, CL_INVALID_DEVICE, "not a Loom device");
  retainDevice(*object);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseDevice(cl_device_id device) {
  Device* object = objectOf<Device>(device);
  CL_REQUIRE(object, CL_INVALID_DEVICE, "not a Loom device");
  releaseDevice(*object);
  return CL_SUCCESS;
}

}  // extern "C"
