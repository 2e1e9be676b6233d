#include "backends/cpu/cpu_backend.h"

#include <emmintrin.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>

#include "backends/cpu/cpu_program.h"
#include "backends/cpu/cpu_queue.h"
#include "backends/cpu/host_telemetry.h"
#include "backends/cpu/kernel_fault_guard.h"
#include "backends/cpu/numa_placement.h"
#include "backends/cpu/region_pieces.h"
#include "backends/cpu/tile_cores.h"
#include "loom/compiler/local_arguments.h"
#include "loom/core/debug_keys.h"
#include "loom/core/futex.h"
#include "loom/core/log.h"

namespace loom::backends::cpu {

namespace {
// The arena and the frames start aligned as each __local pointer argument inside the arena is.
constexpr size_t kScratchAlignment = compiler::kLocalArgumentAlignment;

// The parts of a work-group's context that every group of a launch shares.
compiler::WorkGroupContext launchContext(const core::KernelLaunch& launch) {
  compiler::WorkGroupContext context{};
  for (int d = 0; d < 3; ++d) {
    context.enqueuedLocalSize[d] = launch.groupSize[d];
    context.numGroups[d] = launch.groupCount[d];
    context.globalSize[d] = launch.globalSize[d];
    context.globalOffset[d] = launch.globalOffset[d];
  }
  context.workDim = launch.workDim;
  return context;
}

// Launches of this many work-items or more run a kernel's streaming variant where it has one: at
// 4 bytes or more per work-item they write 32 MiB or more, past the last-level cache a core shares
// on most CPUs, so cached stores would only read each line before overwriting it. Smaller outputs
// may stay cached for the next command. The cache size the CPU reports cannot decide this:
// virtual machines overstate it.
constexpr uint64_t kStreamingLaunchWorkItems = uint64_t(8) << 20;

compiler::WorkGroupFunction chooseFunction(const core::KernelLaunch& launch) {
  const auto* kernel = static_cast<const CpuKernel*>(launch.kernel);
  const uint64_t workItems = launch.globalSize[0] * launch.globalSize[1] * launch.globalSize[2];
  if (kernel->streamingFunction() && workItems >= kStreamingLaunchWorkItems) return kernel->streamingFunction();
  return kernel->function();
}

// The size along `d` of the group with id `id`: the last group of a non-uniform range is smaller.
uint32_t groupSizeAt(const core::KernelLaunch& launch, int d, uint32_t id) {
  const uint64_t start = uint64_t(id) * launch.groupSize[d];
  const uint64_t remaining = launch.globalSize[d] > start ? launch.globalSize[d] - start : 0;
  return static_cast<uint32_t>(std::min<uint64_t>(launch.groupSize[d], remaining));
}

// The most groups along x one call may run: runs stay countable in 32 bits of work-items (the
// generated loops' counters).
uint64_t longestGroupRun(const core::KernelLaunch& launch) {
  return std::max<uint64_t>(1, (uint64_t(1) << 31) / launch.groupSize[0]);
}

// Makes `context` that of the run of groups from `ids` on along x, as many of the next `available`
// groups (at most `longest`) as have the same y and z ids and the same size, and returns its
// length. Work-group functions take runs so that a kernel's set-up is paid once per run, not once
// per group.
uint32_t enterGroupRun(compiler::WorkGroupContext& context, const core::KernelLaunch& launch, const uint32_t ids[3],
                       uint64_t available, uint64_t longest) {
  for (int d = 0; d < 3; ++d) {
    context.groupId[d] = ids[d];
    context.localSize[d] = groupSizeAt(launch, d, ids[d]);
  }
  const uint32_t rowEnd = launch.firstGroupToRun(0) + launch.groupsToRun(0);
  uint64_t run = std::min<uint64_t>({available, rowEnd - ids[0], longest});
  // A smaller last group runs on its own.
  if (run > 1 && groupSizeAt(launch, 0, ids[0] + uint32_t(run) - 1) != context.localSize[0]) --run;
  context.groupRun = static_cast<uint32_t>(run);
  return context.groupRun;
}

// The ids of the group with linear index `index` among the groups the launch runs (all of them,
// or a part's box of them): x fastest, then y, then z.
void firstGroup(uint32_t ids[3], const core::KernelLaunch& launch, uint64_t index) {
  const uint32_t countX = launch.groupsToRun(0), countY = launch.groupsToRun(1);
  ids[0] = launch.firstGroupToRun(0) + static_cast<uint32_t>(index % countX);
  ids[1] = launch.firstGroupToRun(1) + static_cast<uint32_t>(index / countX % countY);
  ids[2] = launch.firstGroupToRun(2) + static_cast<uint32_t>(index / (uint64_t(countX) * countY));
}

// Advances `ids` by `run` groups along x, of which there are that many left in the row.
void nextGroups(uint32_t ids[3], const core::KernelLaunch& launch, uint32_t run) {
  if ((ids[0] += run) < launch.firstGroupToRun(0) + launch.groupsToRun(0)) return;
  ids[0] = launch.firstGroupToRun(0);
  if (++ids[1] < launch.firstGroupToRun(1) + launch.groupsToRun(1)) return;
  ids[1] = launch.firstGroupToRun(1);
  ++ids[2];
}

// The groups [first, last) of a launch, which one thread runs in one call into kernel code.
struct GroupRuns {
  const core::KernelLaunch* launch;
  const uint8_t* arguments;
  compiler::WorkGroupFunction function;
  compiler::WorkGroupContext context;
  uint64_t first;
  uint64_t last;
  uint64_t longest;  // longestGroupRun
};

// Kernel code: a fault leaves it wherever it was (runKernelCode), so it owns nothing.
void runGroups(void* erased) {
  GroupRuns& runs = *static_cast<GroupRuns*>(erased);
  const core::KernelLaunch& launch = *runs.launch;
  // Group ids advance from run to run rather than being divided out of each index: small groups
  // of a memory-bound kernel would feel the divisions.
  uint32_t ids[3];
  firstGroup(ids, launch, runs.first);
  for (uint64_t index = runs.first; index < runs.last;) {
    const uint32_t run = enterGroupRun(runs.context, launch, ids, runs.last - index, runs.longest);
    runs.function(runs.arguments, &runs.context);
    index += run;
    nextGroups(ids, launch, run);
  }
}
}  // namespace

char* CpuBackend::Scratch::reserve(size_t bytes) {
  if (bytes <= size) return memory.get();
  size = (bytes + kScratchAlignment - 1) / kScratchAlignment * kScratchAlignment;
  memory.reset(static_cast<char*>(std::aligned_alloc(kScratchAlignment, size)));
  return memory.get();
}

CpuBackend::CpuBackend(core::DeviceInfo info, unsigned threads)
    : info_(std::move(info)), pool_(std::make_shared<ThreadPool>(threads)), scratch_(pool_->threads()) {
  installKernelFaultHandler();
}

CpuBackend::CpuBackend(core::DeviceInfo info, std::shared_ptr<ThreadPool> pool, unsigned tile)
    : info_(std::move(info)), pool_(std::move(pool)), tile_(tile), scratch_(pool_->threads()) {
  installKernelFaultHandler();
}

bool CpuBackend::runsProgramsOf(const core::Backend& other) const { return dynamic_cast<const CpuBackend*>(&other) != nullptr; }

std::unique_ptr<core::Telemetry> CpuBackend::createTelemetry() { return std::make_unique<HostTelemetry>(); }

std::unique_ptr<core::BackendProgram> CpuBackend::loadProgram(std::shared_ptr<const compiler::CompiledProgram> program,
                                                              std::string& log) {
  return CpuProgram::load(std::move(program), log);
}

std::unique_ptr<core::BackendQueue> CpuBackend::createQueue() { return std::make_unique<CpuQueue>(*this); }

CpuBackend::Scratch& CpuBackend::scratchOf(unsigned thread) {
  thread_local Scratch callingThread;
  return thread == 0 ? callingThread : scratch_[thread];
}

void CpuBackend::FaultRecord::add(const KernelFault& fault) {
  if (fault.signal != 0 && !faulted.exchange(true)) first = fault;
}

KernelFault CpuBackend::runGroupsOf(const LaunchPlan& plan, uint64_t first, uint64_t last, Scratch& scratch) {
  GroupRuns runs{plan.launch, plan.arguments, plan.function, plan.context, first, last, plan.longest};
  char* memory = scratch.reserve(plan.localBytes + plan.frameBytes);
  runs.context.localMemory = memory;
  runs.context.barrierFrame = memory + plan.localBytes;
  return runKernelCode(runGroups, &runs);
}

CpuBackend::LaunchPlan CpuBackend::planOf(const core::KernelLaunch& launch, const uint8_t* arguments) {
  const size_t groupItems = size_t(launch.groupSize[0]) * launch.groupSize[1] * launch.groupSize[2];
  return LaunchPlan{&launch,
                    arguments,
                    chooseFunction(launch),
                    launchContext(launch),
                    longestGroupRun(launch),
                    (launch.localMemorySize + kScratchAlignment - 1) / kScratchAlignment * kScratchAlignment,
                    size_t(launch.descriptor->barrierFrameSize) * compiler::barrierFrameElements(groupItems)};
}

bool CpuBackend::GroupsTask::operator()(uint64_t first, uint64_t last, unsigned thread) const {
  faults->add(runGroupsOf(*plan, first, last, backend->scratchOf(thread)));
  return !faults->faulted.load(std::memory_order_relaxed);
}

bool CpuBackend::reportFault(const FaultRecord& faults, const core::KernelLaunch& launch) const {
  if (!faults.faulted.load()) return true;
  core::debugMessage("kernel '%s' raised %s (code %d, address %p): the launch failed as on a lost device",
                     launch.descriptor->name.c_str(), faultName(faults.first.signal), faults.first.code, faults.first.address);
  return false;
}

bool CpuBackend::runKernel(const core::KernelLaunch& launch, const uint8_t* arguments) {
  const LaunchPlan plan = planOf(launch, arguments);
  const uint64_t groups = launch.groupsToRun();
  FaultRecord faults;
  if (launch.cooperative) {
    if (!runCooperatively(plan, groups, faults)) return false;
  } else {
    pool_->run(groups, GroupsTask{this, &plan, &faults}, tile_);
  }
  return reportFault(faults, launch);
}

std::unique_ptr<CpuBackend::StartedKernel> CpuBackend::startKernel(const core::KernelLaunch& launch, const uint8_t* arguments) {
  auto started = std::make_unique<StartedKernel>(launch, arguments);
  started->plan = planOf(started->launch, started->arguments.data());
  started->task = GroupsTask{this, &started->plan, &started->faults};
  pool_->start(started->job, started->launch.groupsToRun(), started->task, tile_);
  return started;
}

bool CpuBackend::finishKernel(StartedKernel& started) {
  pool_->finish(started.job);
  return reportFault(started.faults, started.launch);
}

bool CpuBackend::runCooperatively(const LaunchPlan& plan, uint64_t groups, FaultRecord& faults) {
  if (groups == 0) return true;
  // The threads start the kernel together once all of them exist, or none does: a group started
  // without the others could wait for them forever.
  enum Gate : uint32_t { kClosed, kOpen, kCancelled };
  std::atomic<uint32_t> gate{kClosed};
  auto runGroup = [&](uint64_t group) {
    gate.wait(kClosed);
    if (gate.load() == kCancelled) return;
    Scratch scratch;
    faults.add(runGroupsOf(plan, group, group + 1, scratch));
  };
  std::vector<std::thread> threads;
  try {
    threads.reserve(groups - 1);
    for (uint64_t group = 1; group < groups; ++group) threads.emplace_back(runGroup, group);
  } catch (const std::exception&) {
    gate.store(kCancelled);
  }
  const bool started = gate.load() != kCancelled;
  if (started) gate.store(kOpen);
  gate.notify_all();
  if (started) runGroup(0);
  for (std::thread& thread : threads) thread.join();
  if (!started) core::debugMessage("cannot start a thread for each of the %llu groups of a cooperative launch", (unsigned long long)groups);
  return started;
}

namespace {

constexpr size_t kStreamingFillThreshold = 1 << 20;
// Copies stream from this size on. glibc picks non-temporal stores from the last-level cache size
// the CPU reports, which virtual machines overstate, and then copies large blocks through the
// cache; below a few MiB cached copies win.
constexpr size_t kStreamingCopyThreshold = 16 << 20;
constexpr size_t kStreamBlock = 128;  // a multiple of every pattern size

// Bytes before the first 16-byte boundary of `out`, where streaming stores can start.
size_t unalignedHead(const char* out, size_t size) {
  return std::min(size, (16 - reinterpret_cast<uintptr_t>(out) % 16) % 16);
}

// Large fills bypass the cache like memset does: 128-byte blocks of the pattern written with
// non-temporal stores, so that no line is read before it is overwritten.
void streamFill(char* out, const uint8_t* pattern, size_t patternSize, size_t size) {
  const size_t head = unalignedHead(out, size);
  for (size_t i = 0; i < head; ++i) out[i] = char(pattern[i % patternSize]);
  alignas(16) uint8_t block[kStreamBlock];
  for (size_t i = 0; i < kStreamBlock; ++i) block[i] = pattern[(head + i) % patternSize];
  __m128i lanes[kStreamBlock / 16];
  for (size_t i = 0; i < kStreamBlock / 16; ++i) lanes[i] = _mm_load_si128(reinterpret_cast<const __m128i*>(block) + i);
  size_t at = head;
  for (; at + kStreamBlock <= size; at += kStreamBlock)
    for (size_t i = 0; i < kStreamBlock / 16; ++i) _mm_stream_si128(reinterpret_cast<__m128i*>(out + at) + i, lanes[i]);
  _mm_sfence();
  for (; at < size; ++at) out[at] = char(block[(at - head) % kStreamBlock]);
}

// Large copies write like large fills: 128-byte blocks loaded from any alignment and stored
// with non-temporal stores.
void streamCopy(char* out, const char* in, size_t size) {
  const size_t head = unalignedHead(out, size);
  std::memcpy(out, in, head);
  size_t at = head;
  for (; at + kStreamBlock <= size; at += kStreamBlock) {
    __m128i lanes[kStreamBlock / 16];
    for (size_t i = 0; i < kStreamBlock / 16; ++i) lanes[i] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + at) + i);
    for (size_t i = 0; i < kStreamBlock / 16; ++i) _mm_stream_si128(reinterpret_cast<__m128i*>(out + at) + i, lanes[i]);
  }
  _mm_sfence();
  std::memcpy(out + at, in + at, size - at);
}

