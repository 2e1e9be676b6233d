#include "opencl/mem/memory_object.h"

#include <algorithm>
#include <cstring>

#include "loom/core/runtime.h"
#include "opencl/context/context.h"
#include "opencl/device/device.h"
#include "opencl/info.h"
#include "opencl/reference_counting.h"
#include "opencl/validation.h"

namespace loom::cl {

MemoryObject::MemoryObject(Context& context, Description description)
    : context_(context), description_(std::move(description)) {
  context_.retain();
}

MemoryObject::~MemoryObject() {
  for (auto it = destructorCallbacks_.rbegin(); it != destructorCallbacks_.rend(); ++it) (*it)();
  image_.image.reset();  // before the storage it may lie in
  if (description_.allocationId != 0) core::Runtime::get().memory().free(description_.storage, description_.allocationId);
  if (description_.parent) releaseMemoryObject(*description_.parent);
  releaseContext(context_);
}

void MemoryObject::addDestructorCallback(std::function<void()> callback) {
  std::lock_guard lock(mutex_);
  destructorCallbacks_.push_back(std::move(callback));
}

MemoryObject::Mapping MemoryObject::map(size_t offset, size_t size, bool writes, bool hostAddressesStorage) {
  // A USE_HOST_PTR buffer maps to its host pointer, as the spec requires; other buffers map to
  // their storage where the host can address it, else to a host copy.
  Mapping mapping{description_.storage + offset, offset, size, writes, nullptr};
  if (description_.hostPointer) {
    mapping.pointer = static_cast<char*>(description_.hostPointer) + offset;
  } else if (!hostAddressesStorage) {
    mapping.staging = std::make_shared<std::vector<char>>(size);
    mapping.pointer = mapping.staging->data();
  }
  std::lock_guard lock(mutex_);
  mappings_.push_back(mapping);
  return mapping;
}

MemoryObject::Mapping MemoryObject::mapImage(const std::array<uint64_t, 3>& origin, const std::array<uint64_t, 3>& extent,
                                              bool writes, bool hostAddressesStorage) {
  const core::Image& image = *image_.image;
  const core::ImageType type = image.shape().type;
  Mapping mapping{description_.storage + image.offsetOf(origin), 0, 0, writes, nullptr};
  mapping.rowPitch = image.shape().rowPitch;
  mapping.slicePitch = image.shape().slicePitch;
  const bool viewIsStorage = hostAddressesStorage && (!description_.hostPointer || description_.hostPointer == description_.storage);
  if (!viewIsStorage) {
    // The host pointer of a USE_HOST_PTR image, in the application's layout, else a tight host copy.
    const bool atHostPointer = description_.hostPointer != nullptr;
    const core::LinearLayout layout =
        atHostPointer ? image_.hostLayout : core::resolveLayout({}, type, image.elementSize(), extent);
    core::Region3d viewRegion = core::linearRegion(layout, type);
    char* view = static_cast<char*>(description_.hostPointer);
    if (atHostPointer) {
      viewRegion.originX = origin[0] * image.elementSize();
      viewRegion.originY = origin[1];
      viewRegion.originZ = origin[2];
    } else {
      mapping.staging = std::make_shared<std::vector<char>>(core::linearBytes(layout, type, image.elementSize(), extent));
      view = mapping.staging->data();
    }
    const auto bytes = image.copyExtent(extent);
    mapping.pointer = view + viewRegion.originX + viewRegion.originY * viewRegion.rowPitch + viewRegion.originZ * viewRegion.slicePitch;
    mapping.rowPitch = layout.rowPitch;
    mapping.slicePitch = layout.slicePitch;
    mapping.imageCopy =
        core::CopyRegionCommand{view, description_.storage, viewRegion, image.regionAt(origin), bytes[0], bytes[1], bytes[2]};
  }
  std::lock_guard lock(mutex_);
  mappings_.push_back(mapping);
  return mapping;
}

std::optional<MemoryObject::Mapping> MemoryObject::unmap(void* pointer) {
  std::lock_guard lock(mutex_);
  auto it = std::find_if(mappings_.begin(), mappings_.end(), [&](const Mapping& m) { return m.pointer == pointer; });
  if (it == mappings_.end()) return std::nullopt;
  Mapping mapping = *it;
  mappings_.erase(it);
  return mapping;
}

cl_uint MemoryObject::mapCount() const {
  std::lock_guard lock(mutex_);
  return static_cast<cl_uint>(mappings_.size());
}

void releaseMemoryObject(MemoryObject& memory) {
  if (!memory.release()) return;
  MemoryObject* object = &memory;
  core::Runtime::get().releaseAfterSubmittedWork([object] { delete object; });
}

namespace {

constexpr cl_mem_flags kKnownFlags = kAccessFlags | kHostPointerFlags | kHostAccessFlags | CL_MEM_KERNEL_READ_AND_WRITE;

bool atMostOneOf(cl_mem_flags flags, cl_mem_flags group) {
  const cl_mem_flags bits = flags & group;
  return (bits & (bits - 1)) == 0;
}

}  // namespace

cl_int checkMemoryFlags(cl_mem_flags flags, const char* function) {
  if (flags & ~kKnownFlags) return reportError(CL_INVALID_VALUE, function, "unknown flags");
  if (!atMostOneOf(flags, kAccessFlags)) return reportError(CL_INVALID_VALUE, function, "conflicting access flags");
  if (!atMostOneOf(flags, kHostAccessFlags)) return reportError(CL_INVALID_VALUE, function, "conflicting host access flags");
  if ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
    return reportError(CL_INVALID_VALUE, function, "CL_MEM_USE_HOST_PTR excludes ALLOC_HOST_PTR and COPY_HOST_PTR");
  return CL_SUCCESS;
}

bool allDevicesShareHostMemory(const Context& context) {
  return std::all_of(context.devices().begin(), context.devices().end(),
                     [](Device* device) { return device->info().unifiedMemory; });
}

namespace {

// True when [pointer, pointer + size) lies inside one allocation of `context` (an SVM allocation).
bool isSvmRangeOf(const Context& context, const void* pointer, size_t size) {
  const auto allocation = core::Runtime::get().memory().find(pointer);
  if (!allocation || allocation->owner != &context) return false;
  const auto offset = static_cast<size_t>(static_cast<const char*>(pointer) - static_cast<const char*>(allocation->address));
  return offset + size <= allocation->size;
}

cl_int createBuffer(cl_context context, const cl_mem_properties* properties, cl_mem_flags flags, size_t size, void* hostPtr,
                    cl_mem* buffer) {
  const char* function = "clCreateBuffer";
  Context* owner = objectOf<Context>(context);
  CL_REQUIRE(owner, CL_INVALID_CONTEXT, "not a context");
  std::vector<cl_mem_properties> propertyCopy;
  if (properties) {
    CL_REQUIRE(properties[0] == 0, CL_INVALID_PROPERTY, "buffers take no properties");
    propertyCopy.push_back(0);
  }
  if (cl_int error = checkMemoryFlags(flags, function); error != CL_SUCCESS) return error;
  if (!(flags & kAccessFlags)) flags |= CL_MEM_READ_WRITE;
  CL_REQUIRE(size != 0 && size <= owner->allocationLimit(), CL_INVALID_BUFFER_SIZE,
             "size is 0 or above CL_DEVICE_MAX_MEM_ALLOC_SIZE of a device of the context");
  const bool needsHostPtr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  CL_REQUIRE(needsHostPtr == (hostPtr != nullptr), CL_INVALID_HOST_PTR,
             "host_ptr must be given exactly with CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR");

  auto& memory = core::Runtime::get().memory();
  MemoryObject::Description description{flags, size, nullptr, nullptr, 0, nullptr, 0, false, std::move(propertyCopy)};
  // An SVM allocation of this context is device memory already: the buffer uses it, on any device.
  const bool usesSvm = (flags & CL_MEM_USE_HOST_PTR) && isSvmRangeOf(*owner, hostPtr, size);
  if ((flags & CL_MEM_USE_HOST_PTR) && (usesSvm || allDevicesShareHostMemory(*owner))) {
    description.hostPointer = hostPtr;
    description.storage = static_cast<char*>(hostPtr);
    description.usesSvmPointer = usesSvm;
  } else {
    core::Device* device = &owner->devices().front()->core();
    auto allocation = memory.allocate(core::MemoryType::Device, size, kBaseAddressAlignment, device, owner);
    CL_REQUIRE(allocation, CL_MEM_OBJECT_ALLOCATION_FAILURE, "out of memory");
    description.storage = static_cast<char*>(allocation->address);
    description.allocationId = allocation->id;
    // Through the device's copy: its memory may not be host-addressable (a GPU's).
    if (flags & (CL_MEM_COPY_HOST_PTR | CL_MEM_USE_HOST_PTR)) device->backend().copy(description.storage, hostPtr, size);
    if (flags & CL_MEM_USE_HOST_PTR) description.hostPointer = hostPtr;
  }
  *buffer = new MemoryObject(*owner, std::move(description));
  return CL_SUCCESS;
}

// Sub-buffer flags: unspecified groups inherit the parent's; specified ones must not widen them.
cl_int subBufferFlags(const MemoryObject& parent, cl_mem_flags& flags) {
  const char* function = "clCreateSubBuffer";
  if (cl_int error = checkMemoryFlags(flags, function); error != CL_SUCCESS) return error;
  CL_REQUIRE(!(flags & kHostPointerFlags), CL_INVALID_VALUE, "host pointer flags are inherited, not given");
  const cl_mem_flags parentFlags = parent.flags();
  if (!(flags & kAccessFlags)) flags |= parentFlags & kAccessFlags;
  if (!(flags & kHostAccessFlags)) flags |= parentFlags & kHostAccessFlags;
  flags |= parentFlags & kHostPointerFlags;
  const bool widensAccess = ((parentFlags & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
                            ((parentFlags & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY)));
  CL_REQUIRE(!widensAccess, CL_INVALID_VALUE, "the flags allow an access the parent does not");
  const bool widensHostAccess =
      ((parentFlags & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)) ||
      ((parentFlags & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)) ||
      ((parentFlags & CL_MEM_HOST_NO_ACCESS) && (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)));
  CL_REQUIRE(!widensHostAccess, CL_INVALID_VALUE, "the flags allow a host access the parent does not");
  return CL_SUCCESS;
}

cl_int createSubBuffer(cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type type, const void* info, cl_mem* subBuffer) {
  MemoryObject* parent = objectOf<MemoryObject>(buffer);
  CL_REQUIRE(parent && !parent->isImage() && parent->parent() == nullptr, CL_INVALID_MEM_OBJECT, "not a buffer, or a sub-buffer");
  if (cl_int error = subBufferFlags(*parent, flags); error != CL_SUCCESS) return error;
  CL_REQUIRE(type == CL_BUFFER_CREATE_TYPE_REGION, CL_INVALID_VALUE, "unknown buffer_create_type");
  CL_REQUIRE(info, CL_INVALID_VALUE, "buffer_create_info is null");
  const auto& region = *static_cast<const cl_buffer_region*>(info);
  CL_REQUIRE(region.size != 0, CL_INVALID_BUFFER_SIZE, "the region's size is 0");
  CL_REQUIRE(region.origin <= parent->size() && region.size <= parent->size() - region.origin, CL_INVALID_VALUE,
             "the region lies outside the buffer");
  CL_REQUIRE(region.origin % kBaseAddressAlignment == 0, CL_MISALIGNED_SUB_BUFFER_OFFSET, "the origin is not aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN");
  parent->retain();
  void* hostPointer = parent->hostPointer() ? static_cast<char*>(parent->hostPointer()) + region.origin : nullptr;
  MemoryObject::Description description{flags,  region.size, hostPointer, parent->storage() + region.origin, 0, parent,
                                        region.origin, parent->usesSvmPointer(), {}};
  *subBuffer = new MemoryObject(parent->context(), std::move(description));
  return CL_SUCCESS;
}

}  // namespace

}  // namespace loom::cl

