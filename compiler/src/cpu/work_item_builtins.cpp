#include "work_item_builtins.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Instructions.h"

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

llvm::DenseSet<const llvm::Function*> functionsUsingWorkItemState(const llvm::Module& module) {
  llvm::DenseSet<const llvm::Function*> using_;
  for (const llvm::Function& function : module)
    if (function.isDeclaration() && (isBarrier(function.getName()) || workItemQuery(function.getName()) != WorkItemQuery::None))
      using_.insert(&function);
  // Callers of users are users: repeat until nothing changes (call graphs of kernels are small).
  for (bool grew = true; grew;) {
    grew = false;
    for (const llvm::Function& function : module) {
      if (using_.count(&function)) continue;
      for (const llvm::BasicBlock& block : function)
        for (const llvm::Instruction& instruction : block)
          if (auto* call = llvm::dyn_cast<llvm::CallBase>(&instruction))
            if (call->getCalledFunction() && using_.count(call->getCalledFunction()) && using_.insert(&function).second) grew = true;
    }
  }
  return using_;
}

}  // namespace loom::compiler::cpu
