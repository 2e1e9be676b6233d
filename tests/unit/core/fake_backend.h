#pragma once
// A backend that records what core asks of it, for tests of submission and execution.
#include <cstring>
#include <mutex>
#include <vector>

#include "loom/core/backend.h"

namespace loom::core::testing {

class FakeBackendBase : public Backend {
 public:
  FakeBackendBase() { info_.name = "fake"; }
  const DeviceInfo& info() const override { return info_; }
  compiler::Target compilerTarget() const override { return compiler::Target::Cpu; }
  std::unique_ptr<BackendProgram> loadProgram(std::shared_ptr<const compiler::CompiledProgram>, std::string&) override {
    return nullptr;
  }
  void launch(const KernelLaunch& launch) override {
    std::lock_guard lock(mutex);
    launches.push_back(launch);
    launchArguments.emplace_back(launch.arguments, launch.arguments + launch.descriptor->argumentBufferSize);
  }
  void copy(void* destination, const void* source, size_t size) override { std::memmove(destination, source, size); }
  void fill(void* destination, const void* pattern, size_t patternSize, size_t size) override {
    auto* out = static_cast<char*>(destination);
    for (size_t i = 0; i < size; ++i) out[i] = static_cast<const char*>(pattern)[i % patternSize];
  }
  uint64_t timestamp() const override { return ++clock; }

  std::mutex mutex;
  std::vector<KernelLaunch> launches;
  std::vector<std::vector<uint8_t>> launchArguments;
  mutable uint64_t clock = 100;

 private:
  DeviceInfo info_;
};

class FakeBackend final : public FakeBackendBase {};

}  // namespace loom::core::testing
