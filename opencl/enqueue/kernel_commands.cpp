// Kernel commands: clEnqueueNDRangeKernel (global offsets, non-uniform work-groups, a chosen
// local size when none is given), clEnqueueTask and, on the CPU, clEnqueueNativeKernel.
#include <algorithm>
#include <cstring>
#include <memory>

#include "opencl/device/device.h"
#include "opencl/enqueue/enqueue_checks.h"
#include "opencl/kernel/kernel.h"
#include "opencl/mem/memory_object.h"
#include "opencl/program/program.h"
#include "opencl/queue/command_queue.h"
#include "opencl/validation.h"

namespace loom::cl {
namespace {

struct NdRange {
  cl_uint workDim = 1;
  size_t offset[3] = {0, 0, 0};
  size_t global[3] = {1, 1, 1};
  size_t local[3] = {1, 1, 1};
};

// A kernel built for uniform groups (from a binary of such a program) has no code for others.
bool allowsNonUniformGroups(Kernel& kernel, const core::Kernel& code, const Device& device) {
  if (code.descriptor().uniformGroupsOnly) return false;
  const Program::DeviceBuild* build = kernel.program().buildFor(&device);
  return !build || build->nonUniformGroups;
}

// A local size when the application gives none: core's suggestion for both APIs.
void chooseLocalSize(NdRange& range, const core::Kernel& kernel, const core::DeviceInfo& info, bool nonUniform) {
  const auto size = kernel.suggestGroupSize(info, {range.global[0], range.global[1], range.global[2]}, range.workDim, nonUniform);
  for (int d = 0; d < 3; ++d) range.local[d] = size[d];
}

cl_int checkLocalSize(const NdRange& range, const core::Kernel& kernel, const core::DeviceInfo& info, bool nonUniform,
                      const char* function) {
  size_t total = 1;
  for (cl_uint d = 0; d < 3; ++d) {
    if (range.local[d] == 0 || range.local[d] > info.maxGroupSize[d])
      return reportError(CL_INVALID_WORK_ITEM_SIZE, function, "a local size is 0 or above CL_DEVICE_MAX_WORK_ITEM_SIZES");
    total *= range.local[d];
    if (d < range.workDim && !nonUniform && range.global[d] % range.local[d] != 0)
      return reportError(CL_INVALID_WORK_GROUP_SIZE, function,
                         "the global size is not a multiple of the local size (uniform work-groups required)");
  }
  if (total > kernel.maxGroupSize(info.maxWorkGroupSize))
    return reportError(CL_INVALID_WORK_GROUP_SIZE, function, "the work-group is larger than CL_KERNEL_WORK_GROUP_SIZE");
  const auto& required = kernel.descriptor().requiredWorkGroupSize;
  if (required[0] != 0 && (range.local[0] != required[0] || range.local[1] != required[1] || range.local[2] != required[2]))
    return reportError(CL_INVALID_WORK_GROUP_SIZE, function, "the local size differs from reqd_work_group_size");
  return CL_SUCCESS;
}

cl_int readRange(cl_uint workDim, const size_t* offset, const size_t* global, const size_t* local, NdRange& range,
                 const char* function) {
  if (workDim < 1 || workDim > 3) return reportError(CL_INVALID_WORK_DIMENSION, function, "work_dim must be 1, 2 or 3");
  if (global == nullptr) return reportError(CL_INVALID_VALUE, function, "global_work_size is null");
  range.workDim = workDim;
  for (cl_uint d = 0; d < workDim; ++d) {
    range.global[d] = global[d];
    range.offset[d] = offset ? offset[d] : 0;
    if (range.offset[d] > SIZE_MAX - range.global[d])
      return reportError(CL_INVALID_GLOBAL_OFFSET, function, "global offset plus global size overflows");
    if (local) range.local[d] = local[d];
  }
  return CL_SUCCESS;
}

// core's launch check in OpenCL's words.
cl_int checkLaunch(const core::Kernel& kernel, const core::DeviceInfo& info, const uint32_t* groupCount, const char* function) {
  switch (kernel.checkLaunch(info, groupCount)) {
    case core::LaunchError::None: return CL_SUCCESS;
    case core::LaunchError::ArgumentsMissing: return reportError(CL_INVALID_KERNEL_ARGS, function, "not every kernel argument is set");
    case core::LaunchError::TooManyGroups:
    case core::LaunchError::TooManyCooperativeGroups:  // OpenCL launches are never cooperative
      return reportError(CL_INVALID_GLOBAL_WORK_SIZE, function, "the NDRange has more work-groups than the device can launch");
    case core::LaunchError::TooMuchLocalMemory:
      return reportError(CL_OUT_OF_RESOURCES, function, "the kernel needs more local memory than the device has");
  }
  return CL_SUCCESS;
}

cl_int enqueueRange(CommandQueue& queue, Kernel& kernel, NdRange range, bool localGiven, const EnqueueArguments& arguments,
                    const char* function) {
  Device& device = queue.device();
  core::Kernel* coreKernel = kernel.forDevice(&device);
  CL_REQUIRE(coreKernel, CL_INVALID_PROGRAM_EXECUTABLE, "the kernel's program has no executable for the queue's device");
  CL_REQUIRE(&kernel.program().context() == &queue.context(), CL_INVALID_CONTEXT, "the kernel belongs to another context");
  const core::DeviceInfo& info = device.info();
  const bool nonUniform = allowsNonUniformGroups(kernel, *coreKernel, device);
  if (!localGiven) chooseLocalSize(range, *coreKernel, info, nonUniform);
  if (cl_int error = checkLocalSize(range, *coreKernel, info, nonUniform, function); error != CL_SUCCESS)
    return error;

  uint32_t groupCount[3];
  for (int d = 0; d < 3; ++d) {
    const size_t groups = (range.global[d] + range.local[d] - 1) / range.local[d];
    CL_REQUIRE(groups <= UINT32_MAX, CL_INVALID_GLOBAL_WORK_SIZE, "the NDRange has more than 2^32 work-groups in a dimension");
    groupCount[d] = static_cast<uint32_t>(groups);
  }
  if (cl_int error = checkLaunch(*coreKernel, info, groupCount, function); error != CL_SUCCESS) return error;

  // An empty range launches nothing; its command still waits and signals.
  const bool empty = range.global[0] == 0 || range.global[1] == 0 || range.global[2] == 0;
  const core::Kernel* launched = empty ? nullptr : coreKernel;
  core::LaunchRange launchRange;
  launchRange.workDim = range.workDim;
  for (int d = 0; d < 3; ++d) {
    launchRange.groupCount[d] = groupCount[d];
    launchRange.groupSize[d] = static_cast<uint32_t>(range.local[d]);
    launchRange.globalSize[d] = range.global[d];
    launchRange.globalOffset[d] = range.offset[d];
  }
  // Two captures, which std::function keeps without allocating.
  return queue.enqueue(
      arguments,
      [launched, &launchRange](core::CommandStream& stream) {
        if (launched) launched->appendLaunch(stream, launchRange);
      },
      function);
}

// clEnqueueNDRangeKernel's checks and launch, which clEnqueueTask shares.
cl_int enqueueKernel(cl_command_queue command_queue, cl_kernel kernel, cl_uint workDim, const size_t* offset, const size_t* global,
                     const size_t* local, const EnqueueArguments& arguments, const char* function) {
  cl_int error;
  CommandQueue* queue = queueOf(command_queue, error, function);
  if (!queue) return error;
  Kernel* object = objectOf<Kernel>(kernel);
  if (!object) return reportError(CL_INVALID_KERNEL, function, "not a kernel");
  NdRange range;
  if ((error = readRange(workDim, offset, global, local, range, function)) != CL_SUCCESS) return error;
  return enqueueRange(*queue, *object, range, local != nullptr, arguments, function);
}

// clEnqueueNativeKernel's argument block, with memory objects replaced by their addresses.
struct NativeKernelCall {
  void(CL_CALLBACK* function)(void*);
  std::vector<char> arguments;
  static void run(void* self) {
    auto* call = static_cast<NativeKernelCall*>(self);
    call->function(call->arguments.empty() ? nullptr : call->arguments.data());
  }
};

}  // namespace
}  // namespace loom::cl