bool overlap(const char* a, const char* b, size_t size) { return a < b + size && b < a + size; }

}  // namespace

void CpuBackend::copy(void* destination, const void* source, size_t size) {
  auto* out = static_cast<char*>(destination);
  const auto* in = static_cast<const char*>(source);
  if (size < kStreamingCopyThreshold || overlap(out, in, size)) {
    std::memmove(out, in, size);
    return;
  }
  streamCopy(out, in, size);
}

namespace {

// Region copies from this size on run on the pool, in pieces of at least kMinimumCopyPiece: a
// worker's wake-up costs as much as copying some tens of KiB.
constexpr uint64_t kPoolCopyThreshold = 2 << 20;
constexpr uint64_t kMinimumCopyPiece = 256 << 10;
constexpr uint64_t kCopyPiecesPerThread = 4;  // pieces to share out, so that a slow thread holds up little

}  // namespace

bool CpuBackend::copyRegionOnPool(const core::CopyRegionCommand& copy) {
  const uint64_t bytes = copy.width * copy.height * copy.depth;
  if (bytes < kPoolCopyThreshold || pool_->threads() < 2) return false;
  const uint64_t pieceBytes = std::max(kMinimumCopyPiece, bytes / (kCopyPiecesPerThread * pool_->threads()));
  const RegionPieces pieces(copy, pieceBytes);
  if (pieces.count() < 2 || pieces.mayOverlap()) return false;
  // As copy() chooses: past the cache, stores that bypass it.
  const bool streaming = bytes >= kStreamingCopyThreshold;
  auto copyBytes = [streaming](char* out, const char* in, uint64_t size) {
    if (streaming) streamCopy(out, in, size);
    else std::memcpy(out, in, size);
  };
  pool_->run(
      pieces.count(),
      [&](uint64_t first, uint64_t last, unsigned) {
        for (uint64_t piece = first; piece < last; ++piece) pieces.copyPiece(piece, copyBytes);
      },
      tile_);
  return true;
}

