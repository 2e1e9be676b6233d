#pragma once
// A memory object: a buffer or a sub-buffer. On a device that shares memory with the host
// (the CPU) a CL_MEM_USE_HOST_PTR buffer stores its data at the host pointer itself, so the
// host pointer is coherent at every synchronization point without copies; other buffers own a
// core allocation. Sub-buffers are windows into their parent's storage.
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "opencl/api_object.h"

namespace loom::cl {

class Context;

class MemoryObject : public _cl_mem, public RefCounted {
 public:
  static constexpr Magic kMagic = Magic::Mem;

  struct Description {
    cl_mem_flags flags;
    size_t size;
    void* hostPointer;        // as given to clCreateBuffer, or the parent's plus origin
    char* storage;            // where the data lives
    uint64_t allocationId;    // core allocation owned by this object, 0 when none
    MemoryObject* parent;     // for sub-buffers (retained)
    size_t origin;
    bool usesSvmPointer;
    std::vector<cl_mem_properties> properties;
  };

  MemoryObject(Context& context, Description description);
  ~MemoryObject();

  Context& context() const { return context_; }
  cl_mem_flags flags() const { return description_.flags; }
  size_t size() const { return description_.size; }
  char* storage() const { return description_.storage; }
  void* hostPointer() const { return description_.hostPointer; }
  MemoryObject* parent() const { return description_.parent; }
  size_t origin() const { return description_.origin; }
  bool usesSvmPointer() const { return description_.usesSvmPointer; }
  const std::vector<cl_mem_properties>& properties() const { return description_.properties; }

  // A region mapped for the host. Where the host cannot address the storage (GPU memory) the
  // host sees `staging` (the host pointer of a USE_HOST_PTR buffer, else a host copy), which
  // the map and unmap commands fill from and write back to the storage.
  struct Mapping {
    char* pointer;
    size_t offset;
    size_t size;
    bool writes;
    std::shared_ptr<std::vector<char>> staging;  // owned host copy, when one was needed
  };
  void addDestructorCallback(std::function<void()> callback);
  Mapping map(size_t offset, size_t size, bool writes, bool hostAddressesStorage);
  // The mapping `pointer` came from, now removed; nullopt when it is not a mapping of this object.
  std::optional<Mapping> unmap(void* pointer);
  cl_uint mapCount() const;

 private:
  Context& context_;
  Description description_;
  mutable std::mutex mutex_;
  std::vector<std::function<void()>> destructorCallbacks_;
  std::vector<Mapping> mappings_;  // one entry per outstanding map
};

// Drops one reference. The last one frees the storage once the work submitted until then has
// completed (commands may still use it), then runs the destructor callbacks.
void releaseMemoryObject(MemoryObject& memory);

}  // namespace loom::cl
