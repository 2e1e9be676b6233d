// Events: user events gating work across queues, callbacks for every status, markers and
// barriers with wait lists, profiling times, clWaitForEvents, failed user events propagating to
// dependent commands, and events of another context.
#include "cl_test_helpers.h"

namespace loom::test {
namespace {

const char* const kEventKernels = R"(
kernel void set_first(global int* d, int v) { d[0] = v; }
kernel void follow(global int* d) { d[1] = d[0] + 1; }
kernel void spin(global int* d, int n) {
  int x = d[2];
  for (int i = 0; i < n; ++i) x = x * 3 + 1;
  d[2] = x;
}
)";

class EventTest : public ClTest {
 protected:
  void SetUp() override {
    ClTest::SetUp();
    if (HasFatalFailure() || IsSkipped()) return;
    program = build(kEventKernels);
    ASSERT_NE(program, nullptr);
    data = buffer(CL_MEM_READ_WRITE, 4 * sizeof(int));
    const int zero = 0;
    ASSERT_CL_OK(clEnqueueFillBuffer(queue, data, &zero, sizeof(zero), 0, 4 * sizeof(int), 0, nullptr, nullptr));
    ASSERT_CL_OK(clFinish(queue));
  }
  cl_kernel setFirst(int value) {
    cl_kernel k = kernel(program, "set_first");
    setArgs(k, data, value);
    return k;
  }
  // One work-item of `k` on `q`, after the events in `waits`; its event, released with the test.
  cl_event launchOne(cl_command_queue q, cl_kernel k, std::vector<cl_event> waits = {}) {
    const size_t one = 1;
    cl_event done = nullptr;
    EXPECT_CL_OK(clEnqueueNDRangeKernel(q, k, 1, nullptr, &one, nullptr, cl_uint(waits.size()), waits.empty() ? nullptr : waits.data(),
                                        &done));
    track(done);
    return done;
  }
  cl_command_type commandType(cl_event e) {
    cl_command_type type = 0;
    EXPECT_CL_OK(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, nullptr));
    return type;
  }

  cl_program program = nullptr;
  cl_mem data = nullptr;
};

TEST_F(EventTest, UserEventGatesKernelsAcrossTwoQueues) {
  cl_command_queue second = createQueue(0);
  ASSERT_NE(second, nullptr);
  cl_event gate = userEvent();
  EXPECT_EQ(eventStatus(gate), CL_SUBMITTED);
  EXPECT_EQ(commandType(gate), cl_command_type(CL_COMMAND_USER));
  EXPECT_EQ(infoScalar<cl_command_queue>([&](size_t s, void* v, size_t* r) { return clGetEventInfo(gate, CL_EVENT_COMMAND_QUEUE, s, v, r); }),
            nullptr);
  EXPECT_EQ(infoScalar<cl_context>([&](size_t s, void* v, size_t* r) { return clGetEventInfo(gate, CL_EVENT_CONTEXT, s, v, r); }), context);
  cl_kernel first = setFirst(41);
  cl_kernel follow = kernel(program, "follow");
  setArgs(follow, data);
  cl_event firstDone = launchOne(queue, first, {gate});
  cl_event followDone = launchOne(second, follow, {firstDone});
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_GT(eventStatus(firstDone), CL_COMPLETE) << "the gated kernel ran before its user event was set";
  EXPECT_GT(eventStatus(followDone), CL_COMPLETE);
  EXPECT_EQ(infoScalar<cl_command_queue>([&](size_t s, void* v, size_t* r) { return clGetEventInfo(followDone, CL_EVENT_COMMAND_QUEUE, s, v, r); }),
            second);
  ASSERT_CL_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL_OK(clWaitForEvents(1, &followDone));
  EXPECT_EQ(eventStatus(gate), CL_COMPLETE);
  EXPECT_EQ(eventStatus(firstDone), CL_COMPLETE);
  EXPECT_EQ(eventStatus(followDone), CL_COMPLETE);
  const std::vector<int> values = readBack<int>(data, 2);
  EXPECT_EQ(values, (std::vector<int>{41, 42}));
  // A user event's status is set once, to CL_COMPLETE or a negative value.
  EXPECT_CL(CL_INVALID_OPERATION, clSetUserEventStatus(gate, CL_COMPLETE));
  cl_event other = userEvent();
  EXPECT_CL(CL_INVALID_VALUE, clSetUserEventStatus(other, CL_RUNNING));
  EXPECT_CL(CL_INVALID_EVENT, clSetUserEventStatus(firstDone, CL_COMPLETE));
  ASSERT_CL_OK(clSetUserEventStatus(other, CL_COMPLETE));
}

