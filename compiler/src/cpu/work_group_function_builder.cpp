#include "work_group_function_builder.h"

#include <algorithm>

#include "barrier_kernel_simplification.h"
#include "context_access.h"
#include "cpu_code_generator.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/Scalarizer.h"
#include "group_size_specialization.h"
#include "local_atomics_lowering.h"
#include "local_memory_lowering.h"
#include "module_passes.h"
#include "parallel_region_loops.h"
#include "pointer_spaces.h"
#include "uniform_loop_barriers.h"
#include "work_item_builtins.h"
#include "work_item_interleaving.h"
#include "work_item_loops.h"

namespace loom::compiler::cpu {

namespace {

llvm::Function* declareWorkGroupFunction(llvm::Module& module, const std::string& kernelName) {
  llvm::LLVMContext& context = module.getContext();
  llvm::Type* bytePointer = llvm::Type::getInt8PtrTy(context);
  auto* type = llvm::FunctionType::get(llvm::Type::getVoidTy(context), {bytePointer, bytePointer}, false);
  auto* function = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, workGroupFunctionName(kernelName), module);
  function->addFnAttr(llvm::Attribute::NoUnwind);
  function->addFnAttr(kWorkGroupFunctionAttribute);
  // The argument buffer and the context are only read, and kernel stores never reach them: with
  // this the optimizer hoists their loads out of the work-item loops, and can vectorize those.
  for (unsigned parameter : {kArgumentBuffer, kContext}) {
    function->addParamAttr(parameter, llvm::Attribute::NoAlias);
    function->addParamAttr(parameter, llvm::Attribute::NoCapture);
    function->addParamAttr(parameter, llvm::Attribute::ReadOnly);
  }
  return function;
}

// The kernel's parameters, read from the argument buffer the runtime filled.
std::vector<llvm::Value*> loadArguments(llvm::IRBuilder<>& builder, llvm::Function& kernel, const KernelDescriptor& descriptor,
                                        llvm::Value* buffer, llvm::Value* localMemory) {
  std::vector<llvm::Value*> values;
  for (llvm::Argument& parameter : kernel.args()) {
    const KernelArgument& argument = descriptor.arguments[parameter.getArgNo()];
    llvm::Value* slot = builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), buffer, argument.offset);
    llvm::Type* type = parameter.getType();
    if (argument.kind == ArgumentKind::LocalPointer) {
      llvm::Value* offset = builder.CreateLoad(builder.getInt64Ty(), builder.CreateBitCast(slot, builder.getInt64Ty()->getPointerTo()));
      llvm::Value* address = builder.CreateInBoundsGEP(builder.getInt8Ty(), localMemory, offset);
      values.push_back(builder.CreatePointerBitCastOrAddrSpaceCast(address, type));
    } else if (parameter.hasByValAttr()) {
      // The call keeps its byval attribute, so the inliner gives each work-item its own copy.
      values.push_back(builder.CreatePointerBitCastOrAddrSpaceCast(slot, type));
    } else {
      values.push_back(builder.CreateAlignedLoad(type, builder.CreateBitCast(slot, type->getPointerTo()), llvm::Align(1)));
    }
  }
  return values;
}

std::vector<llvm::CallInst*> callsIn(llvm::Function& function) {
  std::vector<llvm::CallInst*> calls;
  for (llvm::BasicBlock& block : function)
    for (llvm::Instruction& instruction : block)
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction)) calls.push_back(call);
  return calls;
}

bool hasBarrier(llvm::Function& function) {
  for (llvm::CallInst* call : callsIn(function))
    if (call->getCalledFunction() && isBarrier(call->getCalledFunction()->getName())) return true;
  return false;
}

bool isConstantOtherThanX(llvm::Value* dimension) {
  auto* constant = llvm::dyn_cast<llvm::ConstantInt>(dimension);
  return constant && !constant->isZero();
}

