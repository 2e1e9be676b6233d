#include "work_item_functions.h"

#include <cstddef>

#include "cpu/work_item_builtins.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/IRBuilder.h"
#include "loom/compiler/nvptx_launch_abi.h"

namespace loom::compiler::nvptx {

namespace {

using cpu::SubGroupOperation;
using cpu::WorkItemQuery;
using Registers = llvm::Intrinsic::ID[3];

constexpr Registers kLocalId = {llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_tid_y,
                                llvm::Intrinsic::nvvm_read_ptx_sreg_tid_z};
constexpr Registers kGroupId = {llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
                                llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z};
constexpr Registers kBlockSize = {llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_y,
                                  llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_z};

// The values of the work-item functions, as 64-bit integers, per dimension.
class WorkItemValues {
 public:
  // `atZeroOffset`: the entry serves only launches without a global offset (whole groups).
  WorkItemValues(llvm::IRBuilder<>& builder, llvm::Value* implicit, bool atZeroOffset = false)
      : builder_(builder), implicit_(implicit), atZeroOffset_(atZeroOffset) {}

  llvm::Value* query(WorkItemQuery query, llvm::Value* dimension) {
    switch (query) {
      case WorkItemQuery::LocalId: return perDimension(dimension, 0, [&](unsigned d) { return localId(d); });
      case WorkItemQuery::GroupId: return perDimension(dimension, 0, [&](unsigned d) { return groupId(d); });
      case WorkItemQuery::NumGroups: return perDimension(dimension, 1, [&](unsigned d) { return numGroups(d); });
      case WorkItemQuery::EnqueuedLocalSize: return perDimension(dimension, 1, [&](unsigned d) { return enqueuedLocalSize(d); });
      case WorkItemQuery::LocalSize: return perDimension(dimension, 1, [&](unsigned d) { return localSize(d); });
      case WorkItemQuery::GlobalSize: return perDimension(dimension, 1, [&](unsigned d) { return globalSize(d); });
      case WorkItemQuery::GlobalOffset: return perDimension(dimension, 0, [&](unsigned d) { return globalOffset(d); });
      case WorkItemQuery::GlobalId: return perDimension(dimension, 0, [&](unsigned d) { return globalId(d); });
      case WorkItemQuery::WorkDim: return implicitField(offsetof(ImplicitLaunchParameters, workDim), builder_.getInt32Ty());
      case WorkItemQuery::LocalLinearId: return localLinearId();
      case WorkItemQuery::GlobalLinearId: return globalLinearId();
      case WorkItemQuery::SubGroupSize: return numbered(subGroupSize(), builder_.getInt64(1));
      case WorkItemQuery::MaxSubGroupSize: return builder_.CreateBinaryIntrinsic(llvm::Intrinsic::umin, warp(), enqueuedLinearSize());
      case WorkItemQuery::NumSubGroups: return numbered(warpsFor(linearSize()), linearSize());
      case WorkItemQuery::EnqueuedNumSubGroups: return warpsFor(enqueuedLinearSize());
      case WorkItemQuery::SubGroupId: return numbered(builder_.CreateLShr(localLinearId(), 5), localLinearId());
      case WorkItemQuery::SubGroupLocalId: return numbered(builder_.CreateAnd(localLinearId(), 31), builder_.getInt64(0));
      case WorkItemQuery::None: break;
    }
    return nullptr;
  }

  // The lanes of this work-item's sub-group, as a shfl/vote member mask.
  llvm::Value* subGroupMask() {
    llvm::Value* size = builder_.CreateTrunc(subGroupSize(), builder_.getInt32Ty());
    llvm::Value* lowLanes = builder_.CreateLShr(builder_.getInt32(~0u), builder_.CreateSub(builder_.getInt32(32), size));
    return builder_.CreateSelect(threadsNumberedAsWorkItems(), lowLanes, builder_.CreateShl(builder_.getInt32(1), laneId()));
  }

