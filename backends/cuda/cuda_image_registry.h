#pragma once
// The images of the process's GPUs, by the device address of their descriptors (what a kernel's
// image argument holds): where their texels lie and, for those that have one, their TextureMirror.
// Queues ask it around the work they issue: which mirrors a launch may sample (to refresh them
// first) and which mirrors a launch, copy or fill writes (to mark them stale after). A view of an
// image (Level Zero image views, OpenCL images over another image) shares its texels, so writes
// through it mark the mirror of the image it views. One registry for all GPUs: a copy issued on
// one GPU may write an image of another.
#include <atomic>
#include <cstdint>
#include <cstring>
#include <map>
#include <shared_mutex>

#include "backends/cuda/cuda_texture_mirror.h"
#include "loom/core/kernel_launch.h"

namespace loom::backends::cuda {

class ImageRegistry {
 public:
  static ImageRegistry& instance();

  // An image's descriptor and texels [texels, texels + size); `mirror` may be null.
  void add(uint64_t descriptor, CUdeviceptr texels, uint64_t size, const TextureMirror* mirror);
  void remove(uint64_t descriptor);

  // Calls `each(mirror)` for every mirror that `launch` may sample: those of its image arguments
  // that are not write-only. Images are sampled only through read-only arguments; arguments
  // without an access qualifier are taken as possibly read.
  template <typename Each>
  void forEachMirrorSampledBy(const core::KernelLaunch& launch, const uint8_t* arguments, Each&& each) const;
  // Calls `each(mirror)` for every mirror whose texels `launch` may write (through its image
  // arguments that are not read-only, or views of them).
  template <typename Each>
  void forEachMirrorWrittenBy(const core::KernelLaunch& launch, const uint8_t* arguments, Each&& each) const;
  // Calls `each(mirror)` for every mirror whose texels overlap [begin, begin + size).
  template <typename Each>
  void forEachMirrorOverlapping(CUdeviceptr begin, uint64_t size, Each&& each) const;

 private:
  struct Entry {
    CUdeviceptr texels;
    uint64_t size;
    const TextureMirror* mirror;
  };
  // Whether any image has a mirror: without one no queue asks further.
  bool anyMirror() const { return anyMirror_.load(std::memory_order_acquire); }
  template <typename Wanted, typename Each>
  void forEachImageArgument(const core::KernelLaunch& launch, const uint8_t* arguments, Wanted&& wanted, Each&& each) const;
  template <typename Each>
  void forEachOverlapping(CUdeviceptr begin, uint64_t size, Each&& each) const;

  mutable std::shared_mutex mutex_;
  std::map<uint64_t, Entry> images_;
  std::map<uint64_t, Entry> mirrored_;  // the images that have a mirror
  std::atomic<bool> anyMirror_{false};
};

template <typename Wanted, typename Each>
void ImageRegistry::forEachImageArgument(const core::KernelLaunch& launch, const uint8_t* arguments, Wanted&& wanted,
                                         Each&& each) const {
  for (const compiler::KernelArgument& argument : launch.descriptor->arguments) {
    if (argument.kind != compiler::ArgumentKind::Image || !wanted(argument.accessQualifier)) continue;
    uint64_t descriptor = 0;
    std::memcpy(&descriptor, arguments + argument.offset, sizeof(descriptor));
    const auto image = images_.find(descriptor);
    if (image != images_.end()) each(image->second);
  }
}

template <typename Each>
void ImageRegistry::forEachOverlapping(CUdeviceptr begin, uint64_t size, Each&& each) const {
  for (const auto& [descriptor, entry] : mirrored_)
    if (begin < entry.texels + entry.size && entry.texels < begin + size) each(entry.mirror);
}

template <typename Each>
void ImageRegistry::forEachMirrorSampledBy(const core::KernelLaunch& launch, const uint8_t* arguments, Each&& each) const {
  if (!anyMirror()) return;
  std::shared_lock lock(mutex_);
  const auto mayRead = [](compiler::AccessQualifier access) { return access != compiler::AccessQualifier::WriteOnly; };
  forEachImageArgument(launch, arguments, mayRead, [&](const Entry& image) {
    if (image.mirror) each(image.mirror);
  });
}

template <typename Each>
void ImageRegistry::forEachMirrorWrittenBy(const core::KernelLaunch& launch, const uint8_t* arguments, Each&& each) const {
  if (!anyMirror()) return;
  std::shared_lock lock(mutex_);
  const auto mayWrite = [](compiler::AccessQualifier access) { return access != compiler::AccessQualifier::ReadOnly; };
  forEachImageArgument(launch, arguments, mayWrite,
                       [&](const Entry& image) { forEachOverlapping(image.texels, image.size, each); });
}

template <typename Each>
void ImageRegistry::forEachMirrorOverlapping(CUdeviceptr begin, uint64_t size, Each&& each) const {
  if (!anyMirror() || size == 0) return;
  std::shared_lock lock(mutex_);
  forEachOverlapping(begin, size, each);
}

}  // namespace loom::backends::cuda
