#pragma once
// A Level Zero sampler: core's sampler state, which kernels receive as OpenCL C sampler_t bits.
#include <level_zero/ze_api.h>

#include "level_zero/handle/handle.h"
#include "loom/core/sampler.h"

namespace loom::l0 {

class Sampler : public _ze_sampler_handle_t {
 public:
  explicit Sampler(core::Sampler state) : state_(state) {}
  static Sampler* fromHandle(ze_sampler_handle_t handle) { return static_cast<Sampler*>(handle); }
  const core::Sampler& state() const { return state_; }

 private:
  core::Sampler state_;
};

ze_result_t zeSamplerCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice, const ze_sampler_desc_t* desc,
                            ze_sampler_handle_t* phSampler);
ze_result_t zeSamplerDestroy(ze_sampler_handle_t hSampler);

}  // namespace loom::l0
