#include "backends/cuda/cuda_backend.h"

#include <cstring>
#include <mutex>
#include <utility>

#include "backends/cuda/cuda_device_info.h"
#include "backends/cuda/cuda_image_registry.h"
#include "backends/cuda/cuda_image_textures.h"
#include "backends/cuda/cuda_program.h"
#include "backends/cuda/nvml_telemetry.h"
#include "loom/core/debug_keys.h"
#include "loom/core/futex.h"
#include "loom/core/image.h"
#include "loom/core/log.h"

namespace loom::backends::cuda {

namespace {
CUdeviceptr address(const void* pointer) { return reinterpret_cast<CUdeviceptr>(pointer); }

// An engine's queue when the driver has no stream left for it: its commands run on the backend's
// own stream, which other threads share, and complete before each call returns.
class SharedStreamQueue final : public core::BackendQueue {
 public:
  SharedStreamQueue(std::mutex& mutex, CudaQueue& stream) : mutex_(mutex), stream_(stream) {}
  bool asynchronous() const override { return false; }
  void launch(const core::KernelLaunch& launch, const uint8_t* arguments) override {
    run([&] { stream_.launch(launch, arguments); });
  }
  void copy(void* destination, const void* source, size_t size) override {
    run([&] { stream_.copy(destination, source, size); });
  }
  void fill(void* destination, const void* pattern, size_t patternSize, size_t size) override {
    run([&] { stream_.fill(destination, pattern, patternSize, size); });
  }
  void copyRegion(const core::CopyRegionCommand& copy) override {
    run([&] { stream_.copyRegion(copy); });
  }
  bool completed() override { return true; }
  void synchronize() override {}
  int32_t takeFailure() override { return std::exchange(failure_, 0); }

 private:
  template <typename Command>
  void run(Command&& command) {
    std::lock_guard lock(mutex_);
    command();
    stream_.synchronize();
    const int32_t failure = stream_.takeFailure();
    if (failure_ == 0) failure_ = failure;
  }

