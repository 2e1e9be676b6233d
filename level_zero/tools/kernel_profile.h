#pragma once
// Kernel profiling meta-data (zetKernelGetProfileInfo) for instrumentation tools. Loom's compiler
// takes no profiling flags (register reallocation, free register info) and emits no profiling
// tokens, and says so. zetModuleGetDebugInfo stays unsupported: Loom keeps no ELF/DWARF debug
// information of its modules.
#include <level_zero/zet_api.h>

namespace loom::l0 {

ze_result_t zetKernelGetProfileInfo(zet_kernel_handle_t hKernel, zet_profile_properties_t* pProfileProperties);

}  // namespace loom::l0
