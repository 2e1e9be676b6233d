#include "backends/cuda/cuda_queue.h"

#include <algorithm>
#include <utility>

#include "backends/cuda/cuda_fill.h"
#include "backends/cuda/cuda_image_registry.h"
#include "backends/cuda/cuda_kernel_parameters.h"
#include "backends/cuda/cuda_program.h"
#include "loom/core/event.h"
#include "loom/core/log.h"
#include "loom/core/futex.h"

namespace loom::backends::cuda {

namespace {
constexpr size_t kFillTileBytes = 64 * 1024;
constexpr uint64_t kAnchorLifetimeNs = 1'000'000'000;

CUdeviceptr address(const void* pointer) { return reinterpret_cast<CUdeviceptr>(pointer); }

// Holds a queue's stale marks back while a region command issues its rows or slices (the base
// class's fallbacks copy and fill row by row), so that the command marks its whole region once.
class MarksHeldBack {
 public:
  explicit MarksHeldBack(bool& flag) : flag_(flag), was_(std::exchange(flag, true)) {}
  ~MarksHeldBack() { flag_ = was_; }
  MarksHeldBack(const MarksHeldBack&) = delete;
  MarksHeldBack& operator=(const MarksHeldBack&) = delete;

 private:
  bool& flag_;
  bool was_;
};
}  // namespace

std::unique_ptr<CudaQueue> CudaQueue::create(std::shared_ptr<const PrimaryContext> context, std::string deviceName,
                                             Caller caller, bool valueOperations, std::string& error) {
  auto scope = context->makeCurrent();
  CUstream stream = nullptr;
  if (CUresult result = context->driver().cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING); result != CUDA_SUCCESS) {
    error = context->driver().describe("cuStreamCreate", result);
    return nullptr;
  }
  return std::unique_ptr<CudaQueue>(new CudaQueue(std::move(context), stream, std::move(deviceName), caller, valueOperations));
}

void CudaQueue::enter(std::optional<PrimaryContext::Scope>& scope) const {
  if (caller_ == Caller::EngineThread)
    context_->bindToThisThread();
  else
    scope.emplace(*context_);
}

CudaQueue::~CudaQueue() {
  auto scope = context_->makeCurrent();
  driver().cuStreamSynchronize(stream_);
  forgetMarks();
  for (CUevent event : spareEvents_) driver().cuEventDestroy(event);
  if (anchor_) driver().cuEventDestroy(anchor_);
  if (joinEvent_) driver().cuEventDestroy(joinEvent_);
  driver().cuStreamDestroy(stream_);
}

bool CudaQueue::succeeded(CUresult result, const char* call) {
  if (result == CUDA_SUCCESS) return true;
  core::debugMessage("%s: %s", deviceName_.c_str(), driver().describe(call, result).c_str());
  if (failure_ == 0)
    failure_ = result == CUDA_ERROR_OUT_OF_MEMORY ? core::kStatusAllocationFailure : core::kStatusOutOfResources;
  return false;
}

int32_t CudaQueue::takeFailure() { return std::exchange(failure_, 0); }

CUevent CudaQueue::takeEvent() {
  if (!spareEvents_.empty()) {
    CUevent event = spareEvents_.back();
    spareEvents_.pop_back();
    return event;
  }
  CUevent event = nullptr;
  return succeeded(driver().cuEventCreate(&event, 0), "cuEventCreate") ? event : nullptr;
}

bool CudaQueue::anchor() {
  if (!anchor_ && !(anchor_ = takeEvent())) return false;
  anchorTime_ = core::monotonicNanoseconds();
  return succeeded(driver().cuEventRecord(anchor_, stream_), "cuEventRecord");
}

uint32_t CudaQueue::markTime() {
  std::optional<PrimaryContext::Scope> scope;
  enter(scope);
  if (marks_.empty() && needsAnchor() && !anchor()) return kNoMark;
  CUevent event = takeEvent();
  if (!event) return kNoMark;
  if (!succeeded(driver().cuEventRecord(event, stream_), "cuEventRecord")) {
    spareEvents_.push_back(event);
    return kNoMark;
  }
  marks_.push_back(event);
  return static_cast<uint32_t>(marks_.size() - 1);
}

