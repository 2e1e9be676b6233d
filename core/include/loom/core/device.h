#pragma once
// A root device or a sub-device (tile), with its engines.
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "loom/core/backend.h"
#include "loom/core/device_info.h"

namespace loom::core {

class Engine;

enum class EngineType : uint8_t { Compute, Copy };

struct EngineGroup {
  EngineType type;
  uint32_t count;  // engines (queues) in the group
};

class Device {
 public:
  // `engineCompletion` runs on an engine's thread after each of its streams completes.
  Device(std::unique_ptr<Backend> backend, Device* parent, std::function<void()> engineCompletion = {});
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const DeviceInfo& info() const { return backend_->info(); }
  Backend& backend() { return *backend_; }
  Device* parent() const { return parent_; }
  const std::vector<std::unique_ptr<Device>>& subDevices() const { return subDevices_; }
  void addSubDevice(std::unique_ptr<Device> subDevice) { subDevices_.push_back(std::move(subDevice)); }

  // Queue-group ordinals: 0 is compute, 1 is copy.
  const std::vector<EngineGroup>& engineGroups() const { return engineGroups_; }
  // Started on first use; nullptr for an ordinal or index out of range.
  Engine* engine(uint32_t ordinal, uint32_t index);
  // The engines started so far (this device's and its sub-devices'), each with its last task count.
  void collectSubmittedWork(std::vector<std::pair<Engine*, uint64_t>>& work);

 private:
  std::unique_ptr<Backend> backend_;
  Device* parent_;
  std::vector<std::unique_ptr<Device>> subDevices_;
  std::vector<EngineGroup> engineGroups_;
  std::function<void()> engineCompletion_;
  std::mutex enginesMutex_;
  std::vector<std::vector<std::unique_ptr<Engine>>> engines_;
};

}  // namespace loom::core