  // The lane of the work-item whose sub-group local id is `index` (i32).
  llvm::Value* laneOf(llvm::Value* index) { return builder_.CreateAdd(firstLane(), index); }
  // Members of the sub-group (bits by sub-group local id) as lanes, and back.
  llvm::Value* lanesOf(llvm::Value* members) { return builder_.CreateShl(members, firstLane()); }
  llvm::Value* membersOf(llvm::Value* lanes) { return builder_.CreateLShr(lanes, firstLane()); }

  // The lanes of the sub-group that run this instruction together (activemask.b32, which LLVM 15
  // has no intrinsic for). Not merged with another: the same call on both sides of a branch
  // (sub_group_broadcast_first in `if` and `else`) hoisted before the branch would see the lanes
  // of both sides.
  llvm::Value* activeLanes() {
    auto* type = llvm::FunctionType::get(builder_.getInt32Ty(), false);
    llvm::CallInst* active = builder_.CreateCall(llvm::InlineAsm::get(type, "activemask.b32 $0;", "=r", true));
    active->addFnAttr(llvm::Attribute::Convergent);
    active->addFnAttr(llvm::Attribute::NoMerge);
    return builder_.CreateAnd(active, subGroupMask());
  }

 private:
  // Sub-groups are the warps, along the local linear id, when the block's threads are numbered as
  // the group's work-items: always but in the last group of a non-uniform range whose x (or y)
  // size is short while the block keeps the enqueued shape, so that threads of one warp sit in
  // different rows. There each work-item is a sub-group of its own (`otherwise`).
  llvm::Value* numbered(llvm::Value* warps, llvm::Value* otherwise) {
    return builder_.CreateSelect(threadsNumberedAsWorkItems(), warps, otherwise);
  }
  llvm::Value* threadsNumberedAsWorkItems() {
    auto same = [&](unsigned d) { return builder_.CreateICmpEQ(localSize(d), enqueuedLocalSize(d)); };
    auto single = [&](llvm::Value* size) { return builder_.CreateICmpEQ(size, builder_.getInt64(1)); };
    llvm::Value* rows = builder_.CreateOr(same(0), single(builder_.CreateMul(localSize(1), localSize(2))));
    llvm::Value* planes = builder_.CreateOr(same(1), single(localSize(2)));
    return builder_.CreateAnd(rows, planes);
  }
  llvm::Value* warp() { return builder_.getInt64(32); }
  llvm::Value* warpsFor(llvm::Value* workItems) { return builder_.CreateLShr(builder_.CreateAdd(workItems, builder_.getInt64(31)), 5); }
  // The last warp of a group whose size is not a multiple of 32 is partial.
  llvm::Value* subGroupSize() {
    llvm::Value* left = builder_.CreateSub(linearSize(), builder_.CreateAnd(localLinearId(), ~uint64_t(31)));
    return builder_.CreateBinaryIntrinsic(llvm::Intrinsic::umin, warp(), left);
  }
  llvm::Value* laneId() { return builder_.CreateIntrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_laneid, {}, {}); }
  // The lane of sub-group local id 0.
  llvm::Value* firstLane() {
    return builder_.CreateSub(laneId(), builder_.CreateTrunc(query(WorkItemQuery::SubGroupLocalId, nullptr), builder_.getInt32Ty()));
  }
  llvm::Value* linearSize() { return builder_.CreateMul(builder_.CreateMul(localSize(0), localSize(1)), localSize(2)); }
  llvm::Value* enqueuedLinearSize() {
    return builder_.CreateMul(builder_.CreateMul(enqueuedLocalSize(0), enqueuedLocalSize(1)), enqueuedLocalSize(2));
  }

  // OpenCL's answer for a dimension past 2 is `outOfRange`; the dimension need not be constant.
  llvm::Value* perDimension(llvm::Value* dimension, uint64_t outOfRange, llvm::function_ref<llvm::Value*(unsigned)> value) {
    if (auto* constant = llvm::dyn_cast<llvm::ConstantInt>(dimension)) {
      const uint64_t d = constant->getZExtValue();
      return d < 3 ? value(static_cast<unsigned>(d)) : builder_.getInt64(outOfRange);
    }
    llvm::Value* result = builder_.getInt64(outOfRange);
    for (unsigned d = 3; d-- > 0;)
      result = builder_.CreateSelect(builder_.CreateICmpEQ(dimension, builder_.getInt32(d)), value(d), result);
    return result;
  }