uint64_t CudaQueue::timeOfMark(uint32_t mark) {
  std::optional<PrimaryContext::Scope> scope;
  enter(scope);
  float milliseconds = 0;
  if (!succeeded(driver().cuEventElapsedTime(&milliseconds, anchor_, marks_.at(mark)), "cuEventElapsedTime"))
    return core::monotonicNanoseconds();
  return anchorTime_ + static_cast<uint64_t>(std::max(0.0, double(milliseconds) * 1e6));
}

bool CudaQueue::markReached(uint32_t mark) {
  std::optional<PrimaryContext::Scope> scope;
  enter(scope);
  const CUresult result = driver().cuEventQuery(marks_.at(mark));
  if (result == CUDA_ERROR_NOT_READY) return false;
  return succeeded(result, "cuEventQuery");
}

void CudaQueue::forgetMarks() {
  if (marks_.empty()) return;
  spareEvents_.insert(spareEvents_.end(), marks_.begin(), marks_.end());
  marks_.clear();
  std::optional<PrimaryContext::Scope> scope;
  enter(scope);
  anchor();  // the stream is idle now
}

// Elapsed times are floats in milliseconds: an anchor older than a second loses precision, and a
// new one is recorded when the stream is idle. The first anchor waits for the stream once.
bool CudaQueue::needsAnchor() {
  if (!anchor_) {
    synchronize();
    return true;
  }
  if (core::monotonicNanoseconds() - anchorTime_ < kAnchorLifetimeNs) return false;
  return driver().cuStreamQuery(stream_) == CUDA_SUCCESS;
}

bool CudaQueue::completed() {
  std::optional<PrimaryContext::Scope> scope;
  enter(scope);
  const CUresult result = driver().cuStreamQuery(stream_);
  if (result == CUDA_ERROR_NOT_READY) return false;
  // The work is done (or failed, which counts as done and is said). After kernels that may print,
  // a synchronize, which returns at once now, makes the driver print their output: cuStreamQuery
  // does not.
  succeeded(result, "cuStreamQuery");
  if (printsPending_) synchronize();
  return true;
}

void CudaQueue::synchronize() {
  std::optional<PrimaryContext::Scope> scope;
  enter(scope);
  succeeded(driver().cuStreamSynchronize(stream_), "cuStreamSynchronize");
  printsPending_ = false;
}

bool CudaQueue::raiseDynamicSharedLimit(const core::KernelLaunch& launch) {
  auto* kernel = static_cast<CudaKernel*>(launch.kernel);
  if (launch.localMemorySize <= kernel->dynamicSharedLimit) return true;
  for (CUfunction function : {kernel->entries().anyLaunch, kernel->entries().wholeGroups}) {
    const CUresult result = driver().cuFuncSetAttribute(function, FunctionAttribute::MaxDynamicSharedSizeBytes,
                                                        static_cast<int>(launch.localMemorySize));
    if (!succeeded(result, "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)")) return false;
  }
  kernel->dynamicSharedLimit = launch.localMemorySize;
  return true;
}

void CudaQueue::launch(const core::KernelLaunch& launch, const uint8_t* arguments) {
  joinPointCurrent_ = false;
  if (launch.groupsToRun() == 0) return;
  std::optional<PrimaryContext::Scope> scope;
  enter(scope);
  applyCacheWindow();
  refreshMirrorsSampledBy(launch, arguments);
  issueLaunch(launch, arguments);
  markMirrorsWrittenBy(launch, arguments);
}

void CudaQueue::applyCacheWindow() {
  if (!cacheReservation_) return;
  const uint64_t generation = cacheReservation_->generation();
  if (generation == appliedCacheGeneration_) return;
  CUstreamAttrValue value{};
  value.accessPolicyWindow = cacheReservation_->window();
  const CUresult result = driver().cuStreamSetAttribute(stream_, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, &value);
  if (result != CUDA_SUCCESS)
    core::debugMessage("%s: %s; launches run without the cache reservation's window", deviceName_.c_str(),
                       driver().describe("cuStreamSetAttribute(access policy window)", result).c_str());
  appliedCacheGeneration_ = generation;
}

