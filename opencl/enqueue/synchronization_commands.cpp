// Markers, barriers and waits. Loom queues execute in order, so a barrier orders nothing more
// than a marker does; both complete once their wait list (or everything before them) has.
#include "opencl/enqueue/enqueue_checks.h"
#include "opencl/event/event.h"
#include "opencl/queue/command_queue.h"
#include "opencl/validation.h"

using namespace loom::cl;

namespace {

cl_int enqueueOrderingPoint(cl_command_queue command_queue, cl_command_type type, cl_uint count, const cl_event* waitList,
                            cl_event* event, const char* function) {
  cl_int error;
  CommandQueue* queue = queueOf(command_queue, error, function);
  if (!queue) return error;
  const EnqueueArguments arguments{type, count, waitList, event};
  return queue->enqueue(arguments, [](loom::core::CommandStream&) {}, function);
}

}  // namespace

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue command_queue, cl_uint num_events_in_wait_list,
                                                            const cl_event* event_wait_list, cl_event* event) {
  return enqueueOrderingPoint(command_queue, CL_COMMAND_MARKER, num_events_in_wait_list, event_wait_list, event, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue command_queue, cl_uint num_events_in_wait_list,
                                                             const cl_event* event_wait_list, cl_event* event) {
  return enqueueOrderingPoint(command_queue, CL_COMMAND_BARRIER, num_events_in_wait_list, event_wait_list, event, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarker(cl_command_queue command_queue, cl_event* event) {
  CL_REQUIRE(event, CL_INVALID_VALUE, "event is null");
  return enqueueOrderingPoint(command_queue, CL_COMMAND_MARKER, 0, nullptr, event, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue command_queue) {
  return enqueueOrderingPoint(command_queue, CL_COMMAND_BARRIER, 0, nullptr, nullptr, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue command_queue, cl_uint num_events,
                                                       const cl_event* event_list) {
  CL_REQUIRE(num_events != 0 && event_list != nullptr, CL_INVALID_VALUE, "no events");
  return enqueueOrderingPoint(command_queue, CL_COMMAND_BARRIER, num_events, event_list, nullptr, __func__);
}

}  // extern "C"