// Whether the kernel can tell the groups of a run along x apart (other than by global id): then
// each group of the run gets its own pass over its work-items.
bool tellsGroupsApartAlongX(llvm::Function& function) {
  for (llvm::CallInst* call : callsIn(function)) {
    llvm::Function* callee = call->getCalledFunction();
    if (!callee) continue;
    if (isGroupFunction(callee->getName())) return true;
    switch (workItemQuery(callee->getName())) {
      case WorkItemQuery::LocalId:
      case WorkItemQuery::GroupId:
        if (!isConstantOtherThanX(call->getArgOperand(0))) return true;
        break;
      case WorkItemQuery::LocalLinearId:
      case WorkItemQuery::SubGroupId: return true;
      default: break;
    }
  }
  return false;
}

// The work-item functions become reads of the context and of the loops' local ids.
class WorkItemQueries {
 public:
  // `ids` where `idsByBlock` has no entry for the query's block; `groupInRun` (i32) is the group's
  // place in the call's run of groups along x, or null where the x ids run across the run.
  WorkItemQueries(llvm::Value* context, const LocalIds& ids, const llvm::DenseMap<llvm::BasicBlock*, LocalIds>& idsByBlock,
                  llvm::Value* groupInRun)
      : context_(context), defaultIds_(ids), idsByBlock_(idsByBlock), groupInRun_(groupInRun) {}

  llvm::Value* lower(llvm::IRBuilder<>& builder, WorkItemQuery query, llvm::Value* dimension) {
    auto found = idsByBlock_.find(builder.GetInsertBlock());
    ids_ = found == idsByBlock_.end() ? defaultIds_ : found->second;
    llvm::Type* i64 = builder.getInt64Ty();
    switch (query) {
      case WorkItemQuery::LocalId: return builder.CreateZExt(localId(builder, dimension), i64);
      case WorkItemQuery::GroupId: return groupId(builder, dimension);
      case WorkItemQuery::LocalSize: return widen(builder, LOOM_CONTEXT_FIELD(localSize), dimension, 1);
      case WorkItemQuery::EnqueuedLocalSize: return widen(builder, LOOM_CONTEXT_FIELD(enqueuedLocalSize), dimension, 1);
      case WorkItemQuery::NumGroups: return widen(builder, LOOM_CONTEXT_FIELD(numGroups), dimension, 1);
      case WorkItemQuery::GlobalSize:
        return loadContextElement(builder, context_, LOOM_CONTEXT_FIELD(globalSize), i64, dimension, 1);
      case WorkItemQuery::GlobalOffset:
        return loadContextElement(builder, context_, LOOM_CONTEXT_FIELD(globalOffset), i64, dimension, 0);
      case WorkItemQuery::GlobalId: return globalId(builder, dimension);
      case WorkItemQuery::WorkDim: return loadContextField(builder, context_, LOOM_CONTEXT_FIELD(workDim), builder.getInt32Ty());
      case WorkItemQuery::LocalLinearId: return localLinearId(builder);
      case WorkItemQuery::GlobalLinearId: return globalLinearId(builder);
      // A sub-group is one work-item: the work-item loops stay as they are.
      case WorkItemQuery::SubGroupSize:
      case WorkItemQuery::MaxSubGroupSize: return builder.getInt64(1);
      case WorkItemQuery::SubGroupLocalId: return builder.getInt64(0);
      case WorkItemQuery::SubGroupId: return localLinearId(builder);
      case WorkItemQuery::NumSubGroups: return linearSize(builder, LOOM_CONTEXT_FIELD(localSize));
      case WorkItemQuery::EnqueuedNumSubGroups: return linearSize(builder, LOOM_CONTEXT_FIELD(enqueuedLocalSize));
      case WorkItemQuery::None: break;
    }
    return nullptr;
  }

 private:
  llvm::Value* widen(llvm::IRBuilder<>& builder, size_t offset, llvm::Value* dimension, uint64_t outOfRange) {
    return builder.CreateZExt(loadContextElement(builder, context_, offset, builder.getInt32Ty(), dimension, outOfRange),
                              builder.getInt64Ty());
  }

  llvm::Value* linearSize(llvm::IRBuilder<>& builder, size_t sizes) {
    llvm::Value* size = builder.getInt64(1);
    for (unsigned d = 0; d < 3; ++d) size = builder.CreateMul(size, widen(builder, sizes, builder.getInt32(d), 1));
    return size;
  }

