#include "opencl/event/event.h"

#include <algorithm>

#include "loom/core/futex.h"
#include "opencl/context/context.h"
#include "opencl/device/device.h"
#include "opencl/info.h"
#include "opencl/queue/command_queue.h"
#include "opencl/reference_counting.h"
#include "opencl/validation.h"

namespace loom::cl {

Event::Event(Context& context, CommandQueue* queue, cl_command_type commandType)
    : context_(context),
      queue_(queue),
      commandType_(commandType),
      core_(&storage_, false, queue ? queue->device().info().type : core::DeviceType::Cpu),
      queuedTime_(core::monotonicNanoseconds()) {
  context_.retain();
}

Event::~Event() { releaseContext(context_); }

cl_int Event::status() const {
  if (core_.isSignaled()) return core_.error() < 0 ? core_.error() : CL_COMPLETE;
  if (isUserEvent()) return CL_SUBMITTED;
  if (core_.timestamps().globalStart != 0) return CL_RUNNING;
  return submittedTime_ != 0 ? CL_SUBMITTED : CL_QUEUED;
}

void Event::markSubmitted(uint64_t hostTime) { submittedTime_ = hostTime; }

bool Event::setUserStatus(cl_int status) {
  {
    std::lock_guard lock(mutex_);
    if (core_.isSignaled()) return false;
    const uint64_t now = core::monotonicNanoseconds();
    core_.markStart(now);
    if (status == CL_COMPLETE)
      core_.signal(now);
    else
      core_.fail(status);
  }
  runCallbacks();
  return true;
}

cl_int Event::wait() {
  core_.hostSynchronize(UINT64_MAX);
  return status();
}

void Event::runCallbacks() {
  std::vector<Registration> ready;
  {
    std::lock_guard lock(mutex_);
    if (callbacksRan_) return;
    callbacksRan_ = true;
    ready.swap(callbacks_);
  }
  const cl_int finalStatus = status();
  for (const Registration& registration : ready)
    registration.callback(this, finalStatus < 0 ? finalStatus : registration.type, registration.userData);
}

cl_int Event::addCallback(cl_int callbackType, Callback callback, void* userData) {
  {
    std::lock_guard lock(mutex_);
    const cl_int current = status();
    // A status already reached (CL_SUBMITTED right after enqueue, for instance) calls back at
    // once; completion is reported by runCallbacks, which may not have run yet.
    const bool reached = current <= callbackType && (callbackType != CL_COMPLETE || callbacksRan_);
    if (!reached) {
      callbacks_.push_back({callbackType, callback, userData});
      return CL_SUCCESS;
    }
  }
  const cl_int current = status();
  callback(this, current < 0 ? current : callbackType, userData);
  return CL_SUCCESS;
}

Event::ProfilingTimes Event::profilingTimes() const {
  const core::EventTimestamps timestamps = core_.timestamps();
  // A GPU's times come from its own clock, anchored to the host's within microseconds: keep the
  // order the spec promises (queued <= submitted <= started <= ended).
  const uint64_t started = std::max(timestamps.globalStart, submittedTime_);
  return {queuedTime_, submittedTime_, started, std::max(timestamps.globalEnd, started)};
}

void releaseEvent(Event& event) {
  if (event.release()) delete &event;
}

cl_int checkWaitList(const Context& context, cl_uint count, const cl_event* events, const char* function) {
  if ((count == 0) != (events == nullptr))
    return reportError(CL_INVALID_EVENT_WAIT_LIST, function, "num_events_in_wait_list and event_wait_list disagree");
  for (cl_uint i = 0; i < count; ++i) {
    Event* event = objectOf<Event>(events[i]);
    if (event == nullptr) return reportError(CL_INVALID_EVENT_WAIT_LIST, function, "the wait list holds an invalid event");
    if (&event->context() != &context)
      return reportError(CL_INVALID_CONTEXT, function, "a waited-for event belongs to another context");
  }
  return CL_SUCCESS;
}

}  // namespace loom::cl

using namespace loom::cl;

