#pragma once
// A kernel: per device of its program, the core kernel holding argument values and launch state.
#include <memory>
#include <string>
#include <vector>

#include "loom/core/kernel.h"
#include "opencl/api_object.h"

namespace loom::cl {

class Device;
class Program;

class Kernel : public _cl_kernel, public RefCounted {
 public:
  static constexpr Magic kMagic = Magic::Kernel;
  struct DeviceKernel {
    Device* device;
    core::Kernel kernel;
  };

  Kernel(Program& program, std::vector<DeviceKernel> kernels);
  Kernel(const Kernel& source);  // clCloneKernel: same program, a copy of the argument values
  ~Kernel();

  Program& program() const { return program_; }
  const compiler::KernelDescriptor& descriptor() const { return kernels_.front().kernel.descriptor(); }
  core::Kernel* forDevice(const Device* device);

  // clSetKernelArg: memory objects become their storage address, local sizes reserve arena space.
  cl_int setArgument(cl_uint index, size_t size, const void* value);
  cl_int setSvmArgument(cl_uint index, const void* pointer);

 private:
  cl_int setOnEveryDevice(cl_uint index, size_t size, const void* value);
  cl_int setImage(cl_uint index, size_t size, const void* value);
  cl_int setSampler(cl_uint index, size_t size, const void* value);

  Program& program_;
  std::vector<DeviceKernel> kernels_;
};

void releaseKernel(Kernel& kernel);

}  // namespace loom::cl