// In an in-order queue a command runs only after the one before it completed (OpenCL-CTS
// test_events waitlists): a command held by its wait list is not running, and whenever a later
// command shows as running or complete, every earlier one shows as complete. The statuses are read
// from the last command to the first, so each snapshot must keep that order.
TEST_F(EventTest, InAnInOrderQueueACommandRunsOnlyAfterTheOneBeforeItCompleted) {
  cl_event gate = userEvent();
  cl_kernel spin = kernel(program, "spin");
  setArgs(spin, data, 200000);
  cl_event first = launchOne(queue, spin, {gate});
  cl_event second = launchOne(queue, spin, {first});
  cl_event third = launchOne(queue, spin, {first, second});
  const cl_event events[] = {first, second, third};
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  for (cl_event e : events) {
    const cl_int status = eventStatus(e);
    EXPECT_TRUE(status == CL_QUEUED || status == CL_SUBMITTED) << "a command waiting for its user event reports " << status;
  }
  ASSERT_CL_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  bool allComplete = false;
  while (!allComplete) {
    cl_int statuses[3];
    for (int i = 2; i >= 0; --i) statuses[i] = eventStatus(events[i]);
    for (int later = 1; later < 3; ++later) {
      if (statuses[later] > CL_RUNNING) continue;
      for (int earlier = 0; earlier < later; ++earlier)
        ASSERT_EQ(statuses[earlier], CL_COMPLETE)
            << "command " << later << " reports " << statuses[later] << " while command " << earlier << " has not completed";
    }
    allComplete = statuses[0] == CL_COMPLETE && statuses[1] == CL_COMPLETE && statuses[2] == CL_COMPLETE;
  }
}

struct StatusCall {
  int registeredFor;  // the status the callback was registered for (its tag)
  cl_int status;      // the status it was called with
  cl_event event;
};

void CL_CALLBACK statusReached(cl_event e, cl_int status, void* data) {
  auto* tag = static_cast<CallbackTag<StatusCall>*>(data);
  tag->log->add({tag->tag, status, e});
}

TEST_F(EventTest, CallbacksForSubmittedRunningAndCompleteAreAllCalled) {
  cl_event gate = userEvent();
  cl_kernel k = setFirst(5);
  cl_event done = launchOne(queue, k, {gate});
  CallbackLog<StatusCall> log;
  CallbackTag<StatusCall> submitted{&log, CL_SUBMITTED}, running{&log, CL_RUNNING}, complete{&log, CL_COMPLETE};
  ASSERT_CL_OK(clSetEventCallback(done, CL_COMPLETE, statusReached, &complete));
  ASSERT_CL_OK(clSetEventCallback(done, CL_RUNNING, statusReached, &running));
  ASSERT_CL_OK(clSetEventCallback(done, CL_SUBMITTED, statusReached, &submitted));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  for (const StatusCall& call : log.calls())
    EXPECT_EQ(call.registeredFor, CL_SUBMITTED) << "callback for status " << call.registeredFor << " ran before the gate opened";
  ASSERT_CL_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL_OK(clWaitForEvents(1, &done));
  ASSERT_TRUE(eventually([&] { return log.size() == 3; })) << log.size() << " of 3 callbacks ran";
  std::set<int> types;
  for (const auto& [type, status, event] : log.calls()) {
    types.insert(type);
    EXPECT_EQ(status, type) << "a callback registered for " << type << " got status " << status;
    EXPECT_EQ(event, done);
  }
  EXPECT_EQ(types, (std::set<int>{CL_SUBMITTED, CL_RUNNING, CL_COMPLETE}));
}

