#include "backends/cuda/cuda_backend.h"

#include "backends/cuda/cuda_device_info.h"
#include "backends/cuda/cuda_fill.h"
#include "backends/cuda/cuda_kernel_parameters.h"
#include "backends/cuda/cuda_program.h"
#include "loom/core/futex.h"
#include "loom/core/log.h"

namespace loom::backends::cuda {

namespace {
constexpr size_t kFillTileBytes = 64 * 1024;

CUdeviceptr address(const void* pointer) { return reinterpret_cast<CUdeviceptr>(pointer); }
}  // namespace

std::unique_ptr<CudaBackend> CudaBackend::create(std::shared_ptr<const Driver> driver, CUdevice device, std::string& error) {
  std::shared_ptr<const PrimaryContext> context = PrimaryContext::retain(driver, device, error);
  if (!context) return nullptr;
  auto scope = context->makeCurrent();
  CUstream stream = nullptr;
  if (CUresult result = driver->cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING); result != CUDA_SUCCESS) {
    error = driver->describe("cuStreamCreate", result);
    return nullptr;
  }
  return std::unique_ptr<CudaBackend>(new CudaBackend(std::move(context), stream, describeDevice(*driver, device)));
}

CudaBackend::~CudaBackend() {
  auto scope = context_->makeCurrent();
  driver().cuStreamDestroy(stream_);
}

bool CudaBackend::succeeded(CUresult result, const char* call) const {
  if (result == CUDA_SUCCESS) return true;
  core::debugMessage("%s: %s", info_.name.c_str(), driver().describe(call, result).c_str());
  return false;
}

bool CudaBackend::synchronize() const { return succeeded(driver().cuStreamSynchronize(stream_), "cuStreamSynchronize"); }

std::unique_ptr<core::BackendProgram> CudaBackend::loadProgram(std::shared_ptr<const compiler::CompiledProgram> program,
                                                               std::string& log) {
  return CudaProgram::load(context_, std::move(program), log);
}

bool CudaBackend::raiseDynamicSharedLimit(const core::KernelLaunch& launch) const {
  auto* kernel = static_cast<CudaKernel*>(launch.kernel);
  if (launch.localMemorySize <= kernel->dynamicSharedLimit) return true;
  const CUresult result = driver().cuFuncSetAttribute(kernel->function(), FunctionAttribute::MaxDynamicSharedSizeBytes,
                                                      static_cast<int>(launch.localMemorySize));
  if (!succeeded(result, "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)")) return false;
  kernel->dynamicSharedLimit = launch.localMemorySize;
  return true;
}

void CudaBackend::launch(const core::KernelLaunch& launch) {
  const uint32_t* groups = launch.groupCount;
  if (uint64_t(groups[0]) * groups[1] * groups[2] == 0) return;
  auto scope = context_->makeCurrent();
  if (!raiseDynamicSharedLimit(launch)) return;
  PackedParameters parameters = packParameters(*launch.descriptor, launch.arguments, implicitParameters(launch));
  const CUresult result = driver().cuLaunchKernel(static_cast<CudaKernel*>(launch.kernel)->function(), groups[0], groups[1],
                                                  groups[2], launch.groupSize[0], launch.groupSize[1], launch.groupSize[2],
                                                  launch.localMemorySize, stream_, parameters.pointers.data(), nullptr);
  if (!succeeded(result, "cuLaunchKernel")) return;
  synchronize();
}

void CudaBackend::copy(void* destination, const void* source, size_t size) {
  if (size == 0) return;
  auto scope = context_->makeCurrent();
  // Unified addressing: the driver tells host from device memory by the pointers.
  if (!succeeded(driver().cuMemcpyAsync(address(destination), address(source), size, stream_), "cuMemcpyAsync")) return;
  synchronize();
}

void CudaBackend::fill(void* destination, const void* pattern, size_t patternSize, size_t size) {
  if (size == 0 || patternSize == 0) return;
  const auto* bytes = static_cast<const uint8_t*>(pattern);
  const FillPlan plan = planFill(bytes, patternSize, address(destination), size);
  auto scope = context_->makeCurrent();
  const CUdeviceptr start = address(destination);
  bool issued = false;
  switch (plan.method) {
    case FillPlan::Method::Memset8:
      issued = succeeded(driver().cuMemsetD8Async(start, static_cast<uint8_t>(plan.value), plan.count, stream_), "cuMemsetD8Async");
      break;
    case FillPlan::Method::Memset16:
      issued = succeeded(driver().cuMemsetD16Async(start, static_cast<uint16_t>(plan.value), plan.count, stream_), "cuMemsetD16Async");
      break;
    case FillPlan::Method::Memset32:
      issued = succeeded(driver().cuMemsetD32Async(start, plan.value, plan.count, stream_), "cuMemsetD32Async");
      break;
    case FillPlan::Method::Doubling: fillByDoubling(destination, bytes, patternSize, size); return;
  }
  if (issued) synchronize();
}

