#include "backends/cuda/cuda_image_registry.h"

#include <mutex>

namespace loom::backends::cuda {

// Never destroyed: images that outlive static destruction (the runtime's own teardown at exit)
// still leave it.
ImageRegistry& ImageRegistry::instance() {
  static ImageRegistry* registry = new ImageRegistry;
  return *registry;
}

void ImageRegistry::add(uint64_t descriptor, CUdeviceptr texels, uint64_t size, const TextureMirror* mirror) {
  std::unique_lock lock(mutex_);
  images_[descriptor] = {texels, size, mirror};
  if (mirror) mirrored_[descriptor] = {texels, size, mirror};
  anyMirror_.store(!mirrored_.empty(), std::memory_order_release);
}

void ImageRegistry::remove(uint64_t descriptor) {
  std::unique_lock lock(mutex_);
  images_.erase(descriptor);
  mirrored_.erase(descriptor);
  anyMirror_.store(!mirrored_.empty(), std::memory_order_release);
}

}  // namespace loom::backends::cuda
