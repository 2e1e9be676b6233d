#pragma once
// A block-linear copy of an image for the texture units. The texture cache serves 2D footprints
// of 16-byte texels poorly from pitched rows: a 5x5 linear-filter blur of RGBA float texels takes
// 0.822 ms over pitched memory and 0.455 ms over a CUDA array (benchmarks/gpu/texture_layout_probe.cu,
// docs/performance.md), while 4-byte texels read as fast either way. Such images keep their pitched
// memory as their storage, which every write reaches (kernels, copies, fills), and gain an array
// beside it that their texture objects read. A word in device memory says the array is stale:
// whatever writes the image sets it in stream order (markStale), and before a kernel that may
// sample the image the stream runs a small kernel that copies the texels into the array when the
// word is set, then clears it (refresh). The word is read on the device, when the work runs, so
// command lists recorded once and run many times, and images written by other queues, stay right.
#include <memory>
#include <string_view>

#include "backends/cuda/cuda_driver.h"
#include "loom/core/image.h"

namespace loom::backends::cuda {

// The refresh kernel's PTX: its entry takes (stale word, texels, row pitch, surface, width,
// height) and copies rows of 16-byte texels through the surface while the word is non-zero.
extern const char kTextureMirrorRefreshPtx[];
extern const char kTextureMirrorRefreshEntry[];

// Whether the PTX entry `entry` may read texels through texture objects: a texture instruction
// (tex, tld4) in its body, or a call, whose callee might; true where the entry is not found. A
// kernel that cannot needs no mirror refreshed before it (samplerless reads of textured images
// fetch through the texture units too, so they count).
bool ptxEntryMaySampleTextures(std::string_view ptx, std::string_view entry);

class TextureMirror {
 public:
  // Whether an image of `shape` gains from a mirror: 2D RGBA float images (16-byte texels), the
  // layout the probe measured.
  static bool serves(const core::ImageShape& shape);

  // In the current context, the array of `shape`'s size and format, a surface over it and the
  // stale word (which the caller sets: the texels are not copied yet); nullptr, said under PrintDebugMessages, when the driver refuses any of them
  // (then the image's textures read its pitched memory, as without a mirror). `refresh` is the
  // context's refresh kernel (kTextureMirrorRefreshEntry). `streamWrites`: the driver has stream
  // memory operations (CudaCapabilities), which set and clear the word cheaper than a memset.
  static std::unique_ptr<TextureMirror> create(const Driver& driver, const core::ImageShape& shape, CUdeviceptr texels,
                                               CUfunction refresh, bool streamWrites);
  // In the image's context, once no work uses the image.
  ~TextureMirror();
  TextureMirror(const TextureMirror&) = delete;
  TextureMirror& operator=(const TextureMirror&) = delete;

  // The array as a texture resource.
  CudaResourceDesc resource() const;
  CUdeviceptr staleWord() const { return staleWord_; }

  // A driver call issued to a stream, and its result.
  struct Issued {
    CUresult result;
    const char* call;
  };
  // Issues to `stream` the copy of the texels into the array, which runs only where the stale
  // word is set, then clears the word.
  Issued refresh(CUstream stream) const;
  // Issues to `stream` the write that marks the array stale (from any context: the word is read
  // and written through unified addresses).
  Issued markStale(CUstream stream) const;

 private:
  TextureMirror(const Driver& driver, const core::ImageShape& shape, CUdeviceptr texels, CUfunction refresh, bool streamWrites)
      : driver_(driver), shape_(shape), texels_(texels), refresh_(refresh), streamWrites_(streamWrites) {}
  Issued writeWord(CUstream stream, uint32_t value) const;

  const Driver& driver_;
  core::ImageShape shape_;
  CUdeviceptr texels_;
  CUfunction refresh_;
  bool streamWrites_;
  CUarray array_ = nullptr;
  CUsurfObject surface_ = 0;
  CUdeviceptr staleWord_ = 0;
};

}  // namespace loom::backends::cuda