void CudaQueue::refreshMirrorsSampledBy(const core::KernelLaunch& launch, const uint8_t* arguments) {
  if (!static_cast<CudaKernel*>(launch.kernel)->maySampleTextures()) return;
  ImageRegistry::instance().forEachMirrorSampledBy(launch, arguments, [&](const TextureMirror* mirror) {
    const TextureMirror::Issued issued = mirror->refresh(stream_);
    succeeded(issued.result, issued.call);
  });
}

void CudaQueue::markMirrorsWrittenBy(const core::KernelLaunch& launch, const uint8_t* arguments) {
  ImageRegistry::instance().forEachMirrorWrittenBy(launch, arguments, [&](const TextureMirror* mirror) {
    const TextureMirror::Issued issued = mirror->markStale(stream_);
    succeeded(issued.result, issued.call);
  });
}

void CudaQueue::markMirrorsOverlapping(const core::ByteSpan& written) {
  if (marksHeldBack_) return;
  std::optional<PrimaryContext::Scope> scope;
  bool entered = false;  // only where there is a mark to issue: copies and fills pay nothing else
  ImageRegistry::instance().forEachMirrorOverlapping(written.begin, written.end - written.begin, [&](const TextureMirror* mirror) {
    if (!std::exchange(entered, true)) enter(scope);
    const TextureMirror::Issued issued = mirror->markStale(stream_);
    succeeded(issued.result, issued.call);
  });
}

void CudaQueue::issueLaunch(const core::KernelLaunch& launch, const uint8_t* arguments) {
  if (!raiseDynamicSharedLimit(launch)) return;
  // The driver copies the parameters at the call, so the arguments need not outlive it.
  KernelParameters parameters(launch, arguments);
  auto* kernel = static_cast<CudaKernel*>(launch.kernel);
  printsPending_ = printsPending_ || kernel->mayPrint();
  CUfunction entry = runsOnWholeGroupsEntry(launch) ? kernel->entries().wholeGroups : kernel->entries().anyLaunch;
  // A part of a split launch runs only its own groups; its parameters say where they start.
  const Grid grid = gridOf(launch);
  // All blocks resident at once, or the launch fails (CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE).
  if (launch.cooperative) {
    succeeded(driver().cuLaunchCooperativeKernel(entry, grid.x, grid.y, grid.z, launch.groupSize[0], launch.groupSize[1],
                                                 launch.groupSize[2], launch.localMemorySize, stream_, parameters.pointers.data()),
              "cuLaunchCooperativeKernel");
    return;
  }
  if (kernel->launchesEarly()) return launchEarly(entry, launch, parameters.pointers.data());
  succeeded(driver().cuLaunchKernel(entry, grid.x, grid.y, grid.z, launch.groupSize[0], launch.groupSize[1], launch.groupSize[2],
                                    launch.localMemorySize, stream_, parameters.pointers.data(), nullptr),
            "cuLaunchKernel");
}

void CudaQueue::launchEarly(CUfunction entry, const core::KernelLaunch& launch, void** parameters) {
  CUlaunchAttribute early{};
  early.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
  early.value.programmaticStreamSerializationAllowed = 1;
  const Grid grid = gridOf(launch);
  const CUlaunchConfig config{grid.x, grid.y, grid.z, launch.groupSize[0], launch.groupSize[1], launch.groupSize[2],
                              launch.localMemorySize, stream_, &early, 1};
  succeeded(driver().cuLaunchKernelEx(&config, entry, parameters, nullptr), "cuLaunchKernelEx");
}

void CudaQueue::copy(void* destination, const void* source, size_t size) {
  joinPointCurrent_ = false;
  if (size == 0) return;
  std::optional<PrimaryContext::Scope> scope;
  enter(scope);
  // Unified addressing: the driver tells host from device memory by the pointers. Copies from and
  // to pageable host memory complete on the host before the call returns, as the driver stages them.
  if (succeeded(driver().cuMemcpyAsync(address(destination), address(source), size, stream_), "cuMemcpyAsync"))
    markMirrorsOverlapping({address(destination), address(destination) + size});
}

