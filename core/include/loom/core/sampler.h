#pragma once
// A sampler of both APIs: how kernels address and filter an image. Kernels receive it as the
// bits of OpenCL C's sampler_t (compiler/image_abi.h), so that samplers made by the API and
// those written in kernel source are the same value.
#include <cstdint>

namespace loom::core {

enum class AddressingMode : uint8_t { None, ClampToEdge, Clamp, Repeat, MirroredRepeat };
enum class FilterMode : uint8_t { Nearest, Linear };

class Sampler {
 public:
  Sampler(bool normalizedCoordinates, AddressingMode addressing, FilterMode filter)
      : normalizedCoordinates_(normalizedCoordinates), addressing_(addressing), filter_(filter) {}

  bool normalizedCoordinates() const { return normalizedCoordinates_; }
  AddressingMode addressing() const { return addressing_; }
  FilterMode filter() const { return filter_; }
  // What a sampler kernel argument holds (image_abi.h's SamplerBits).
  uint64_t argumentValue() const;

 private:
  bool normalizedCoordinates_;
  AddressingMode addressing_;
  FilterMode filter_;
};

}  // namespace loom::core
