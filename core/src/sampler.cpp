#include "loom/core/sampler.h"

#include "loom/compiler/image_abi.h"

namespace loom::core {
namespace {

uint32_t addressingBits(AddressingMode mode) {
  switch (mode) {
    case AddressingMode::None: return compiler::kSamplerAddressNone;
    case AddressingMode::ClampToEdge: return compiler::kSamplerAddressClampToEdge;
    case AddressingMode::Clamp: return compiler::kSamplerAddressClamp;
    case AddressingMode::Repeat: return compiler::kSamplerAddressRepeat;
    case AddressingMode::MirroredRepeat: return compiler::kSamplerAddressMirroredRepeat;
  }
  return compiler::kSamplerAddressNone;
}

}  // namespace

uint64_t Sampler::argumentValue() const {
  const uint32_t coordinates =
      normalizedCoordinates_ ? compiler::kSamplerNormalizedCoordsTrue : compiler::kSamplerNormalizedCoordsFalse;
  const uint32_t filter = filter_ == FilterMode::Linear ? compiler::kSamplerFilterLinear : compiler::kSamplerFilterNearest;
  return coordinates | addressingBits(addressing_) | filter;
}

}  // namespace loom::core
