#include "level_zero/tools/kernel_profile.h"

#include "level_zero/validation.h"

namespace loom::l0 {

ze_result_t zetKernelGetProfileInfo(zet_kernel_handle_t hKernel, zet_profile_properties_t* pProfileProperties) {
  ZE_REQUIRE_HANDLE(hKernel);
  ZE_REQUIRE_POINTER(pProfileProperties);
  if (ze_result_t result = checkChain(__func__, pProfileProperties->pNext); result != ZE_RESULT_SUCCESS) return result;
  pProfileProperties->flags = 0;
  pProfileProperties->numTokens = 0;
  return ZE_RESULT_SUCCESS;
}

}  // namespace loom::l0
