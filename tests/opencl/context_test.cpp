// Contexts: properties round-trip, clCreateContextFromType, reference counts, destructor
// callbacks (reverse order, only once the last reference is gone) and bad properties.
#include "cl_test_helpers.h"

namespace loom::test {
namespace {

using ContextTest = ClTest;

TEST_F(ContextTest, PropertiesRoundTrip) {
  const cl_context_properties properties[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform), 0};
  cl_int error = CL_SUCCESS;
  cl_context created = clCreateContext(properties, 1, &device, nullptr, nullptr, &error);
  ASSERT_CL_OK(error);
  otherContexts.push_back(created);
  const auto returned = infoArray<cl_context_properties>(
      [&](size_t s, void* v, size_t* r) { return clGetContextInfo(created, CL_CONTEXT_PROPERTIES, s, v, r); });
  EXPECT_EQ(returned, std::vector<cl_context_properties>(std::begin(properties), std::end(properties)));
  // Without properties the list is empty (or just the terminator).
  const auto none = infoArray<cl_context_properties>(
      [&](size_t s, void* v, size_t* r) { return clGetContextInfo(context, CL_CONTEXT_PROPERTIES, s, v, r); });
  EXPECT_TRUE(none.empty() || none == std::vector<cl_context_properties>{0});
}

TEST_F(ContextTest, ReportsDevicesAndReferenceCount) {
  auto count = [&] {
    return infoScalar<cl_uint>([&](size_t s, void* v, size_t* r) { return clGetContextInfo(context, CL_CONTEXT_REFERENCE_COUNT, s, v, r); });
  };
  EXPECT_EQ(infoScalar<cl_uint>([&](size_t s, void* v, size_t* r) { return clGetContextInfo(context, CL_CONTEXT_NUM_DEVICES, s, v, r); }), 1u);
  const auto devices = infoArray<cl_device_id>(
      [&](size_t s, void* v, size_t* r) { return clGetContextInfo(context, CL_CONTEXT_DEVICES, s, v, r); });
  EXPECT_EQ(devices, std::vector<cl_device_id>{device});
  // The fixture's queue holds a reference: the count is implementation-specific but must move with retain/release.
  const cl_uint before = count();
  ASSERT_CL_OK(clRetainContext(context));
  EXPECT_EQ(count(), before + 1);
  ASSERT_CL_OK(clReleaseContext(context));
  EXPECT_EQ(count(), before);
  EXPECT_CL(CL_INVALID_VALUE, clGetContextInfo(context, 0x7fff, 0, nullptr, nullptr));
}

TEST_F(ContextTest, DuplicateDevicesAreOneDevice) {
  const cl_device_id twice[] = {device, device};
  cl_int error = CL_SUCCESS;
  cl_context created = clCreateContext(nullptr, 2, twice, nullptr, nullptr, &error);
  ASSERT_CL_OK(error);
  otherContexts.push_back(created);
  const auto devices = infoArray<cl_device_id>(
      [&](size_t s, void* v, size_t* r) { return clGetContextInfo(created, CL_CONTEXT_DEVICES, s, v, r); });
  EXPECT_FALSE(devices.empty());
  for (cl_device_id d : devices) EXPECT_EQ(d, device);
}

TEST_F(ContextTest, CreateFromTypeTakesTheDevicesOfThatType) {
  const cl_context_properties properties[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform), 0};
  cl_device_type wanted = 0;  // the type of the suite's device: one the platform has
  ASSERT_CL_OK(clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof(wanted), &wanted, nullptr));
  wanted &= ~cl_device_type(CL_DEVICE_TYPE_DEFAULT);
  cl_int error = CL_SUCCESS;
  cl_context ofType = clCreateContextFromType(properties, wanted, nullptr, nullptr, &error);
  ASSERT_CL_OK(error);
  otherContexts.push_back(ofType);
  cl_uint expected = 0;
  ASSERT_CL_OK(clGetDeviceIDs(platform, wanted, 0, nullptr, &expected));
  const auto devices = infoArray<cl_device_id>(
      [&](size_t s, void* v, size_t* r) { return clGetContextInfo(ofType, CL_CONTEXT_DEVICES, s, v, r); });
  EXPECT_EQ(devices.size(), expected);
  for (cl_device_id d : devices) {
    cl_device_type type = 0;
    ASSERT_CL_OK(clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof(type), &type, nullptr));
    EXPECT_TRUE(type & wanted);
  }
  // The context works: a buffer round-trips through a queue on it.
  cl_command_queue q = createQueue(0, ofType);
  ASSERT_NE(q, nullptr);
  int value = 1234, back = 0;
  cl_mem m = buffer(CL_MEM_COPY_HOST_PTR, sizeof(value), &value, ofType);
  ASSERT_CL_OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof(back), &back, 0, nullptr, nullptr));
  EXPECT_EQ(back, 1234);
  // No accelerator: CL_DEVICE_NOT_FOUND and no context.
  EXPECT_EQ(clCreateContextFromType(properties, CL_DEVICE_TYPE_ACCELERATOR, nullptr, nullptr, &error), nullptr);
  EXPECT_CL(CL_DEVICE_NOT_FOUND, error);
}