void CpuBackend::fill(void* destination, const void* pattern, size_t patternSize, size_t size) {
  auto* out = static_cast<char*>(destination);
  if (patternSize == 1) {
    std::memset(out, *static_cast<const uint8_t*>(pattern), size);
    return;
  }
  if (size >= kStreamingFillThreshold) {
    streamFill(out, static_cast<const uint8_t*>(pattern), patternSize, size);
    return;
  }
  // Build one cache-resident tile of the pattern by doubling, then copy that tile over the rest:
  // the copies read from L1 and only write memory, as memset does.
  constexpr size_t kTileSize = 4096;  // a multiple of every pattern size (powers of two up to 128)
  size_t filled = std::min(patternSize, size);
  std::memcpy(out, pattern, filled);
  while (filled < std::min(size, kTileSize)) {
    const size_t chunk = std::min(filled, std::min(size, kTileSize) - filled);
    std::memcpy(out + filled, out, chunk);
    filled += chunk;
  }
  for (; filled < size; filled += kTileSize) std::memcpy(out + filled, out, std::min(kTileSize, size - filled));
}

uint64_t CpuBackend::timestamp() const { return core::monotonicNanoseconds(); }

bool CpuBackend::placeHostMemory(void* address, size_t size) {
  if (tile_ == ThreadPool::kAnyTile) return false;
  static const std::vector<int> nodes = memoryNodes();
  if (nodes.size() <= 1) {
    static std::once_flag said;
    std::call_once(said, [] { core::debugMessage("one NUMA node: the colored memory of CPU tiles stays where first touched"); });
    return false;
  }
  const int node = nodeOfTile(tile_, pool_->tiles(), nodes);
  std::string why;
  if (preferNode(address, size, node, why)) return true;
  core::debugMessage("%s: %zu bytes not placed on NUMA node %d: %s", info_.name.c_str(), size, node, why.c_str());
  return false;
}

