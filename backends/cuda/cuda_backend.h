#pragma once
// An NVIDIA GPU through the CUDA driver API: PTX modules, memory from the driver, and a CUDA
// stream for each engine (createQueue). The backend's own synchronous copy and fill run on one
// more stream and wait for it.
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "backends/cuda/cuda_address_space.h"
#include "backends/cuda/cuda_capabilities.h"
#include "backends/cuda/cuda_colored_memory.h"
#include "backends/cuda/cuda_context.h"
#include "backends/cuda/cuda_queue.h"
#include "backends/cuda/cuda_texture_mirror.h"
#include "loom/core/backend.h"
#include "loom/core/memory_manager.h"

namespace loom::backends::cuda {

class CudaBackend final : public core::Backend {
 public:
  // Retains the GPU's primary context and creates the backend's stream; nullptr and `error` on failure.
  static std::unique_ptr<CudaBackend> create(std::shared_ptr<const Driver> driver, CUdevice device, std::string& error);
  ~CudaBackend() override;

  const core::DeviceInfo& info() const override { return info_; }
  compiler::Target compilerTarget() const override { return compiler::Target::Nvptx; }
  std::unique_ptr<core::BackendProgram> loadProgram(std::shared_ptr<const compiler::CompiledProgram> program,
                                                    std::string& log) override;
  // Its PTX takes the group-id base and the whole launch's counts (nvptx_launch_abi.h).
  bool runsLaunchParts() const override { return true; }
  std::unique_ptr<core::BackendQueue> createQueue() override;
  void copy(void* destination, const void* source, size_t size) override;
  void fill(void* destination, const void* pattern, size_t patternSize, size_t size) override;
  // Host CLOCK_MONOTONIC_RAW nanoseconds, the CPU device's clock: the driver offers no host-readable
  // GPU clock. Queues give their commands' times on the same clock (CudaQueue::timeOfMark).
  uint64_t timestamp() const override;

  // Every kind of unified shared memory comes from the driver; nullptr when the GPU has too little.
  void* allocateMemory(core::MemoryType type, size_t size) override;
  void releaseMemory(void* address, core::MemoryType type) override { release(address, type); }
  // Pinned, mapped host memory: kernels on the GPU read it, copies from it run at full speed.
  bool providesHostMemory() const override { return true; }
  // cuMemHostRegister, portable and mapped, where the GPU addresses it in place.
  bool registerHostMemory(void* address, size_t size) override;
  void unregisterHostMemory(void* address) override;
  // Texture objects for the 2D and 1D images of the formats the texture units sample as OpenCL
  // does (cuda_image_textures.h), over a texture mirror where the image gains from one
  // (cuda_texture_mirror.h) and that kernels may read. Kernels store whole texels into images
  // that have texture objects (image_abi.h), so images they only write keep theirs. Every image
  // is entered in the ImageRegistry until destroyed.
  void createImageTextures(const core::Image& image, uint64_t* textures) override;
  void destroyImageTextures(const core::Image& image, const uint64_t* textures) override;
  // CUDA IPC (cuIpcGetMemHandle) shares device memory; managed and pinned memory have no handle.
  bool exportMemory(void* address, core::MemoryType type, core::DriverIpcHandle& handle) override;
  // Opens on this GPU, with peer access enabled as needed when another GPU exported it.
  void* importMemory(const core::DriverIpcHandle& handle) override;
  void closeImportedMemory(void* address) override;

  void* allocateDevice(size_t size);
  void* allocateHost(size_t size);  // pinned and mapped into every context
  // Managed memory; refused above the GPU's free memory, which could otherwise hang the GPU.
  void* allocateShared(size_t size);
  void release(void* pointer, core::MemoryType type);

  // Implicit scaling's device memory of a root over GPUs of this driver (cuda_colored_memory.h);
  // nullptr when a tile is no GPU of it, or the GPUs lack virtual memory management.
  void* allocateColoredMemory(const std::vector<core::Backend*>& tiles, const std::vector<core::MemoryChunk>& chunks,
                              size_t size) override;
  void releaseColoredMemory(void* address) override;
  // IPC of it: each chunk's POSIX file descriptor (cuMemExportToShareableHandle), and the same
  // layout mapped from another process's descriptors for the GPUs of `tiles`.
  std::vector<int> exportColoredMemory(void* address) override;
  void* importColoredMemory(const std::vector<core::Backend*>& tiles, const std::vector<core::MemoryChunk>& chunks, size_t size,
                            const std::vector<int>& descriptors) override;
  // The virtual memory page: the largest of the GPUs' minimum allocation granularities.
  size_t physicalGranularity() const override { return addressSpace_ ? addressSpace_->pageSize() : 0; }

