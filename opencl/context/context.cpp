#include "opencl/context/context.h"

#include <algorithm>

#include "loom/core/allocation_limits.h"
#include "loom/core/runtime.h"
#include "opencl/device/device.h"
#include "opencl/info.h"
#include "opencl/platform/platform.h"
#include "opencl/reference_counting.h"
#include "opencl/validation.h"

namespace loom::cl {

Context::Context(std::vector<Device*> devices, std::vector<cl_context_properties> properties, Notify notify,
                 void* userData)
    : devices_(std::move(devices)), properties_(std::move(properties)), notify_(notify), notifyData_(userData) {
  for (Device* device : devices_) retainDevice(*device);
}

Context::~Context() {
  // Destructor callbacks run in reverse order of registration, as for memory objects.
  for (auto it = destructorCallbacks_.rbegin(); it != destructorCallbacks_.rend(); ++it) (*it)();
  core::Runtime::get().memory().freeAllOf(this);
  for (Device* device : devices_) releaseDevice(*device);
}

uint64_t Context::allocationLimit() const {
  std::vector<const core::DeviceInfo*> infos;
  for (const Device* device : devices_) infos.push_back(&device->info());
  return core::allocationLimit(infos);
}

bool Context::hasDevice(const Device* device) const {
  return std::find(devices_.begin(), devices_.end(), device) != devices_.end();
}

Device* Context::deviceOf(cl_device_id handle) const {
  Device* device = objectOf<Device>(handle);
  return device && hasDevice(device) ? device : nullptr;
}

void Context::addDestructorCallback(std::function<void()> callback) {
  std::lock_guard lock(mutex_);
  destructorCallbacks_.push_back(std::move(callback));
}

void releaseContext(Context& context) {
  if (context.release()) delete &context;
}

namespace {

// Checks the property list (only CL_CONTEXT_PLATFORM, and CL_CONTEXT_INTEROP_USER_SYNC, are
// known) and copies it with its terminator.
cl_int readProperties(const cl_context_properties* properties, std::vector<cl_context_properties>& copy) {
  if (properties == nullptr) return CL_SUCCESS;
  bool platformSeen = false, syncSeen = false;
  for (const cl_context_properties* p = properties; *p != 0; p += 2) {
    if (p[0] == CL_CONTEXT_PLATFORM) {
      CL_REQUIRE(!platformSeen, CL_INVALID_PROPERTY, "CL_CONTEXT_PLATFORM given twice");
      CL_REQUIRE(objectOf<Platform>(reinterpret_cast<cl_platform_id>(p[1])), CL_INVALID_PLATFORM,
                 "CL_CONTEXT_PLATFORM is not a Loom platform");
      platformSeen = true;
    } else if (p[0] == CL_CONTEXT_INTEROP_USER_SYNC) {
      CL_REQUIRE(!syncSeen, CL_INVALID_PROPERTY, "CL_CONTEXT_INTEROP_USER_SYNC given twice");
      syncSeen = true;
    } else {
      CL_FAIL(CL_INVALID_PROPERTY, "unknown context property");
    }
    copy.push_back(p[0]);
    copy.push_back(p[1]);
  }
  copy.push_back(0);
  return CL_SUCCESS;
}

// What both entry points check before they look at devices.
cl_int checkContextArguments(const cl_context_properties* properties, Context::Notify notify, void* userData,
                             std::vector<cl_context_properties>& copy) {
  CL_REQUIRE(notify != nullptr || userData == nullptr, CL_INVALID_VALUE, "user_data without pfn_notify");
  return readProperties(properties, copy);
}

}  // namespace

}  // namespace loom::cl

using namespace loom::cl;

extern "C" {

CL_API_ENTRY cl_context CL_API_CALL clCreateContext(const cl_context_properties* properties, cl_uint num_devices,
                                                    const cl_device_id* devices,
                                                    void(CL_CALLBACK* pfn_notify)(const char*, const void*, size_t, void*),
                                                    void* user_data, cl_int* errcode_ret) {
  return createHandle<cl_context>(errcode_ret, [&](cl_context* context) -> cl_int {
    std::vector<cl_context_properties> copy;
    if (cl_int error = checkContextArguments(properties, pfn_notify, user_data, copy); error != CL_SUCCESS) return error;
    CL_REQUIRE(devices != nullptr && num_devices != 0, CL_INVALID_VALUE, "no devices");
    std::vector<Device*> list;
    for (cl_uint i = 0; i < num_devices; ++i) {
      Device* device = objectOf<Device>(devices[i]);
      CL_REQUIRE(device, CL_INVALID_DEVICE, "a device is not a Loom device");
      if (std::find(list.begin(), list.end(), device) == list.end()) list.push_back(device);
    }
    *context = new Context(std::move(list), std::move(copy), pfn_notify, user_data);
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_context CL_API_CALL clCreateContextFromType(const cl_context_properties* properties, cl_device_type device_type,
                                                            void(CL_CALLBACK* pfn_notify)(const char*, const void*, size_t,
                                                                                          void*),
                                                            void* user_data, cl_int* errcode_ret) {
  return createHandle<cl_context>(errcode_ret, [&](cl_context* context) -> cl_int {
    std::vector<cl_context_properties> copy;
    if (cl_int error = checkContextArguments(properties, pfn_notify, user_data, copy); error != CL_SUCCESS) return error;
    cl_uint count = 0;
    if (cl_int error = clGetDeviceIDs(nullptr, device_type, 0, nullptr, &count); error != CL_SUCCESS) return error;
    std::vector<cl_device_id> handles(count);
    clGetDeviceIDs(nullptr, device_type, count, handles.data(), nullptr);
    std::vector<Device*> list;
    for (cl_device_id handle : handles) list.push_back(objectOf<Device>(handle));
    *context = new Context(std::move(list), std::move(copy), pfn_notify, user_data);
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_int CL_API_CALL clRetainContext(cl_context context) {
  return retainHandle<Context>(context, CL_INVALID_CONTEXT, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseContext(cl_context context) {
  return releaseHandle(context, CL_INVALID_CONTEXT, __func__, releaseContext);
}

CL_API_ENTRY cl_int CL_API_CALL clGetContextInfo(cl_context context, cl_context_info param_name, size_t param_value_size,
                                                 void* param_value, size_t* param_value_size_ret) {
  const InfoRequest out{param_value_size, param_value, param_value_size_ret, __func__};
  return answerInfo<Context>(context, CL_INVALID_CONTEXT, "not a context", out, [&](Context& object) {
    switch (param_name) {
      case CL_CONTEXT_REFERENCE_COUNT: return out.scalar(object.referenceCount());
      case CL_CONTEXT_NUM_DEVICES: return out.scalar<cl_uint>(static_cast<cl_uint>(object.devices().size()));
      case CL_CONTEXT_DEVICES: {
        std::vector<cl_device_id> handles(object.devices().begin(), object.devices().end());
        return out.array(handles);
      }
      case CL_CONTEXT_PROPERTIES: return out.array(object.properties());
      default: return out.unknownName();
    }
  });
}

CL_API_ENTRY cl_int CL_API_CALL clSetContextDestructorCallback(cl_context context,
                                                               void(CL_CALLBACK* pfn_notify)(cl_context, void*),
                                                               void* user_data) {
  Context* object = objectOf<Context>(context);
  CL_REQUIRE(object, CL_INVALID_CONTEXT, "not a context");
  CL_REQUIRE(pfn_notify, CL_INVALID_VALUE, "pfn_notify is null");
  object->addDestructorCallback([=] { pfn_notify(context, user_data); });
  return CL_SUCCESS;
}

}  // extern "C"
