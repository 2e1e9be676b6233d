#pragma once
// A context: its devices, the properties it was created with and its callbacks. Memory, programs
// and queues retain their context.
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

#include "opencl/api_object.h"

namespace loom::cl {

class Device;

class Context : public _cl_context, public RefCounted {
 public:
  static constexpr Magic kMagic = Magic::Context;
  using Notify = void(CL_CALLBACK*)(const char*, const void*, size_t, void*);

  // The context retains its sub-devices (device.h) until it is destroyed.
  Context(std::vector<Device*> devices, std::vector<cl_context_properties> properties, Notify notify, void* userData);
  ~Context();

  const std::vector<Device*>& devices() const { return devices_; }
  bool hasDevice(const Device* device) const;
  // The object behind `handle` when it is one of this context's devices.
  Device* deviceOf(cl_device_id handle) const;
  // The largest allocation of the context, which every one of its devices may use
  // (core::allocationLimit): a buffer or SVM allocation, or USM of no device.
  uint64_t allocationLimit() const;
  const std::vector<cl_context_properties>& properties() const { return properties_; }
  void addDestructorCallback(std::function<void()> callback);

 private:
  std::vector<Device*> devices_;
  std::vector<cl_context_properties> properties_;  // as given, zero-terminated; empty when none
  Notify notify_;
  void* notifyData_;
  std::mutex mutex_;
  std::vector<std::function<void()>> destructorCallbacks_;
};

// Drops one reference; the last one destroys the context.
void releaseContext(Context& context);

}  // namespace loom::cl