  // Virtual memory in the driver's address space, shared by the GPUs (nullptr when they lack it).
  core::AddressSpace* addressSpace() override { return addressSpace_.get(); }
  std::unique_ptr<core::PhysicalMemory> createPhysicalMemory(size_t size) override;
  // What the GPUs of one discovery found about each other; none for any other device.
  core::PeerAccess peerAccess(const core::Backend& peer) const override;
  // NVML's account of the link to a GPU this one reaches as a peer (nvml_telemetry.h).
  core::PeerLink peerLink(const core::Backend& peer) const override;
  // The persisting part of the L2 cache and the access-policy window of every stream of the
  // backend (cuda_cache_reservation.h).
  bool reserveCache(size_t bytes, std::string& why) override;
  bool adviseCache(const void* address, size_t size, bool reserved, std::string& why) override;

  // Joins the GPUs of one driver, once they are all created: this is GPU `index` of them, `peers`
  // says how it reaches each of the others, and `space` is their shared address space.
  void joinGroup(size_t index, std::vector<core::PeerAccess> peers, std::shared_ptr<CudaAddressSpace> space);
  const std::shared_ptr<const PrimaryContext>& context() const { return context_; }

  // NVML's view of this GPU (backends/cuda/nvml_telemetry.h); the PCI address alone without NVML.
  std::unique_ptr<core::Telemetry> createTelemetry() override;

 private:
  CudaBackend(std::shared_ptr<const PrimaryContext> context, std::unique_ptr<CudaQueue> synchronous, core::DeviceInfo info,
              CudaCapabilities capabilities)
      : context_(std::move(context)),
        synchronous_(std::move(synchronous)),
        info_(std::move(info)),
        capabilities_(capabilities),
        cacheReservation_(info_.maxCacheReservationSize, capabilities.maxAccessPolicyWindow) {
    synchronous_->followCacheReservation(reservationToFollow());
  }
  // What the queues follow: nothing on a GPU without a persisting L2, whose launches skip the check.
  const CacheReservation* reservationToFollow() const {
    return cacheReservation_.maxReservation() > 0 ? &cacheReservation_ : nullptr;
  }

  const Driver& driver() const { return context_->driver(); }
  // True on success; otherwise says what failed under PrintDebugMessages.
  bool succeeded(CUresult result, const char* call) const;

  std::shared_ptr<const PrimaryContext> context_;
  std::mutex synchronousMutex_;  // the synchronous calls may come from any thread
  std::unique_ptr<CudaQueue> synchronous_;
  core::DeviceInfo info_;
  size_t index_ = 0;                   // among the GPUs of its group
  std::vector<core::PeerAccess> peers_;  // by index in the group
  std::shared_ptr<CudaAddressSpace> addressSpace_;
  CudaCapabilities capabilities_;
  CacheReservation cacheReservation_;  // followed by every queue of the backend
  // The contexts of `tiles` for colored memory; nullopt, said, when a tile is no GPU of this
  // driver or the GPUs lack virtual memory management.
  std::optional<std::vector<std::shared_ptr<const PrimaryContext>>> coloredMemoryGpus(const std::vector<core::Backend*>& tiles) const;
  void* keepColoredMemory(std::unique_ptr<CudaColoredMemory> memory);  // its address; nullptr for none
  std::mutex coloredMutex_;
  std::map<void*, std::unique_ptr<CudaColoredMemory>> colored_;  // by address
  // The mirror of `image`, its stale word set; nullptr where it has none.
  std::unique_ptr<TextureMirror> createTextureMirror(const core::Image& image);
  // The refresh kernel of texture mirrors, loaded with the first mirror; nullptr, said, when the
  // driver refuses its PTX.
  CUfunction mirrorRefreshKernel();
  std::mutex mirrorsMutex_;
  CUmodule mirrorModule_ = nullptr;
  CUfunction mirrorRefresh_ = nullptr;
  bool mirrorModuleTried_ = false;
  std::map<uint64_t, std::unique_ptr<TextureMirror>> mirrors_;  // by the image's descriptor address
};

// Why a driver of `version` (as cuDriverGetVersion gives it) cannot run Loom's GPU kernels; empty
// when it can.
std::string whyDriverUnsupported(int version);

// One root device per GPU the driver at `library` finds. None when the library, the driver or a
// GPU is missing, or the driver is too old: `whyNone` then says why.
std::vector<core::DiscoveredDevice> discoverCudaDevices(const std::string& library, std::string& whyNone);

}  // namespace loom::backends::cuda
