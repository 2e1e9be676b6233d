#include "opencl/sampler/sampler.h"

#include <algorithm>

#include "opencl/context/context.h"
#include "opencl/device/device.h"
#include "opencl/info.h"
#include "opencl/reference_counting.h"
#include "opencl/validation.h"

namespace loom::cl {

Sampler::Sampler(Context& context, core::Sampler state, std::vector<cl_sampler_properties> properties)
    : context_(context), state_(state), properties_(std::move(properties)) {
  context_.retain();
}

Sampler::~Sampler() { releaseContext(context_); }

void releaseSampler(Sampler& sampler) {
  if (sampler.release()) delete &sampler;
}

namespace {

bool contextSupportsImages(const Context& context) {
  return std::any_of(context.devices().begin(), context.devices().end(),
                     [](const Device* device) { return device->info().images.supported; });
}

bool addressingModeOf(cl_addressing_mode mode, core::AddressingMode& out) {
  switch (mode) {
    case CL_ADDRESS_NONE: out = core::AddressingMode::None; return true;
    case CL_ADDRESS_CLAMP_TO_EDGE: out = core::AddressingMode::ClampToEdge; return true;
    case CL_ADDRESS_CLAMP: out = core::AddressingMode::Clamp; return true;
    case CL_ADDRESS_REPEAT: out = core::AddressingMode::Repeat; return true;
    case CL_ADDRESS_MIRRORED_REPEAT: out = core::AddressingMode::MirroredRepeat; return true;
    default: return false;
  }
}

cl_addressing_mode addressingModeValue(core::AddressingMode mode) {
  switch (mode) {
    case core::AddressingMode::None: return CL_ADDRESS_NONE;
    case core::AddressingMode::ClampToEdge: return CL_ADDRESS_CLAMP_TO_EDGE;
    case core::AddressingMode::Clamp: return CL_ADDRESS_CLAMP;
    case core::AddressingMode::Repeat: return CL_ADDRESS_REPEAT;
    case core::AddressingMode::MirroredRepeat: return CL_ADDRESS_MIRRORED_REPEAT;
  }
  return CL_ADDRESS_NONE;
}

struct SamplerRequest {
  cl_bool normalized = CL_TRUE;
  cl_addressing_mode addressing = CL_ADDRESS_CLAMP;
  cl_filter_mode filter = CL_FILTER_NEAREST;
};

// The properties list of clCreateSamplerWithProperties: each name at most once, known names only.
cl_int parseProperties(const cl_sampler_properties* properties, SamplerRequest& request,
                       std::vector<cl_sampler_properties>& copy) {
  const char* function = "clCreateSamplerWithProperties";
  if (!properties) return CL_SUCCESS;
  std::vector<cl_sampler_properties> seen;
  for (const cl_sampler_properties* at = properties; *at != 0; at += 2) {
    const cl_sampler_properties name = at[0], value = at[1];
    CL_CHECK(std::find(seen.begin(), seen.end(), name) == seen.end(), CL_INVALID_VALUE, "a property is given twice");
    seen.push_back(name);
    switch (name) {
      case CL_SAMPLER_NORMALIZED_COORDS: request.normalized = static_cast<cl_bool>(value); break;
      case CL_SAMPLER_ADDRESSING_MODE: request.addressing = static_cast<cl_addressing_mode>(value); break;
      case CL_SAMPLER_FILTER_MODE: request.filter = static_cast<cl_filter_mode>(value); break;
      default: CL_FAIL(CL_INVALID_VALUE, "unknown sampler property");
    }
    copy.insert(copy.end(), {name, value});
  }
  copy.push_back(0);
  return CL_SUCCESS;
}

cl_int createSampler(cl_context context, const SamplerRequest& request, std::vector<cl_sampler_properties> properties,
                     cl_sampler* sampler, const char* function) {
  Context* owner = objectOf<Context>(context);
  CL_CHECK(owner, CL_INVALID_CONTEXT, "not a context");
  CL_CHECK(request.normalized == CL_TRUE || request.normalized == CL_FALSE, CL_INVALID_VALUE,
             "normalized_coords is neither CL_TRUE nor CL_FALSE");
  core::AddressingMode addressing;
  CL_CHECK(addressingModeOf(request.addressing, addressing), CL_INVALID_VALUE, "unknown addressing mode");
  CL_CHECK(request.filter == CL_FILTER_NEAREST || request.filter == CL_FILTER_LINEAR, CL_INVALID_VALUE, "unknown filter mode");
  CL_CHECK(contextSupportsImages(*owner), CL_INVALID_OPERATION, "no device of the context supports images");
  const core::FilterMode filter = request.filter == CL_FILTER_LINEAR ? core::FilterMode::Linear : core::FilterMode::Nearest;
  *sampler = new Sampler(*owner, core::Sampler(request.normalized == CL_TRUE, addressing, filter), std::move(properties));
  return CL_SUCCESS;
}

}  // namespace
}  // namespace loom::cl

using namespace loom::cl;

extern "C" {

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool normalized_coords,
                                                    cl_addressing_mode addressing_mode, cl_filter_mode filter_mode,
                                                    cl_int* errcode_ret) {
  return createHandle<cl_sampler>(errcode_ret, [&](cl_sampler* sampler) {
    return createSampler(context, {normalized_coords, addressing_mode, filter_mode}, {}, sampler, __func__);
  });
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSamplerWithProperties(cl_context context,
                                                                  const cl_sampler_properties* sampler_properties,
                                                                  cl_int* errcode_ret) {
  return createHandle<cl_sampler>(errcode_ret, [&](cl_sampler* sampler) {
    SamplerRequest request;
    std::vector<cl_sampler_properties> properties;
    if (cl_int error = parseProperties(sampler_properties, request, properties); error != CL_SUCCESS) return error;
    return createSampler(context, request, std::move(properties), sampler, __func__);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler sampler) {
  return retainHandle<Sampler>(sampler, CL_INVALID_SAMPLER, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler) {
  return releaseHandle(sampler, CL_INVALID_SAMPLER, __func__, releaseSampler);
}

CL_API_ENTRY cl_int CL_API_CALL clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name, size_t param_value_size,
                                                 void* param_value, size_t* param_value_size_ret) {
  const InfoRequest out{param_value_size, param_value, param_value_size_ret, __func__};
  return answerInfo<Sampler>(sampler, CL_INVALID_SAMPLER, "not a sampler", out, [&](Sampler& object) {
    const loom::core::Sampler& state = object.state();
    switch (param_name) {
      case CL_SAMPLER_REFERENCE_COUNT: return out.scalar(object.referenceCount());
      case CL_SAMPLER_CONTEXT: return out.scalar<cl_context>(&object.context());
      case CL_SAMPLER_NORMALIZED_COORDS: return out.scalar<cl_bool>(state.normalizedCoordinates() ? CL_TRUE : CL_FALSE);
      case CL_SAMPLER_ADDRESSING_MODE: return out.scalar(addressingModeValue(state.addressing()));
      case CL_SAMPLER_FILTER_MODE:
        return out.scalar<cl_filter_mode>(state.filter() == loom::core::FilterMode::Linear ? CL_FILTER_LINEAR : CL_FILTER_NEAREST);
      case CL_SAMPLER_PROPERTIES: return out.array(object.properties());
      default: return out.unknownName();
    }
  });
}

}  // extern "C"
