#pragma once
// The few CUDA driver API types, constants and signatures Loom uses, declared here so that the
// build needs no CUDA toolkit. Values and signatures are those of the driver ABI (cuda.h); the
// driver is loaded at run time (cuda_driver.h), never linked.
#include <cstddef>
#include <cstdint>

namespace loom::backends::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;

struct CUctx_st;
struct CUlinkState_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;
using CUcontext = CUctx_st*;
using CUlinkState = CUlinkState_st*;
using CUmodule = CUmod_st*;
using CUfunction = CUfunc_st*;
using CUstream = CUstream_st*;
using CUevent = CUevent_st*;

struct CUuuid {
  char bytes[16];
};

// CUmemorytype: with unified addressing the driver tells host from device memory by the address.
constexpr int CU_MEMORYTYPE_UNIFIED = 4;

// CUDA_MEMCPY2D (v2): a copy of `Height` rows of `WidthInBytes` between pitched layouts.
struct CudaMemcpy2d {
  size_t srcXInBytes, srcY;
  int srcMemoryType;
  const void* srcHost;
  CUdeviceptr srcDevice;
  void* srcArray;
  size_t srcPitch;
  size_t dstXInBytes, dstY;
  int dstMemoryType;
  void* dstHost;
  CUdeviceptr dstDevice;
  void* dstArray;
  size_t dstPitch;
  size_t WidthInBytes, Height;
};
static_assert(sizeof(CudaMemcpy2d) == 128);

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
constexpr CUresult CUDA_ERROR_NOT_READY = 600;  // cuStreamQuery: work still running
constexpr CUresult CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704;
constexpr CUresult CUDA_ERROR_NOT_SUPPORTED = 801;

// CUdevice_attribute
enum class DeviceAttribute : int {
  MaxThreadsPerBlock = 1,
  MaxBlockDimX = 2,
  MaxBlockDimY = 3,
  MaxBlockDimZ = 4,
  MaxGridDimX = 5,
  MaxGridDimY = 6,
  MaxGridDimZ = 7,
  MaxSharedMemoryPerBlock = 8,
  WarpSize = 10,
  ClockRateKHz = 13,
  MultiprocessorCount = 16,
  Integrated = 18,
  PciBusId = 33,
  PciDeviceId = 34,  // the device (slot) number on the bus, not the PCI product id
  MemoryClockRateKHz = 36,
  GlobalMemoryBusWidth = 37,
  L2CacheSize = 38,
  MaxThreadsPerMultiprocessor = 39,
  AsyncEngineCount = 40,
  PciDomainId = 50,
  ComputeCapabilityMajor = 75,
  ComputeCapabilityMinor = 76,
  PageableMemoryAccess = 88,
  MaxSharedMemoryPerBlockOptin = 97,
  VirtualMemoryManagementSupported = 102,
  HandleTypePosixFileDescriptorSupported = 103,
  MaxPersistingL2CacheSize = 108,
  MaxAccessPolicyWindowSize = 109,
};

// CUjit_option
enum class JitOption : int {
  InfoLogBuffer = 3,
  InfoLogBufferSizeBytes = 4,
  ErrorLogBuffer = 5,
  ErrorLogBufferSizeBytes = 6,
};

// CUjitInputType: what cuLinkAddData reads.
enum class JitInputType : int {
  Ptx = 1,
};

// CUfunction_attribute
enum class FunctionAttribute : int {
  MaxThreadsPerBlock = 0,
  MaxDynamicSharedSizeBytes = 8,
};

// CUdevice_P2PAttribute
enum class P2PAttribute : int {
  NativeAtomicSupported = 3,
};

// Virtual memory management (cuMemCreate, cuMemMap and their kin).
using CUmemGenericAllocationHandle = unsigned long long;

