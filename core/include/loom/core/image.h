#pragma once
// An image of both APIs: texels in pitched linear memory of one device (host memory on the CPU,
// device memory on a GPU), in storage of its own or in storage it is given (a buffer's, or the
// application's host memory), and the ImageDescriptor (compiler/image_abi.h) through which
// kernels reach it, in memory of the same device. Copies of texels are core's CopyRegion
// commands, fills FillRegion commands, over the regions this object computes.
#include <array>
#include <cstdint>
#include <memory>

#include "loom/compiler/image_abi.h"
#include "loom/core/command_stream.h"
#include "loom/core/image_format.h"

namespace loom::core {

class Device;

bool isArrayImage(ImageType type);
// Coordinates a texel of the type has, the array index included (1 to 3).
uint32_t coordinateCount(ImageType type);

// What an image is: its type, format and size in texels, and its pitches in bytes. Sizes a type
// does not have are 1: height of 1D images, depth of all but 3D, arraySize of all but arrays.
// A 1D array's layers are its rows: rowPitch and slicePitch are both the layer's stride.
struct ImageShape {
  ImageType type = ImageType::Image2d;
  ImageFormat format;
  uint64_t width = 1;
  uint64_t height = 1;
  uint64_t depth = 1;
  uint64_t arraySize = 1;
  uint64_t rowPitch = 0;    // 0: tight (width * element size)
  uint64_t slicePitch = 0;  // 0: tight
};

// The shape with its zero pitches made tight; other pitches kept.
ImageShape withTightPitches(ImageShape shape);
// Bytes from the first texel to the end of the last row of the last slice or layer (pitches
// resolved).
uint64_t storageBytes(const ImageShape& shape);

class Image {
 public:
  // An image of `shape` on `device` over `storage` (at least storageBytes(shape) bytes of memory
  // the device addresses, which the caller keeps alive longer than the image), or, when
  // `storage` is null, over memory of its own from the memory manager, tagged with `owner` (the
  // API context). `kernelsRead` false: kernels only write it (OpenCL's CL_MEM_WRITE_ONLY, under
  // which a kernel's read is undefined), so nothing it holds need be kept for sampling (a GPU's
  // texture mirror, backends/cuda/cuda_texture_mirror.h). nullptr when out of memory.
  static std::unique_ptr<Image> create(Device& device, const ImageShape& shape, void* storage, const void* owner,
                                       bool kernelsRead = true);
  ~Image();
  Image(const Image&) = delete;
  Image& operator=(const Image&) = delete;

  const ImageShape& shape() const { return shape_; }
  ImageFormat format() const { return shape_.format; }
  uint32_t elementSize() const { return elementSize_; }
  char* data() const { return data_; }
  // Whether the texels are the image's own memory, which nothing but the image addresses (not a
  // buffer's, a host pointer's or another image's, which other objects may write too).
  bool ownsStorage() const { return storageId_ != 0; }
  bool kernelsRead() const { return kernelsRead_; }
  uint64_t sizeInBytes() const { return storageBytes(shape_); }
  Device& device() const { return device_; }
  // What an image kernel argument holds: the device address of the image's descriptor.
  uint64_t descriptorAddress() const { return reinterpret_cast<uintptr_t>(descriptor_); }

  // The image's size along each coordinate: (width, height or layers, depth or layers).
  std::array<uint64_t, 3> extent() const;
  // True when `extent` texels from `origin` lie inside the image, none of them empty, with the
  // coordinates its type lacks at origin 0, extent 1.
  bool containsRegion(const std::array<uint64_t, 3>& origin, const std::array<uint64_t, 3>& extent) const;

  // Where texel `origin` (x, y, z; for a 1D array y is the layer, for a 2D array z) starts, as a
  // copy region of data() sees it.
  Region3d regionAt(const std::array<uint64_t, 3>& origin) const;
  // A region of `extent` texels (width, height, depth, as `origin` counts them) in copy terms:
  // width in bytes.
  std::array<uint64_t, 3> copyExtent(const std::array<uint64_t, 3>& extent) const;
  // The byte offset of texel `origin` in data().
  uint64_t offsetOf(const std::array<uint64_t, 3>& origin) const;

 private:
  Image(Device& device, const ImageShape& shape, bool kernelsRead);
  bool allocateStorage(const void* owner);
  bool writeDescriptor(const void* owner);

  Device& device_;
  ImageShape shape_;
  uint32_t elementSize_;
  bool kernelsRead_;
  char* data_ = nullptr;
  uint64_t storageId_ = 0;  // memory-manager allocation owned by the image, 0 when given storage
  void* descriptor_ = nullptr;
  uint64_t descriptorId_ = 0;
  // The device's texture objects over the image, by sampler state (ImageDescriptor::textures).
  std::array<uint64_t, compiler::kSamplerStates> textures_{};
};

// Host or buffer memory laid out as an image region of `extent` texels (the layout of the
// read, write and image<->buffer copies of both APIs): rows of `rowPitch` bytes, slices (or the
// layers of a 1D array) of `slicePitch` bytes; zero pitches are tight.
struct LinearLayout {
  uint64_t rowPitch = 0;
  uint64_t slicePitch = 0;
};
// The layout's zero pitches made tight for `extent` texels of `elementSize` bytes in an image of `type`.
LinearLayout resolveLayout(LinearLayout layout, ImageType type, uint32_t elementSize, const std::array<uint64_t, 3>& extent);
// Where memory laid out as `layout` (resolved) starts, as a copy region sees it, for images of `type`.
Region3d linearRegion(const LinearLayout& layout, ImageType type, uint64_t offset = 0);
// Bytes `extent` texels take in `layout` (resolved), from the first to the end of the last row.
uint64_t linearBytes(const LinearLayout& layout, ImageType type, uint32_t elementSize, const std::array<uint64_t, 3>& extent);

}  // namespace loom::core
