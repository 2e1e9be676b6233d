// clGetExtensionFunctionAddress: the entry points of extensions, by name. The ICD loader also
// asks here for clIcdGetPlatformIDsKHR when it loads Loom.
#include <CL/cl_ext.h>

#include <cstring>

#include "opencl/api_object.h"
#include "opencl/icd/traced_entry_point.h"
#include "opencl/platform/platform.h"

extern "C" CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint, cl_platform_id*, cl_uint*);

// Every extension entry point, handed out through TracedEntryPoint like the dispatch table's.
#define LOOM_EXTENSION_FUNCTIONS(X)                                          \
  X(clIcdGetPlatformIDsKHR)                                                  \
  X(clGetKernelSubGroupInfoKHR) /* cl_khr_subgroups */                       \
  X(clHostMemAllocINTEL)        /* cl_intel_unified_shared_memory: */        \
  X(clDeviceMemAllocINTEL)                                                   \
  X(clSharedMemAllocINTEL)                                                   \
  X(clMemFreeINTEL)                                                          \
  X(clMemBlockingFreeINTEL)                                                  \
  X(clGetMemAllocInfoINTEL)                                                  \
  X(clSetKernelArgMemPointerINTEL)                                           \
  X(clEnqueueMemFillINTEL)                                                   \
  X(clEnqueueMemsetINTEL)                                                    \
  X(clEnqueueMemcpyINTEL)                                                    \
  X(clEnqueueMigrateMemINTEL)                                                \
  X(clEnqueueMemAdviseINTEL)

namespace loom::cl {
namespace {

#define LOOM_FUNCTION_NAME(name) constexpr char k##name[] = #name;
LOOM_EXTENSION_FUNCTIONS(LOOM_FUNCTION_NAME)
#undef LOOM_FUNCTION_NAME

struct NamedFunction {
  const char* name;
  void* address;
};

#define LOOM_NAMED_FUNCTION(name) {k##name, reinterpret_cast<void*>(&TracedEntryPoint<&::name, k##name>::call)},
const NamedFunction kExtensionFunctions[] = {LOOM_EXTENSION_FUNCTIONS(LOOM_NAMED_FUNCTION)};
#undef LOOM_NAMED_FUNCTION

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