TEST_F(EventTest, CallbacksOnUserEventsAndAfterCompletion) {
  cl_event gate = userEvent();
  CallbackLog<StatusCall> log;
  CallbackTag<StatusCall> complete{&log, CL_COMPLETE};
  ASSERT_CL_OK(clSetEventCallback(gate, CL_COMPLETE, statusReached, &complete));
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(log.size(), 0u);
  ASSERT_CL_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_TRUE(eventually([&] { return log.size() == 1; }));
  // Registered after completion: called anyway.
  CallbackLog<StatusCall> late;
  CallbackTag<StatusCall> lateComplete{&late, CL_COMPLETE};
  ASSERT_CL_OK(clSetEventCallback(gate, CL_COMPLETE, statusReached, &lateComplete));
  ASSERT_TRUE(eventually([&] { return late.size() == 1; }));
  EXPECT_EQ(late.calls()[0].status, CL_COMPLETE);
  EXPECT_CL(CL_INVALID_VALUE, clSetEventCallback(gate, CL_QUEUED, statusReached, &complete));
  EXPECT_CL(CL_INVALID_VALUE, clSetEventCallback(gate, CL_COMPLETE, nullptr, nullptr));
}

TEST_F(EventTest, MarkersAndBarriersWithWaitLists) {
  cl_command_queue outOfOrder = createQueue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  ASSERT_NE(outOfOrder, nullptr);
  cl_event gate = userEvent();
  const int seven = 7, eight = 8;
  cl_event w1 = nullptr, w2 = nullptr, marker = nullptr;
  ASSERT_CL_OK(clEnqueueWriteBuffer(outOfOrder, data, CL_FALSE, 0, sizeof(int), &seven, 1, &gate, &w1));
  track(w1);
  ASSERT_CL_OK(clEnqueueWriteBuffer(outOfOrder, data, CL_FALSE, sizeof(int), sizeof(int), &eight, 0, nullptr, &w2));
  track(w2);
  const cl_event both[] = {w1, w2};
  ASSERT_CL_OK(clEnqueueMarkerWithWaitList(outOfOrder, 2, both, &marker));
  track(marker);
  EXPECT_EQ(commandType(marker), cl_command_type(CL_COMMAND_MARKER));
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_GT(eventStatus(marker), CL_COMPLETE) << "the marker completed before the gated write";
  ASSERT_CL_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL_OK(clWaitForEvents(1, &marker));
  EXPECT_EQ(eventStatus(w1), CL_COMPLETE);
  EXPECT_EQ(eventStatus(w2), CL_COMPLETE);
  EXPECT_EQ(readBack<int>(data, 2), (std::vector<int>{7, 8}));

  // In-order queue: a marker without a wait list waits for everything before it; a barrier with
  // a wait list holds back the commands after it.
  cl_event gate2 = userEvent();
  cl_event barrier = nullptr, inOrderMarker = nullptr, written = nullptr;
  ASSERT_CL_OK(clEnqueueBarrierWithWaitList(queue, 1, &gate2, &barrier));
  track(barrier);
  EXPECT_EQ(commandType(barrier), cl_command_type(CL_COMMAND_BARRIER));
  const int nine = 9;
  ASSERT_CL_OK(clEnqueueWriteBuffer(queue, data, CL_FALSE, 2 * sizeof(int), sizeof(int), &nine, 0, nullptr, &written));
  track(written);
  ASSERT_CL_OK(clEnqueueMarkerWithWaitList(queue, 0, nullptr, &inOrderMarker));
  track(inOrderMarker);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_GT(eventStatus(written), CL_COMPLETE) << "a command after a barrier ran before the barrier's wait list completed";
  EXPECT_GT(eventStatus(inOrderMarker), CL_COMPLETE);
  ASSERT_CL_OK(clSetUserEventStatus(gate2, CL_COMPLETE));
  ASSERT_CL_OK(clWaitForEvents(1, &inOrderMarker));
  EXPECT_EQ(eventStatus(written), CL_COMPLETE);
  EXPECT_EQ(readBack<int>(data, 1, 2)[0], 9);
}

