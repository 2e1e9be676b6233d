#pragma once
// A command queue over its own core engine. Each enqueue becomes one command stream: wait for
// the wait list, mark the event's start, the command itself, signal the event. In-order and
// out-of-order queues both execute in order (out-of-order execution is a permission).
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "loom/core/command_stream.h"
#include "loom/core/engine.h"
#include "opencl/api_object.h"

namespace loom::cl {

class Context;
class Device;
class Event;

// What an enqueue needs besides its command: the API's wait list, event and blocking arguments.
struct EnqueueArguments {
  cl_command_type type;
  cl_uint numWaitEvents;
  const cl_event* waitEvents;
  cl_event* event;
  bool blocking = false;
  std::shared_ptr<void> keepAlive = {};  // data the commands point at, kept until they completed
};

class CommandQueue : public _cl_command_queue, public RefCounted {
 public:
  static constexpr Magic kMagic = Magic::Queue;

  CommandQueue(Context& context, Device& device, cl_command_queue_properties properties,
               std::vector<cl_queue_properties> propertiesArray);
  ~CommandQueue();

  Context& context() const { return context_; }
  Device& device() const { return device_; }
  cl_command_queue_properties properties() const { return properties_; }
  const std::vector<cl_queue_properties>& propertiesArray() const { return propertiesArray_; }
  bool profilingEnabled() const { return properties_ & CL_QUEUE_PROFILING_ENABLE; }

  // Validates the wait list, records `encode`'s commands around it and submits them. A blocking
  // enqueue returns once the command completed (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
  // when it could not run because a waited-for event failed).
  cl_int enqueue(const EnqueueArguments& arguments, const std::function<void(core::CommandStream&)>& encode,
                 const char* function);
  // Waits for everything submitted so far.
  void finish();
  // The first failure of the device on this queue's work (a negative execution status), or 0.
  // Sticky, as a lost GPU context is.
  int32_t deviceFailure() const { return engine_ ? engine_->deviceFailure() : 0; }
  // Completes the bookkeeping of finished commands: event callbacks, references. Deletes a
  // released queue once its last command has completed.
  void retire();
  // The application released its last reference: OpenCL deletes the queue once every command
  // queued has finished, so now when they have, else when the engine completes the last (a kernel
  // that never ends keeps the queue, and the context it retains, to the end of the process).
  void deleteOnceIdle();

 private:
  struct InFlight {
    uint64_t taskCount;
    Event* event;                // retained; null when the caller asked for none
    std::vector<Event*> waited;  // retained until the command ran
    std::shared_ptr<void> keepAlive;
  };

  Context& context_;
  Device& device_;
  cl_command_queue_properties properties_;
  std::vector<cl_queue_properties> propertiesArray_;
  std::mutex inFlightMutex_;
  std::deque<InFlight> inFlight_;
  bool released_ = false;  // under inFlightMutex_
  std::unique_ptr<core::Engine> engine_;  // last: destroyed first, so its thread stops before the rest
};

void releaseQueue(CommandQueue& queue);

}  // namespace loom::cl