TEST_F(ContextTest, DestructorCallbacksRunInReverseOrderOnTheLastRelease) {
  cl_int error = CL_SUCCESS;
  cl_context created = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &error);
  ASSERT_CL_OK(error);
  CallbackLog<Destroyed<cl_context>> log;
  CallbackTag<Destroyed<cl_context>> first{&log, 1}, second{&log, 2}, third{&log, 3};
  ASSERT_CL_OK(clSetContextDestructorCallback(created, logDestroyed<cl_context>, &first));
  ASSERT_CL_OK(clSetContextDestructorCallback(created, logDestroyed<cl_context>, &second));
  ASSERT_CL_OK(clSetContextDestructorCallback(created, logDestroyed<cl_context>, &third));
  EXPECT_CL(CL_INVALID_VALUE, clSetContextDestructorCallback(created, nullptr, nullptr));
  // A queue keeps the context alive after the application's last clReleaseContext.
  const cl_queue_properties none[] = {0};
  cl_command_queue q = clCreateCommandQueueWithProperties(created, device, none, &error);
  ASSERT_CL_OK(error);
  ASSERT_CL_OK(clRetainContext(created));
  ASSERT_CL_OK(clReleaseContext(created));
  ASSERT_CL_OK(clReleaseContext(created));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(log.size(), 0u) << "destructor callbacks ran while a queue still referenced the context";
  // So does a buffer.
  cl_mem m = clCreateBuffer(created, CL_MEM_READ_WRITE, 64, nullptr, &error);
  ASSERT_CL_OK(error);
  ASSERT_CL_OK(clReleaseCommandQueue(q));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(log.size(), 0u) << "destructor callbacks ran while a buffer still referenced the context";
  ASSERT_CL_OK(clReleaseMemObject(m));
  ASSERT_TRUE(eventually([&] { return log.size() == 3; })) << "destructor callbacks did not all run";
  EXPECT_EQ(log.calls(), (std::vector<Destroyed<cl_context>>{{3, created}, {2, created}, {1, created}}));
}

void CL_CALLBACK contextNotify(const char*, const void*, size_t, void*) {}

TEST_F(ContextTest, BadArgumentsAreRejected) {
  cl_int error = CL_SUCCESS;
  const cl_context_properties unknown[] = {0x7777, 1, 0};
  EXPECT_EQ(clCreateContext(unknown, 1, &device, nullptr, nullptr, &error), nullptr);
  EXPECT_CL(CL_INVALID_PROPERTY, error);
  const cl_context_properties twice[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform),
                                         CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform), 0};
  EXPECT_EQ(clCreateContext(twice, 1, &device, nullptr, nullptr, &error), nullptr);
  EXPECT_CL(CL_INVALID_PROPERTY, error);
  // A device handle where the platform belongs.
  const cl_context_properties notPlatform[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(device), 0};
  EXPECT_EQ(clCreateContext(notPlatform, 1, &device, nullptr, nullptr, &error), nullptr);
  EXPECT_CL(CL_INVALID_PLATFORM, error);
  EXPECT_EQ(clCreateContext(nullptr, 0, &device, nullptr, nullptr, &error), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, error);
  EXPECT_EQ(clCreateContext(nullptr, 1, nullptr, nullptr, nullptr, &error), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, error);
  // user_data without pfn_notify.
  int data = 0;
  EXPECT_EQ(clCreateContext(nullptr, 1, &device, nullptr, &data, &error), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, error);
  // A context handle where a device belongs.
  const cl_device_id notDevices[] = {device, reinterpret_cast<cl_device_id>(context)};
  EXPECT_EQ(clCreateContext(nullptr, 2, notDevices, nullptr, nullptr, &error), nullptr);
  EXPECT_CL(CL_INVALID_DEVICE, error);
  // With the platform first (the ICD loader needs it to pick the platform), then an unknown property.
  const cl_context_properties platformAndUnknown[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform),
                                                      0x7777, 1, 0};
  EXPECT_EQ(clCreateContext(platformAndUnknown, 1, &device, nullptr, nullptr, &error), nullptr);
  EXPECT_CL(CL_INVALID_PROPERTY, error);
  EXPECT_EQ(clCreateContextFromType(platformAndUnknown, CL_DEVICE_TYPE_CPU, nullptr, nullptr, &error), nullptr);
  EXPECT_CL(CL_INVALID_PROPERTY, error);
  EXPECT_EQ(clCreateContextFromType(nullptr, cl_device_type(1) << 40, nullptr, nullptr, &error), nullptr);
  EXPECT_CL(CL_INVALID_DEVICE_TYPE, error);
  // A notify function is accepted.
  cl_context notified = clCreateContext(nullptr, 1, &device, contextNotify, &data, &error);
  EXPECT_CL_OK(error);
  if (notified) otherContexts.push_back(notified);
}

}  // namespace
}  // namespace loom::test
