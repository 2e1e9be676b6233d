#include "opencl/kernel/kernel.h"

#include <algorithm>

#include "opencl/context/context.h"
#include "opencl/device/device.h"
#include "opencl/info.h"
#include "opencl/mem/memory_object.h"
#include "opencl/program/program.h"
#include "opencl/reference_counting.h"
#include "opencl/sampler/sampler.h"
#include "opencl/validation.h"
#include "loom/core/log.h"

namespace loom::cl {

using compiler::ArgumentKind;

Kernel::Kernel(Program& program, std::vector<DeviceKernel> kernels) : program_(program), kernels_(std::move(kernels)) {
  program_.retain();
  ++program_.attachedKernels;
}

Kernel::Kernel(const Kernel& source) : _cl_kernel(), RefCounted(), program_(source.program_), kernels_(source.kernels_) {
  program_.retain();
  ++program_.attachedKernels;
}

Kernel::~Kernel() {
  --program_.attachedKernels;
  releaseProgram(program_);
}

core::Kernel* Kernel::forDevice(const Device* device) {
  for (DeviceKernel& entry : kernels_)
    if (entry.device == device) return &entry.kernel;
  return nullptr;
}

cl_int Kernel::setOnEveryDevice(cl_uint index, size_t size, const void* value) {
  for (DeviceKernel& entry : kernels_) {
    switch (entry.kernel.setArgument(index, size, value)) {
      case core::ArgumentError::None: break;
      case core::ArgumentError::InvalidIndex: CL_FAIL(CL_INVALID_ARG_INDEX, "arg_index is out of range");
      case core::ArgumentError::InvalidSize: CL_FAIL(CL_INVALID_ARG_SIZE, "arg_size does not match the argument");
      case core::ArgumentError::InvalidValue: CL_FAIL(CL_INVALID_ARG_VALUE, "arg_value is not valid for the argument");
    }
  }
  return CL_SUCCESS;
}

cl_int Kernel::setArgument(cl_uint index, size_t size, const void* value) {
  CL_REQUIRE(index < descriptor().arguments.size(), CL_INVALID_ARG_INDEX, "arg_index is out of range");
  const compiler::KernelArgument& argument = descriptor().arguments[index];
  switch (argument.kind) {
    case ArgumentKind::GlobalPointer:
    case ArgumentKind::ConstantPointer: {
      CL_REQUIRE(size == sizeof(cl_mem), CL_INVALID_ARG_SIZE, "a buffer argument takes sizeof(cl_mem)");
      const cl_mem handle = value ? *static_cast<const cl_mem*>(value) : nullptr;
      if (handle == nullptr) return setOnEveryDevice(index, sizeof(void*), nullptr);
      MemoryObject* memory = objectOf<MemoryObject>(handle);
      CL_REQUIRE(memory && &memory->context() == &program_.context() && !memory->isImage(), CL_INVALID_MEM_OBJECT,
                 "arg_value is not a buffer of the kernel's context");
      void* address = memory->storage();
      return setOnEveryDevice(index, sizeof(void*), &address);
    }
    case ArgumentKind::Sampler: return setSampler(index, size, value);
    case ArgumentKind::Image: return setImage(index, size, value);
    case ArgumentKind::LocalPointer:
    case ArgumentKind::Value: return setOnEveryDevice(index, size, value);
  }
  return CL_SUCCESS;
}

// An image's descriptor address; its flags must allow what the argument's access qualifier does.
cl_int Kernel::setImage(cl_uint index, size_t size, const void* value) {
  CL_REQUIRE(size == sizeof(cl_mem), CL_INVALID_ARG_SIZE, "an image argument takes sizeof(cl_mem)");
  CL_REQUIRE(value, CL_INVALID_ARG_VALUE, "an image argument cannot be null");
  MemoryObject* memory = objectOf<MemoryObject>(*static_cast<const cl_mem*>(value));
  CL_REQUIRE(memory && memory->isImage() && &memory->context() == &program_.context(), CL_INVALID_MEM_OBJECT,
             "arg_value is not an image of the kernel's context");
  const cl_mem_flags flags = memory->flags();
  switch (descriptor().arguments[index].accessQualifier) {
    case compiler::AccessQualifier::ReadOnly:
      CL_REQUIRE(!(flags & CL_MEM_WRITE_ONLY), CL_INVALID_ARG_VALUE, "a read_only image argument given a CL_MEM_WRITE_ONLY image");
      break;
    case compiler::AccessQualifier::WriteOnly:
      CL_REQUIRE(!(flags & CL_MEM_READ_ONLY), CL_INVALID_ARG_VALUE, "a write_only image argument given a CL_MEM_READ_ONLY image");
      break;
    case compiler::AccessQualifier::ReadWrite:
      CL_REQUIRE(!(flags & (CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY)), CL_INVALID_ARG_VALUE,
                 "a read_write image argument given a CL_MEM_READ_ONLY or CL_MEM_WRITE_ONLY image");
      break;
    case compiler::AccessQualifier::None: break;
  }
  const uint64_t descriptorAddress = memory->image().descriptorAddress();
  return setOnEveryDevice(index, sizeof(descriptorAddress), &descriptorAddress);
}

cl_int Kernel::setSampler(cl_uint index, size_t size, const void* value) {
  CL_REQUIRE(size == sizeof(cl_sampler), CL_INVALID_ARG_SIZE, "a sampler argument takes sizeof(cl_sampler)");
  Sampler* sampler = value ? objectOf<Sampler>(*static_cast<const cl_sampler*>(value)) : nullptr;
  CL_REQUIRE(sampler && &sampler->context() == &program_.context(), CL_INVALID_SAMPLER,
             "arg_value is not a sampler of the kernel's context");
  const uint64_t bits = sampler->state().argumentValue();
  return setOnEveryDevice(index, sizeof(bits), &bits);
}

cl_int Kernel::setSvmArgument(cl_uint index, const void* pointer) {
  CL_REQUIRE(index < descriptor().arguments.size(), CL_INVALID_ARG_INDEX, "arg_index is out of range");
  const ArgumentKind kind = descriptor().arguments[index].kind;
  CL_REQUIRE(kind == ArgumentKind::GlobalPointer || kind == ArgumentKind::ConstantPointer, CL_INVALID_ARG_INDEX,
             "the argument is not a global or constant pointer");
  return setOnEveryDevice(index, sizeof(void*), &pointer);
}

void releaseKernel(Kernel& kernel) {
  if (kernel.release()) delete &kernel;
}

namespace {

cl_int createKernel(cl_program program, const char* name, cl_kernel* kernel) {
  Program* owner = objectOf<Program>(program);
  CL_REQUIRE(owner, CL_INVALID_PROGRAM, "not a program");
  CL_REQUIRE(name, CL_INVALID_VALUE, "kernel_name is null");
  CL_REQUIRE(owner->hasExecutable(), CL_INVALID_PROGRAM_EXECUTABLE, "the program has no executable");
  std::vector<Kernel::DeviceKernel> kernels;
  for (Program::DeviceBuild& build : owner->builds()) {
    if (!build.program) continue;
    const compiler::KernelDescriptor* descriptor = build.program->info().findKernel(name);
    const compiler::UnavailableKernel* unavailable = build.program->info().findUnavailableKernel(name);
    CL_REQUIRE(!unavailable, CL_INVALID_KERNEL_DEFINITION, ("the kernel cannot run: " + unavailable->reason).c_str());
    CL_REQUIRE(descriptor, CL_INVALID_KERNEL_NAME, "no kernel of that name in the program");
    std::string log;
    core::BackendKernel* loaded = build.program->loaded().kernel(name, log);
    CL_REQUIRE(loaded, CL_INVALID_KERNEL_DEFINITION, log.c_str());
    kernels.push_back({build.device, core::Kernel(*descriptor, loaded)});
  }
  *kernel = new Kernel(*owner, std::move(kernels));
  return CL_SUCCESS;
}

cl_kernel_arg_address_qualifier addressQualifier(compiler::AddressQualifier qualifier) {
  switch (qualifier) {
    case compiler::AddressQualifier::Global: return CL_KERNEL_ARG_ADDRESS_GLOBAL;
    case compiler::AddressQualifier::Constant: return CL_KERNEL_ARG_ADDRESS_CONSTANT;
    case compiler::AddressQualifier::Local: return CL_KERNEL_ARG_ADDRESS_LOCAL;
    case compiler::AddressQualifier::Private: break;
  }
  return CL_KERNEL_ARG_ADDRESS_PRIVATE;
}

cl_kernel_arg_access_qualifier accessQualifier(compiler::AccessQualifier qualifier) {
  switch (qualifier) {
    case compiler::AccessQualifier::ReadOnly: return CL_KERNEL_ARG_ACCESS_READ_ONLY;
    case compiler::AccessQualifier::WriteOnly: return CL_KERNEL_ARG_ACCESS_WRITE_ONLY;
    case compiler::AccessQualifier::ReadWrite: return CL_KERNEL_ARG_ACCESS_READ_WRITE;
    case compiler::AccessQualifier::None: break;
  }
  return CL_KERNEL_ARG_ACCESS_NONE;
}

cl_kernel_arg_type_qualifier typeQualifier(uint32_t qualifiers) {
  cl_kernel_arg_type_qualifier result = CL_KERNEL_ARG_TYPE_NONE;
  if (qualifiers & compiler::TypeConst) result |= CL_KERNEL_ARG_TYPE_CONST;
  if (qualifiers & compiler::TypeRestrict) result |= CL_KERNEL_ARG_TYPE_RESTRICT;
  if (qualifiers & compiler::TypeVolatile) result |= CL_KERNEL_ARG_TYPE_VOLATILE;
  if (qualifiers & compiler::TypePipe) result |= CL_KERNEL_ARG_TYPE_PIPE;
  return result;
}

// The device a per-device query is about: the given one, or the only one when null.
Device* queryDevice(Kernel& kernel, cl_device_id device) {
  auto& builds = kernel.program().builds();
  if (device == nullptr) return builds.size() == 1 ? builds.front().device : nullptr;
  Device* object = objectOf<Device>(device);
  return kernel.forDevice(object) ? object : nullptr;
}

// A device's sub-groups: each of its one size, along the local linear id, the last one of a
// group partial (compiler::subGroupSize).
struct SubGroupShape {
  explicit SubGroupShape(const core::DeviceInfo& info)
      : size(info.subGroupSizes.empty() ? 1 : info.subGroupSizes.back()),
        maxWorkGroupSize(info.maxWorkGroupSize),
        maxGroupSizeX(info.maxGroupSize[0]) {}
  size_t countFor(size_t workItems) const { return (workItems + size - 1) / size; }
  size_t size, maxWorkGroupSize, maxGroupSizeX;
};

}  // namespace

}  // namespace loom::cl

