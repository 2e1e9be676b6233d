#pragma once
// The process-wide root of the object tree: devices and the memory manager. It is created on
// first use and outlives every object that references it.
#include <memory>
#include <vector>

#include "loom/core/device.h"
#include "loom/core/memory_manager.h"

namespace loom::core {

class Runtime {
 public:
  // The process-wide runtime over every device the backends find (defined by the backends
  // library, which knows them).
  static Runtime& get();
  explicit Runtime(std::vector<DiscoveredDevice> discovered);

  // Root devices, GPUs first; ForceBackend filters them.
  const std::vector<Device*>& devices() const { return deviceView_; }
  MemoryManager& memory() { return memory_; }

 private:
  MemoryManager memory_;
  std::vector<std::unique_ptr<Device>> devices_;
  std::vector<Device*> deviceView_;
};

}  // namespace loom::core