  llvm::Value* localId(llvm::IRBuilder<>& builder, llvm::Value* dimension) {
    llvm::Value* id = builder.CreateSelect(builder.CreateICmpEQ(dimension, builder.getInt32(1)), ids_.y, ids_.z);
    id = builder.CreateSelect(builder.CreateICmpEQ(dimension, builder.getInt32(0)), ids_.x, id);
    return builder.CreateSelect(builder.CreateICmpULT(dimension, builder.getInt32(3)), id, builder.getInt32(0));
  }

  // The run's first group id, plus the group's place in the run along x.
  llvm::Value* groupId(llvm::IRBuilder<>& builder, llvm::Value* dimension) {
    llvm::Value* first = widen(builder, LOOM_CONTEXT_FIELD(groupId), dimension, 0);
    if (!groupInRun_) return first;
    llvm::Value* step = builder.CreateSelect(builder.CreateICmpEQ(dimension, builder.getInt32(0)), groupInRun_, builder.getInt32(0));
    return builder.CreateAdd(first, builder.CreateZExt(step, builder.getInt64Ty()));
  }

  llvm::Value* globalId(llvm::IRBuilder<>& builder, llvm::Value* dimension) {
    llvm::Value* group = groupId(builder, dimension);
    llvm::Value* size = widen(builder, LOOM_CONTEXT_FIELD(enqueuedLocalSize), dimension, 0);
    llvm::Value* offset = loadContextElement(builder, context_, LOOM_CONTEXT_FIELD(globalOffset), builder.getInt64Ty(), dimension, 0);
    llvm::Value* local = builder.CreateZExt(localId(builder, dimension), builder.getInt64Ty());
    return builder.CreateAdd(builder.CreateAdd(builder.CreateMul(group, size), local), offset);
  }

  llvm::Value* localLinearId(llvm::IRBuilder<>& builder) {
    llvm::Value* sizeX = widen(builder, LOOM_CONTEXT_FIELD(localSize), builder.getInt32(0), 1);
    llvm::Value* sizeY = widen(builder, LOOM_CONTEXT_FIELD(localSize), builder.getInt32(1), 1);
    auto id = [&](llvm::Value* v) { return builder.CreateZExt(v, builder.getInt64Ty()); };
    return builder.CreateAdd(builder.CreateMul(builder.CreateAdd(builder.CreateMul(id(ids_.z), sizeY), id(ids_.y)), sizeX),
                             id(ids_.x));
  }

  llvm::Value* globalLinearId(llvm::IRBuilder<>& builder) {
    auto relative = [&](unsigned d) {
      llvm::Value* offset = loadContextElement(builder, context_, LOOM_CONTEXT_FIELD(globalOffset), builder.getInt64Ty(),
                                               builder.getInt32(d), 0);
      return builder.CreateSub(globalId(builder, builder.getInt32(d)), offset);
    };
    auto size = [&](unsigned d) {
      return loadContextElement(builder, context_, LOOM_CONTEXT_FIELD(globalSize), builder.getInt64Ty(), builder.getInt32(d), 1);
    };
    return builder.CreateAdd(builder.CreateMul(builder.CreateAdd(builder.CreateMul(relative(2), size(1)), relative(1)), size(0)),
                             relative(0));
  }

  llvm::Value* context_;
  LocalIds defaultIds_;
  const llvm::DenseMap<llvm::BasicBlock*, LocalIds>& idsByBlock_;
  llvm::Value* groupInRun_;
  LocalIds ids_;
};

void lowerWorkItemQueries(llvm::Function& function, WorkItemQueries& queries) {
  for (llvm::CallInst* call : callsIn(function)) {
    llvm::Function* callee = call->getCalledFunction();
    if (!callee) continue;
    const WorkItemQuery query = workItemQuery(callee->getName());
    if (query == WorkItemQuery::None) continue;
    llvm::IRBuilder<> builder(call);
    llvm::Value* dimension = call->arg_size() > 0 ? builder.CreateZExtOrTrunc(call->getArgOperand(0), builder.getInt32Ty()) : nullptr;
    llvm::Value* value = queries.lower(builder, query, dimension);
    call->replaceAllUsesWith(builder.CreateZExtOrTrunc(value, call->getType()));
    call->eraseFromParent();
  }
}