constexpr int CU_MEM_LOCATION_TYPE_DEVICE = 1;
constexpr int CU_MEM_ALLOCATION_TYPE_PINNED = 1;
constexpr int CU_MEM_ALLOC_GRANULARITY_MINIMUM = 0;
constexpr int CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR = 0x1;  // CUmemAllocationHandleType
constexpr int CU_MEM_ACCESS_FLAGS_PROT_NONE = 0;
constexpr int CU_MEM_ACCESS_FLAGS_PROT_READ = 1;
constexpr int CU_MEM_ACCESS_FLAGS_PROT_READWRITE = 3;

struct CUmemLocation {
  int type;  // CU_MEM_LOCATION_TYPE_*
  int id;    // the device ordinal for a device location
};

struct CUmemAllocationProp {
  int type;  // CU_MEM_ALLOCATION_TYPE_*
  int requestedHandleTypes;
  CUmemLocation location;
  void* win32HandleMetaData;
  struct {
    unsigned char compressionType;
    unsigned char gpuDirectRDMACapable;
    unsigned short usage;
    unsigned char reserved[4];
  } allocFlags;
};
static_assert(sizeof(CUmemAllocationProp) == 32);

struct CUmemAccessDesc {
  CUmemLocation location;
  int flags;  // CU_MEM_ACCESS_FLAGS_PROT_*
};

constexpr unsigned CU_MEM_ATTACH_GLOBAL = 0x1;
constexpr unsigned CU_MEMHOSTALLOC_PORTABLE = 0x1;
constexpr unsigned CU_STREAM_NON_BLOCKING = 0x1;
constexpr unsigned CU_EVENT_DISABLE_TIMING = 0x2;

}  // namespace loom::backends::cuda

// --- IPC, host-memory registration and stream memory operations -------------------------------
namespace loom::backends::cuda {

// CUipcMemHandle: an allocation's handle for other processes, passed by value.
struct CUipcMemHandle {
  char reserved[64];
};

// CUdevice_attribute values these features check.
constexpr DeviceAttribute kCanUseHostPointerForRegisteredMem = DeviceAttribute(91);
constexpr DeviceAttribute kCanUseStreamMemOpsV1 = DeviceAttribute(92);  // before the v2 operations (driver 11.7)
constexpr int kStreamMemOpsV2DriverVersion = 11070;  // v2 stream memory operations need no opt-in
// The oldest driver that loads the compiler's PTX (ISA 7.5, compiler/src/nvptx/ptx_code_generator.h).
constexpr int kMinimumDriverVersion = 11050;

constexpr unsigned CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS = 0x1;
constexpr unsigned CU_MEMHOSTREGISTER_PORTABLE = 0x1;
constexpr unsigned CU_MEMHOSTREGISTER_DEVICEMAP = 0x2;
constexpr unsigned CU_STREAM_WAIT_VALUE_GEQ = 0x0;
constexpr unsigned CU_STREAM_WRITE_VALUE_DEFAULT = 0x0;  // with a memory barrier after the work before

}  // namespace loom::backends::cuda

// --- Launches with attributes (cuLaunchKernelEx, driver 12.0 and later) -------------------------
namespace loom::backends::cuda {

constexpr int kLaunchKernelExDriverVersion = 12000;

// CUlaunchAttributeID
constexpr int CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION = 6;

// CUlaunchAttribute: an id, then a 64-byte union of values at offset 8.
struct CUlaunchAttribute {
  int id;
  char pad[4];
  union {
    char pad[64];
    int programmaticStreamSerializationAllowed;
  } value;
};
static_assert(sizeof(CUlaunchAttribute) == 72);

struct CUlaunchConfig {
  unsigned int gridDimX, gridDimY, gridDimZ;
  unsigned int blockDimX, blockDimY, blockDimZ;
  unsigned int sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute* attrs;
  unsigned int numAttrs;
};
static_assert(sizeof(CUlaunchConfig) == 56);

}  // namespace loom::backends::cuda

