#pragma once
// An event: the status of one enqueued command (or a user event), its profiling times and the
// callbacks registered on it. Its core event is what engines wait on and signal.
#include <mutex>
#include <vector>

#include "loom/core/event.h"
#include "opencl/api_object.h"

namespace loom::cl {

class CommandQueue;
class Context;

class Event : public _cl_event, public RefCounted {
 public:
  static constexpr Magic kMagic = Magic::Event;
  using Callback = void(CL_CALLBACK*)(cl_event, cl_int, void*);

  // A command's event (`queue` set) or a user event (`queue` null).
  Event(Context& context, CommandQueue* queue, cl_command_type commandType);
  ~Event();

  Context& context() const { return context_; }
  CommandQueue* queue() const { return queue_; }
  cl_command_type commandType() const { return commandType_; }
  core::Event& core() { return core_; }
  bool isUserEvent() const { return queue_ == nullptr; }

  // CL_QUEUED, CL_SUBMITTED, CL_RUNNING, CL_COMPLETE, or a negative error status.
  cl_int status() const;
  void markSubmitted(uint64_t hostTime);
  // Completes a user event with CL_COMPLETE or a negative error; false when already set.
  bool setUserStatus(cl_int status);
  // Waits for completion; returns the final status.
  cl_int wait();
  // Runs the callbacks registered for the status the event reached (called once it completes).
  void runCallbacks();
  cl_int addCallback(cl_int callbackType, Callback callback, void* userData);

  struct ProfilingTimes {
    cl_ulong queued, submitted, started, ended;
  };
  ProfilingTimes profilingTimes() const;

 private:
  struct Registration {
    cl_int type;
    Callback callback;
    void* userData;
  };

  Context& context_;
  CommandQueue* queue_;
  cl_command_type commandType_;
  core::EventStorage storage_;
  core::Event core_;
  cl_ulong queuedTime_;
  cl_ulong submittedTime_ = 0;
  std::mutex mutex_;
  std::vector<Registration> callbacks_;
  bool callbacksRan_ = false;
};

void releaseEvent(Event& event);

// Checks an event wait list: CL_INVALID_EVENT_WAIT_LIST for a malformed list or a bad handle,
// CL_INVALID_CONTEXT for an event of another context.
cl_int checkWaitList(const Context& context, cl_uint count, const cl_event* events, const char* function);

}  // namespace loom::cl
