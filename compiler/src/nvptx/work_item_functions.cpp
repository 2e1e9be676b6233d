#include "work_item_functions.h"

#include <cstddef>

#include "backends/cuda/cuda_launch_parameters.h"
#include "cpu/work_item_builtins.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

namespace loom::compiler::nvptx {

namespace {

using backends::cuda::ImplicitLaunchParameters;
using cpu::WorkItemQuery;
using Registers = llvm::Intrinsic::ID[3];

constexpr Registers kLocalId = {llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_tid_y,
                                llvm::Intrinsic::nvvm_read_ptx_sreg_tid_z};
constexpr Registers kGroupId = {llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
                                llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z};
constexpr Registers kNumGroups = {llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y,
                                  llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_z};

// The values of the work-item functions, as 64-bit integers, per dimension.
class WorkItemValues {
 public:
  WorkItemValues(llvm::IRBuilder<>& builder, llvm::Value* implicit) : builder_(builder), implicit_(implicit) {}

  llvm::Value* query(WorkItemQuery query, llvm::Value* dimension) {
    switch (query) {
      case WorkItemQuery::LocalId: return perDimension(dimension, 0, [&](unsigned d) { return localId(d); });
      case WorkItemQuery::GroupId: return perDimension(dimension, 0, [&](unsigned d) { return groupId(d); });
      case WorkItemQuery::NumGroups: return perDimension(dimension, 1, [&](unsigned d) { return special(kNumGroups, d); });
      case WorkItemQuery::EnqueuedLocalSize: return perDimension(dimension, 1, [&](unsigned d) { return enqueuedLocalSize(d); });
      case WorkItemQuery::LocalSize: return perDimension(dimension, 1, [&](unsigned d) { return localSize(d); });
      case WorkItemQuery::GlobalSize: return perDimension(dimension, 1, [&](unsigned d) { return globalSize(d); });
      case WorkItemQuery::GlobalOffset: return perDimension(dimension, 0, [&](unsigned d) { return globalOffset(d); });
      case WorkItemQuery::GlobalId: return perDimension(dimension, 0, [&](unsigned d) { return globalId(d); });
      case WorkItemQuery::WorkDim:
        return builder_.CreateZExt(implicitField(offsetof(ImplicitLaunchParameters, workDim), builder_.getInt16Ty()),
                                   builder_.getInt32Ty());
      case WorkItemQuery::LocalLinearId: return localLinearId();
      case WorkItemQuery::GlobalLinearId: return globalLinearId();
      case WorkItemQuery::None: break;
    }
    return nullptr;
  }

  llvm::Value* wholeGroups() {
    llvm::Value* flags = implicitField(offsetof(ImplicitLaunchParameters, flags), builder_.getInt16Ty());
    return builder_.CreateICmpNE(builder_.CreateAnd(flags, backends::cuda::kWholeGroups), builder_.getInt16(0));
  }

 private:
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
  llvm::Value* groupId(unsigned d) { return special(kGroupId, d); }
  llvm::Value* globalSize(unsigned d) {
    return implicitField(offsetof(ImplicitLaunchParameters, globalSize) + d * sizeof(uint64_t), builder_.getInt64Ty());
  }
  llvm::Value* globalOffset(unsigned d) {
    return implicitField(offsetof(ImplicitLaunchParameters, globalOffset) + d * sizeof(uint64_t), builder_.getInt64Ty());
  }
  llvm::Value* enqueuedLocalSize(unsigned d) {
    llvm::Value* size =
        implicitField(offsetof(ImplicitLaunchParameters, enqueuedLocalSize) + d * sizeof(uint32_t), builder_.getInt32Ty());
    return builder_.CreateZExt(size, builder_.getInt64Ty());
  }
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

llvm::Value* hasOnlyWholeGroups(llvm::IRBuilder<>& builder, llvm::Value* implicit) {
  return WorkItemValues(builder, implicit).wholeGroups();
}

bool lowerWorkItemFunctions(llvm::Function& entry, llvm::Value* implicit) {
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
    const WorkItemQuery query = cpu::workItemQuery(name);
    if (query == WorkItemQuery::None) continue;
    llvm::Value* dimension =
        call->arg_size() > 0 ? builder.CreateZExtOrTrunc(call->getArgOperand(0), builder.getInt32Ty()) : nullptr;
    WorkItemValues values(builder, implicit);
    call->replaceAllUsesWith(builder.CreateZExtOrTrunc(values.query(query, dimension), call->getType()));
    call->eraseFromParent();
  }
  return barriers;
}

}  // namespace loom::compiler::nvptx
