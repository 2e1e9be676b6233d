#pragma once
// One CUDA stream of a GPU's primary context: the hardware queue of one Loom engine. Launches,
// copies and fills are issued asynchronously, in order; the engine retires them once the stream
// reports them complete. Around them the stream keeps images' texture mirrors current
// (cuda_texture_mirror.h): refreshed before a kernel that may sample them, marked stale after
// whatever may write their texels.
#include <memory>
#include <optional>
#include <vector>

#include "backends/cuda/cuda_cache_reservation.h"
#include "backends/cuda/cuda_context.h"
#include "backends/cuda/cuda_fill.h"
#include "loom/core/backend.h"

namespace loom::backends::cuda {

class CudaQueue final : public core::BackendQueue {
 public:
  // Who calls the queue: an engine's own thread keeps the GPU's context current for good; any
  // other thread gets it pushed and popped around each call.
  enum class Caller : uint8_t { AnyThread, EngineThread };

  // nullptr and `error` when the stream cannot be created. `valueOperations`: the driver has
  // stream memory operations (CudaCapabilities), which waitValue and writeValue use.
  static std::unique_ptr<CudaQueue> create(std::shared_ptr<const PrimaryContext> context, std::string deviceName,
                                           Caller caller, bool valueOperations, std::string& error);
  ~CudaQueue() override;

  bool asynchronous() const override { return true; }
  void launch(const core::KernelLaunch& launch, const uint8_t* arguments) override;
  void copy(void* destination, const void* source, size_t size) override;
  void fill(void* destination, const void* pattern, size_t patternSize, size_t size) override;
  // One cuMemcpy2DAsync per slice instead of a copy per row.
  void copyRegion(const core::CopyRegionCommand& copy) override;
  // The base class's row fills and copies, with one stale mark for the whole region.
  void fillRegion(const core::FillRegionCommand& fill, const void* pattern) override;
  bool completed() override;
  void synchronize() override;
  int32_t takeFailure() override;
  // Marks are CUDA events; their times are elapsed times from an anchor event recorded on the idle
  // stream at a known host time (forgetMarks re-anchors, so elapsed times stay short and precise).
  uint32_t markTime() override;
  uint64_t timeOfMark(uint32_t mark) override;
  void forgetMarks() override;
  // cuEventQuery of the mark's event: true once the stream has passed it.
  bool markReached(uint32_t mark) override;
  // cuStreamWaitValue32 (GEQ) and cuStreamWriteValue32 on registered host memory, which the GPU
  // addresses in place. A driver that refuses one is not asked again: the executor then waits
  // and signals on the host.
  bool waitValue(const uint32_t* address, uint32_t value) override;
  bool writeValue(uint32_t* address, uint32_t value) override;
  // With another CudaQueue, of any GPU of the driver: an event recorded on its stream, which this
  // stream waits for (cuStreamWaitEvent, across devices on the GPUs themselves).
  bool joinAfter(core::BackendQueue& other) override;
  // Launches from now on use `reservation`'s access-policy window (cuda_cache_reservation.h), set
  // on the stream again before a launch whenever the reservation or its advice changed.
  void followCacheReservation(const CacheReservation* reservation) { cacheReservation_ = reservation; }

 private:
  CudaQueue(std::shared_ptr<const PrimaryContext> context, CUstream stream, std::string deviceName, Caller caller,
            bool valueOperations)
      : context_(std::move(context)),
        stream_(stream),
        deviceName_(std::move(deviceName)),
        caller_(caller),
        valueOperations_(valueOperations) {}

  // Makes the context current for one call (see Caller); `scope` pops it again where it was pushed.
  void enter(std::optional<PrimaryContext::Scope>& scope) const;

  const Driver& driver() const { return context_->driver(); }
  // True on success; otherwise records the failure for takeFailure and says what failed under
  // PrintDebugMessages.
  bool succeeded(CUresult result, const char* call);
  bool raiseDynamicSharedLimit(const core::KernelLaunch& launch);
  void issueLaunch(const core::KernelLaunch& launch, const uint8_t* arguments);
  void issueCopyRegion(const core::CopyRegionCommand& copy);
  // ImageRegistry's mirrors: refreshed before a launch that may sample them, marked stale after
  // a launch, copy or fill that may write their texels.
  void refreshMirrorsSampledBy(const core::KernelLaunch& launch, const uint8_t* arguments);
  void markMirrorsWrittenBy(const core::KernelLaunch& launch, const uint8_t* arguments);
  void markMirrorsOverlapping(const core::ByteSpan& written);
  // The window a changed reservation asks for, set on the stream; a refusal is said, not failed:
  // the window is a hint to the cache, the launch runs the same without it.
  void applyCacheWindow();
  // Launches a kernel whose entries wait for the grids before them with programmatic stream
  // serialization: its blocks may start while the kernel before it retires (cuda_dependent_launch.h).
  void launchEarly(CUfunction entry, const core::KernelLaunch& launch, void** parameters);
  // Issues the memset of a Memset plan; its result, said under PrintDebugMessages unless it is
  // CUDA_ERROR_INVALID_VALUE (host memory), which the caller handles.
  CUresult memset(const FillPlan& plan, CUdeviceptr start);
  void fillByDoubling(void* destination, const uint8_t* pattern, size_t patternSize, size_t size);
  // An event from the spares, or a new one; nullptr (said) when the driver has none.
  CUevent takeEvent();
  // True when a stream memory operation was issued; otherwise says why and turns them off.
  bool valueOperationIssued(CUresult result, const char* call);
  // Records the queue's join event after the commands issued so far, in the queue's own context
  // (an event is recorded only on streams of its context), unless nothing was issued since it was
  // last recorded; nullptr, said, when the driver cannot.
  CUevent recordJoinPoint();
  // Records the anchor on the stream, which must be idle, at the host's time now.
  bool anchor();
  bool needsAnchor();

  std::shared_ptr<const PrimaryContext> context_;
  CUstream stream_;
  std::string deviceName_;
  Caller caller_;
  bool valueOperations_;
  int32_t failure_ = 0;      // since the last takeFailure
  bool marksHeldBack_ = false;  // a region command is issuing its parts (MarksHeldBack)
  bool printsPending_ = false;  // a kernel that may print was launched since the last synchronize
  const CacheReservation* cacheReservation_ = nullptr;
  uint64_t appliedCacheGeneration_ = 0;  // the reservation's generation the stream's window is of
  std::vector<CUevent> marks_;        // recorded since the last forgetMarks, in order
  std::vector<CUevent> spareEvents_;
  CUevent anchor_ = nullptr;
  uint64_t anchorTime_ = 0;
  // Without timing, as the driver waits fastest for such; each wait takes the event as it was
  // last recorded, so one event serves every join after this queue.
  CUevent joinEvent_ = nullptr;
  // The join event was recorded after every command issued so far (joins into this queue count:
  // joins are transitive).
  bool joinPointCurrent_ = false;
};

}  // namespace loom::backends::cuda