std::shared_ptr<ThreadPool> createTilePool(unsigned threads, unsigned tiles) {
  std::vector<int> allowed = allowedCpus();
  if (allowed.empty()) allowed = {0};
  std::vector<std::vector<int>> nodeCpus;
  const std::vector<int> nodes = memoryNodes();
  if (nodes.size() > 1)
    for (int node : nodes) nodeCpus.push_back(cpusOfNode(node));
  const std::vector<std::vector<int>> cores = coresOfTiles(tiles, allowed, nodeCpus);
  for (unsigned tile = 0; tile < tiles; ++tile) {
    std::string list;
    for (int core : cores[tile]) list += (list.empty() ? "" : ",") + std::to_string(core);
    core::debugMessage("CPU tile %u: workers on cores %s", tile, list.c_str());
  }
  return std::make_shared<ThreadPool>(threads ? threads : static_cast<unsigned>(allowed.size()), tiles, cores);
}

core::DiscoveredDevice discoverCpuDevice() {
  core::DeviceInfo root = describeHostCpu();
  const int64_t configuredThreads = core::debugKeys().CpuWorkerThreads;
  const unsigned threads = configuredThreads > 0 ? static_cast<unsigned>(configuredThreads) : root.computeUnits;
  core::DiscoveredDevice device;
  const int64_t tiles = core::debugKeys().CpuSubDevices;
  if (tiles <= 0) {
    device.backend = std::make_unique<CpuBackend>(root, threads);
    return device;
  }
  // One pool for the root and its tiles: no more threads than the cores the process may use,
  // whichever a program uses, each tile's workers on cores of its own.
  auto pool = createTilePool(configuredThreads > 0 ? threads : 0, static_cast<unsigned>(tiles));
  for (int64_t tile = 0; tile < tiles; ++tile) {
    core::DeviceInfo info = root;
    info.computeUnits = std::max(1u, root.computeUnits / static_cast<unsigned>(tiles));
    info.numEusPerSubslice = info.computeUnits;
    // Each tile has its share of the memory: the root reports the sum of its tiles.
    info.globalMemorySize = root.globalMemorySize / uint64_t(tiles);
    info.maxAllocationSize = root.maxAllocationSize / uint64_t(tiles);
    info.uuid[15] = static_cast<uint8_t>(tile + 1);
    device.subDevices.push_back(std::make_unique<CpuBackend>(info, pool, static_cast<unsigned>(tile)));
  }
  // No root backend: the device tree makes the root a composite over the tiles that
  // ZE_AFFINITY_MASK leaves (core/device_hierarchy.h).
  return device;
}

}  // namespace loom::backends::cpu
