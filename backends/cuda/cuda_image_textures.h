#pragma once
// Images sampled through the GPU's texture units: a CUDA texture object over an image's pitched
// linear memory for each sampler state (ImageDescriptor::textures, compiler/image_abi.h), with the
// sampler's addressing mode, filter and coordinates baked in, and the border color of
// CLK_ADDRESS_CLAMP. The hardware serves 2D and 1D images (a 1D image is a 2D one of one row) of
// normalized 8- and 16-bit, half and float channels in orders of 1, 2 or 4 channels: kernels
// arrange the channels a read returns in memory order as they do in software. Everything else
// (other image types and formats, sRGB, packed types, integer reads) stays with the builtin
// library's software sampling.
#include <cstdint>
#include <optional>

#include "backends/cuda/cuda_driver.h"
#include "loom/core/image.h"

namespace loom::backends::cuda {

// The pitched 2D resource over an image of `shape` (pitches resolved) at `data`; nullopt when
// the texture units cannot serve its type or format, or its memory is not aligned to
// `pitchAlignment` as they need.
std::optional<CudaResourceDesc> textureResourceOf(const core::ImageShape& shape, CUdeviceptr data, uint32_t pitchAlignment);

// The texture description of sampler `bits` (SamplerBits); nullopt for the states OpenCL leaves
// undefined (repeat and mirrored repeat with unnormalized coordinates).
std::optional<CudaTextureDesc> textureDescriptionOf(uint32_t samplerBits);

// Creates, in the current context, the texture objects of an image by sampler state (zeros where
// there is none, said under PrintDebugMessages when the driver refuses one), and destroys them.
void createImageTextures(const Driver& driver, const core::ImageShape& shape, CUdeviceptr data, uint32_t pitchAlignment,
                         uint64_t* textures);
// The same over `resource` (a texture mirror's array, cuda_texture_mirror.h), whose format the
// caller has checked as textureResourceOf does.
void createImageTextures(const Driver& driver, const CudaResourceDesc& resource, uint64_t* textures);
void destroyImageTextures(const Driver& driver, const uint64_t* textures);

}  // namespace loom::backends::cuda
