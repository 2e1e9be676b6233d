#include "level_zero/sampler/sampler.h"

#include "level_zero/context/context.h"
#include "level_zero/device/device.h"
#include "level_zero/validation.h"
#include "loom/core/device.h"

namespace loom::l0 {
namespace {

// Level Zero's CLAMP is OpenCL's clamp to edge; its CLAMP_TO_BORDER is OpenCL's CLAMP.
bool addressingModeOf(ze_sampler_address_mode_t mode, core::AddressingMode& out) {
  switch (mode) {
    case ZE_SAMPLER_ADDRESS_MODE_NONE: out = core::AddressingMode::None; return true;
    case ZE_SAMPLER_ADDRESS_MODE_REPEAT: out = core::AddressingMode::Repeat; return true;
    case ZE_SAMPLER_ADDRESS_MODE_CLAMP: out = core::AddressingMode::ClampToEdge; return true;
    case ZE_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER: out = core::AddressingMode::Clamp; return true;
    case ZE_SAMPLER_ADDRESS_MODE_MIRROR: out = core::AddressingMode::MirroredRepeat; return true;
    default: return false;
  }
}

}  // namespace

ze_result_t zeSamplerCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice, const ze_sampler_desc_t* desc,
                            ze_sampler_handle_t* phSampler) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(desc);
  ZE_REQUIRE_POINTER(phSampler);
  ZE_REQUIRE_DESCRIPTOR(desc, ZE_STRUCTURE_TYPE_SAMPLER_DESC);
  Device& device = *Device::fromHandle(hDevice);
  ZE_REQUIRE(Context::fromHandle(hContext)->contains(device), ZE_RESULT_ERROR_INVALID_ARGUMENT, "the device is not one of the context's");
  core::AddressingMode addressing;
  ZE_REQUIRE(addressingModeOf(desc->addressMode, addressing), ZE_RESULT_ERROR_INVALID_ENUMERATION, "unknown addressMode");
  ZE_REQUIRE(desc->filterMode == ZE_SAMPLER_FILTER_MODE_NEAREST || desc->filterMode == ZE_SAMPLER_FILTER_MODE_LINEAR,
             ZE_RESULT_ERROR_INVALID_ENUMERATION, "unknown filterMode");
  ZE_REQUIRE(device.core().info().images.supported, ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "the device does not support images");
  const core::FilterMode filter = desc->filterMode == ZE_SAMPLER_FILTER_MODE_LINEAR ? core::FilterMode::Linear : core::FilterMode::Nearest;
  *phSampler = new Sampler(core::Sampler(desc->isNormalized != 0, addressing, filter));
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeSamplerDestroy(ze_sampler_handle_t hSampler) {
  ZE_REQUIRE_HANDLE(hSampler);
  // Launches captured the sampler's bits: nothing recorded refers to the object.
  delete Sampler::fromHandle(hSampler);
  return ZE_RESULT_SUCCESS;
}

}  // namespace loom::l0