// The sub-group primitives for sub-groups of one work-item, always active: a shuffle returns the
// value itself, a ballot bit 0 where the predicate holds, and sub_group_barrier orders memory only
// where its scope reaches past the group (program order on the group's one thread does the rest).
void lowerSubGroupOperations(llvm::Function& function) {
  for (llvm::CallInst* call : callsIn(function)) {
    llvm::Function* callee = call->getCalledFunction();
    const SubGroupOperation operation = callee ? subGroupOperation(callee->getName()) : SubGroupOperation::None;
    if (operation == SubGroupOperation::None) continue;
    llvm::IRBuilder<> builder(call);
    if (operation == SubGroupOperation::Shuffle) {
      call->replaceAllUsesWith(call->getArgOperand(0));
    } else if (operation == SubGroupOperation::Barrier) {
      if (fencesBeyondGroup(*call)) builder.CreateFence(llvm::AtomicOrdering::SequentiallyConsistent);
    } else if (operation == SubGroupOperation::Active) {
      call->replaceAllUsesWith(llvm::ConstantInt::get(call->getType(), 1));
    } else {
      llvm::Value* predicate = call->getArgOperand(0);
      llvm::Value* holds = builder.CreateICmpNE(predicate, llvm::Constant::getNullValue(predicate->getType()));
      call->replaceAllUsesWith(builder.CreateZExt(holds, call->getType()));
    }
    call->eraseFromParent();
  }
}

// Everything the kernel calls is inlined into the work-group function (OpenCL has no recursion),
// so barriers and work-item queries all end up in one function.
void inlineEverything(llvm::Module& module) {
  for (llvm::Function& function : module)
    if (!function.isDeclaration() && !isWorkGroupFunction(function)) {
      function.removeFnAttr(llvm::Attribute::NoInline);
      function.removeFnAttr(llvm::Attribute::OptimizeNone);
      function.addFnAttr(llvm::Attribute::AlwaysInline);
    }
  // Then private variables become SSA values: unoptimized input (OpenCL C from Loom's own
  // frontend is compiled at -O0) would otherwise keep every variable in memory, and a kernel with
  // barriers would carry all of them in its per-work-item frames. SROA changes no control flow,
  // so barriers stay where the source put them.
  runModulePipeline(module, nullptr, [](llvm::PassBuilder&) {
    llvm::ModulePassManager manager;
    manager.addPass(llvm::AlwaysInlinerPass(false));
    llvm::FunctionPassManager cleanup;
    cleanup.addPass(llvm::SROAPass());
    manager.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(cleanup)));
    return manager;
  });
}

// The widest vector a kernel computes in (without barriers) decides whether its work-item loop is
// better widened across work-items: the vectorizer leaves loops with vector types alone, and
// vectors narrower than a register (float2) leave most of it empty. Scalarized, each vector load
// and store across work-items becomes an interleaved one, whose shuffles cost more the wider the
// vector: kernels of register-wide vectors (float4, float8) are scalarized only where their
// arithmetic outweighs their memory accesses (an AXPY of float4 runs a third slower scalarized).
// Kept whole, a work-item's chain of dependent operations waits on each one's latency: ze_peak's
// float8 and int8 chains ran at a third of float4's and int4's. Wider vectors (float16) keep them.
constexpr unsigned kArithmeticPerAccessToScalarize = 4;

// The vector a memory access or an arithmetic operation of the kernel works on; null for other
// instructions and for reads of the SPIR-V builtin variables (the work-item ids, <3 x i64>).
const llvm::FixedVectorType* computedVector(const llvm::Instruction& instruction) {
  if (auto* store = llvm::dyn_cast<llvm::StoreInst>(&instruction))
    return llvm::dyn_cast<llvm::FixedVectorType>(store->getValueOperand()->getType());
  if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&instruction)) {
    if (llvm::isa<llvm::GlobalVariable>(load->getPointerOperand()->stripPointerCasts())) return nullptr;
    return llvm::dyn_cast<llvm::FixedVectorType>(load->getType());
  }
  if (llvm::isa<llvm::BinaryOperator>(instruction) || llvm::isa<llvm::IntrinsicInst>(instruction))
    return llvm::dyn_cast<llvm::FixedVectorType>(instruction.getType());
  return nullptr;
}