using namespace loom::cl;

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
                                                       const size_t* global_work_offset, const size_t* global_work_size,
                                                       const size_t* local_work_size, cl_uint num_events_in_wait_list,
                                                       const cl_event* event_wait_list, cl_event* event) {
  const EnqueueArguments arguments{CL_COMMAND_NDRANGE_KERNEL, num_events_in_wait_list, event_wait_list, event};
  return enqueueKernel(command_queue, kernel, work_dim, global_work_offset, global_work_size, local_work_size, arguments, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel, cl_uint num_events_in_wait_list,
                                              const cl_event* event_wait_list, cl_event* event) {
  // A task is a range of one work-item in one work-group.
  const size_t one = 1;
  const EnqueueArguments arguments{CL_COMMAND_TASK, num_events_in_wait_list, event_wait_list, event};
  return enqueueKernel(command_queue, kernel, 1, nullptr, &one, &one, arguments, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNativeKernel(cl_command_queue command_queue, void(CL_CALLBACK* user_func)(void*),
                                                      void* args, size_t cb_args, cl_uint num_mem_objects,
                                                      const cl_mem* mem_list, const void** args_mem_loc,
                                                      cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                      cl_event* event) {
  cl_int error;
  CommandQueue* queue = queueOf(command_queue, error, __func__);
  if (!queue) return error;
  CL_REQUIRE(queue->device().isCpu(), CL_INVALID_OPERATION, "native kernels run on the CPU device only");
  CL_REQUIRE(user_func, CL_INVALID_VALUE, "user_func is null");
  CL_REQUIRE((args == nullptr) == (cb_args == 0), CL_INVALID_VALUE, "args and cb_args disagree");
  CL_REQUIRE(args != nullptr || num_mem_objects == 0, CL_INVALID_VALUE, "memory objects without args");
  CL_REQUIRE((num_mem_objects == 0) == (mem_list == nullptr) && (num_mem_objects == 0) == (args_mem_loc == nullptr),
             CL_INVALID_VALUE, "num_mem_objects, mem_list and args_mem_loc disagree");
  auto call = std::make_shared<NativeKernelCall>();
  call->function = user_func;
  if (args) call->arguments.assign(static_cast<char*>(args), static_cast<char*>(args) + cb_args);
  for (cl_uint i = 0; i < num_mem_objects; ++i) {
    if ((error = checkBufferRange(*queue, mem_list[i], 0, 0, __func__)) != CL_SUCCESS) return error;
    const size_t position = static_cast<const char*>(args_mem_loc[i]) - static_cast<const char*>(args);
    CL_REQUIRE(position + sizeof(void*) <= cb_args, CL_INVALID_VALUE, "an args_mem_loc entry lies outside args");
    void* address = objectOf<MemoryObject>(mem_list[i])->storage();
    std::memcpy(call->arguments.data() + position, &address, sizeof(address));
  }
  EnqueueArguments arguments{CL_COMMAND_NATIVE_KERNEL, num_events_in_wait_list, event_wait_list, event};
  arguments.keepAlive = call;
  return queue->enqueue(
      arguments, [&](loom::core::CommandStream& stream) { stream.appendHostFunction(&NativeKernelCall::run, call.get()); },
      __func__);
}

}  // extern "C"
