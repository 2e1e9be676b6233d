#include "backends/cuda/cuda_context.h"

#include "loom/core/log.h"

namespace loom::backends::cuda {

std::shared_ptr<PrimaryContext> PrimaryContext::retain(std::shared_ptr<const Driver> driver, CUdevice device,
                                                       std::string& error) {
  CUcontext context = nullptr;
  if (CUresult result = driver->cuDevicePrimaryCtxRetain(&context, device); result != CUDA_SUCCESS) {
    error = driver->describe("cuDevicePrimaryCtxRetain", result);
    return nullptr;
  }
  return std::shared_ptr<PrimaryContext>(new PrimaryContext(std::move(driver), device, context));
}

PrimaryContext::~PrimaryContext() { driver_->cuDevicePrimaryCtxRelease(device_); }

void PrimaryContext::bindToThisThread() const {
  thread_local const PrimaryContext* bound = nullptr;
  if (bound == this) return;
  const CUresult result = driver_->cuCtxSetCurrent(context_);
  if (result != CUDA_SUCCESS) {
    core::debugMessage("%s", driver_->describe("cuCtxSetCurrent", result).c_str());
    return;
  }
  bound = this;
}

PrimaryContext::Scope::Scope(const PrimaryContext& context) : driver_(*context.driver_) {
  const CUresult result = driver_.cuCtxPushCurrent(context.context_);
  pushed_ = result == CUDA_SUCCESS;
  if (!pushed_) core::debugMessage("%s", driver_.describe("cuCtxPushCurrent", result).c_str());
}

PrimaryContext::Scope::~Scope() {
  if (!pushed_) return;
  CUcontext popped = nullptr;
  driver_.cuCtxPopCurrent(&popped);
}

}  // namespace loom::backends::cuda