unsigned widestComputedVector(const llvm::Function& function) {
  unsigned widest = 0;
  for (const llvm::Instruction& instruction : llvm::instructions(function))
    if (const llvm::FixedVectorType* vector = computedVector(instruction))
      widest = std::max(widest, static_cast<unsigned>(vector->getPrimitiveSizeInBits().getFixedSize()));
  return widest;
}

bool betterScalarized(const llvm::Function& function) {
  const unsigned widest = widestComputedVector(function);
  if (widest == 0 || widest > kPreferredVectorBits) return false;
  unsigned arithmetic = 0, accesses = 0;
  for (const llvm::Instruction& instruction : llvm::instructions(function)) {
    if (!computedVector(instruction)) continue;
    if (llvm::isa<llvm::LoadInst>(instruction) || llvm::isa<llvm::StoreInst>(instruction)) ++accesses;
    else ++arithmetic;
  }
  return widest < kRegisterVectorBits || arithmetic >= kArithmeticPerAccessToScalarize * accesses;
}

// Kernels run as barrier regions are scalarized, so that the vectorizer widens their region loops
// across work-items, except those that compute in vectors wider than a preferred one (float16):
// scalarized, every component of such a vector takes a register of its own across work-items, and
// two float16 values (clpeak's mad chains) need twice AVX2's sixteen registers. Kept whole, each is
// two registers per work-item, and LLVM's unroller runs several work-items per iteration.
bool keepsVectorsInRegions(const llvm::Function& function) { return widestComputedVector(function) > kPreferredVectorBits; }

// Vector operations of kernels run as barrier regions become scalar ones, which the vectorizer
// can widen across the work-items of the region loops (it leaves loops with vector types alone).
void scalarize(llvm::Module& module, const std::vector<llvm::Function*>& functions) {
  if (functions.empty()) return;
  runModulePipeline(module, nullptr, [&](llvm::PassBuilder&) {
    llvm::ScalarizerPass scalarizer;
    scalarizer.setScalarizeLoadStore(true);
    llvm::ModulePassManager manager;
    manager.addPass(llvm::createModuleToFunctionPassAdaptor(OnlyFunctions<llvm::ScalarizerPass>(functions, scalarizer)));
    return manager;
  });
}

// Bytes of one work-item's private variables: after inlining, all are allocas of the entry block.
uint32_t privateVariableBytes(llvm::Function& function) {
  const llvm::DataLayout& layout = function.getParent()->getDataLayout();
  uint64_t bytes = 0;
  for (llvm::Instruction& instruction : function.getEntryBlock()) {
    auto* alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction);
    if (!alloca) continue;
    if (auto bits = alloca->getAllocationSizeInBits(layout))
      bytes = llvm::alignTo(bytes, alloca->getAlign().value()) + bits->getFixedSize() / 8;
  }
  return static_cast<uint32_t>(bytes);
}

llvm::Value* loadLocalMemory(llvm::IRBuilder<>& builder, llvm::Value* context) {
  return loadContextField(builder, context, LOOM_CONTEXT_FIELD(localMemory), builder.getInt8PtrTy());
}

WorkGroupBody createWrapper(llvm::Module& module, llvm::Function& kernel, const KernelDescriptor& descriptor) {
  llvm::LLVMContext& context = module.getContext();
  llvm::Function* function = declareWorkGroupFunction(module, descriptor.name);
  auto* entry = llvm::BasicBlock::Create(context, "entry", function);
  auto* body = llvm::BasicBlock::Create(context, "workitem", function);
  auto* tail = llvm::BasicBlock::Create(context, "workitem.done", function);
  llvm::IRBuilder<> builder(entry);
  llvm::Value* contextArgument = function->getArg(kContext);
  llvm::Value* localMemory = loadLocalMemory(builder, contextArgument);
  std::vector<llvm::Value*> arguments = loadArguments(builder, kernel, descriptor, function->getArg(kArgumentBuffer), localMemory);
  builder.CreateBr(body);
  builder.SetInsertPoint(body);
  llvm::CallInst* call = builder.CreateCall(&kernel, arguments);
  call->setCallingConv(kernel.getCallingConv());
  call->setAttributes(kernel.getAttributes());
  builder.CreateBr(tail);
  builder.SetInsertPoint(tail);
  builder.CreateRetVoid();
  return {function, entry, body, tail, contextArgument};
}

}  // namespace