extern "C" {

CL_API_ENTRY cl_event CL_API_CALL clCreateUserEvent(cl_context context, cl_int* errcode_ret) {
  Context* object = objectOf<Context>(context);
  if (object == nullptr) return returnHandle<cl_event>(reportError(CL_INVALID_CONTEXT, __func__, "not a context"), nullptr, errcode_ret);
  return returnHandle<cl_event>(CL_SUCCESS, new Event(*object, nullptr, CL_COMMAND_USER), errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clSetUserEventStatus(cl_event event, cl_int execution_status) {
  Event* object = objectOf<Event>(event);
  CL_REQUIRE(object && object->isUserEvent(), CL_INVALID_EVENT, "not a user event");
  CL_REQUIRE(execution_status == CL_COMPLETE || execution_status < 0, CL_INVALID_VALUE,
             "execution_status must be CL_COMPLETE or negative");
  CL_REQUIRE(object->setUserStatus(execution_status), CL_INVALID_OPERATION, "the status was already set");
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clWaitForEvents(cl_uint num_events, const cl_event* event_list) {
  CL_REQUIRE(num_events != 0 && event_list != nullptr, CL_INVALID_VALUE, "empty event list");
  Event* first = objectOf<Event>(event_list[0]);
  CL_REQUIRE(first, CL_INVALID_EVENT, "an event is invalid");
  for (cl_uint i = 0; i < num_events; ++i) {
    Event* event = objectOf<Event>(event_list[i]);
    CL_REQUIRE(event, CL_INVALID_EVENT, "an event is invalid");
    CL_REQUIRE(&event->context() == &first->context(), CL_INVALID_CONTEXT, "the events belong to different contexts");
  }
  bool failed = false;
  for (cl_uint i = 0; i < num_events; ++i) failed |= objectOf<Event>(event_list[i])->wait() < 0;
  CL_REQUIRE(!failed, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "an event completed with an error status");
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventInfo(cl_event event, cl_event_info param_name, size_t param_value_size,
                                               void* param_value, size_t* param_value_size_ret) {
  const InfoRequest out{param_value_size, param_value, param_value_size_ret, __func__};
  return answerInfo<Event>(event, CL_INVALID_EVENT, "not an event", out, [&](Event& object) {
    switch (param_name) {
      case CL_EVENT_COMMAND_QUEUE: return out.scalar<cl_command_queue>(object.queue());
      case CL_EVENT_CONTEXT: return out.scalar<cl_context>(&object.context());
      case CL_EVENT_COMMAND_TYPE: return out.scalar(object.commandType());
      case CL_EVENT_COMMAND_EXECUTION_STATUS: return out.scalar(object.status());
      case CL_EVENT_REFERENCE_COUNT: return out.scalar(object.referenceCount());
      default: return out.unknownName();
    }
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventProfilingInfo(cl_event event, cl_profiling_info param_name, size_t param_value_size,
                                                        void* param_value, size_t* param_value_size_ret) {
  const InfoRequest out{param_value_size, param_value, param_value_size_ret, __func__};
  return answerInfo<Event>(event, CL_INVALID_EVENT, "not an event", out, [&](Event& object) {
    if (object.isUserEvent() || !object.queue()->profilingEnabled())
      return out.fail(CL_PROFILING_INFO_NOT_AVAILABLE,
                      "the queue was created without CL_QUEUE_PROFILING_ENABLE, or this is a user event");
    if (object.status() != CL_COMPLETE) return out.fail(CL_PROFILING_INFO_NOT_AVAILABLE, "the command has not completed");
    const Event::ProfilingTimes times = object.profilingTimes();
    switch (param_name) {
      case CL_PROFILING_COMMAND_QUEUED: return out.scalar<cl_ulong>(times.queued);
      case CL_PROFILING_COMMAND_SUBMIT: return out.scalar<cl_ulong>(times.submitted);
      case CL_PROFILING_COMMAND_START: return out.scalar<cl_ulong>(times.started);
      case CL_PROFILING_COMMAND_END:
      case CL_PROFILING_COMMAND_COMPLETE: return out.scalar<cl_ulong>(times.ended);
      default: return out.unknownName();
    }
  });
}

CL_API_ENTRY cl_int CL_API_CALL clRetainEvent(cl_event event) {
  return retainHandle<Event>(event, CL_INVALID_EVENT, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseEvent(cl_event event) {
  return releaseHandle(event, CL_INVALID_EVENT, __func__, releaseEvent);
}

CL_API_ENTRY cl_int CL_API_CALL clSetEventCallback(cl_event event, cl_int command_exec_callback_type,
                                                   void(CL_CALLBACK* pfn_notify)(cl_event, cl_int, void*), void* user_data) {
  Event* object = objectOf<Event>(event);
  CL_REQUIRE(object, CL_INVALID_EVENT, "not an event");
  CL_REQUIRE(pfn_notify, CL_INVALID_VALUE, "pfn_notify is null");
  CL_REQUIRE(command_exec_callback_type == CL_SUBMITTED || command_exec_callback_type == CL_RUNNING ||
                 command_exec_callback_type == CL_COMPLETE,
             CL_INVALID_VALUE, "command_exec_callback_type must be CL_SUBMITTED, CL_RUNNING or CL_COMPLETE");
  return object->addCallback(command_exec_callback_type, pfn_notify, user_data);
}

}  // extern "C"