  std::mutex& mutex_;
  CudaQueue& stream_;
  int32_t failure_ = 0;
};
}  // namespace

std::unique_ptr<CudaBackend> CudaBackend::create(std::shared_ptr<const Driver> driver, CUdevice device, std::string& error) {
  std::shared_ptr<const PrimaryContext> context = PrimaryContext::retain(driver, device, error);
  if (!context) return nullptr;
  core::DeviceInfo info = describeDevice(*driver, device);
  int version = 0;
  driver->cuDriverGetVersion(&version);
  CudaCapabilities capabilities = readCapabilities(version, driverAttributes(*driver, device));
  // The debug key turns early launches off, for comparisons.
  capabilities.dependentLaunches =
      capabilities.dependentLaunches && driver->cuLaunchKernelEx && core::debugKeys().EnableDependentLaunches;
  std::unique_ptr<CudaQueue> queue = CudaQueue::create(context, info.name, CudaQueue::Caller::AnyThread, false, error);
  if (!queue) return nullptr;
  return std::unique_ptr<CudaBackend>(new CudaBackend(std::move(context), std::move(queue), std::move(info), capabilities));
}

std::unique_ptr<core::Telemetry> CudaBackend::createTelemetry() {
  return createNvmlTelemetry(pciAddress(driverAttributes(driver(), context_->device())));
}

bool CudaBackend::succeeded(CUresult result, const char* call) const {
  if (result == CUDA_SUCCESS) return true;
  core::debugMessage("%s: %s", info_.name.c_str(), driver().describe(call, result).c_str());
  return false;
}

std::unique_ptr<core::BackendProgram> CudaBackend::loadProgram(std::shared_ptr<const compiler::CompiledProgram> program,
                                                               std::string& log) {
  return CudaProgram::load(context_, std::move(program), capabilities_.dependentLaunches, log);
}

std::unique_ptr<core::BackendQueue> CudaBackend::createQueue() {
  std::string error;
  std::unique_ptr<CudaQueue> queue = CudaQueue::create(context_, info_.name, CudaQueue::Caller::EngineThread,
                                                       capabilities_.streamValueOperations, error);
  if (queue) {
    queue->followCacheReservation(reservationToFollow());
    return queue;
  }
  // Out of streams: the engine still works, synchronously, on the backend's own stream.
  core::debugMessage("%s: %s; this engine runs its commands synchronously", info_.name.c_str(), error.c_str());
  return std::make_unique<SharedStreamQueue>(synchronousMutex_, *synchronous_);
}

// A failure here was said under PrintDebugMessages and is nobody's to report: it must not reach
// an engine whose queue shares the stream.
void CudaBackend::copy(void* destination, const void* source, size_t size) {
  std::lock_guard lock(synchronousMutex_);
  synchronous_->copy(destination, source, size);
  synchronous_->synchronize();
  synchronous_->takeFailure();
}

void CudaBackend::fill(void* destination, const void* pattern, size_t patternSize, size_t size) {
  std::lock_guard lock(synchronousMutex_);
  synchronous_->fill(destination, pattern, patternSize, size);
  synchronous_->synchronize();
  synchronous_->takeFailure();
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

bool CudaBackend::registerHostMemory(void* address, size_t size) {
  if (!capabilities_.registersHostMemoryInPlace) return false;
  auto scope = context_->makeCurrent();
  return succeeded(driver().cuMemHostRegister(address, size, CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP),
                   "cuMemHostRegister");
}

void CudaBackend::unregisterHostMemory(void* address) {
  auto scope = context_->makeCurrent();
  succeeded(driver().cuMemHostUnregister(address), "cuMemHostUnregister");
}

void CudaBackend::createImageTextures(const core::Image& image, uint64_t* textures) {
  auto scope = context_->makeCurrent();
  const CUdeviceptr texels = address(image.data());
  std::unique_ptr<TextureMirror> mirror = createTextureMirror(image);
  if (mirror)
    cuda::createImageTextures(driver(), mirror->resource(), textures);
  else
    cuda::createImageTextures(driver(), image.shape(), texels, capabilities_.texturePitchAlignment, textures);
  if (textures[0] == 0) mirror.reset();  // no texture reads it
  ImageRegistry::instance().add(image.descriptorAddress(), texels, image.sizeInBytes(), mirror.get());
  if (!mirror) return;
  std::lock_guard lock(mirrorsMutex_);
  mirrors_[image.descriptorAddress()] = std::move(mirror);
}

std::unique_ptr<TextureMirror> CudaBackend::createTextureMirror(const core::Image& image) {
  if (!image.kernelsRead() || !image.ownsStorage() || !TextureMirror::serves(image.shape()) ||
      !core::debugKeys().EnableTextureMirrors)
    return nullptr;
  CUfunction refresh = mirrorRefreshKernel();
  if (!refresh) return nullptr;
  std::unique_ptr<TextureMirror> mirror =
      TextureMirror::create(driver(), image.shape(), address(image.data()), refresh, capabilities_.streamValueOperations);
  if (!mirror) return nullptr;
  // Stale from the start: the texels are the pitched memory's until the first refresh.
  const uint32_t stale = 1;
  fill(reinterpret_cast<void*>(mirror->staleWord()), &stale, sizeof(stale), sizeof(stale));
  return mirror;
}

CUfunction CudaBackend::mirrorRefreshKernel() {
  std::lock_guard lock(mirrorsMutex_);
  if (std::exchange(mirrorModuleTried_, true)) return mirrorRefresh_;
  if (!succeeded(driver().cuModuleLoadDataEx(&mirrorModule_, kTextureMirrorRefreshPtx, 0, nullptr, nullptr), "cuModuleLoadDataEx"))
    return nullptr;
  if (!succeeded(driver().cuModuleGetFunction(&mirrorRefresh_, mirrorModule_, kTextureMirrorRefreshEntry), "cuModuleGetFunction"))
    mirrorRefresh_ = nullptr;
  return mirrorRefresh_;
}

void CudaBackend::destroyImageTextures(const core::Image& image, const uint64_t* textures) {
  ImageRegistry::instance().remove(image.descriptorAddress());
  auto scope = context_->makeCurrent();
  cuda::destroyImageTextures(driver(), textures);
  std::lock_guard lock(mirrorsMutex_);
  mirrors_.erase(image.descriptorAddress());
}

CudaBackend::~CudaBackend() {
  if (!mirrorModule_) return;
  auto scope = context_->makeCurrent();
  driver().cuModuleUnload(mirrorModule_);
}

bool CudaBackend::exportMemory(void* pointer, core::MemoryType type, core::DriverIpcHandle& handle) {
  if (type != core::MemoryType::Device) {
    core::debugMessage("%s: CUDA IPC shares device memory only, not %s memory", info_.name.c_str(),
                       type == core::MemoryType::Host ? "pinned host" : "managed (shared)");
    return false;
  }
  auto scope = context_->makeCurrent();
  CUipcMemHandle ipc{};
  if (!succeeded(driver().cuIpcGetMemHandle(&ipc, address(pointer)), "cuIpcGetMemHandle")) return false;
  static_assert(sizeof(ipc) == sizeof(handle.bytes));
  std::memcpy(handle.bytes, &ipc, sizeof(ipc));
  return true;
}

void* CudaBackend::importMemory(const core::DriverIpcHandle& handle) {
  if (handle.form != core::DriverIpcHandle::Form::Driver) {
    core::debugMessage("%s: colored memory of a root over GPUs opens on such a root only, not on one GPU", info_.name.c_str());
    return nullptr;
  }
  auto scope = context_->makeCurrent();
  CUipcMemHandle ipc;
  std::memcpy(&ipc, handle.bytes, sizeof(ipc));
  CUdeviceptr pointer = 0;
  if (!succeeded(driver().cuIpcOpenMemHandle(&pointer, ipc, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS), "cuIpcOpenMemHandle"))
    return nullptr;
  return reinterpret_cast<void*>(pointer);
}

void CudaBackend::closeImportedMemory(void* pointer) {
  auto scope = context_->makeCurrent();
  succeeded(driver().cuIpcCloseMemHandle(address(pointer)), "cuIpcCloseMemHandle");
}

std::optional<std::vector<std::shared_ptr<const PrimaryContext>>> CudaBackend::coloredMemoryGpus(
    const std::vector<core::Backend*>& tiles) const {
  if (!addressSpace_) {
    core::debugMessage("%s: no colored memory without virtual memory management", info_.name.c_str());
    return std::nullopt;
  }
  std::vector<std::shared_ptr<const PrimaryContext>> gpus;
  for (core::Backend* tile : tiles) {
    const auto* gpu = dynamic_cast<const CudaBackend*>(tile);
    if (!gpu || &gpu->driver() != &driver()) {
      core::debugMessage("%s: colored memory spans GPUs of one CUDA driver only, not %s", info_.name.c_str(), tile->info().name.c_str());
      return std::nullopt;
    }
    gpus.push_back(gpu->context());
  }
  return gpus;
}

void* CudaBackend::keepColoredMemory(std::unique_ptr<CudaColoredMemory> memory) {
  if (!memory) return nullptr;
  void* address = memory->address();
  std::lock_guard lock(coloredMutex_);
  colored_[address] = std::move(memory);
  return address;
}

void* CudaBackend::allocateColoredMemory(const std::vector<core::Backend*>& tiles, const std::vector<core::MemoryChunk>& chunks,
                                         size_t size) {
  auto gpus = coloredMemoryGpus(tiles);
  if (!gpus) return nullptr;
  return keepColoredMemory(CudaColoredMemory::create(std::move(*gpus), chunks, size, addressSpace_->pageSize()));
}

void* CudaBackend::importColoredMemory(const std::vector<core::Backend*>& tiles, const std::vector<core::MemoryChunk>& chunks,
                                       size_t size, const std::vector<int>& descriptors) {
  auto gpus = coloredMemoryGpus(tiles);
  if (!gpus) return nullptr;
  return keepColoredMemory(CudaColoredMemory::import(std::move(*gpus), chunks, size, addressSpace_->pageSize(), descriptors));
}

std::vector<int> CudaBackend::exportColoredMemory(void* address) {
  std::lock_guard lock(coloredMutex_);
  auto found = colored_.find(address);
  if (found == colored_.end()) return {};
  return found->second->exportChunks();
}

void CudaBackend::releaseColoredMemory(void* address) {
  std::unique_ptr<CudaColoredMemory> memory;
  {
    std::lock_guard lock(coloredMutex_);
    auto found = colored_.find(address);
    if (found == colored_.end()) return;
    memory = std::move(found->second);
    colored_.erase(found);
  }
}

std::unique_ptr<core::PhysicalMemory> CudaBackend::createPhysicalMemory(size_t size) {
  return addressSpace_ ? addressSpace_->createPhysicalMemory(index_, size) : nullptr;
}

core::PeerAccess CudaBackend::peerAccess(const core::Backend& peer) const {
  const auto* gpu = dynamic_cast<const CudaBackend*>(&peer);
  if (!gpu || &gpu->driver() != &driver() || gpu->index_ >= peers_.size()) return {};
  return peers_[gpu->index_];
}

core::PeerLink CudaBackend::peerLink(const core::Backend& peer) const {
  const auto* gpu = dynamic_cast<const CudaBackend*>(&peer);
  if (!gpu || !peerAccess(peer).access) return {};
  return nvmlPeerLink(pciAddress(driverAttributes(driver(), context_->device())),
                      pciAddress(driverAttributes(gpu->driver(), gpu->context_->device())));
}

bool CudaBackend::reserveCache(size_t bytes, std::string& why) {
  const size_t limit = cacheReservation_.maxReservation();
  if (limit == 0) return core::Backend::reserveCache(bytes, why);
  if (bytes > limit) {
    why = "more than the GPU's " + std::to_string(limit) + " bytes of persisting L2 cache";
    return false;
  }
  return cacheReservation_.reserve(*context_, bytes, why);
}

bool CudaBackend::adviseCache(const void* address, size_t size, bool reserved, std::string& why) {
  if (cacheReservation_.maxReservation() == 0) return core::Backend::adviseCache(address, size, reserved, why);
  cacheReservation_.advise(reinterpret_cast<uintptr_t>(address), size, reserved);
  return true;
}

void CudaBackend::joinGroup(size_t index, std::vector<core::PeerAccess> peers, std::shared_ptr<CudaAddressSpace> space) {
  index_ = index;
  peers_ = std::move(peers);
  addressSpace_ = std::move(space);
}

namespace {
// Peer access and one address space for the GPUs of one driver.
void joinGpus(const std::vector<CudaBackend*>& gpus) {
  if (gpus.empty()) return;
  std::vector<std::shared_ptr<const PrimaryContext>> contexts;
  for (CudaBackend* gpu : gpus) contexts.push_back(gpu->context());
  PeerMatrix peers = enablePeerAccess(contexts);
  std::string error;
  std::shared_ptr<CudaAddressSpace> space = CudaAddressSpace::create(contexts, peers, error);
  if (!space) core::debugMessage("no virtual memory on the GPUs: %s", error.c_str());
  for (size_t i = 0; i < gpus.size(); ++i) gpus[i]->joinGroup(i, peers[i], space);
}

// 11050 -> "11.5", as the driver API encodes its version.
std::string driverVersionName(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}
}  // namespace

std::string whyDriverUnsupported(int version) {
  if (version >= kMinimumDriverVersion) return {};
  return "the CUDA driver is " + driverVersionName(version) + ", older than " + driverVersionName(kMinimumDriverVersion) +
         ", the first that loads Loom's PTX";
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
  core::debugMessage("CUDA driver %s: %d GPU(s)", driverVersionName(version).c_str(), count);
  whyNone = whyDriverUnsupported(version);
  if (!whyNone.empty()) return {};
  std::vector<core::DiscoveredDevice> devices;
  std::vector<CudaBackend*> gpus;
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
    gpus.push_back(backend.get());
    devices.push_back(core::DiscoveredDevice{std::move(backend), {}});
  }
  joinGpus(gpus);
  if (devices.empty()) whyNone = count == 0 ? "the CUDA driver reports no GPU" : "no CUDA GPU could be opened";
  return devices;
}

}  // namespace loom::backends::cuda
