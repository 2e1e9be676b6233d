#pragma once
// Intel's import of host pointers, which the model runtime offers through
// zeDriverGetExtensionFunctionAddress and MPI and collective libraries call on their buffers:
// zexDriverImportExternalPointer makes [ptr, ptr + size) addressable by every device at its own
// address (pinned for the GPUs), zexDriverReleaseImportedPointer undoes it, and
// zexDriverGetHostPointerBaseAddress gives the start of the import holding a pointer
// (core/imported_host_pointers.h). Result codes are the model runtime's. The driver handle is
// checked for null only: through the loader the application may hold the loader's handle.
#include <level_zero/ze_api.h>

namespace loom::l0 {

ze_result_t zexDriverImportExternalPointer(ze_driver_handle_t hDriver, void* ptr, size_t size);
ze_result_t zexDriverReleaseImportedPointer(ze_driver_handle_t hDriver, void* ptr);
ze_result_t zexDriverGetHostPointerBaseAddress(ze_driver_handle_t hDriver, void* ptr, void** baseAddress);

// The function of that name, for zeDriverGetExtensionFunctionAddress; nullptr for any other name.
void* externalPointerFunction(const char* name);

}  // namespace loom::l0
