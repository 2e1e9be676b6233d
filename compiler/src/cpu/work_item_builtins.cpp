#include "work_item_builtins.h"

#include "llvm/ADT/StringSwitch.h"

namespace loom::compiler::cpu {

WorkItemQuery workItemQuery(llvm::StringRef name) {
  return llvm::StringSwitch<WorkItemQuery>(name)
      .Case("_Z13get_global_idj", WorkItemQuery::GlobalId)
      .Case("_Z12get_local_idj", WorkItemQuery::LocalId)
      .Case("_Z12get_group_idj", WorkItemQuery::GroupId)
      .Case("_Z14get_local_sizej", WorkItemQuery::LocalSize)
      .Case("_Z23get_enqueued_local_sizej", WorkItemQuery::EnqueuedLocalSize)
      .Case("_Z15get_global_sizej", WorkItemQuery::GlobalSize)
      .Case("_Z14get_num_groupsj", WorkItemQuery::NumGroups)
      .Case("_Z17get_global_offsetj", WorkItemQuery::GlobalOffset)
      .Case("_Z12get_work_dimv", WorkItemQuery::WorkDim)
      .Case("_Z20get_global_linear_idv", WorkItemQuery::GlobalLinearId)
      .Case("_Z19get_local_linear_idv", WorkItemQuery::LocalLinearId)
      .Default(WorkItemQuery::None);
}

bool isBarrier(llvm::StringRef name) {
  return name == "_Z7barrierj" || name == "_Z18work_group_barrierj" || name == "_Z18work_group_barrierj12memory_scope" ||
         name.startswith("_Z22__spirv_ControlBarrier") || name == "__spirv_ControlBarrier";
}

}  // namespace loom::compiler::cpu
