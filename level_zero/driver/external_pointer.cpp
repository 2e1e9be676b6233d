#include "level_zero/driver/external_pointer.h"

#include <cstring>

#include "level_zero/validation.h"
#include "loom/core/runtime.h"

namespace loom::l0 {

namespace {

using Result = core::ImportedHostPointers::Result;

ze_result_t importResult(Result result) {
  switch (result) {
    case Result::Imported:
    case Result::AlreadyImported: return ZE_RESULT_SUCCESS;
    case Result::StartsInAnother:
      return reportError(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE, "zexDriverImportExternalPointer",
                         "the range starts inside an import and runs past its end");
    case Result::EndsInAnother:
      return reportError(ZE_RESULT_ERROR_INVALID_SIZE, "zexDriverImportExternalPointer", "the range ends inside another import");
    case Result::Overlaps:
      return reportError(ZE_RESULT_ERROR_OVERLAPPING_REGIONS, "zexDriverImportExternalPointer",
                         "the range overlaps imports it does not lie inside");
    case Result::Refused: break;
  }
  return reportError(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY, "zexDriverImportExternalPointer", "the GPUs' driver would not pin the range");
}

}  // namespace

ze_result_t zexDriverImportExternalPointer(ze_driver_handle_t hDriver, void* ptr, size_t size) {
  ZE_REQUIRE_HANDLE(hDriver);
  ZE_REQUIRE(ptr != nullptr && size > 0, ZE_RESULT_ERROR_INVALID_ARGUMENT, "ptr is null or size is 0");
  ZE_REQUIRE(reinterpret_cast<uintptr_t>(ptr) + (size - 1) >= reinterpret_cast<uintptr_t>(ptr), ZE_RESULT_ERROR_INVALID_SIZE,
             "the range runs past the end of the address space");
  return importResult(core::Runtime::get().importedHostPointers().import(ptr, size));
}

ze_result_t zexDriverReleaseImportedPointer(ze_driver_handle_t hDriver, void* ptr) {
  ZE_REQUIRE_HANDLE(hDriver);
  ZE_REQUIRE(core::Runtime::get().importedHostPointers().release(ptr), ZE_RESULT_ERROR_INVALID_ARGUMENT,
             "ptr is not where an import starts");
  return ZE_RESULT_SUCCESS;
}

ze_result_t zexDriverGetHostPointerBaseAddress(ze_driver_handle_t hDriver, void* ptr, void** baseAddress) {
  ZE_REQUIRE_HANDLE(hDriver);
  void* base = core::Runtime::get().importedHostPointers().baseOf(ptr);
  ZE_REQUIRE(base != nullptr, ZE_RESULT_ERROR_INVALID_ARGUMENT, "ptr is in no import");
  if (baseAddress) *baseAddress = base;
  return ZE_RESULT_SUCCESS;
}

void* externalPointerFunction(const char* name) {
  struct Named {
    const char* name;
    void* function;
  };
  static const Named kFunctions[] = {
      {"zexDriverImportExternalPointer", reinterpret_cast<void*>(&zexDriverImportExternalPointer)},
      {"zexDriverReleaseImportedPointer", reinterpret_cast<void*>(&zexDriverReleaseImportedPointer)},
      {"zexDriverGetHostPointerBaseAddress", reinterpret_cast<void*>(&zexDriverGetHostPointerBaseAddress)},
  };
  for (const Named& each : kFunctions)
    if (std::strcmp(each.name, name) == 0) return each.function;
  return nullptr;
}

}  // namespace loom::l0