  llvm::Value* special(const Registers& registers, unsigned d) {
    return builder_.CreateZExt(builder_.CreateIntrinsic(registers[d], {}, {}), builder_.getInt64Ty());
  }

  llvm::Value* implicitField(size_t offset, llvm::Type* type) {
    llvm::Value* bytes = builder_.CreateBitCast(implicit_, builder_.getInt8PtrTy());
    llvm::Value* address = builder_.CreateBitCast(builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), bytes, offset),
                                                  type->getPointerTo());
    return builder_.CreateAlignedLoad(type, address, llvm::Align(type->getPrimitiveSizeInBits() / 8));
  }

  llvm::Value* localId(unsigned d) { return special(kLocalId, d); }
  // A part of a split launch runs its groups from a base on: the ids are those of the whole
  // launch. The base is 0 for a launch that is no part, whose ids are the block's own.
  llvm::Value* groupId(unsigned d) {
    llvm::Value* block = builder_.CreateIntrinsic(kGroupId[d], {}, {});
    llvm::Value* base = implicitField(offsetof(ImplicitLaunchParameters, groupIdBase) + d * sizeof(uint32_t), builder_.getInt32Ty());
    return builder_.CreateZExt(builder_.CreateNUWAdd(block, base), builder_.getInt64Ty());
  }
  // The whole launch's groups, not the part's grid (%nctaid).
  llvm::Value* numGroups(unsigned d) {
    llvm::Value* total = implicitField(offsetof(ImplicitLaunchParameters, numGroups) + d * sizeof(uint32_t), builder_.getInt32Ty());
    return builder_.CreateZExt(total, builder_.getInt64Ty());
  }
  llvm::Value* globalSize(unsigned d) {
    return implicitField(offsetof(ImplicitLaunchParameters, globalSize) + d * sizeof(uint64_t), builder_.getInt64Ty());
  }
  llvm::Value* globalOffset(unsigned d) {
    if (atZeroOffset_) return builder_.getInt64(0);
    return implicitField(offsetof(ImplicitLaunchParameters, globalOffset) + d * sizeof(uint64_t), builder_.getInt64Ty());
  }
  // Every block has the enqueued shape; the last group of a non-uniform range leaves threads idle.
  llvm::Value* enqueuedLocalSize(unsigned d) { return special(kBlockSize, d); }
  // The last group of a non-uniform range is smaller than the enqueued size.
  llvm::Value* localSize(unsigned d) {
    llvm::Value* enqueued = enqueuedLocalSize(d);
    llvm::Value* left = builder_.CreateSub(globalSize(d), builder_.CreateMul(groupId(d), enqueued));
    return builder_.CreateBinaryIntrinsic(llvm::Intrinsic::umin, enqueued, left);
  }
  llvm::Value* globalId(unsigned d) {
    llvm::Value* groupStart = builder_.CreateMul(groupId(d), enqueuedLocalSize(d));
    return builder_.CreateAdd(builder_.CreateAdd(groupStart, localId(d)), globalOffset(d));
  }
  llvm::Value* localLinearId() {
    llvm::Value* plane = builder_.CreateAdd(builder_.CreateMul(localId(2), localSize(1)), localId(1));
    return builder_.CreateAdd(builder_.CreateMul(plane, localSize(0)), localId(0));
  }
  llvm::Value* globalLinearId() {
    auto relative = [&](unsigned d) { return builder_.CreateSub(globalId(d), globalOffset(d)); };
    llvm::Value* plane = builder_.CreateAdd(builder_.CreateMul(relative(2), globalSize(1)), relative(1));
    return builder_.CreateAdd(builder_.CreateMul(plane, globalSize(0)), relative(0));
  }

  llvm::IRBuilder<>& builder_;
  llvm::Value* implicit_;
  const bool atZeroOffset_;
};

}  // namespace

