#pragma once
// The process-wide root of the object tree: devices and the memory manager. It is created on
// first use and outlives every object that references it.
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "loom/core/device.h"
#include "loom/core/device_hierarchy.h"
#include "loom/core/engine_registry.h"
#include "loom/core/imported_host_pointers.h"
#include "loom/core/memory_manager.h"

namespace loom::core {

class Runtime {
 public:
  // The process-wide runtime over every device the backends find (defined by the backends
  // library, which knows them).
  static Runtime& get();
  // Arranges `discovered` as ZE_FLAT_DEVICE_HIERARCHY says and shows what ZE_AFFINITY_MASK
  // selects of it (device_hierarchy.h), to both APIs alike.
  explicit Runtime(std::vector<DiscoveredDevice> discovered);

  // The root devices both APIs expose, GPUs first: ForceBackend filters the backends' devices,
  // the hierarchy arranges them and the affinity mask selects among them.
  const std::vector<Device*>& devices() const { return deviceView_; }
  DeviceHierarchy hierarchy() const { return hierarchy_; }
  MemoryManager& memory() { return memory_; }
  ImportedHostPointers& importedHostPointers() { return *importedHostPointers_; }

  // Runs `release` once every engine has completed what was submitted until now: objects that
  // in-flight work may still use (memory, events, kernel code) are freed only after it.
  void releaseAfterSubmittedWork(std::function<void()> release);

 private:
  struct PendingRelease {
    EngineRegistry::Snapshot work;
    std::function<void()> release;
  };
  void runCompletedReleases();

  EngineRegistry engines_;
  std::mutex releasesMutex_;
  std::vector<PendingRelease> pendingReleases_;
  MemoryManager memory_;
  std::unique_ptr<ImportedHostPointers> importedHostPointers_;  // pinned by the host allocator
  DeviceHierarchy hierarchy_;
  DeviceTree devices_;
  std::vector<Device*> deviceView_;
};

}  // namespace loom::core
