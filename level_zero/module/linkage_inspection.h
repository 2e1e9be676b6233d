#pragma once
// ZE_extension_linkage_inspection: what a set of modules imports and exports, and which of its
// imports none of them exports, as a build log.
#include <level_zero/ze_api.h>

namespace loom::l0 {

ze_result_t zeModuleInspectLinkageExt(ze_linkage_inspection_ext_desc_t* pInspectDesc, uint32_t numModules,
                                      ze_module_handle_t* phModules, ze_module_build_log_handle_t* phLog);

}  // namespace loom::l0
