#pragma once
// Kernel profiling meta-data (zetKernelGetProfileInfo) for instrumentation tools. Loom's compiler
// takes the profiling request ("-zet-profile-flags <n>") but acts on none of its flags (register
// reallocation, free register info: Intel ISA's, for GTPin) and emits no profiling tokens: the
// properties report none, and the build log says so. zetModuleGetDebugInfo stays unsupported: Loom keeps no ELF/DWARF debug
// information of its modules.
#include <level_zero/zet_api.h>

namespace loom::l0 {

ze_result_t zetKernelGetProfileInfo(zet_kernel_handle_t hKernel, zet_profile_properties_t* pProfileProperties);

}  // namespace loom::l0
