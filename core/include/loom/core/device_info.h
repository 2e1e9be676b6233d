#pragma once
// Backend-neutral description of a device; frontends translate it into their own property structs.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace loom::core {

enum class DeviceType : uint8_t { Cpu, Gpu };

// What a device does with images (image.h): whether kernels and copies take them, the largest
// of each type in texels, and how many a kernel may take.
struct ImageLimits {
  bool supported = false;
  bool writes3d = false;  // kernels write 3D images (cl_khr_3d_image_writes)
  uint64_t max2dWidth = 0;  // 1D and 2D images, and the layers of arrays
  uint64_t max2dHeight = 0;
  uint64_t max3dWidth = 0;
  uint64_t max3dHeight = 0;
  uint64_t max3dDepth = 0;
  uint64_t maxArraySize = 0;
  uint64_t maxBufferTexels = 0;  // 1D buffer images
  uint32_t maxReadArguments = 0;
  uint32_t maxWriteArguments = 0;
  uint32_t maxReadWriteArguments = 0;
  uint32_t maxSamplers = 0;
  // Texels that the row pitch of a 2D image over a buffer, and that buffer's address, must be
  // multiples of (cl_khr_image2d_from_buffer).
  uint32_t pitchAlignment = 0;
  uint32_t baseAddressAlignment = 0;
};

// Images as Loom's devices keep them: texels in pitched linear memory that the builtin library
// reads, samples and writes in software, as large as OpenCL's full profile requires, with no
// alignment beyond the texel's own.
inline ImageLimits linearImageLimits() {
  ImageLimits limits;
  limits.supported = true;
  limits.writes3d = true;
  limits.max2dWidth = limits.max2dHeight = 16384;
  limits.max3dWidth = limits.max3dHeight = limits.max3dDepth = 2048;
  limits.maxArraySize = 2048;
  limits.maxBufferTexels = uint64_t(1) << 27;
  limits.maxReadArguments = 128;
  limits.maxWriteArguments = 64;
  limits.maxReadWriteArguments = 64;
  limits.maxSamplers = 16;
  limits.pitchAlignment = 1;
  limits.baseAddressAlignment = 1;
  return limits;
}

inline constexpr uint32_t kNanosecondTimestampBits = 63;

struct DeviceInfo {
  DeviceType type = DeviceType::Cpu;
  std::string name;
  std::string backendName;  // "cpu", "cuda"
  uint32_t vendorId = 0;
  uint32_t deviceId = 0;
  std::array<uint8_t, 16> uuid{};
  uint32_t coreClockMHz = 0;
  uint32_t memoryClockMHz = 0;
  uint32_t memoryBusWidth = 0;
  uint64_t globalMemorySize = 0;
  uint64_t maxAllocationSize = 0;
  // Compute topology in Level Zero terms: slices x sub-slices x EUs x hardware threads.
  uint32_t numSlices = 1;
  uint32_t numSubslicesPerSlice = 1;
  uint32_t numEusPerSubslice = 1;
  uint32_t numThreadsPerEu = 1;
  // Work-items one instruction computes: a GPU's warp; on the CPU the float lanes of its SIMD
  // register, across which the work-item loops along x are vectorized.
  uint32_t simdWidth = 1;
  uint32_t computeUnits = 1;  // OpenCL CL_DEVICE_MAX_COMPUTE_UNITS
  uint32_t maxWorkGroupSize = 1;
  std::array<uint32_t, 3> maxGroupSize{1, 1, 1};
  std::array<uint32_t, 3> maxGroupCount{1, 1, 1};
  uint32_t maxSharedLocalMemory = 0;
  std::vector<uint32_t> subGroupSizes;
  // Queues (engines) of each queue group the backend offers applications.
  uint32_t computeQueues = 1;
  uint32_t copyQueues = 1;
  uint32_t maxArgumentsSize = 0;
  // Bytes of printf output one launch may leave: the CUDA driver's default printf FIFO; the CPU
  // prints at once and reports the same size, by which programs may size their output.
  uint64_t printfBufferSize = uint64_t(1) << 20;
  uint64_t timerResolutionNs = 1;
  // Nanosecond timestamps stay below 2^63 for centuries, so 63 bits are all valid; 63 rather than
  // 64 because applications mask with (1 << bits) - 1, which a 64-bit shift leaves undefined
  // (ze_peak's kernel latency then comes out 0).
  uint32_t timestampValidBits = kNanosecondTimestampBits;
  uint32_t kernelTimestampValidBits = kNanosecondTimestampBits;
  uint64_t l1CacheSize = 0;
  uint64_t lastLevelCacheSize = 0;
  // Bytes of the last-level cache an application may reserve (Backend::reserveCache); 0: none.
  uint64_t maxCacheReservationSize = 0;
  uint32_t cacheLineSize = 64;
  bool supportsFp16 = false;
  bool supportsFp64 = true;
  bool supportsInt64Atomics = true;
  bool supportsFloatAtomics = true;
  bool unifiedMemory = true;  // device memory is host memory (the CPU)
  // Kernels may dereference any host pointer, malloc'ed ones too (the CPU; GPUs with pageable
  // memory access, e.g. through HMM).
  bool accessesSystemAllocations = true;
  ImageLimits images;
};

// What group sizes along x the device runs best in multiples of (a GPU's warp, the CPU's vector
// lanes): the group-size suggestion of both APIs prefers them.
inline uint32_t preferredGroupSizeMultiple(const DeviceInfo& info) { return info.simdWidth > 1 ? info.simdWidth : 1; }

// The vector width a kernel should use for elements of this size (OpenCL's preferred and native
// vector widths, which programs such as hashcat size their work by): on a CPU as many as fill
// its SIMD register, at least 16 bytes' worth; 1 on a GPU, whose work-items are the scalar lanes
// of a warp and gain nothing from vectors.
inline uint32_t preferredVectorWidth(const DeviceInfo& info, uint32_t elementBytes) {
  if (info.type != DeviceType::Cpu || elementBytes == 0) return 1;
  const uint32_t simdRegisterBytes = info.simdWidth * 4;  // simdWidth counts float lanes
  const uint32_t registerBytes = simdRegisterBytes < 16 ? 16 : simdRegisterBytes;
  const uint32_t width = registerBytes / elementBytes;
  return width > 16 ? 16 : width;  // OpenCL vectors stop at 16
}

}  // namespace loom::core
