#pragma once
// A root device or a sub-device (tile), with its engines.
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "loom/core/backend.h"
#include "loom/core/device_info.h"
#include "loom/core/engine_registry.h"

namespace loom::core {

class Engine;

enum class EngineType : uint8_t { Compute, Copy };

struct EngineGroup {
  EngineType type;
  uint32_t count;  // engines (queues) in the group
};

class Device {
 public:
  // Engines report each completed stream to `engineCompletion` and list themselves in `registry`.
  Device(std::unique_ptr<Backend> backend, Device* parent, std::function<void()> engineCompletion = {},
         EngineRegistry* registry = nullptr);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const DeviceInfo& info() const { return backend_->info(); }
  Backend& backend() { return *backend_; }
  Device* parent() const { return parent_; }
  const std::vector<std::unique_ptr<Device>>& subDevices() const { return subDevices_; }
  void addSubDevice(std::unique_ptr<Device> subDevice) { subDevices_.push_back(std::move(subDevice)); }
  // A tile's position among its root's tiles, kept where the affinity mask exposes the tile
  // alone as a root device; -1 for a device that is no tile (a root, or a tile in FLAT mode).
  int32_t subDeviceIndex() const { return subDeviceIndex_; }
  void setSubDeviceIndex(uint32_t index) { subDeviceIndex_ = int32_t(index); }

  // Queue-group ordinals: 0 is compute, 1 is copy.
  const std::vector<EngineGroup>& engineGroups() const { return engineGroups_; }
  // A new engine for queue `index` of group `ordinal`; nullptr when either is out of range. Every
  // queue and immediate command list owns one, so that work blocked on an event in one queue
  // never holds up another (as separate hardware contexts behave on a GPU).
  // `onCompletion`, when given, runs on the engine's thread after each completed stream (after
  // the device's own completion handler), until the engine is destroyed.
  std::unique_ptr<Engine> createEngine(uint32_t ordinal, uint32_t index, std::function<void()> onCompletion = {});

  // The backend's telemetry, created on first use and kept for the device's lifetime.
  Telemetry& telemetry();

 private:
  std::unique_ptr<Backend> backend_;
  Device* parent_;
  std::vector<std::unique_ptr<Device>> subDevices_;
  int32_t subDeviceIndex_ = -1;
  std::vector<EngineGroup> engineGroups_;
  std::function<void()> engineCompletion_;
  EngineRegistry* registry_;
  std::once_flag telemetryOnce_;
  std::unique_ptr<Telemetry> telemetry_;
};

}  // namespace loom::core