// Uploads one tile of whole patterns, then copies the filled start of the destination after
// itself until all is filled: log2(size / tile) device-side copies.
void CudaBackend::fillByDoubling(void* destination, const uint8_t* pattern, size_t patternSize, size_t size) {
  const std::vector<uint8_t> tile = fillTile(pattern, patternSize, size, kFillTileBytes);
  const CUdeviceptr start = address(destination);
  if (!succeeded(driver().cuMemcpyAsync(start, address(tile.data()), tile.size(), stream_), "cuMemcpyAsync")) return;
  for (const FillCopy& copy : doublingCopies(tile.size(), size))
    if (!succeeded(driver().cuMemcpyAsync(start + copy.offset, start, copy.size, stream_), "cuMemcpyAsync")) break;
  synchronize();  // also keeps `tile` alive until the upload is done
}

uint64_t CudaBackend::timestamp() const { return core::monotonicNanoseconds(); }

void* CudaBackend::allocateMemory(core::MemoryType type, size_t size) {
  switch (type) {
    case core::MemoryType::Device: return allocateDevice(size);
    case core::MemoryType::Host: return allocateHost(size);
    case core::MemoryType::Shared: return allocateShared(size);
  }
  return nullptr;
}

void* CudaBackend::allocateDevice(size_t size) {
  auto scope = context_->makeCurrent();
  CUdeviceptr pointer = 0;
  if (!succeeded(driver().cuMemAlloc(&pointer, size), "cuMemAlloc")) return nullptr;
  return reinterpret_cast<void*>(pointer);
}

void* CudaBackend::allocateHost(size_t size) {
  auto scope = context_->makeCurrent();
  void* pointer = nullptr;
  if (!succeeded(driver().cuMemHostAlloc(&pointer, size, CU_MEMHOSTALLOC_PORTABLE), "cuMemHostAlloc")) return nullptr;
  return pointer;
}

void* CudaBackend::allocateShared(size_t size) {
  auto scope = context_->makeCurrent();
  size_t free = 0, total = 0;
  if (!succeeded(driver().cuMemGetInfo(&free, &total), "cuMemGetInfo")) return nullptr;
  if (size > free) {
    core::debugMessage("%s: %zu bytes of managed memory refused: %zu bytes free", info_.name.c_str(), size, free);
    return nullptr;
  }
  CUdeviceptr pointer = 0;
  if (!succeeded(driver().cuMemAllocManaged(&pointer, size, CU_MEM_ATTACH_GLOBAL), "cuMemAllocManaged")) return nullptr;
  return reinterpret_cast<void*>(pointer);
}

void CudaBackend::release(void* pointer, core::MemoryType type) {
  if (!pointer) return;
  auto scope = context_->makeCurrent();
  if (type == core::MemoryType::Host) {
    succeeded(driver().cuMemFreeHost(pointer), "cuMemFreeHost");
    return;
  }
  succeeded(driver().cuMemFree(address(pointer)), "cuMemFree");
}

std::vector<core::DiscoveredDevice> discoverCudaDevices(const std::string& library, std::string& whyNone) {
  std::shared_ptr<const Driver> driver = Driver::load(library, whyNone);
  if (!driver) return {};
  if (CUresult result = driver->cuInit(0); result != CUDA_SUCCESS) {
    whyNone = driver->describe("cuInit", result);
    return {};
  }
  int count = 0;
  if (CUresult result = driver->cuDeviceGetCount(&count); result != CUDA_SUCCESS) {
    whyNone = driver->describe("cuDeviceGetCount", result);
    return {};
  }
  int version = 0;
  driver->cuDriverGetVersion(&version);
  core::debugMessage("CUDA driver %d.%d: %d GPU(s)", version / 1000, version % 1000 / 10, count);
  std::vector<core::DiscoveredDevice> devices;
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    CUdevice device = 0;
    std::string error;
    std::unique_ptr<CudaBackend> backend;
    if (CUresult result = driver->cuDeviceGet(&device, ordinal); result != CUDA_SUCCESS)
      error = driver->describe("cuDeviceGet", result);
    else
      backend = CudaBackend::create(driver, device, error);
    if (!backend) {
      core::debugMessage("CUDA device %d skipped: %s", ordinal, error.c_str());
      continue;
    }
    devices.push_back(core::DiscoveredDevice{std::move(backend), {}});
  }
  if (devices.empty()) whyNone = count == 0 ? "the CUDA driver reports no GPU" : "no CUDA GPU could be opened";
  return devices;
}

}  // namespace loom::backends::cuda