// --- Texture objects (cuTexObjectCreate) ---------------------------------------------------------
namespace loom::backends::cuda {

using CUtexObject = unsigned long long;
using CUsurfObject = unsigned long long;
struct CUarray_st;
using CUarray = CUarray_st*;

// CUresourcetype
constexpr int CU_RESOURCE_TYPE_ARRAY = 0;
constexpr int CU_RESOURCE_TYPE_PITCH2D = 3;

// CUarray_format
enum class ArrayFormat : int {
  UnsignedInt8 = 0x01,
  UnsignedInt16 = 0x02,
  UnsignedInt32 = 0x03,
  SignedInt8 = 0x08,
  SignedInt16 = 0x09,
  SignedInt32 = 0x0a,
  Half = 0x10,
  Float = 0x20,
};

// CUaddress_mode and CUfilter_mode
enum class AddressMode : int { Wrap = 0, Clamp = 1, Mirror = 2, Border = 3 };
enum class FilterMode : int { Point = 0, Linear = 1 };

// CUDA_TEXTURE_DESC flags
constexpr unsigned CU_TRSF_READ_AS_INTEGER = 0x01;
constexpr unsigned CU_TRSF_NORMALIZED_COORDINATES = 0x02;

// CUdevice_attribute values of texture limits.
constexpr DeviceAttribute kTexturePitchAlignment = DeviceAttribute(51);

// CUDA_RESOURCE_DESC: a resource type and a 128-byte union at offset 8, of which Loom uses the
// pitched 2D linear memory and arrays.
struct CudaResourceDesc {
  int resType;
  char pad[4];
  union {
    struct {
      CUarray hArray;
    } array;
    struct {
      CUdeviceptr devPtr;
      ArrayFormat format;
      unsigned int numChannels;
      size_t width;
      size_t height;
      size_t pitchInBytes;
    } pitch2D;
    int reserved[32];
  } res;
  unsigned int flags;
  char padEnd[4];
};
static_assert(sizeof(CudaResourceDesc) == 144);

// CUDA_TEXTURE_DESC
struct CudaTextureDesc {
  AddressMode addressMode[3];
  FilterMode filterMode;
  unsigned int flags;
  unsigned int maxAnisotropy;
  FilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  float borderColor[4];
  int reserved[12];
};
static_assert(sizeof(CudaTextureDesc) == 104);

// CUDA_ARRAY3D_DESCRIPTOR: Depth 0 makes a 2D array.
struct CudaArray3dDescriptor {
  size_t Width;
  size_t Height;
  size_t Depth;
  ArrayFormat Format;
  unsigned int NumChannels;
  unsigned int Flags;
};
static_assert(sizeof(CudaArray3dDescriptor) == 40);

// CUDA_ARRAY3D_DESCRIPTOR flags: the array may be written through a surface object.
constexpr unsigned CUDA_ARRAY3D_SURFACE_LDST = 0x02;

}  // namespace loom::backends::cuda

// --- Persisting L2 cache (cuda_cache_reservation.h) ---------------------------------------------
namespace loom::backends::cuda {

// CUlimit: the bytes of L2 set aside for persisting accesses.
constexpr int CU_LIMIT_PERSISTING_L2_CACHE_SIZE = 0x06;
// CUstreamAttrID
constexpr int CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW = 1;

// CUaccessProperty
enum class AccessProperty : int { Normal = 0, Streaming = 1, Persisting = 2 };

// CUaccessPolicyWindow: accesses in [base_ptr, base_ptr + num_bytes) get hitProp with probability
// hitRatio, missProp otherwise; num_bytes 0 turns the window off.
struct CUaccessPolicyWindow {
  void* base_ptr;
  size_t num_bytes;
  float hitRatio;
  AccessProperty hitProp;
  AccessProperty missProp;
};
static_assert(sizeof(CUaccessPolicyWindow) == 32);

// CUstreamAttrValue: a 64-byte union, of which Loom sets the access policy window.
union CUstreamAttrValue {
  char pad[64];
  CUaccessPolicyWindow accessPolicyWindow;
};
static_assert(sizeof(CUstreamAttrValue) == 64);

}  // namespace loom::backends::cuda
