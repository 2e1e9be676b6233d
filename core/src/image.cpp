#include "loom/core/image.h"

#include <algorithm>

#include "loom/compiler/image_abi.h"
#include "loom/core/device.h"
#include "loom/core/runtime.h"

namespace loom::core {
namespace {

// The alignment of an image's own storage: a cache line and more, as buffers have it.
constexpr size_t kStorageAlignment = 128;

}  // namespace

bool isArrayImage(ImageType type) { return type == ImageType::Image1dArray || type == ImageType::Image2dArray; }

uint32_t coordinateCount(ImageType type) {
  switch (type) {
    case ImageType::Image1d:
    case ImageType::Image1dBuffer: return 1;
    case ImageType::Image1dArray:
    case ImageType::Image2d: return 2;
    case ImageType::Image2dArray:
    case ImageType::Image3d: return 3;
  }
  return 1;
}

ImageShape withTightPitches(ImageShape shape) {
  const uint64_t element = elementSize(shape.format);
  if (shape.rowPitch == 0) shape.rowPitch = shape.width * element;
  if (shape.type == ImageType::Image1dArray) {
    // Layers are rows: one stride for both, the slice pitch where the application gave one.
    if (shape.slicePitch == 0) shape.slicePitch = shape.rowPitch;
    shape.rowPitch = shape.slicePitch;
  } else if (shape.slicePitch == 0) {
    shape.slicePitch = shape.rowPitch * shape.height;
  }
  return shape;
}

uint64_t storageBytes(const ImageShape& shape) {
  const ImageShape resolved = withTightPitches(shape);
  const uint64_t rowBytes = resolved.width * elementSize(resolved.format);
  switch (resolved.type) {
    case ImageType::Image1d:
    case ImageType::Image1dBuffer: return rowBytes;
    case ImageType::Image2d: return (resolved.height - 1) * resolved.rowPitch + rowBytes;
    case ImageType::Image1dArray: return (resolved.arraySize - 1) * resolved.slicePitch + rowBytes;
    case ImageType::Image2dArray:
      return (resolved.arraySize - 1) * resolved.slicePitch + (resolved.height - 1) * resolved.rowPitch + rowBytes;
    case ImageType::Image3d:
      return (resolved.depth - 1) * resolved.slicePitch + (resolved.height - 1) * resolved.rowPitch + rowBytes;
  }
  return 0;
}

Image::Image(Device& device, const ImageShape& shape, bool kernelsRead)
    : device_(device), shape_(withTightPitches(shape)), elementSize_(core::elementSize(shape.format)), kernelsRead_(kernelsRead) {}

std::unique_ptr<Image> Image::create(Device& device, const ImageShape& shape, void* storage, const void* owner, bool kernelsRead) {
  std::unique_ptr<Image> image(new Image(device, shape, kernelsRead));
  if (storage)
    image->data_ = static_cast<char*>(storage);
  else if (!image->allocateStorage(owner))
    return nullptr;
  if (!image->writeDescriptor(owner)) return nullptr;
  return image;
}

Image::~Image() {
  MemoryManager& memory = Runtime::get().memory();
  device_.backend().destroyImageTextures(*this, textures_.data());
  if (descriptorId_) memory.free(descriptor_, descriptorId_);
  if (storageId_) memory.free(data_, storageId_);
}

bool Image::allocateStorage(const void* owner) {
  auto allocation = Runtime::get().memory().allocate(MemoryType::Device, sizeInBytes(), kStorageAlignment, &device_, owner);
  if (!allocation) return false;
  data_ = static_cast<char*>(allocation->address);
  storageId_ = allocation->id;
  return true;
}

bool Image::writeDescriptor(const void* owner) {
  auto allocation = Runtime::get().memory().allocate(MemoryType::Device, sizeof(compiler::ImageDescriptor),
                                                     alignof(compiler::ImageDescriptor), &device_, owner);
  if (!allocation) return false;
  descriptor_ = allocation->address;
  descriptorId_ = allocation->id;
  compiler::ImageDescriptor descriptor{};
  descriptor.data = reinterpret_cast<uintptr_t>(data_);
  descriptor.rowPitch = shape_.rowPitch;
  descriptor.slicePitch = shape_.slicePitch;
  descriptor.width = static_cast<uint32_t>(shape_.width);
  descriptor.height = static_cast<uint32_t>(shape_.height);
  descriptor.depth = static_cast<uint32_t>(shape_.depth);
  descriptor.arraySize = static_cast<uint32_t>(shape_.arraySize);
  descriptor.channelOrder = static_cast<uint32_t>(shape_.format.order);
  descriptor.channelType = static_cast<uint32_t>(shape_.format.type);
  descriptor.imageType = static_cast<uint32_t>(shape_.type);
  descriptor.elementSize = elementSize_;
  device_.backend().createImageTextures(*this, textures_.data());
  std::copy(textures_.begin(), textures_.end(), descriptor.textures);
  // Through the device's copy: a GPU's memory is not the host's.
  device_.backend().copy(descriptor_, &descriptor, sizeof(descriptor));
  return true;
}

std::array<uint64_t, 3> Image::extent() const {
  switch (shape_.type) {
    case ImageType::Image1dArray: return {shape_.width, shape_.arraySize, 1};
    case ImageType::Image2dArray: return {shape_.width, shape_.height, shape_.arraySize};
    default: return {shape_.width, shape_.height, shape_.depth};
  }
}

bool Image::containsRegion(const std::array<uint64_t, 3>& origin, const std::array<uint64_t, 3>& extent) const {
  const std::array<uint64_t, 3> size = this->extent();
  const uint32_t coordinates = coordinateCount(shape_.type);
  for (uint32_t d = 0; d < 3; ++d) {
    if (extent[d] == 0 || origin[d] > size[d] || extent[d] > size[d] - origin[d]) return false;
    if (d >= coordinates && (origin[d] != 0 || extent[d] != 1)) return false;
  }
  return true;
}

Region3d Image::regionAt(const std::array<uint64_t, 3>& origin) const {
  return {origin[0] * elementSize_, origin[1], origin[2], shape_.rowPitch, shape_.slicePitch};
}

std::array<uint64_t, 3> Image::copyExtent(const std::array<uint64_t, 3>& extent) const {
  return {extent[0] * elementSize_, extent[1], extent[2]};
}

uint64_t Image::offsetOf(const std::array<uint64_t, 3>& origin) const {
  const Region3d at = regionAt(origin);
  return at.originX + at.originY * at.rowPitch + at.originZ * at.slicePitch;
}

LinearLayout resolveLayout(LinearLayout layout, ImageType type, uint32_t elementSize, const std::array<uint64_t, 3>& extent) {
  if (layout.rowPitch == 0) layout.rowPitch = extent[0] * elementSize;
  if (layout.slicePitch == 0) layout.slicePitch = type == ImageType::Image1dArray ? layout.rowPitch : layout.rowPitch * extent[1];
  return layout;
}

Region3d linearRegion(const LinearLayout& layout, ImageType type, uint64_t offset) {
  // A 1D array's layers (its y) step by the slice pitch.
  const uint64_t rowStride = type == ImageType::Image1dArray ? layout.slicePitch : layout.rowPitch;
  return {offset, 0, 0, rowStride, layout.slicePitch};
}

uint64_t linearBytes(const LinearLayout& layout, ImageType type, uint32_t elementSize, const std::array<uint64_t, 3>& extent) {
  const Region3d region = linearRegion(layout, type);
  return (extent[2] - 1) * region.slicePitch + (extent[1] - 1) * region.rowPitch + extent[0] * elementSize;
}

}  // namespace loom::core