TEST_F(EventTest, ProfilingTimesAreOrdered) {
  cl_command_queue profiled = createQueue(CL_QUEUE_PROFILING_ENABLE);
  ASSERT_NE(profiled, nullptr);
  cl_kernel k = kernel(program, "spin");
  setArgs(k, data, 200000);
  cl_ulong deviceBefore = 0, hostBefore = 0, deviceAfter = 0, hostAfter = 0;
  ASSERT_CL_OK(clGetDeviceAndHostTimer(device, &deviceBefore, &hostBefore));
  cl_event done = launchOne(profiled, k);
  ASSERT_CL_OK(clWaitForEvents(1, &done));
  ASSERT_CL_OK(clGetDeviceAndHostTimer(device, &deviceAfter, &hostAfter));
  cl_ulong times[5] = {};
  const cl_profiling_info names[5] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT, CL_PROFILING_COMMAND_START,
                                      CL_PROFILING_COMMAND_END, CL_PROFILING_COMMAND_COMPLETE};
  for (int i = 0; i < 5; ++i) {
    size_t size = 0;
    ASSERT_CL_OK(clGetEventProfilingInfo(done, names[i], sizeof(times[i]), &times[i], &size));
    EXPECT_EQ(size, sizeof(cl_ulong));
  }
  EXPECT_LE(times[0], times[1]) << "QUEUED <= SUBMIT";
  EXPECT_LE(times[1], times[2]) << "SUBMIT <= START";
  EXPECT_LE(times[2], times[3]) << "START <= END";
  EXPECT_LE(times[3], times[4]) << "END <= COMPLETE";
  EXPECT_LT(times[3] - times[2], 10'000'000'000ull);
  // The profiling timer is the device timer: the command ran between the two readings.
  EXPECT_GE(times[0], deviceBefore);
  EXPECT_LE(times[3], deviceAfter);
  // A second command on the in-order queue starts after the first ended.
  cl_event next = launchOne(profiled, k);
  ASSERT_CL_OK(clWaitForEvents(1, &next));
  cl_ulong nextStart = 0;
  ASSERT_CL_OK(clGetEventProfilingInfo(next, CL_PROFILING_COMMAND_START, sizeof(nextStart), &nextStart, nullptr));
  EXPECT_GE(nextStart, times[3]);
  EXPECT_CL(CL_INVALID_VALUE, clGetEventProfilingInfo(done, 0x7fff, sizeof(cl_ulong), times, nullptr));
}

TEST_F(EventTest, ProfilingInfoIsNotAvailableWithoutProfiling) {
  cl_kernel k = setFirst(1);
  cl_event done = launchOne(queue, k);
  ASSERT_CL_OK(clWaitForEvents(1, &done));
  cl_ulong time = 0;
  EXPECT_CL(CL_PROFILING_INFO_NOT_AVAILABLE, clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_START, sizeof(time), &time, nullptr));
  // User events have no profiling information.
  cl_event user = userEvent();
  ASSERT_CL_OK(clSetUserEventStatus(user, CL_COMPLETE));
  EXPECT_CL(CL_PROFILING_INFO_NOT_AVAILABLE, clGetEventProfilingInfo(user, CL_PROFILING_COMMAND_QUEUED, sizeof(time), &time, nullptr));
  // Nor do commands that have not completed.
  cl_command_queue profiled = createQueue(CL_QUEUE_PROFILING_ENABLE);
  cl_event gate = userEvent();
  cl_event pending = launchOne(profiled, k, {gate});
  EXPECT_CL(CL_PROFILING_INFO_NOT_AVAILABLE, clGetEventProfilingInfo(pending, CL_PROFILING_COMMAND_END, sizeof(time), &time, nullptr));
  ASSERT_CL_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL_OK(clWaitForEvents(1, &pending));
  EXPECT_CL_OK(clGetEventProfilingInfo(pending, CL_PROFILING_COMMAND_END, sizeof(time), &time, nullptr));
}

