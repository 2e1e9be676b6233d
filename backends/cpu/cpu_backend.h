#pragma once
// The CPU device: kernels are JIT-compiled work-group functions run on a thread pool; memory is
// host memory, so copies and fills are plain memory operations.
#include <cstdlib>
#include <memory>
#include <vector>

#include "backends/cpu/thread_pool.h"
#include "loom/core/backend.h"

namespace loom::backends::cpu {

class CpuBackend final : public core::Backend {
 public:
  CpuBackend(core::DeviceInfo info, unsigned threads);

  const core::DeviceInfo& info() const override { return info_; }
  compiler::Target compilerTarget() const override { return compiler::Target::Cpu; }
  std::unique_ptr<core::BackendProgram> loadProgram(std::shared_ptr<const compiler::CompiledProgram> program,
                                                    std::string& log) override;
  // Queues run each command before returning, and report a launch whose kernel faulted.
  std::unique_ptr<core::BackendQueue> createQueue() override;
  // Runs the launch's work-groups on the pool and the calling thread. False when kernel code
  // faulted (kernel_fault_guard.h): the groups not yet started then do not run, and the reason
  // goes to PrintDebugMessages.
  bool runKernel(const core::KernelLaunch& launch, const uint8_t* arguments);
  void copy(void* destination, const void* source, size_t size) override;
  void fill(void* destination, const void* pattern, size_t patternSize, size_t size) override;
  uint64_t timestamp() const override;
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

  core::DeviceInfo info_;
  ThreadPool pool_;
  std::vector<Scratch> scratch_;  // one per pool worker, by its thread number
};

// Describes this machine's CPU (name, cores, caches, memory, vector width).
core::DeviceInfo describeHostCpu();

// The CPU root device and, with LOOM_CpuSubDevices=N, its N tiles (partitions of the cores).
core::DiscoveredDevice discoverCpuDevice();

}  // namespace loom::backends::cpu
