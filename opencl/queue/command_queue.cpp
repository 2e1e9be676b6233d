#include "opencl/queue/command_queue.h"

#include "loom/core/futex.h"
#include "opencl/context/context.h"
#include "opencl/device/device.h"
#include "opencl/event/event.h"
#include "opencl/info.h"
#include "opencl/reference_counting.h"
#include "opencl/validation.h"

namespace loom::cl {

CommandQueue::CommandQueue(Context& context, Device& device, cl_command_queue_properties properties,
                           std::vector<cl_queue_properties> propertiesArray)
    : context_(context),
      device_(device),
      properties_(properties),
      propertiesArray_(std::move(propertiesArray)),
      engine_(device.core().createEngine(0, 0, [this] { retire(); })) {
  context_.retain();
}

CommandQueue::~CommandQueue() {
  // Every command has completed (deleteOnceIdle), yet the engine's thread may still be in its
  // completion handler, or be this very thread: the engine waits for, or leaves, itself.
  engine_.reset();
  retire();
  releaseContext(context_);
}

namespace {

// Commands the calling thread runs itself when the queue is idle: blocking ones, which it waits
// for anyway, and empty ones (unmapping memory the device shares). Never those that wait for
// events, which could wait for this thread, nor native kernels, which may call the API.
bool runsOnCaller(const EnqueueArguments& arguments, const core::CommandStream& stream) {
  if (arguments.numWaitEvents != 0 || arguments.type == CL_COMMAND_NATIVE_KERNEL) return false;
  return arguments.blocking || stream.empty();
}

}  // namespace

cl_int CommandQueue::enqueue(const EnqueueArguments& arguments, const std::function<void(core::CommandStream&)>& encode,
                             const char* function) {
  if (cl_int error = checkWaitList(context_, arguments.numWaitEvents, arguments.waitEvents, function); error != CL_SUCCESS)
    return error;
  InFlight record{0, nullptr, {}, arguments.keepAlive};
  std::vector<core::Event*> waits;
  for (cl_uint i = 0; i < arguments.numWaitEvents; ++i) {
    Event* event = objectOf<Event>(arguments.waitEvents[i]);
    event->retain();
    record.waited.push_back(event);
    waits.push_back(&event->core());
  }
  if (arguments.event) record.event = new Event(context_, this, arguments.type);

  core::Event* event = record.event ? &record.event->core() : nullptr;
  core::CommandStream stream;
  stream.appendFramed({waits, event, event}, encode);

  const bool onCaller = runsOnCaller(arguments, stream);
  if (record.event) {
    record.event->retain();  // the queue's reference, dropped once the command completed
    *arguments.event = record.event;
  }
  const int32_t failureBefore = engine_->deviceFailure();
  uint64_t taskCount;
  {
    // Submission order and in-flight order must agree for retire() to pair them.
    std::lock_guard lock(inFlightMutex_);
    if (record.event) record.event->markSubmitted(core::monotonicNanoseconds());
    taskCount = record.taskCount = onCaller ? engine_->runHereOrSubmit(stream) : engine_->submit(stream);
    inFlight_.push_back(std::move(record));
  }
  // A command run here has no engine thread to complete its bookkeeping.
  if (onCaller && engine_->completionTag() >= taskCount) retire();
  if (!arguments.blocking) return CL_SUCCESS;
  engine_->waitForTaskCount(taskCount, UINT64_MAX);
  for (cl_uint i = 0; i < arguments.numWaitEvents; ++i)
    if (objectOf<Event>(arguments.waitEvents[i])->status() < 0)
      return reportError(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, function, "a waited-for event failed");
  // The device refused or faulted on this command or one before it in the queue.
  if (failureBefore == 0 && engine_->deviceFailure() != 0)
    return reportError(CL_OUT_OF_RESOURCES, function, "the device failed to run the queue's work");
  return CL_SUCCESS;
}

void CommandQueue::finish() {
  if (engine_) engine_->waitForTaskCount(engine_->submittedTaskCount(), UINT64_MAX);
  retire();
}

void CommandQueue::retire() {
  std::vector<InFlight> done;
  bool lastOfAReleasedQueue;
  {
    std::lock_guard lock(inFlightMutex_);
    const uint64_t completed = engine_ ? engine_->completionTag() : UINT64_MAX;
    while (!inFlight_.empty() && inFlight_.front().taskCount <= completed) {
      done.push_back(std::move(inFlight_.front()));
      inFlight_.pop_front();
    }
    lastOfAReleasedQueue = released_ && !done.empty() && inFlight_.empty();
  }
  for (InFlight& record : done) {
    if (record.event) {
      record.event->runCallbacks();
      releaseEvent(*record.event);
    }
    for (Event* event : record.waited) releaseEvent(*event);
  }
  if (lastOfAReleasedQueue) delete this;
}

void CommandQueue::deleteOnceIdle() {
  bool idle;
  {
    std::lock_guard lock(inFlightMutex_);
    released_ = true;
    idle = inFlight_.empty();
  }
  // Otherwise the queue may be gone already: retire() deletes it on the engine's thread.
  if (idle) delete this;
}

void releaseQueue(CommandQueue& queue) {
  if (queue.release()) queue.deleteOnceIdle();
}

namespace {

constexpr cl_command_queue_properties kKnownQueueProperties =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT;

cl_int createQueue(cl_context context, cl_device_id device, cl_command_queue_properties properties,
                   std::vector<cl_queue_properties> propertiesArray, cl_command_queue* queue) {
  Context* owner = objectOf<Context>(context);
  CL_REQUIRE(owner, CL_INVALID_CONTEXT, "not a context");
  Device* target = owner->deviceOf(device);
  CL_REQUIRE(target, CL_INVALID_DEVICE, "not a device of the context");
  CL_REQUIRE((properties & ~kKnownQueueProperties) == 0, CL_INVALID_VALUE, "unknown queue properties");
  CL_REQUIRE(!(properties & (CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT)), CL_INVALID_QUEUE_PROPERTIES,
             "device-side queues are not supported");
  *queue = new CommandQueue(*owner, *target, properties, std::move(propertiesArray));
  return CL_SUCCESS;
}

}  // namespace

}  // namespace loom::cl