void CudaQueue::copyRegion(const core::CopyRegionCommand& copy) {
  joinPointCurrent_ = false;
  if (copy.width == 0 || copy.height == 0 || copy.depth == 0) return;
  {
    MarksHeldBack heldBack(marksHeldBack_);
    const core::Region3d& to = copy.destinationRegion;
    const core::Region3d& from = copy.sourceRegion;
    // The driver wants rows that do not overlap; regions that the frontends let through otherwise
    // (a pitch below the width) go row by row.
    if (to.rowPitch < copy.width || from.rowPitch < copy.width) {
      core::BackendQueue::copyRegion(copy);
    } else {
      std::optional<PrimaryContext::Scope> scope;
      enter(scope);
      issueCopyRegion(copy);
    }
  }
  markMirrorsOverlapping(core::spanOf(copy.destination, copy.destinationRegion, copy.width, copy.height, copy.depth));
}

void CudaQueue::fillRegion(const core::FillRegionCommand& fill, const void* pattern) {
  if (fill.width == 0 || fill.height == 0 || fill.depth == 0) return;
  {
    MarksHeldBack heldBack(marksHeldBack_);
    core::BackendQueue::fillRegion(fill, pattern);
  }
  markMirrorsOverlapping(core::spanOf(fill.destination, fill.region, fill.width, fill.height, fill.depth));
}

void CudaQueue::issueCopyRegion(const core::CopyRegionCommand& copy) {
  const core::Region3d& to = copy.destinationRegion;
  const core::Region3d& from = copy.sourceRegion;
  for (uint64_t z = 0; z < copy.depth; ++z) {
    CudaMemcpy2d slice{};
    slice.srcMemoryType = slice.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
    slice.srcDevice = address(static_cast<const char*>(copy.source) + (from.originZ + z) * from.slicePitch +
                              from.originY * from.rowPitch + from.originX);
    slice.dstDevice = address(static_cast<char*>(copy.destination) + (to.originZ + z) * to.slicePitch +
                              to.originY * to.rowPitch + to.originX);
    slice.srcPitch = from.rowPitch;
    slice.dstPitch = to.rowPitch;
    slice.WidthInBytes = copy.width;
    slice.Height = copy.height;
    const CUresult result = driver().cuMemcpy2DAsync(&slice, stream_);
    if (result == CUDA_ERROR_INVALID_VALUE) {  // a pitch above the driver's limit: the rest by rows
      core::CopyRegionCommand rest = copy;
      rest.sourceRegion.originZ += z;
      rest.destinationRegion.originZ += z;
      rest.depth -= z;
      return core::BackendQueue::copyRegion(rest);
    }
    if (!succeeded(result, "cuMemcpy2DAsync")) return;
  }
}

void CudaQueue::fill(void* destination, const void* pattern, size_t patternSize, size_t size) {
  joinPointCurrent_ = false;
  if (size == 0 || patternSize == 0) return;
  const auto* bytes = static_cast<const uint8_t*>(pattern);
  const FillPlan plan = planFill(bytes, patternSize, address(destination), size);
  std::optional<PrimaryContext::Scope> scope;
  enter(scope);
  // cuMemset refuses host memory (pinned or not): such fills go by copies, which take any memory.
  if (plan.method == FillPlan::Method::Doubling || memset(plan, address(destination)) == CUDA_ERROR_INVALID_VALUE)
    fillByDoubling(destination, bytes, patternSize, size);
  markMirrorsOverlapping({address(destination), address(destination) + size});
}

CUresult CudaQueue::memset(const FillPlan& plan, CUdeviceptr start) {
  CUresult result = CUDA_SUCCESS;
  switch (plan.method) {
    case FillPlan::Method::Memset8: result = driver().cuMemsetD8Async(start, static_cast<uint8_t>(plan.value), plan.count, stream_); break;
    case FillPlan::Method::Memset16: result = driver().cuMemsetD16Async(start, static_cast<uint16_t>(plan.value), plan.count, stream_); break;
    case FillPlan::Method::Memset32: result = driver().cuMemsetD32Async(start, plan.value, plan.count, stream_); break;
    case FillPlan::Method::Doubling: break;
  }
  if (result != CUDA_ERROR_INVALID_VALUE) succeeded(result, "cuMemsetAsync");
  return result;
}