TEST_F(EventTest, WaitForEventsWaitsForEveryEvent) {
  cl_command_queue second = createQueue(0);
  cl_kernel spin = kernel(program, "spin");
  setArgs(spin, data, 100000);
  cl_event a = launchOne(queue, spin), b = nullptr;
  const int value = 3;
  ASSERT_CL_OK(clEnqueueWriteBuffer(second, data, CL_FALSE, 3 * sizeof(int), sizeof(int), &value, 0, nullptr, &b));
  track(b);
  const cl_event both[] = {a, b};
  ASSERT_CL_OK(clWaitForEvents(2, both));
  EXPECT_EQ(eventStatus(a), CL_COMPLETE);
  EXPECT_EQ(eventStatus(b), CL_COMPLETE);
  EXPECT_EQ(commandType(a), cl_command_type(CL_COMMAND_NDRANGE_KERNEL));
  EXPECT_EQ(commandType(b), cl_command_type(CL_COMMAND_WRITE_BUFFER));
  EXPECT_CL(CL_INVALID_VALUE, clWaitForEvents(0, both));
  EXPECT_CL(CL_INVALID_VALUE, clWaitForEvents(1, nullptr));
  const cl_event withNull[] = {a, nullptr};
  EXPECT_CL(CL_INVALID_EVENT, clWaitForEvents(2, withNull));
  const cl_event withQueue[] = {a, reinterpret_cast<cl_event>(queue)};
  EXPECT_CL(CL_INVALID_EVENT, clWaitForEvents(2, withQueue));
}

TEST_F(EventTest, EventsReportTheirCommandTypes) {
  cl_mem other = buffer(CL_MEM_READ_WRITE, 4 * sizeof(int));
  int host[4] = {};
  const int zero = 0;
  cl_event e[5] = {};
  ASSERT_CL_OK(clEnqueueReadBuffer(queue, data, CL_FALSE, 0, sizeof(host), host, 0, nullptr, &e[0]));
  ASSERT_CL_OK(clEnqueueCopyBuffer(queue, data, other, 0, 0, sizeof(host), 0, nullptr, &e[1]));
  ASSERT_CL_OK(clEnqueueFillBuffer(queue, other, &zero, sizeof(zero), 0, sizeof(host), 0, nullptr, &e[2]));
  const size_t origin[3] = {0, 0, 0}, region[3] = {4, 1, 1};
  ASSERT_CL_OK(clEnqueueWriteBufferRect(queue, other, CL_FALSE, origin, origin, region, 0, 0, 0, 0, host, 0, nullptr, &e[3]));
  ASSERT_CL_OK(clEnqueueBarrierWithWaitList(queue, 0, nullptr, &e[4]));
  for (cl_event event : e) track(event);
  ASSERT_CL_OK(clWaitForEvents(5, e));
  const cl_command_type expected[5] = {CL_COMMAND_READ_BUFFER, CL_COMMAND_COPY_BUFFER, CL_COMMAND_FILL_BUFFER,
                                       CL_COMMAND_WRITE_BUFFER_RECT, CL_COMMAND_BARRIER};
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(commandType(e[i]), expected[i]) << i;
    EXPECT_EQ(infoScalar<cl_command_queue>([&](size_t s, void* v, size_t* r) { return clGetEventInfo(e[i], CL_EVENT_COMMAND_QUEUE, s, v, r); }),
              queue);
  }
  EXPECT_CL(CL_INVALID_VALUE, clGetEventInfo(e[0], 0x7fff, 0, nullptr, nullptr));
}