using namespace loom::cl;

extern "C" {

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context context, cl_device_id device,
                                                               cl_command_queue_properties properties, cl_int* errcode_ret) {
  return createHandle<cl_command_queue>(errcode_ret, [&](cl_command_queue* queue) {
    return createQueue(context, device, properties, {}, queue);
  });
}

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                                                             const cl_queue_properties* properties,
                                                                             cl_int* errcode_ret) {
  return createHandle<cl_command_queue>(errcode_ret, [&](cl_command_queue* queue) -> cl_int {
    cl_command_queue_properties flags = 0;
    std::vector<cl_queue_properties> copy;
    for (const cl_queue_properties* p = properties; p && *p != 0; p += 2) {
      if (p[0] == CL_QUEUE_PROPERTIES)
        flags = p[1];
      else if (p[0] == CL_QUEUE_SIZE)
        CL_FAIL(CL_INVALID_QUEUE_PROPERTIES, "CL_QUEUE_SIZE applies to device-side queues, which are not supported");
      else
        CL_FAIL(CL_INVALID_VALUE, "unknown queue property");
      copy.push_back(p[0]);
      copy.push_back(p[1]);
    }
    if (!copy.empty()) copy.push_back(0);
    return createQueue(context, device, flags, std::move(copy), queue);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue command_queue) {
  return retainHandle<CommandQueue>(command_queue, CL_INVALID_COMMAND_QUEUE, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue command_queue) {
  return releaseHandle(command_queue, CL_INVALID_COMMAND_QUEUE, __func__, releaseQueue);
}

CL_API_ENTRY cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue command_queue, cl_command_queue_info param_name,
                                                      size_t param_value_size, void* param_value,
                                                      size_t* param_value_size_ret) {
  const InfoRequest out{param_value_size, param_value, param_value_size_ret, __func__};
  return answerInfo<CommandQueue>(command_queue, CL_INVALID_COMMAND_QUEUE, "not a command queue", out, [&](CommandQueue& queue) {
    switch (param_name) {
      case CL_QUEUE_CONTEXT: return out.scalar<cl_context>(&queue.context());
      case CL_QUEUE_DEVICE: return out.scalar<cl_device_id>(&queue.device());
      case CL_QUEUE_REFERENCE_COUNT: return out.scalar(queue.referenceCount());
      case CL_QUEUE_PROPERTIES: return out.scalar(queue.properties());
      case CL_QUEUE_PROPERTIES_ARRAY: return out.array(queue.propertiesArray());
      case CL_QUEUE_SIZE: return out.fail(CL_INVALID_COMMAND_QUEUE, "CL_QUEUE_SIZE applies to device-side queues only");
      case CL_QUEUE_DEVICE_DEFAULT: return out.scalar<cl_command_queue>(nullptr);
      default: return out.unknownName();
    }
  });
}

CL_API_ENTRY cl_int CL_API_CALL clSetCommandQueueProperty(cl_command_queue command_queue, cl_command_queue_properties,
                                                          cl_bool, cl_command_queue_properties*) {
  CL_REQUIRE(objectOf<CommandQueue>(command_queue), CL_INVALID_COMMAND_QUEUE, "not a command queue");
  CL_FAIL(CL_INVALID_OPERATION, "queue properties cannot change after creation");
}

CL_API_ENTRY cl_int CL_API_CALL clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id, cl_command_queue) {
  CL_REQUIRE(objectOf<Context>(context), CL_INVALID_CONTEXT, "not a context");
  CL_FAIL(CL_INVALID_OPERATION, "device-side queues are not supported");
}

CL_API_ENTRY cl_int CL_API_CALL clFlush(cl_command_queue command_queue) {
  // Every enqueue is submitted at once: there is nothing to flush.
  CL_REQUIRE(objectOf<CommandQueue>(command_queue), CL_INVALID_COMMAND_QUEUE, "not a command queue");
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue command_queue) {
  CommandQueue* queue = objectOf<CommandQueue>(command_queue);
  CL_REQUIRE(queue, CL_INVALID_COMMAND_QUEUE, "not a command queue");
  queue->finish();
  CL_REQUIRE(queue->deviceFailure() == 0, CL_OUT_OF_RESOURCES, "the device failed to run the queue's work");
  return CL_SUCCESS;
}

}  // extern "C"