std::string workGroupFunctionName(const std::string& kernelName) { return "__loom_wg_" + kernelName; }

bool isWorkGroupFunction(const llvm::Function& function) { return function.hasFnAttribute(kWorkGroupFunctionAttribute); }

llvm::Error buildWorkGroupFunctions(llvm::Module& module, std::vector<KernelDescriptor>& kernels, bool uniformGroups) {
  std::vector<WorkGroupBody> wrappers;
  for (const KernelDescriptor& descriptor : kernels) {
    llvm::Function* kernel = module.getFunction(descriptor.name);
    if (!kernel) return llvm::createStringError(llvm::inconvertibleErrorCode(), "kernel '%s' vanished", descriptor.name.c_str());
    wrappers.push_back(createWrapper(module, *kernel, descriptor));
  }
  inlineEverything(module);
  std::vector<llvm::Function*> regionKernels, barrierKernels;
  for (size_t i = 0; i < wrappers.size(); ++i) {
    const WorkGroupBody& body = wrappers[i];
    kernels[i].hasBarriers = hasBarrier(*body.function);
    kernels[i].privateMemorySize = privateVariableBytes(*body.function);
    if (kernels[i].hasBarriers) barrierKernels.push_back(body.function);
  }
  simplifyBarrierKernels(module, barrierKernels);
  for (const WorkGroupBody& body : wrappers) {
    if (llvm::is_contained(barrierKernels, body.function) || insertUniformLoopBarriers(*body.function, *body.entry))
      regionKernels.push_back(body.function);
  }
  std::vector<llvm::Function*> scalarized;
  for (llvm::Function* function : regionKernels)
    if (!keepsVectorsInRegions(*function)) scalarized.push_back(function);
  for (const WorkGroupBody& body : wrappers)
    if (!llvm::is_contained(regionKernels, body.function) && betterScalarized(*body.function)) scalarized.push_back(body.function);
  scalarize(module, scalarized);
  for (size_t i = 0; i < wrappers.size(); ++i) {
    const WorkGroupBody& body = wrappers[i];
    KernelDescriptor& descriptor = kernels[i];
    LocalIds ids;
    BarrierRegions regions;
    llvm::Value* groupInRun = nullptr;
    if (llvm::is_contained(regionKernels, body.function)) {
      regions = buildBarrierRegions(body);
      descriptor.barrierFrameSize = regions.frameSize;
      groupInRun = addGroupRunLoop(body);
    } else {
      // Most kernels without barriers see only global ids: their x loop runs across the whole run
      // of groups, which a memory-bound kernel of small groups needs (no per-group set-up).
      const bool acrossGroupRun = !tellsGroupsApartAlongX(*body.function);
      ids = buildWorkItemLoops(body, acrossGroupRun);
      if (!acrossGroupRun) groupInRun = addGroupRunLoop(body);
    }
    WorkItemQueries queries(body.context, ids, regions.ids, groupInRun);
    lowerWorkItemQueries(*body.function, queries);
    lowerSubGroupOperations(*body.function);
    markRegionLoopsParallel(regions.loops);
    if (keepsVectorsInRegions(*body.function)) markForWorkItemInterleaving(regions.loops);
    lowerLocalAtomics(*body.function);
    // Loaded again: the simplification of kernels with barriers drops the first load where unused.
    llvm::IRBuilder<> builder(body.entry->getTerminator());
    descriptor.staticLocalMemorySize = lowerLocalVariables(*body.function, *body.entry, loadLocalMemory(builder, body.context));
    // After the __local variables have their places in local memory.
    lowerPointerSpaces(*body.function, body.context, descriptor.barrierFrameSize);
    if (descriptor.requiredWorkGroupSize[0] == 0) continue;
    specializeForGroupSize(*body.function, descriptor.requiredWorkGroupSize, !uniformGroups);
  }
  return llvm::Error::success();
}

}  // namespace loom::compiler::cpu
