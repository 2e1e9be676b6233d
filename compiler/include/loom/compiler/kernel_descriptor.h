#pragma once
// What the runtime must know about a compiled kernel to launch it: its arguments and the
// resources a work-group needs. Produced by the compiler, stored in the native binary.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace loom::compiler {

enum class ArgumentKind : uint8_t {
  GlobalPointer,    // __global T*: 8-byte address in the argument buffer
  ConstantPointer,  // __constant T*: 8-byte address
  LocalPointer,     // __local T*: the runtime writes the byte offset into the work-group's local arena
  Value,            // by value (scalars, vectors, structs): `size` bytes copied into the buffer
  Sampler,          // sampler_t: 8 bytes holding its SamplerBits (image_abi.h)
  Image,            // image*_t: 8-byte device address of its ImageDescriptor (image_abi.h)
};

// OpenCL clGetKernelArgInfo vocabulary, kept as plain values.
enum class AddressQualifier : uint8_t { Private, Global, Constant, Local };
enum class AccessQualifier : uint8_t { None, ReadOnly, WriteOnly, ReadWrite };
enum TypeQualifier : uint32_t { TypeNone = 0, TypeConst = 1, TypeRestrict = 2, TypeVolatile = 4, TypePipe = 8 };

struct KernelArgument {
  ArgumentKind kind = ArgumentKind::Value;
  uint32_t offset = 0;     // byte offset in the argument buffer
  uint32_t size = 0;       // bytes the argument occupies in the buffer
  uint32_t alignment = 1;  // alignment of the argument in the buffer
  // Argument info (from SPIR-V names and kernel_arg_* metadata where present).
  std::string name;
  std::string typeName;
  AddressQualifier addressQualifier = AddressQualifier::Private;
  AccessQualifier accessQualifier = AccessQualifier::None;
  uint32_t typeQualifiers = TypeNone;
};

struct KernelDescriptor {
  std::string name;
  std::vector<KernelArgument> arguments;
  uint32_t argumentBufferSize = 0;
  uint32_t staticLocalMemorySize = 0;  // bytes of __local variables declared in the kernel
  uint32_t privateMemorySize = 0;      // bytes of private memory per work-item (informational)
  uint32_t barrierFrameSize = 0;       // bytes per work-item the runtime provides in WorkGroupContext::barrierFrame
  bool hasBarriers = false;
  std::array<uint32_t, 3> requiredWorkGroupSize{0, 0, 0};  // reqd_work_group_size, zeros when absent
  // The code runs groups of the required size only (built for uniform work-groups): a launch
  // whose last group is smaller must be refused.
  bool uniformGroupsOnly = false;
  std::array<uint32_t, 3> workGroupSizeHint{0, 0, 0};
  uint32_t requiredSubGroupSize = 0;   // intel_reqd_sub_group_size, 0 when absent
  std::string vectorTypeHint;          // vec_type_hint type name, empty when absent
  std::string attributes;              // source attributes, e.g. "reqd_work_group_size(8,1,1)"
};

struct GlobalVariableDescriptor {
  std::string name;
  uint64_t size = 0;
};

// The most bytes of arguments a kernel may take: far more than any device accepts
// (CL_DEVICE_MAX_PARAMETER_SIZE is 4 KiB on the CPU), few enough that no descriptor makes the
// runtime allocate gigabytes for an argument buffer.
constexpr uint32_t kMaxArgumentBufferSize = 64 * 1024;

// What the runtime relies on when it fills a kernel's argument buffer and picks its group size:
// the buffer is at most kMaxArgumentBufferSize bytes, every argument lies inside it, pointers take
// 8 bytes, and a required work-group size has no zero dimension. Empty when `kernel` keeps all of
// that, otherwise what it breaks, naming the kernel and the argument. The compiler checks what it
// makes, the native binary's reader what it reads.
std::string checkKernelDescriptor(const KernelDescriptor& kernel);

// A kernel of the module that this build cannot run, and why: one that takes a multisampled
// image. The rest of the module builds without it; creating it fails.
struct UnavailableKernel {
  std::string name;
  std::string reason;
};

// Everything a program exposes besides code.
struct ProgramInfo {
  std::vector<KernelDescriptor> kernels;
  std::vector<UnavailableKernel> unavailableKernels;
  std::vector<GlobalVariableDescriptor> globals;  // program-scope variables the host may address
  uint64_t globalVariableTotalSize = 0;           // bytes of every global-memory variable, static ones too
  std::vector<std::string> exportedFunctions;     // functions other modules may import (and function pointers)
  std::vector<std::string> importedFunctions;     // undefined functions, resolved by dynamic linking

  const KernelDescriptor* findKernel(const std::string& kernelName) const {
    for (const auto& kernel : kernels)
      if (kernel.name == kernelName) return &kernel;
    return nullptr;
  }
  const UnavailableKernel* findUnavailableKernel(const std::string& kernelName) const {
    for (const auto& kernel : unavailableKernels)
      if (kernel.name == kernelName) return &kernel;
    return nullptr;
  }
  // Every kernel of the module, those it cannot run last.
  std::vector<const std::string*> kernelNames() const {
    std::vector<const std::string*> names;
    for (const auto& kernel : kernels) names.push_back(&kernel.name);
    for (const auto& kernel : unavailableKernels) names.push_back(&kernel.name);
    return names;
  }
};

}  // namespace loom::compiler