// A user event, which no queue holds: a command's event is also held by its queue until the
// command has retired, which may happen after waiting for it returns (the count is "immediately
// stale", as the specification says).
TEST_F(EventTest, RetainAndReleaseCountReferences) {
  cl_int error = CL_SUCCESS;
  cl_event user = clCreateUserEvent(context, &error);
  ASSERT_CL_OK(error);
  expectReferenceCounting(user, clGetEventInfo, CL_EVENT_REFERENCE_COUNT, clRetainEvent, clReleaseEvent);
  ASSERT_CL_OK(clReleaseEvent(user));
}

// A user event set to a negative status terminates the commands waiting on it: their events
// get a negative status and waiting for them reports CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST.
TEST_F(EventTest, NegativeUserEventStatusFailsDependentCommands) {
  cl_command_queue q = createQueue(0);
  cl_event gate = userEvent();
  cl_kernel k = setFirst(99);
  cl_event dependent = launchOne(q, k, {gate});
  CallbackLog<StatusCall> log;
  CallbackTag<StatusCall> complete{&log, CL_COMPLETE};
  ASSERT_CL_OK(clSetEventCallback(dependent, CL_COMPLETE, statusReached, &complete));
  ASSERT_CL_OK(clSetUserEventStatus(gate, -1234));
  EXPECT_EQ(eventStatus(gate), -1234);
  EXPECT_CL(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, &dependent));
  EXPECT_LT(eventStatus(dependent), 0);
  EXPECT_EQ(readBack<int>(data, 1)[0], 0) << "the terminated kernel ran";
  // The CL_COMPLETE callback runs for an abnormally terminated command, with its error status.
  ASSERT_TRUE(eventually([&] { return log.size() == 1; }));
  EXPECT_LT(log.calls()[0].status, 0);
  // A blocking command waiting on the failed event reports the failure too.
  int value = 5;
  EXPECT_CL(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
            clEnqueueWriteBuffer(queue, data, CL_TRUE, 0, sizeof(value), &value, 1, &gate, nullptr));
}

TEST_F(EventTest, EventsOfAnotherContextAreInvalidContext) {
  cl_context other = createContext();
  cl_event foreign = userEvent(other);
  cl_kernel k = setFirst(1);
  const size_t one = 1;
  EXPECT_CL(CL_INVALID_CONTEXT, clEnqueueNDRangeKernel(queue, k, 1, nullptr, &one, nullptr, 1, &foreign, nullptr));
  EXPECT_CL(CL_INVALID_CONTEXT, clEnqueueMarkerWithWaitList(queue, 1, &foreign, nullptr));
  EXPECT_CL(CL_INVALID_CONTEXT, clEnqueueBarrierWithWaitList(queue, 1, &foreign, nullptr));
  int value = 0;
  EXPECT_CL(CL_INVALID_CONTEXT, clEnqueueReadBuffer(queue, data, CL_TRUE, 0, sizeof(value), &value, 1, &foreign, nullptr));
  cl_event local = userEvent();
  const cl_event mixed[] = {local, foreign};
  EXPECT_CL(CL_INVALID_CONTEXT, clWaitForEvents(2, mixed));
  // Malformed wait lists.
  EXPECT_CL(CL_INVALID_EVENT_WAIT_LIST, clEnqueueNDRangeKernel(queue, k, 1, nullptr, &one, nullptr, 1, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_EVENT_WAIT_LIST, clEnqueueNDRangeKernel(queue, k, 1, nullptr, &one, nullptr, 0, &local, nullptr));
  const cl_event withNull[] = {local, nullptr};
  EXPECT_CL(CL_INVALID_EVENT_WAIT_LIST, clEnqueueNDRangeKernel(queue, k, 1, nullptr, &one, nullptr, 2, withNull, nullptr));
  const cl_event withBuffer[] = {reinterpret_cast<cl_event>(data)};
  EXPECT_CL(CL_INVALID_EVENT_WAIT_LIST, clEnqueueMarkerWithWaitList(queue, 1, withBuffer, nullptr));
  ASSERT_CL_OK(clSetUserEventStatus(foreign, CL_COMPLETE));
  ASSERT_CL_OK(clSetUserEventStatus(local, CL_COMPLETE));
}

}  // namespace
}  // namespace loom::test
