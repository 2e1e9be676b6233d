// clGetExtensionFunctionAddress: the entry points of extensions, by name. The ICD loader also
// asks here for clIcdGetPlatformIDsKHR when it loads Loom.
#include <CL/cl_ext.h>

#include <cstring>

#include "opencl/api_object.h"
#include "opencl/platform/platform.h"

extern "C" CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint, cl_platform_id*, cl_uint*);

#define LOOM_EXTENSION_FUNCTION(name) {#name, reinterpret_cast<void*>(&name)}

namespace loom::cl {
namespace {

struct NamedFunction {
  const char* name;
  void* address;
};

const NamedFunction kExtensionFunctions[] = {
    LOOM_EXTENSION_FUNCTION(clIcdGetPlatformIDsKHR),
    LOOM_EXTENSION_FUNCTION(clGetKernelSubGroupInfoKHR),  // cl_khr_subgroups
    // cl_intel_unified_shared_memory
    LOOM_EXTENSION_FUNCTION(clHostMemAllocINTEL),
    LOOM_EXTENSION_FUNCTION(clDeviceMemAllocINTEL),
    LOOM_EXTENSION_FUNCTION(clSharedMemAllocINTEL),
    LOOM_EXTENSION_FUNCTION(clMemFreeINTEL),
    LOOM_EXTENSION_FUNCTION(clMemBlockingFreeINTEL),
    LOOM_EXTENSION_FUNCTION(clGetMemAllocInfoINTEL),
    LOOM_EXTENSION_FUNCTION(clSetKernelArgMemPointerINTEL),
    LOOM_EXTENSION_FUNCTION(clEnqueueMemFillINTEL),
    LOOM_EXTENSION_FUNCTION(clEnqueueMemsetINTEL),
    LOOM_EXTENSION_FUNCTION(clEnqueueMemcpyINTEL),
    LOOM_EXTENSION_FUNCTION(clEnqueueMigrateMemINTEL),
    LOOM_EXTENSION_FUNCTION(clEnqueueMemAdviseINTEL),
};

void* findExtensionFunction(const char* name) {
  if (name == nullptr) return nullptr;
  for (const NamedFunction& function : kExtensionFunctions)
    if (std::strcmp(function.name, name) == 0) return function.address;
  return nullptr;
}

}  // namespace
}  // namespace loom::cl

using namespace loom::cl;

extern "C" {

LOOM_ICD_EXPORT CL_API_ENTRY void* CL_API_CALL clGetExtensionFunctionAddress(const char* func_name) { return findExtensionFunction(func_name); }

CL_API_ENTRY void* CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char* func_name) {
  if (objectOf<Platform>(platform) == nullptr) return nullptr;
  return findExtensionFunction(func_name);
}

}  // extern "C"