// Uploads one tile of whole patterns, then copies the filled start of the destination after
// itself until all is filled: log2(size / tile) device-side copies.
void CudaQueue::fillByDoubling(void* destination, const uint8_t* pattern, size_t patternSize, size_t size) {
  const std::vector<uint8_t> tile = fillTile(pattern, patternSize, size, kFillTileBytes);
  const CUdeviceptr start = address(destination);
  if (!succeeded(driver().cuMemcpyAsync(start, address(tile.data()), tile.size(), stream_), "cuMemcpyAsync")) return;
  for (const FillCopy& copy : doublingCopies(tile.size(), size))
    if (!succeeded(driver().cuMemcpyAsync(start + copy.offset, start, copy.size, stream_), "cuMemcpyAsync")) break;
  synchronize();  // keeps `tile` alive until the upload is done
}

bool CudaQueue::valueOperationIssued(CUresult result, const char* call) {
  if (result == CUDA_SUCCESS) return true;
  core::debugMessage("%s: %s; events are waited for and signaled on the host from now on", deviceName_.c_str(),
                     driver().describe(call, result).c_str());
  valueOperations_ = false;
  return false;
}

bool CudaQueue::waitValue(const uint32_t* word, uint32_t value) {
  joinPointCurrent_ = false;
  if (!valueOperations_) return false;
  std::optional<PrimaryContext::Scope> scope;
  enter(scope);
  return valueOperationIssued(
      driver().cuStreamWaitValue32(stream_, address(word), value, CU_STREAM_WAIT_VALUE_GEQ), "cuStreamWaitValue32");
}

bool CudaQueue::writeValue(uint32_t* word, uint32_t value) {
  joinPointCurrent_ = false;
  if (!valueOperations_) return false;
  std::optional<PrimaryContext::Scope> scope;
  enter(scope);
  return valueOperationIssued(
      driver().cuStreamWriteValue32(stream_, address(word), value, CU_STREAM_WRITE_VALUE_DEFAULT),
      "cuStreamWriteValue32");
}

CUevent CudaQueue::recordJoinPoint() {
  std::optional<PrimaryContext::Scope> scope;
  enter(scope);
  if (joinPointCurrent_) return joinEvent_;
  if (!joinEvent_) {
    if (CUresult result = driver().cuEventCreate(&joinEvent_, CU_EVENT_DISABLE_TIMING); result != CUDA_SUCCESS) {
      core::debugMessage("%s: %s; tiles are joined on the host", deviceName_.c_str(), driver().describe("cuEventCreate", result).c_str());
      joinEvent_ = nullptr;
      return nullptr;
    }
  }
  if (CUresult result = driver().cuEventRecord(joinEvent_, stream_); result != CUDA_SUCCESS) {
    core::debugMessage("%s: %s; tiles are joined on the host", deviceName_.c_str(), driver().describe("cuEventRecord", result).c_str());
    return nullptr;
  }
  joinPointCurrent_ = true;
  return joinEvent_;
}

bool CudaQueue::joinAfter(core::BackendQueue& other) {
  auto* before = dynamic_cast<CudaQueue*>(&other);
  if (!before) return false;
  CUevent point = before->recordJoinPoint();
  if (!point) return false;
  std::optional<PrimaryContext::Scope> scope;
  enter(scope);
  joinPointCurrent_ = false;  // a join after this queue now also follows `other`
  if (CUresult result = driver().cuStreamWaitEvent(stream_, point, 0); result != CUDA_SUCCESS) {
    core::debugMessage("%s: %s; tiles are joined on the host", deviceName_.c_str(), driver().describe("cuStreamWaitEvent", result).c_str());
    return false;
  }
  return true;
}

}  // namespace loom::backends::cuda
