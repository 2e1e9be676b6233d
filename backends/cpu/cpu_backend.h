#pragma once
// The CPU device: kernels are JIT-compiled work-group functions run on a thread pool; memory is
// host memory, so copies and fills are plain memory operations.
#include <atomic>
#include <cstdlib>
#include <memory>
#include <vector>

#include "backends/cpu/kernel_fault_guard.h"
#include "backends/cpu/thread_pool.h"
#include "loom/compiler/work_group_context.h"
#include "loom/core/backend.h"

namespace loom::backends::cpu {

class CpuBackend final : public core::Backend {
 public:
  // A device with a thread pool of its own.
  CpuBackend(core::DeviceInfo info, unsigned threads);
  // A tile: `tile` of the tiles that share `pool`, whose workers it partitions among them.
  CpuBackend(core::DeviceInfo info, std::shared_ptr<ThreadPool> pool, unsigned tile);

  const core::DeviceInfo& info() const override { return info_; }
  compiler::Target compilerTarget() const override { return compiler::Target::Cpu; }
  std::unique_ptr<core::BackendProgram> loadProgram(std::shared_ptr<const compiler::CompiledProgram> program,
                                                    std::string& log) override;
  bool runsLaunchParts() const override { return true; }
  // Every CPU device of the process runs every CPU program.
  bool runsProgramsOf(const core::Backend& other) const override;
  // Queues run each command before returning, and report a launch whose kernel faulted.
  std::unique_ptr<core::BackendQueue> createQueue() override;
  // Runs the launch's work-groups on the pool and the calling thread; those of a cooperative
  // launch each on a thread of its own, all at once. False when kernel code faulted
  // (kernel_fault_guard.h): the groups not yet started then do not run, and the reason goes to
  // PrintDebugMessages.
  bool runKernel(const core::KernelLaunch& launch, const uint8_t* arguments);
  // A launch started on the pool's workers (this tile's) while the caller goes on; never a
  // cooperative one. finishKernel works on it too and waits for it: false when it faulted.
  class StartedKernel;
  std::unique_ptr<StartedKernel> startKernel(const core::KernelLaunch& launch, const uint8_t* arguments);
  bool finishKernel(StartedKernel& started);
  void copy(void* destination, const void* source, size_t size) override;
  void fill(void* destination, const void* pattern, size_t patternSize, size_t size) override;
  // A region copy big enough to pay for waking the pool's workers, cut into pieces that they and
  // the calling thread copy at once (region_pieces.h). False, copying nothing, when it is smaller,
  // when the bytes it reads and those it writes may meet, or when the pool has no workers: the
  // caller then copies it on its own thread.
  bool copyRegionOnPool(const core::CopyRegionCommand& copy);
  uint64_t timestamp() const override;
  // A tile's colored memory goes on the tile's NUMA node (numa_placement.h); false on a machine
  // of one node, or for a device that is no tile.
  bool placeHostMemory(void* address, size_t size) override;
  // A tile's own device allocations go on its node too.
  void adoptHostMemory(void* address, size_t size) override { placeHostMemory(address, size); }
  // The machine's /proc and /sys (backends/cpu/host_telemetry.h).
  std::unique_ptr<core::Telemetry> createTelemetry() override;

 private:
  // Local arena and barrier frames of the work-group a thread is running.
  struct FreeMemory {
    void operator()(char* memory) const { std::free(memory); }
  };
  struct Scratch {
    std::unique_ptr<char, FreeMemory> memory;
    size_t size = 0;
    char* reserve(size_t bytes);
  };
  // Thread 0 of the pool is whichever thread launches, and several may launch at once: each has
  // scratch of its own.
  Scratch& scratchOf(unsigned thread);

  // What every group of one launch shares.
  struct LaunchPlan {
    const core::KernelLaunch* launch;
    const uint8_t* arguments;
    compiler::WorkGroupFunction function;
    compiler::WorkGroupContext context;
    uint64_t longest;   // groups one call into kernel code may run
    size_t localBytes;  // of each group's scratch: its local arena, then its barrier frames
    size_t frameBytes;
  };
  // The first fault of a launch's kernel code, from whichever thread raised it.
  struct FaultRecord {
    std::atomic<bool> faulted{false};
    KernelFault first;
    void add(const KernelFault& fault);
  };
  // Runs the pool's runs of a launch's groups, until one faults.
  struct GroupsTask {
    CpuBackend* backend;
    const LaunchPlan* plan;
    FaultRecord* faults;
    bool operator()(uint64_t first, uint64_t last, unsigned thread) const;
  };
  static LaunchPlan planOf(const core::KernelLaunch& launch, const uint8_t* arguments);
  // True when no group faulted; otherwise says which kernel faulted, and how.
  bool reportFault(const FaultRecord& faults, const core::KernelLaunch& launch) const;
  // Runs groups [first, last) of the launch on the calling thread.
  static KernelFault runGroupsOf(const LaunchPlan& plan, uint64_t first, uint64_t last, Scratch& scratch);
  // The groups of a cooperative launch may wait for each other, which groups queued behind others
  // on the pool's threads could not: each runs on a thread of its own (the calling thread runs
  // the first). False, said under PrintDebugMessages, when the threads cannot be started.
  static bool runCooperatively(const LaunchPlan& plan, uint64_t groups, FaultRecord& faults);

  core::DeviceInfo info_;
  std::shared_ptr<ThreadPool> pool_;
  unsigned tile_ = ThreadPool::kAnyTile;  // whose workers of the pool run this device's launches
  std::vector<Scratch> scratch_;          // one per pool worker, by its thread number

 public:
  // What a started launch keeps until it finishes: the launch and arguments it was given, since
  // the caller's copies die when startKernel returns.
  class StartedKernel {
   public:
    StartedKernel(const core::KernelLaunch& launch, const uint8_t* arguments)
        : launch(launch), arguments(arguments, arguments + launch.argumentSize) {}

   private:
    friend class CpuBackend;
    core::KernelLaunch launch;
    std::vector<uint8_t> arguments;
    LaunchPlan plan{};
    FaultRecord faults;
    GroupsTask task{};
    ThreadPool::StartedJob job;
  };
};

// Describes this machine's CPU (name, cores, caches, memory, vector width).
core::DeviceInfo describeHostCpu();

// The CPU root device and, with LOOM_CpuSubDevices=N, its N tiles (partitions of the cores,
// which share one thread pool); the root over tiles is their composite (implicit scaling).
core::DiscoveredDevice discoverCpuDevice();
// The pool of `tiles` CPU tiles: `threads` threads (0: one per core the process may run on), each
// tile's workers pinned to cores of its own (tile_cores.h: its NUMA node's where there are several).
std::shared_ptr<ThreadPool> createTilePool(unsigned threads, unsigned tiles);

}  // namespace loom::backends::cpu