using namespace loom::cl;

extern "C" {

CL_API_ENTRY cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void* host_ptr,
                                               cl_int* errcode_ret) {
  return createHandle<cl_mem>(errcode_ret, [&](cl_mem* buffer) {
    return createBuffer(context, nullptr, flags, size, host_ptr, buffer);
  });
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context context, const cl_mem_properties* properties,
                                                             cl_mem_flags flags, size_t size, void* host_ptr,
                                                             cl_int* errcode_ret) {
  return createHandle<cl_mem>(errcode_ret, [&](cl_mem* buffer) {
    return createBuffer(context, properties, flags, size, host_ptr, buffer);
  });
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type buffer_create_type,
                                                  const void* buffer_create_info, cl_int* errcode_ret) {
  return createHandle<cl_mem>(errcode_ret, [&](cl_mem* subBuffer) {
    return createSubBuffer(buffer, flags, buffer_create_type, buffer_create_info, subBuffer);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clRetainMemObject(cl_mem memobj) {
  return retainHandle<MemoryObject>(memobj, CL_INVALID_MEM_OBJECT, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj) {
  return releaseHandle(memobj, CL_INVALID_MEM_OBJECT, __func__, releaseMemoryObject);
}

CL_API_ENTRY cl_int CL_API_CALL clSetMemObjectDestructorCallback(cl_mem memobj, void(CL_CALLBACK* pfn_notify)(cl_mem, void*),
                                                                 void* user_data) {
  MemoryObject* object = objectOf<MemoryObject>(memobj);
  CL_REQUIRE(object, CL_INVALID_MEM_OBJECT, "not a memory object");
  CL_REQUIRE(pfn_notify, CL_INVALID_VALUE, "pfn_notify is null");
  object->addDestructorCallback([=] { pfn_notify(memobj, user_data); });
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetMemObjectInfo(cl_mem memobj, cl_mem_info param_name, size_t param_value_size,
                                                   void* param_value, size_t* param_value_size_ret) {
  const InfoRequest out{param_value_size, param_value, param_value_size_ret, __func__};
  return answerInfo<MemoryObject>(memobj, CL_INVALID_MEM_OBJECT, "not a memory object", out, [&](MemoryObject& object) {
    switch (param_name) {
      case CL_MEM_TYPE: return out.scalar(object.type());
      case CL_MEM_FLAGS: return out.scalar(object.flags());
      case CL_MEM_SIZE: return out.scalar(object.size());
      case CL_MEM_HOST_PTR: return out.scalar(object.hostPointer());
      case CL_MEM_MAP_COUNT: return out.scalar(object.mapCount());
      case CL_MEM_REFERENCE_COUNT: return out.scalar(object.referenceCount());
      case CL_MEM_CONTEXT: return out.scalar<cl_context>(&object.context());
      case CL_MEM_ASSOCIATED_MEMOBJECT: return out.scalar<cl_mem>(object.parent());
      case CL_MEM_OFFSET: return out.scalar(object.origin());
      case CL_MEM_USES_SVM_POINTER: return out.scalar<cl_bool>(object.usesSvmPointer());
      case CL_MEM_PROPERTIES: return out.array(object.properties());
      default: return out.unknownName();
    }
  });
}

}  // extern "C"
