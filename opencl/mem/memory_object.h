#pragma once
// A memory object: a buffer, a sub-buffer or an image. On a device that shares memory with the
// host (the CPU) a CL_MEM_USE_HOST_PTR buffer or image stores its data at the host pointer
// itself, so the host pointer is coherent at every synchronization point without copies; other
// buffers own a core allocation. Sub-buffers are windows into their parent's storage. An image
// is a core::Image over storage of its own or over its buffer's (its parent: 1D buffer images,
// 2D images from a buffer).
#include <array>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "loom/core/image.h"
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

  // Images: the core image, the description clGetImageInfo reports, and how the application's
  // host pointer (CL_MEM_USE_HOST_PTR, COPY_HOST_PTR) lays the texels out.
  struct ImageParts {
    std::unique_ptr<core::Image> image;
    cl_image_desc reported;
    core::LinearLayout hostLayout;
  };
  void attachImage(ImageParts parts) { image_ = std::move(parts); }
  bool isImage() const { return image_.image != nullptr; }
  core::Image& image() const { return *image_.image; }
  const cl_image_desc& imageDescription() const { return image_.reported; }
  const core::LinearLayout& imageHostLayout() const { return image_.hostLayout; }
  cl_mem_object_type type() const { return isImage() ? imageDescription().image_type : CL_MEM_OBJECT_BUFFER; }

  // A region mapped for the host. Where the host cannot address the storage (GPU memory) the
  // host sees `staging` (the host pointer of a USE_HOST_PTR buffer, else a host copy), which
  // the map and unmap commands fill from and write back to the storage.
  struct Mapping {
    char* pointer;
    size_t offset;
    size_t size;
    bool writes;
    std::shared_ptr<std::vector<char>> staging;  // owned host copy, when one was needed
    // Images: the copy that fills the host's view from the storage (its reverse writes it back),
    // when the view is not the storage itself; the pitches of the view.
    std::optional<core::CopyRegionCommand> imageCopy;
    size_t rowPitch = 0;
    size_t slicePitch = 0;
  };
  void addDestructorCallback(std::function<void()> callback);
  Mapping map(size_t offset, size_t size, bool writes, bool hostAddressesStorage);
  // A region of `extent` texels of an image from texel `origin`.
  Mapping mapImage(const std::array<uint64_t, 3>& origin, const std::array<uint64_t, 3>& extent, bool writes,
                   bool hostAddressesStorage);
  // The mapping `pointer` came from, now removed; nullopt when it is not a mapping of this object.
  std::optional<Mapping> unmap(void* pointer);
  cl_uint mapCount() const;

 private:
  Context& context_;
  Description description_;
  mutable std::mutex mutex_;
  std::vector<std::function<void()>> destructorCallbacks_;
  std::vector<Mapping> mappings_;  // one entry per outstanding map
  ImageParts image_{};
};

constexpr cl_mem_flags kAccessFlags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
constexpr cl_mem_flags kHostPointerFlags = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
constexpr cl_mem_flags kHostAccessFlags = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
// CL_DEVICE_MEM_BASE_ADDR_ALIGN of every Loom device, in bytes.
constexpr size_t kBaseAddressAlignment = 128;

// The flags of a new buffer or image: known ones, at most one of each group, USE_HOST_PTR alone.
cl_int checkMemoryFlags(cl_mem_flags flags, const char* function);
// True when memory of the context's first device is host memory for all of them (the CPU's).
bool allDevicesShareHostMemory(const Context& context);

// Drops one reference. The last one frees the storage once the work submitted until then has
// completed (commands may still use it), then runs the destructor callbacks.
void releaseMemoryObject(MemoryObject& memory);

}  // namespace loom::cl