using namespace loom::cl;
using loom::compiler::ArgumentKind;

extern "C" {

CL_API_ENTRY cl_kernel CL_API_CALL clCreateKernel(cl_program program, const char* kernel_name, cl_int* errcode_ret) {
  return createHandle<cl_kernel>(errcode_ret, [&](cl_kernel* kernel) { return createKernel(program, kernel_name, kernel); });
}

CL_API_ENTRY cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program, cl_uint num_kernels, cl_kernel* kernels,
                                                         cl_uint* num_kernels_ret) {
  Program* owner = objectOf<Program>(program);
  CL_REQUIRE(owner, CL_INVALID_PROGRAM, "not a program");
  loom::core::Program* executable = owner->anyExecutable();
  CL_REQUIRE(executable, CL_INVALID_PROGRAM_EXECUTABLE, "the program has no executable");
  // Kernels the device cannot run yet (unavailableKernels) are left out.
  const auto& descriptors = executable->info().kernels;
  for (const auto& unavailable : executable->info().unavailableKernels)
    loom::core::debugMessage("clCreateKernelsInProgram: leaving out kernel '%s': %s", unavailable.name.c_str(),
                             unavailable.reason.c_str());
  CL_REQUIRE(kernels == nullptr || num_kernels >= descriptors.size(), CL_INVALID_VALUE, "num_kernels is too small");
  if (kernels) {
    for (size_t i = 0; i < descriptors.size(); ++i) {
      cl_int error = createKernel(program, descriptors[i].name.c_str(), &kernels[i]);
      if (error != CL_SUCCESS) {
        for (size_t j = 0; j < i; ++j) releaseKernel(*objectOf<Kernel>(kernels[j]));
        return error;
      }
    }
  }
  if (num_kernels_ret) *num_kernels_ret = static_cast<cl_uint>(descriptors.size());
  return CL_SUCCESS;
}

