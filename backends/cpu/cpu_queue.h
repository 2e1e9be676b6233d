#pragma once
// An engine's queue on the CPU: every command completes on the issuing thread before the call
// returns; a kernel that faulted fails its launch, which takeFailure reports.
#include <memory>
#include <vector>

#include "backends/cpu/cpu_backend.h"
#include "loom/core/backend.h"

namespace loom::backends::cpu {

class CpuQueue final : public core::BackendQueue {
 public:
  explicit CpuQueue(CpuBackend& backend) : backend_(backend) {}
  ~CpuQueue() override { finishLaunches(); }  // the pool's workers may still run what started
  bool asynchronous() const override { return false; }
  void launch(const core::KernelLaunch& launch, const uint8_t* arguments) override;
  void copy(void* destination, const void* source, size_t size) override;
  void fill(void* destination, const void* pattern, size_t patternSize, size_t size) override;
  // Large regions on the pool's threads at once, others row by row on the calling thread.
  void copyRegion(const core::CopyRegionCommand& copy) override;
  bool completed() override { return true; }
  void synchronize() override {}
  int32_t takeFailure() override;
  // Launches of a composite queue's tile run on this tile's workers while the caller runs another.
  bool startLaunch(const core::KernelLaunch& launch, const uint8_t* arguments) override;
  void finishLaunches() override;

 private:
  void fail();

  CpuBackend& backend_;
  int32_t failure_ = 0;
  std::vector<std::unique_ptr<CpuBackend::StartedKernel>> started_;
};

}  // namespace loom::backends::cpu
