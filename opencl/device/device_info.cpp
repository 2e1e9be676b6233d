// clGetDeviceInfo: every CL_DEVICE_* value, from the core device description. Features Loom does
// not implement (pipes, device-side enqueue) report their absence.
#include <algorithm>

#include "opencl/device/device.h"
#include "opencl/float_atomics.h"
#include "opencl/info.h"
#include "opencl/platform/platform.h"
#include "opencl/validation.h"

namespace loom::cl {

namespace {

const char* vendorName(uint32_t vendorId) {
  switch (vendorId) {
    case 0x8086: return "Intel(R) Corporation";
    case 0x1022: return "Advanced Micro Devices, Inc.";
    case 0x10de: return "NVIDIA Corporation";
    default: return "Unknown vendor";
  }
}

constexpr cl_device_fp_config kSingleFpConfig =
    CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA |
    CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT;
constexpr cl_device_fp_config kDoubleFpConfig =
    CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA;
// Half arithmetic is correctly rounded (computed in float and rounded once, or native on GPUs).
constexpr cl_device_fp_config kHalfFpConfig = kDoubleFpConfig;
constexpr cl_device_atomic_capabilities kAtomicCapabilities =
    CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL | CL_DEVICE_ATOMIC_ORDER_SEQ_CST |
    CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP | CL_DEVICE_ATOMIC_SCOPE_DEVICE |
    CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;
constexpr cl_device_unified_shared_memory_capabilities_intel kUsmCapabilities =
    CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL | CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL |
    CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ACCESS_INTEL | CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ATOMIC_ACCESS_INTEL;
// cl_ext_float_atomics: load, store, exchange, add, sub, min and max, in global and local memory.
constexpr cl_device_fp_atomic_capabilities_ext kFpAtomicCapabilities =
    CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT | CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT | CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT |
    CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT;
constexpr cl_uint kMemBaseAddressAlignBits = 1024;  // 128 bytes: the alignment of every allocation
constexpr cl_ulong kMaxConstantBufferSize = 1 << 20;
constexpr size_t kMaxGlobalVariableSize = 1 << 16;
constexpr const char* kIlVersions = "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4";

std::vector<std::pair<std::string, cl_version>> ilVersions() {
  std::vector<std::pair<std::string, cl_version>> list;
  for (cl_uint minor = 0; minor <= 4; ++minor) list.push_back({"SPIR-V", CL_MAKE_VERSION(1, minor, 0)});
  return list;
}

std::vector<std::pair<std::string, cl_version>> openClCVersions() {
  return {{"OpenCL C", CL_MAKE_VERSION(1, 0, 0)},
          {"OpenCL C", CL_MAKE_VERSION(1, 1, 0)},
          {"OpenCL C", CL_MAKE_VERSION(1, 2, 0)},
          {"OpenCL C", CL_MAKE_VERSION(3, 0, 0)}};
}

// The CPU computes half in float lanes; NVIDIA GPUs have paired half instructions (f16x2).
cl_uint halfVectorWidth(const core::DeviceInfo& device) {
  if (!device.supportsFp16) return 0;
  return device.type == core::DeviceType::Cpu ? core::preferredVectorWidth(device, 4) : 2;
}

}  // namespace

cl_int Device::getInfo(cl_device_info name, size_t size, void* value, size_t* sizeRet) const {
  const InfoRequest out{size, value, sizeRet};
  const core::DeviceInfo& device = info();
  const core::ImageLimits& images = device.images;
  switch (name) {
    case CL_DEVICE_TYPE: return out.scalar<cl_device_type>(type());
    case CL_DEVICE_VENDOR_ID: return out.scalar<cl_uint>(device.vendorId);
    case CL_DEVICE_MAX_COMPUTE_UNITS: return out.scalar<cl_uint>(device.computeUnits);
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: return out.scalar<cl_uint>(3);
    case CL_DEVICE_MAX_WORK_ITEM_SIZES:
      return out.array(std::vector<size_t>{device.maxGroupSize[0], device.maxGroupSize[1], device.maxGroupSize[2]});
    case CL_DEVICE_MAX_WORK_GROUP_SIZE: return out.scalar<size_t>(device.maxWorkGroupSize);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR: return out.scalar(core::preferredVectorWidth(device, 1));
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT: return out.scalar(core::preferredVectorWidth(device, 2));
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT: return out.scalar(core::preferredVectorWidth(device, 4));
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG: return out.scalar(core::preferredVectorWidth(device, 8));
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE: return out.scalar<cl_uint>(device.supportsFp64 ? core::preferredVectorWidth(device, 8) : 0);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF: return out.scalar(halfVectorWidth(device));
    case CL_DEVICE_MAX_CLOCK_FREQUENCY: return out.scalar<cl_uint>(device.coreClockMHz);
    case CL_DEVICE_ADDRESS_BITS: return out.scalar<cl_uint>(64);
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE: return out.scalar<cl_ulong>(device.maxAllocationSize);
    case CL_DEVICE_IMAGE_SUPPORT: return out.scalar<cl_bool>(images.supported ? CL_TRUE : CL_FALSE);
    case CL_DEVICE_MAX_READ_IMAGE_ARGS: return out.scalar<cl_uint>(images.maxReadArguments);
    case CL_DEVICE_MAX_WRITE_IMAGE_ARGS: return out.scalar<cl_uint>(images.maxWriteArguments);
    case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS: return out.scalar<cl_uint>(images.maxReadWriteArguments);
    case CL_DEVICE_MAX_SAMPLERS: return out.scalar<cl_uint>(images.maxSamplers);
    case CL_DEVICE_IMAGE_PITCH_ALIGNMENT: return out.scalar<cl_uint>(images.pitchAlignment);
    case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT: return out.scalar<cl_uint>(images.baseAddressAlignment);
    case CL_DEVICE_IMAGE2D_MAX_WIDTH: return out.scalar<size_t>(images.max2dWidth);
    case CL_DEVICE_IMAGE2D_MAX_HEIGHT: return out.scalar<size_t>(images.max2dHeight);
    case CL_DEVICE_IMAGE3D_MAX_WIDTH: return out.scalar<size_t>(images.max3dWidth);
    case CL_DEVICE_IMAGE3D_MAX_HEIGHT: return out.scalar<size_t>(images.max3dHeight);
    case CL_DEVICE_IMAGE3D_MAX_DEPTH: return out.scalar<size_t>(images.max3dDepth);
    case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE: return out.scalar<size_t>(images.maxBufferTexels);
    case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE: return out.scalar<size_t>(images.maxArraySize);
    case CL_DEVICE_MAX_PARAMETER_SIZE: return out.scalar<size_t>(device.maxArgumentsSize);
    case CL_DEVICE_MEM_BASE_ADDR_ALIGN: return out.scalar<cl_uint>(kMemBaseAddressAlignBits);
    case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE: return out.scalar<cl_uint>(128);
    case CL_DEVICE_SINGLE_FP_CONFIG: return out.scalar(kSingleFpConfig);
    case CL_DEVICE_DOUBLE_FP_CONFIG: return out.scalar<cl_device_fp_config>(device.supportsFp64 ? kDoubleFpConfig : 0);
    case CL_DEVICE_HALF_FP_CONFIG: return out.scalar<cl_device_fp_config>(device.supportsFp16 ? kHalfFpConfig : 0);
    case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE: return out.scalar<cl_device_mem_cache_type>(CL_READ_WRITE_CACHE);
    case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE: return out.scalar<cl_uint>(device.cacheLineSize);
    case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE: return out.scalar<cl_ulong>(device.lastLevelCacheSize);
    case CL_DEVICE_GLOBAL_MEM_SIZE: return out.scalar<cl_ulong>(device.globalMemorySize);
    case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: return out.scalar<cl_ulong>(kMaxConstantBufferSize);
    case CL_DEVICE_MAX_CONSTANT_ARGS: return out.scalar<cl_uint>(8);
    case CL_DEVICE_LOCAL_MEM_TYPE: return out.scalar<cl_device_local_mem_type>(isCpu() ? CL_GLOBAL : CL_LOCAL);
    case CL_DEVICE_LOCAL_MEM_SIZE: return out.scalar<cl_ulong>(device.maxSharedLocalMemory);
    case CL_DEVICE_ERROR_CORRECTION_SUPPORT: return out.scalar<cl_bool>(CL_FALSE);
    case CL_DEVICE_HOST_UNIFIED_MEMORY: return out.scalar<cl_bool>(device.unifiedMemory);
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION: return out.scalar<size_t>(device.timerResolutionNs);
    case CL_DEVICE_ENDIAN_LITTLE:
    case CL_DEVICE_AVAILABLE:
    case CL_DEVICE_COMPILER_AVAILABLE:
    case CL_DEVICE_LINKER_AVAILABLE:
    case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
    case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT:
    case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT: return out.scalar<cl_bool>(CL_TRUE);
    case CL_DEVICE_EXECUTION_CAPABILITIES:
      return out.scalar<cl_device_exec_capabilities>(CL_EXEC_KERNEL | (isCpu() ? CL_EXEC_NATIVE_KERNEL : 0));
    case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES:
      return out.scalar<cl_command_queue_properties>(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
    case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES: return out.scalar<cl_command_queue_properties>(0);
    case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
    case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
    case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
    case CL_DEVICE_MAX_ON_DEVICE_EVENTS:
    case CL_DEVICE_MAX_PIPE_ARGS:
    case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
    case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
    case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT: return out.scalar<cl_uint>(0);
    case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES: return out.scalar<cl_device_device_enqueue_capabilities>(0);
    case CL_DEVICE_PIPE_SUPPORT: return out.scalar<cl_bool>(CL_FALSE);
    case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT: return out.scalar<cl_bool>(CL_TRUE);
    case CL_DEVICE_MAX_NUM_SUB_GROUPS: return out.scalar<cl_uint>(maxNumSubGroups());
    case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS: return out.scalar<cl_bool>(independentSubGroupProgress());
    case CL_DEVICE_PLATFORM: return out.scalar<cl_platform_id>(&platform_);
    case CL_DEVICE_NAME: return out.string(device.name);
    case CL_DEVICE_VENDOR: return out.string(vendorName(device.vendorId));
    case CL_DRIVER_VERSION: return out.string(kLoomVersion);
    case CL_DEVICE_PROFILE: return out.string("FULL_PROFILE");
    case CL_DEVICE_VERSION: return out.string(std::string("OpenCL 3.0 Loom ") + kLoomVersion);
    case CL_DEVICE_NUMERIC_VERSION: return out.scalar<cl_version>(CL_MAKE_VERSION(3, 0, 0));
    case CL_DEVICE_OPENCL_C_VERSION: return out.string("OpenCL C 1.2 ");
    case CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR: return out.scalar<cl_version>(CL_MAKE_VERSION(1, 2, 0));
    case CL_DEVICE_OPENCL_C_ALL_VERSIONS: return out.array(toNameVersions(openClCVersions()));
    case CL_DEVICE_OPENCL_C_FEATURES: return out.array(toNameVersions(openClCFeatures()));
    case CL_DEVICE_EXTENSIONS: return out.string(joinExtensionNames(extensions()));
    case CL_DEVICE_EXTENSIONS_WITH_VERSION: return out.array(toNameVersions(extensions()));
    case CL_DEVICE_IL_VERSION: return out.string(kIlVersions);
    // The version -cl-std=CLC++ selects (clang's __OPENCL_CPP_VERSION__ 100).
    case CL_DEVICE_CXX_FOR_OPENCL_NUMERIC_VERSION_EXT: return out.scalar<cl_version>(CL_MAKE_VERSION(1, 0, 0));
    case CL_DEVICE_ILS_WITH_VERSION: return out.array(toNameVersions(ilVersions()));
    case CL_DEVICE_BUILT_IN_KERNELS: return out.string("");
    case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION: return out.array(std::vector<cl_name_version>{});
    case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED: return out.string("v0000-01-01-00");  // never submitted
    case CL_DEVICE_PRINTF_BUFFER_SIZE: return out.scalar<size_t>(device.printfBufferSize);
    case CL_DEVICE_PARENT_DEVICE: return out.scalar<cl_device_id>(parent());
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES: return out.scalar<cl_uint>(cl_uint(core().subDevices().size()));
    case CL_DEVICE_PARTITION_PROPERTIES:
      if (partitionable())
        return out.array(std::vector<cl_device_partition_property>{CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, 0});
      return out.array(std::vector<cl_device_partition_property>{0});
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
      return out.scalar<cl_device_affinity_domain>(partitionable() ? kAffinityDomains : 0);
    case CL_DEVICE_PARTITION_TYPE: return out.array(partitionType());
    case CL_DEVICE_REFERENCE_COUNT: return out.scalar<cl_uint>(parent() ? referenceCount() : 1);
    case CL_DEVICE_SVM_CAPABILITIES:
      return out.scalar<cl_device_svm_capabilities>(CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
                                                    CL_DEVICE_SVM_ATOMICS |
                                                    (device.accessesSystemAllocations ? CL_DEVICE_SVM_FINE_GRAIN_SYSTEM : 0));
    case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
    case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE: return out.scalar<size_t>(kMaxGlobalVariableSize);
    case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
    case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES: return out.scalar(kAtomicCapabilities);
    case CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT: return out.scalar(kFpAtomicCapabilities);
    case CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT:
      return out.scalar<cl_device_fp_atomic_capabilities_ext>(device.supportsFp64 ? kFpAtomicCapabilities : 0);
    // OpenCL C's atomic_half functions (the compiler's lowerHalfAtomics); SPIR-V that uses
    // SPV_EXT_shader_atomic_float16_add is refused, which LLVM 15's translator cannot read.
    case CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT:
      return out.scalar<cl_device_fp_atomic_capabilities_ext>(device.supportsFp16 ? kFpAtomicCapabilities : 0);
    case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: return out.scalar<size_t>(core::preferredGroupSizeMultiple(device));
    case CL_DEVICE_UUID_KHR: return out.bytes(device.uuid.data(), CL_UUID_SIZE_KHR);
    case CL_DRIVER_UUID_KHR: {
      uint8_t driverUuid[CL_UUID_SIZE_KHR] = {'L', 'o', 'o', 'm', '-', 'd', 'r', 'i', 'v', 'e', 'r', 0, 0, 0, 0, 3};
      return out.bytes(driverUuid, sizeof(driverUuid));
    }
    case CL_DEVICE_LUID_VALID_KHR: return out.scalar<cl_bool>(CL_FALSE);
    case CL_DEVICE_LUID_KHR: {
      uint8_t luid[CL_LUID_SIZE_KHR] = {};
      return out.bytes(luid, sizeof(luid));
    }
    case CL_DEVICE_NODE_MASK_KHR: return out.scalar<cl_uint>(0);
    case CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL:
    case CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL:
    case CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL:
      return out.scalar<cl_device_unified_shared_memory_capabilities_intel>(kUsmCapabilities);
    case CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL:
      return out.scalar<cl_device_unified_shared_memory_capabilities_intel>(device.unifiedMemory ? kUsmCapabilities : 0);
    case CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL:
      return out.scalar<cl_device_unified_shared_memory_capabilities_intel>(device.accessesSystemAllocations ? kUsmCapabilities : 0);
    default: break;
  }
  return reportError(CL_INVALID_VALUE, "clGetDeviceInfo", "unknown param_name");
}

}  // namespace loom::cl