CL_API_ENTRY cl_kernel CL_API_CALL clCloneKernel(cl_kernel source_kernel, cl_int* errcode_ret) {
  Kernel* source = objectOf<Kernel>(source_kernel);
  if (source == nullptr) return returnHandle<cl_kernel>(reportError(CL_INVALID_KERNEL, __func__, "not a kernel"), nullptr, errcode_ret);
  return returnHandle<cl_kernel>(CL_SUCCESS, new Kernel(*source), errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainKernel(cl_kernel kernel) {
  return retainHandle<Kernel>(kernel, CL_INVALID_KERNEL, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel) {
  return releaseHandle(kernel, CL_INVALID_KERNEL, __func__, releaseKernel);
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size, const void* arg_value) {
  Kernel* object = objectOf<Kernel>(kernel);
  CL_REQUIRE(object, CL_INVALID_KERNEL, "not a kernel");
  return object->setArgument(arg_index, arg_size, arg_value);
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index, const void* arg_value) {
  Kernel* object = objectOf<Kernel>(kernel);
  CL_REQUIRE(object, CL_INVALID_KERNEL, "not a kernel");
  return object->setSvmArgument(arg_index, arg_value);
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name, size_t param_value_size,
                                                    const void* param_value) {
  Kernel* object = objectOf<Kernel>(kernel);
  CL_REQUIRE(object, CL_INVALID_KERNEL, "not a kernel");
  CL_REQUIRE(param_value, CL_INVALID_VALUE, "param_value is null");
  // Every SVM allocation, and on the CPU every host address, is reachable from kernels already:
  // the information is accepted and needs no action.
  switch (param_name) {
    case CL_KERNEL_EXEC_INFO_SVM_PTRS:
    case CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL:
      CL_REQUIRE(param_value_size % sizeof(void*) == 0, CL_INVALID_VALUE, "param_value_size is not a multiple of a pointer");
      return CL_SUCCESS;
    case CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM:
    case CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL:
    case CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL:
    case CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL:
      CL_REQUIRE(param_value_size == sizeof(cl_bool), CL_INVALID_VALUE, "param_value_size is not sizeof(cl_bool)");
      return CL_SUCCESS;
    default: CL_FAIL(CL_INVALID_VALUE, "unknown param_name");
  }
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name, size_t param_value_size,
                                                void* param_value, size_t* param_value_size_ret) {
  const InfoRequest out{param_value_size, param_value, param_value_size_ret, __func__};
  return answerInfo<Kernel>(kernel, CL_INVALID_KERNEL, "not a kernel", out, [&](Kernel& object) {
    switch (param_name) {
      case CL_KERNEL_FUNCTION_NAME: return out.string(object.descriptor().name);
      case CL_KERNEL_NUM_ARGS: return out.scalar<cl_uint>(static_cast<cl_uint>(object.descriptor().arguments.size()));
      case CL_KERNEL_REFERENCE_COUNT: return out.scalar(object.referenceCount());
      case CL_KERNEL_CONTEXT: return out.scalar<cl_context>(&object.program().context());
      case CL_KERNEL_PROGRAM: return out.scalar<cl_program>(&object.program());
      case CL_KERNEL_ATTRIBUTES: return out.string(object.descriptor().attributes);
      default: return out.unknownName();
    }
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_index, cl_kernel_arg_info param_name,
                                                   size_t param_value_size, void* param_value, size_t* param_value_size_ret) {
  const InfoRequest out{param_value_size, param_value, param_value_size_ret, __func__};
  return answerInfo<Kernel>(kernel, CL_INVALID_KERNEL, "not a kernel", out, [&](Kernel& object) {
    if (arg_index >= object.descriptor().arguments.size()) return out.fail(CL_INVALID_ARG_INDEX, "arg_index is out of range");
    const loom::compiler::KernelArgument& argument = object.descriptor().arguments[arg_index];
    if (argument.typeName.empty())
      return out.fail(CL_KERNEL_ARG_INFO_NOT_AVAILABLE, "the program carries no argument information");
    switch (param_name) {
      case CL_KERNEL_ARG_ADDRESS_QUALIFIER: return out.scalar(addressQualifier(argument.addressQualifier));
      case CL_KERNEL_ARG_ACCESS_QUALIFIER: return out.scalar(accessQualifier(argument.accessQualifier));
      case CL_KERNEL_ARG_TYPE_NAME: return out.string(argument.typeName);
      case CL_KERNEL_ARG_TYPE_QUALIFIER: return out.scalar(typeQualifier(argument.typeQualifiers));
      case CL_KERNEL_ARG_NAME: return out.string(argument.name);
      default: return out.unknownName();
    }
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                                                         cl_kernel_work_group_info param_name, size_t param_value_size,
                                                         void* param_value, size_t* param_value_size_ret) {
  const InfoRequest out{param_value_size, param_value, param_value_size_ret, __func__};
  return answerInfo<Kernel>(kernel, CL_INVALID_KERNEL, "not a kernel", out, [&](Kernel& object) {
    Device* target = queryDevice(object, device);
    if (!target) return out.fail(CL_INVALID_DEVICE, "not a device of the kernel's program (or null with several devices)");
    const auto& info = target->info();
    const loom::core::Kernel& deviceKernel = *object.forDevice(target);
    const auto& descriptor = deviceKernel.descriptor();
    switch (param_name) {
      case CL_KERNEL_GLOBAL_WORK_SIZE:
        return out.fail(CL_INVALID_VALUE, "CL_KERNEL_GLOBAL_WORK_SIZE applies to custom devices and built-in kernels only");
      case CL_KERNEL_WORK_GROUP_SIZE: return out.scalar<size_t>(deviceKernel.maxGroupSize(info.maxWorkGroupSize));
      case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
        const auto& required = descriptor.requiredWorkGroupSize;
        return out.array(std::vector<size_t>{required[0], required[1], required[2]});
      }
      case CL_KERNEL_LOCAL_MEM_SIZE: return out.scalar<cl_ulong>(deviceKernel.localMemorySize());
      case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: return out.scalar<size_t>(loom::core::preferredGroupSizeMultiple(info));
      case CL_KERNEL_PRIVATE_MEM_SIZE: return out.scalar<cl_ulong>(descriptor.privateMemorySize);
      default: return out.unknownName();
    }
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info param_name,
                                                        size_t input_value_size, const void* input_value, size_t param_value_size,
                                                        void* param_value, size_t* param_value_size_ret) {
  const InfoRequest out{param_value_size, param_value, param_value_size_ret, __func__};
  return answerInfo<Kernel>(kernel, CL_INVALID_KERNEL, "not a kernel", out, [&](Kernel& object) {
    Device* target = queryDevice(object, device);
    if (!target) return out.fail(CL_INVALID_DEVICE, "not a device of the kernel's program (or null with several devices)");
    const SubGroupShape shape{target->info()};
    switch (param_name) {
      case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
      case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE: {
        if (!input_value) return out.fail(CL_INVALID_VALUE, "input_value is null; it must hold the local work size");
        if (input_value_size % sizeof(size_t) != 0 || input_value_size < sizeof(size_t) || input_value_size > 3 * sizeof(size_t))
          return out.fail(CL_INVALID_VALUE, "input_value_size must be 1 to 3 size_t values (the local work size)");
        size_t workItems = 1;
        for (size_t d = 0; d < input_value_size / sizeof(size_t); ++d) workItems *= static_cast<const size_t*>(input_value)[d];
        if (workItems == 0) return out.fail(CL_INVALID_VALUE, "the local work size has a 0 dimension");
        if (param_name == CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE) return out.scalar<size_t>(std::min(shape.size, workItems));
        return out.scalar<size_t>(shape.countFor(workItems));
      }
      case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
        if (!input_value || input_value_size != sizeof(size_t))
          return out.fail(CL_INVALID_VALUE, "input_value must be one size_t, the number of sub-groups");
        const size_t dimensions = param_value_size / sizeof(size_t);
        if (param_value && (param_value_size % sizeof(size_t) != 0 || dimensions < 1 || dimensions > 3))
          return out.fail(CL_INVALID_VALUE, "param_value_size must be 1 to 3 size_t values (the local work size)");
        // Sub-groups are laid along x: count of them, all full, in one row; zeros where none fits.
        std::vector<size_t> local(param_value ? dimensions : 3, 1);
        const size_t count = *static_cast<const size_t*>(input_value);
        local[0] = count * shape.size;
        if (count == 0 || local[0] > shape.maxWorkGroupSize || local[0] > shape.maxGroupSizeX)
          std::fill(local.begin(), local.end(), 0);
        return out.array(local);
      }
      case CL_KERNEL_MAX_NUM_SUB_GROUPS: return out.scalar<size_t>(shape.countFor(shape.maxWorkGroupSize));
      case CL_KERNEL_COMPILE_NUM_SUB_GROUPS: return out.scalar<size_t>(0);  // OpenCL C cannot require a number of sub-groups
      default: return out.unknownName();
    }
  });
}

// cl_khr_subgroups: the same query before OpenCL 2.1 made it core.
CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfoKHR(cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info param_name,
                                                           size_t input_value_size, const void* input_value,
                                                           size_t param_value_size, void* param_value, size_t* param_value_size_ret) {
  return clGetKernelSubGroupInfo(kernel, device, param_name, input_value_size, input_value, param_value_size, param_value,
                                 param_value_size_ret);
}

}  // extern "C"
