#pragma once
// A sampler: core's sampler state, the context it belongs to and the properties it was created
// with (CL_SAMPLER_PROPERTIES answers them as given).
#include <vector>

#include "loom/core/sampler.h"
#include "opencl/api_object.h"

namespace loom::cl {

class Context;

class Sampler : public _cl_sampler, public RefCounted {
 public:
  static constexpr Magic kMagic = Magic::Sampler;

  Sampler(Context& context, core::Sampler state, std::vector<cl_sampler_properties> properties);
  ~Sampler();

  Context& context() const { return context_; }
  const core::Sampler& state() const { return state_; }
  const std::vector<cl_sampler_properties>& properties() const { return properties_; }

 private:
  Context& context_;
  core::Sampler state_;
  std::vector<cl_sampler_properties> properties_;  // as given, zero-terminated; empty when none
};

void releaseSampler(Sampler& sampler);

}  // namespace loom::cl