llvm::Value* isWorkItem(llvm::IRBuilder<>& builder, llvm::Value* implicit) {
  WorkItemValues values(builder, implicit);
  llvm::Value* inside = builder.getTrue();
  for (unsigned d = 0; d < 3; ++d) {
    llvm::Value* dimension = builder.getInt32(d);
    llvm::Value* position =
        builder.CreateSub(values.query(WorkItemQuery::GlobalId, dimension), values.query(WorkItemQuery::GlobalOffset, dimension));
    inside = builder.CreateAnd(inside, builder.CreateICmpULT(position, values.query(WorkItemQuery::GlobalSize, dimension)));
  }
  return inside;
}

namespace {

// Shuffles and ballots among the lanes of the members they name, the active lanes, and
// sub_group_barrier, which waits for the sub-group's lanes and so also orders their memory
// accesses (bar.warp.sync), fencing wider scopes first.
void lowerSubGroupOperation(llvm::CallInst* call, SubGroupOperation operation, llvm::Value* implicit) {
  llvm::IRBuilder<> builder(call);
  WorkItemValues values(builder, implicit);
  if (operation == SubGroupOperation::Barrier) {
    if (cpu::fencesBeyondGroup(*call)) builder.CreateFence(llvm::AtomicOrdering::SequentiallyConsistent);
    builder.CreateIntrinsic(llvm::Intrinsic::nvvm_bar_warp_sync, {}, {values.subGroupMask()});
  } else if (operation == SubGroupOperation::Shuffle) {
    llvm::Value* lanes = values.lanesOf(call->getArgOperand(2));
    llvm::Value* lane = values.laneOf(call->getArgOperand(1));
    call->replaceAllUsesWith(builder.CreateIntrinsic(llvm::Intrinsic::nvvm_shfl_sync_idx_i32, {},
                                                     {lanes, call->getArgOperand(0), lane, builder.getInt32(31)}));
  } else if (operation == SubGroupOperation::Ballot) {
    llvm::Value* lanes = values.lanesOf(call->getArgOperand(1));
    llvm::Value* predicate = builder.CreateICmpNE(call->getArgOperand(0), builder.getInt32(0));
    call->replaceAllUsesWith(values.membersOf(builder.CreateIntrinsic(llvm::Intrinsic::nvvm_vote_ballot_sync, {}, {lanes, predicate})));
  } else {
    call->replaceAllUsesWith(values.membersOf(values.activeLanes()));
  }
  call->eraseFromParent();
}

}  // namespace

bool lowerWorkItemFunctions(llvm::Function& entry, llvm::Value* implicit, bool wholeGroups) {
  std::vector<llvm::CallInst*> calls;
  for (llvm::Instruction& instruction : llvm::instructions(entry))
    if (auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction); call && call->getCalledFunction()) calls.push_back(call);
  bool barriers = false;
  for (llvm::CallInst* call : calls) {
    const llvm::StringRef name = call->getCalledFunction()->getName();
    llvm::IRBuilder<> builder(call);
    if (cpu::isBarrier(name)) {
      // bar.sync also orders the group's memory accesses, local and global, as barrier() must.
      builder.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {});
      call->eraseFromParent();
      barriers = true;
      continue;
    }
    if (const SubGroupOperation operation = cpu::subGroupOperation(name); operation != SubGroupOperation::None) {
      lowerSubGroupOperation(call, operation, implicit);
      continue;
    }
    const WorkItemQuery query = cpu::workItemQuery(name);
    if (query == WorkItemQuery::None) continue;
    llvm::Value* dimension =
        call->arg_size() > 0 ? builder.CreateZExtOrTrunc(call->getArgOperand(0), builder.getInt32Ty()) : nullptr;
    WorkItemValues values(builder, implicit, wholeGroups);
    call->replaceAllUsesWith(builder.CreateZExtOrTrunc(values.query(query, dimension), call->getType()));
    call->eraseFromParent();
  }
  return barriers;
}

}  // namespace loom::compiler::nvptx
