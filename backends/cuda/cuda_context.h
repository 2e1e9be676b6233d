#pragma once
// A GPU's primary context (the one the CUDA runtime shares too), retained while a backend lives,
// and the scope that makes it current on whichever thread calls into the backend.
#include <memory>
#include <string>

#include "backends/cuda/cuda_driver.h"

namespace loom::backends::cuda {

class PrimaryContext {
 public:
  // nullptr and `error` when the driver cannot retain it.
  static std::shared_ptr<PrimaryContext> retain(std::shared_ptr<const Driver> driver, CUdevice device, std::string& error);
  ~PrimaryContext();
  PrimaryContext(const PrimaryContext&) = delete;
  PrimaryContext& operator=(const PrimaryContext&) = delete;

  const Driver& driver() const { return *driver_; }
  CUdevice device() const { return device_; }
  CUcontext handle() const { return context_; }

  // Pushes the context on this thread and pops it when destroyed, so that the caller's own current
  // context (an application's CUDA runtime, another backend's) is left as it was.
  class Scope {
   public:
    explicit Scope(const PrimaryContext& context);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    const Driver& driver_;
    bool pushed_;
  };
  Scope makeCurrent() const { return Scope(*this); }
  // Makes the context current on the calling thread for good, once per thread: for threads that
  // run nothing but Loom's commands (engine threads), where a push and pop per call is waste.
  void bindToThisThread() const;

 private:
  PrimaryContext(std::shared_ptr<const Driver> driver, CUdevice device, CUcontext context)
      : driver_(std::move(driver)), device_(device), context_(context) {}

  std::shared_ptr<const Driver> driver_;
  CUdevice device_;
  CUcontext context_;
};

}  // namespace loom::backends::cuda
