#include "work_item_builtins.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "pointer_spaces.h"

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
      .Case("_Z18get_sub_group_sizev", WorkItemQuery::SubGroupSize)
      .Case("_Z22get_max_sub_group_sizev", WorkItemQuery::MaxSubGroupSize)
      .Case("_Z18get_num_sub_groupsv", WorkItemQuery::NumSubGroups)
      .Case("_Z27get_enqueued_num_sub_groupsv", WorkItemQuery::EnqueuedNumSubGroups)
      .Case("_Z16get_sub_group_idv", WorkItemQuery::SubGroupId)
      .Case("_Z22get_sub_group_local_idv", WorkItemQuery::SubGroupLocalId)
      .Default(WorkItemQuery::None);
}

bool isBarrier(llvm::StringRef name) {
  return name == "_Z7barrierj" || name == "_Z18work_group_barrierj" || name == "_Z18work_group_barrierj12memory_scope" ||
         name.startswith("_Z22__spirv_ControlBarrier") || name == "__spirv_ControlBarrier";
}

SubGroupOperation subGroupOperation(llvm::StringRef name) {
  return llvm::StringSwitch<SubGroupOperation>(name)
      .Case("__loom_sub_group_shuffle", SubGroupOperation::Shuffle)
      .Case("__loom_sub_group_ballot", SubGroupOperation::Ballot)
      .Case("__loom_sub_group_active", SubGroupOperation::Active)
      .Cases("_Z17sub_group_barrierj", "_Z17sub_group_barrierj12memory_scope", SubGroupOperation::Barrier)
      .Default(SubGroupOperation::None);
}

bool fencesBeyondGroup(const llvm::CallInst& subGroupBarrier) {
  constexpr uint64_t kMemoryScopeDevice = 2, kMemoryScopeAllSvmDevices = 3;  // clang's __OPENCL_MEMORY_SCOPE_*
  if (subGroupBarrier.arg_size() < 2) return false;  // memory_scope_sub_group
  auto* scope = llvm::dyn_cast<llvm::ConstantInt>(subGroupBarrier.getArgOperand(1));
  return !scope || scope->getZExtValue() == kMemoryScopeDevice || scope->getZExtValue() == kMemoryScopeAllSvmDevices;
}

bool isGroupFunction(llvm::StringRef name) {
  if (!name.consume_front("_Z")) return false;
  name = name.drop_while([](char c) { return c >= '0' && c <= '9'; });  // the mangled name's length
  return name.startswith("work_group_") || name.startswith("async_work_group_") || name.startswith("wait_group_events");
}

llvm::DenseSet<const llvm::Function*> functionsUsingWorkItemState(const llvm::Module& module) {
  llvm::DenseSet<const llvm::Function*> using_;
  for (const llvm::Function& function : module)
    if (function.isDeclaration() && (isBarrier(function.getName()) || isGroupFunction(function.getName()) ||
                                     workItemQuery(function.getName()) != WorkItemQuery::None ||
                                     function.getName().contains("sub_group") || asksPointerSpace(function.getName())))
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
