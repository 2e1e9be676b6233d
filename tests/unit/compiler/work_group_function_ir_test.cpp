// The CPU target's work-group functions at the IR level (compiler/src/cpu/work_group_function_builder.h):
// a kernel without barriers becomes a loop over its work-items, one with barriers a sequence of
// regions, each its own loop over the work-items, with the values that cross a barrier kept in
// the group's frames; __local memory becomes the group's arena. Each test feeds a small kernel
// in LLVM assembly and checks those properties, not the exact instructions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>

#include "cpu/work_group_function_builder.h"
#include "ir_test_helpers.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/ADT/Triple.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "loom/compiler/work_group_context.h"

namespace loom::compiler::test {
namespace {

constexpr unsigned kGlobal = 1, kLocal = 3;
constexpr size_t kLocalMemoryField = offsetof(WorkGroupContext, localMemory);
constexpr size_t kBarrierFrameField = offsetof(WorkGroupContext, barrierFrame);

// out[gid] = 2 * gid
const char* const kScale = LOOM_SPIR_MODULE R"(
define spir_kernel void @scale(i32 addrspace(1)* %out) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %value = trunc i64 %gid to i32
  %twice = shl i32 %value, 1
  %slot = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %gid
  store i32 %twice, i32 addrspace(1)* %slot, align 4
  ret void
}
)";

// Each work-item marks 111, waits at a barrier, then stores 3 * in[gid] and marks 222.
const char* const kAcrossABarrier = LOOM_SPIR_MODULE R"(
define spir_kernel void @across(i32 addrspace(1)* %in, i32 addrspace(1)* %out, i32 addrspace(1)* %marks) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %in.slot = getelementptr inbounds i32, i32 addrspace(1)* %in, i64 %gid
  %value = load i32, i32 addrspace(1)* %in.slot, align 4
  %tripled = mul i32 %value, 3
  %mark = getelementptr inbounds i32, i32 addrspace(1)* %marks, i64 %gid
  store i32 111, i32 addrspace(1)* %mark, align 4
  call spir_func void @_Z7barrierj(i32 2)
  %out.slot = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %gid
  store i32 %tripled, i32 addrspace(1)* %out.slot, align 4
  store i32 222, i32 addrspace(1)* %mark, align 4
  ret void
}
)";

// The barrier inside a loop of %rounds iterations (the same for every work-item).
const char* const kBarrierInALoop = LOOM_SPIR_MODULE R"(
define spir_kernel void @rounds(i32 addrspace(1)* %marks, i32 %rounds) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %mark = getelementptr inbounds i32, i32 addrspace(1)* %marks, i64 %gid
  br label %round
round:
  %i = phi i32 [ 0, %entry ], [ %next, %round ]
  store i32 111, i32 addrspace(1)* %mark, align 4
  call spir_func void @_Z7barrierj(i32 2)
  store i32 222, i32 addrspace(1)* %mark, align 4
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %rounds
  br i1 %more, label %round, label %done
done:
  ret void
}
)";

// A __local tile: each work-item writes its element, and after a barrier reads the mirrored one.
const char* const kLocalTile = LOOM_SPIR_MODULE R"(
@mirror.tile = internal addrspace(3) global [64 x i32] undef, align 4

define spir_kernel void @mirror(i32 addrspace(1)* %data) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %lid = call spir_func i64 @_Z12get_local_idj(i32 0)
  %slot = getelementptr inbounds i32, i32 addrspace(1)* %data, i64 %gid
  %value = load i32, i32 addrspace(1)* %slot, align 4
  %mine = getelementptr inbounds [64 x i32], [64 x i32] addrspace(3)* @mirror.tile, i64 0, i64 %lid
  store i32 %value, i32 addrspace(3)* %mine, align 4
  call spir_func void @_Z7barrierj(i32 1)
  %other = sub i64 63, %lid
  %theirs = getelementptr inbounds [64 x i32], [64 x i32] addrspace(3)* @mirror.tile, i64 0, i64 %other
  %mirrored = load i32, i32 addrspace(3)* %theirs, align 4
  store i32 %mirrored, i32 addrspace(1)* %slot, align 4
  ret void
}
)";

// Two __local variables and no barrier.
const char* const kTwoLocalVariables = LOOM_SPIR_MODULE R"(
@both.ints = internal addrspace(3) global [16 x i32] undef, align 4
@both.doubles = internal addrspace(3) global [8 x double] undef, align 8

define spir_kernel void @both(i32 addrspace(1)* %out) {
entry:
  %lid = call spir_func i64 @_Z12get_local_idj(i32 0)
  %int = getelementptr inbounds [16 x i32], [16 x i32] addrspace(3)* @both.ints, i64 0, i64 %lid
  store i32 7, i32 addrspace(3)* %int, align 4
  %double = getelementptr inbounds [8 x double], [8 x double] addrspace(3)* @both.doubles, i64 0, i64 %lid
  store double 2.0, double addrspace(3)* %double, align 8
  ret void
}
)";

// A __local pointer argument: its memory is the group's too.
const char* const kLocalArgument = LOOM_SPIR_MODULE R"(
define spir_kernel void @scratch(i32 addrspace(3)* %scratch, i32 addrspace(1)* %out) {
entry:
  %lid = call spir_func i64 @_Z12get_local_idj(i32 0)
  %mine = getelementptr inbounds i32, i32 addrspace(3)* %scratch, i64 %lid
  store i32 5, i32 addrspace(3)* %mine, align 4
  ret void
}
)";

// A chain of multiply-adds in a loop of TRIPS iterations, the same for every work-item (clpeak's
// compute kernels).
const char* const kMultiplyAddChain = LOOM_SPIR_MODULE R"(
declare float @llvm.fmuladd.f32(float, float, float)

define spir_kernel void @chain(float addrspace(1)* %out, float %a) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %lid = call spir_func i64 @_Z12get_local_idj(i32 0)
  %lane = uitofp i64 %lid to float
  %x = fadd float %a, %lane
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %z = phi float [ 0.0, %entry ], [ %z2, %loop ]
  %z1 = call float @llvm.fmuladd.f32(float %x, float %z, float %x)
  %z2 = call float @llvm.fmuladd.f32(float %z1, float %x, float %z1)
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, TRIPS
  br i1 %more, label %loop, label %done
done:
  %slot = getelementptr inbounds float, float addrspace(1)* %out, i64 %gid
  store float %z2, float addrspace(1)* %slot, align 4
  ret void
}
)";

const ArgumentKind kGlobalPointer = ArgumentKind::GlobalPointer;

// The contract of a barrier, in terms of work-item loops: no work-item's turn in a loop runs code
// after the barrier that follows code before it; the next work-item's turn comes in between.
void expectNoTurnCrossesTheBarrier(llvm::Function& function) {
  const Loops loops(function);
  const std::vector<const llvm::StoreInst*> before = storesOf(function, 111);
  const std::vector<const llvm::StoreInst*> after = storesOf(function, 222);
  ASSERT_FALSE(before.empty());
  ASSERT_FALSE(after.empty());
  for (const llvm::StoreInst* first : before) {
    ASSERT_NE(loops.innermost(*first), nullptr) << "code before the barrier runs in a loop over the work-items";
    for (const llvm::StoreInst* second : after) {
      ASSERT_NE(loops.innermost(*second), nullptr) << "code after the barrier runs in a loop over the work-items";
      EXPECT_FALSE(loops.followsInOneIteration(*first, *second)) << "a work-item passes the barrier before the others reach it";
    }
  }
}

TEST(WorkItemLoopsIr, AKernelWithoutBarriersRunsInALoopOverItsWorkItems) {
  Built built(kScale, pointerKernel("scale", {kGlobalPointer}));
  ASSERT_NE(built.function, nullptr);
  EXPECT_FALSE(built.kernel.hasBarriers);
  EXPECT_EQ(built.kernel.barrierFrameSize, 0u);
  EXPECT_FALSE(calls(*built.function, "_Z13get_global_idj")) << "work-item queries become reads of the loop and the context";
  EXPECT_FALSE(calls(*built.function, "scale")) << "the kernel is inlined";
  const Loops loops(*built.function);
  const std::vector<const llvm::Instruction*> stores = accessesIn(*built.function, kGlobal);
  ASSERT_EQ(stores.size(), 1u);
  EXPECT_NE(loops.innermost(*stores[0]), nullptr) << "the kernel's store runs once per work-item, in a loop";
}

TEST(BarrierRegionsIr, ABarrierEndsARegionAndEachRegionLoopsOverTheWorkItems) {
  Built built(kAcrossABarrier, pointerKernel("across", {kGlobalPointer, kGlobalPointer, kGlobalPointer}));
  ASSERT_NE(built.function, nullptr);
  EXPECT_TRUE(built.kernel.hasBarriers);
  EXPECT_FALSE(calls(*built.function, "_Z7barrierj")) << "a barrier is where one region loop ends and the next begins";
  expectNoTurnCrossesTheBarrier(*built.function);
}

TEST(BarrierRegionsIr, AValueLiveAcrossABarrierGoesThroughTheGroupsFrame) {
  Built built(kAcrossABarrier, pointerKernel("across", {kGlobalPointer, kGlobalPointer, kGlobalPointer}));
  ASSERT_NE(built.function, nullptr);
  EXPECT_GE(built.kernel.barrierFrameSize, sizeof(int32_t)) << "one i32 per work-item crosses the barrier";
  bool storedToFrame = false, loadedFromFrame = false;
  for (const llvm::Instruction& instruction : llvm::instructions(*built.function)) {
    const llvm::Value* pointer = llvm::getLoadStorePointerOperand(&instruction);
    if (!pointer || !pointsIntoContextField(pointer, *built.function, kBarrierFrameField)) continue;
    storedToFrame |= llvm::isa<llvm::StoreInst>(instruction);
    loadedFromFrame |= llvm::isa<llvm::LoadInst>(instruction);
  }
  EXPECT_TRUE(storedToFrame) << "the region before the barrier saves the value in context->barrierFrame";
  EXPECT_TRUE(loadedFromFrame) << "the region after it reads the value back";
}

// The frames' arrays, read side by side by a vectorized region loop, never start a whole number of
// 4 KiB pages apart in a group of a power-of-two size from 32 on: there they would share L1 sets.
TEST(BarrierRegionsIr, FrameArraysOfPowerOfTwoGroupsStartApartFromPageMultiples) {
  for (uint64_t workItems = 32; workItems <= kMaxWorkGroupSize; workItems *= 2)
    for (uint64_t elementBytes = 4; elementBytes <= 128; elementBytes *= 2)
      EXPECT_NE(0u, elementBytes * barrierFrameElements(workItems) % 4096) << workItems << " work-items, " << elementBytes << " bytes";
}

TEST(BarrierRegionsIr, ABarrierInsideALoopSplitsEachIterationIntoRegions) {
  KernelDescriptor kernel = pointerKernel("rounds", {kGlobalPointer});
  KernelArgument rounds;
  rounds.offset = kernel.argumentBufferSize;
  rounds.size = rounds.alignment = 4;
  kernel.arguments.push_back(rounds);
  kernel.argumentBufferSize += 4;
  Built built(kBarrierInALoop, kernel);
  ASSERT_NE(built.function, nullptr);
  EXPECT_TRUE(built.kernel.hasBarriers);
  EXPECT_FALSE(calls(*built.function, "_Z7barrierj"));
  // The region after the barrier runs the rest of an iteration and the start of the next one, up
  // to the barrier again: it stores 222, then 111, but never 111 then 222.
  expectNoTurnCrossesTheBarrier(*built.function);
}

// kMultiplyAddChain with its loop running `trips` times, and its descriptor.
struct MultiplyAddChain {
  std::string assembly;
  KernelDescriptor kernel = pointerKernel("chain", {kGlobalPointer});

  explicit MultiplyAddChain(unsigned trips) : assembly(kMultiplyAddChain) {
    assembly.replace(assembly.find("TRIPS"), 5, std::to_string(trips));
    KernelArgument a;
    a.offset = kernel.argumentBufferSize;
    a.size = a.alignment = 4;
    kernel.arguments.push_back(a);
    kernel.argumentBufferSize += 4;
  }
};

TEST(UniformLoopBarriersIr, ALongLoopOfConstantTripCountRunsOneIterationForAllWorkItemsAtATime) {
  const MultiplyAddChain chain(1000);
  Built built(chain.assembly.c_str(), chain.kernel);
  ASSERT_NE(built.function, nullptr);
  EXPECT_FALSE(built.kernel.hasBarriers) << "the kernel has none of its own";
  EXPECT_GT(built.kernel.barrierFrameSize, 0u) << "the loop's implicit barriers keep the chain's values in the frames";
}

TEST(UniformLoopBarriersIr, AShortLoopOfConstantTripCountIsLeftToTheUnroller) {
  const MultiplyAddChain chain(3);
  Built built(chain.assembly.c_str(), chain.kernel);
  ASSERT_NE(built.function, nullptr);
  EXPECT_EQ(built.kernel.barrierFrameSize, 0u);
}

TEST(LocalMemoryIr, LocalVariablesBecomeTheGroupsArena) {
  Built built(kLocalTile, pointerKernel("mirror", {kGlobalPointer}));
  ASSERT_NE(built.function, nullptr);
  EXPECT_EQ(built.kernel.staticLocalMemorySize, 64 * sizeof(int32_t));
  EXPECT_FALSE(uses(*built.function, built.module->getNamedGlobal("mirror.tile"))) << "no work-group shares a global variable";
  const std::vector<const llvm::Instruction*> accesses = accessesIn(*built.function, kLocal);
  ASSERT_EQ(accesses.size(), 2u) << "the store of the element and the load of the mirrored one";
  for (const llvm::Instruction* access : accesses)
    EXPECT_TRUE(pointsIntoContextField(llvm::getLoadStorePointerOperand(access), *built.function, kLocalMemoryField))
        << "accesses to the tile address context->localMemory";
}

// Where in the arena the variable that `access` addresses starts: its address without the
// work-item's index, as a constant offset from context->localMemory.
int64_t variableStart(const llvm::Instruction& access) {
  const auto* element = llvm::dyn_cast<llvm::GetElementPtrInst>(llvm::getLoadStorePointerOperand(&access)->stripPointerCasts());
  if (!element) return -1;
  llvm::APInt start(64, 0);
  element->getPointerOperand()->stripAndAccumulateConstantOffsets(access.getModule()->getDataLayout(), start, true);
  return start.getSExtValue();
}

TEST(LocalMemoryIr, EachLocalVariableGetsItsOwnAlignedPartOfTheArena) {
  Built built(kTwoLocalVariables, pointerKernel("both", {kGlobalPointer}));
  ASSERT_NE(built.function, nullptr);
  constexpr int64_t kIntsBytes = 16 * sizeof(int32_t), kDoublesBytes = 8 * sizeof(double);
  EXPECT_EQ(built.kernel.staticLocalMemorySize, kIntsBytes + kDoublesBytes);
  EXPECT_FALSE(uses(*built.function, built.module->getNamedGlobal("both.ints")));
  EXPECT_FALSE(uses(*built.function, built.module->getNamedGlobal("both.doubles")));
  int64_t ints = -1, doubles = -1;
  for (const llvm::Instruction* access : accessesIn(*built.function, kLocal)) {
    ASSERT_TRUE(pointsIntoContextField(llvm::getLoadStorePointerOperand(access), *built.function, kLocalMemoryField));
    (llvm::getLoadStoreType(const_cast<llvm::Instruction*>(access))->isDoubleTy() ? doubles : ints) = variableStart(*access);
  }
  ASSERT_GE(ints, 0);
  ASSERT_GE(doubles, 0);
  EXPECT_EQ(doubles % int64_t(alignof(double)), 0);
  EXPECT_TRUE(ints + kIntsBytes <= doubles || doubles + kDoublesBytes <= ints) << "the variables overlap: " << ints << ", " << doubles;
  EXPECT_LE(std::max(ints + kIntsBytes, doubles + kDoublesBytes), int64_t(built.kernel.staticLocalMemorySize));
}

TEST(LocalMemoryIr, ALocalPointerArgumentPointsIntoTheArena) {
  Built built(kLocalArgument, pointerKernel("scratch", {ArgumentKind::LocalPointer, kGlobalPointer}));
  ASSERT_NE(built.function, nullptr);
  EXPECT_EQ(built.kernel.staticLocalMemorySize, 0u) << "the runtime sizes a local pointer argument's memory";
  const std::vector<const llvm::Instruction*> accesses = accessesIn(*built.function, kLocal);
  ASSERT_EQ(accesses.size(), 1u);
  EXPECT_TRUE(pointsIntoContextField(llvm::getLoadStorePointerOperand(accesses[0]), *built.function, kLocalMemoryField));
}

// The loops of `function` whose iteration count, as the optimizer sees it, `holds`.
template <typename Holds>
size_t loopsWhoseIterations(llvm::Function& function, Holds holds) {
  llvm::TargetLibraryInfoImpl libraryInfo(llvm::Triple(function.getParent()->getTargetTriple()));
  llvm::TargetLibraryInfo library(libraryInfo);
  llvm::AssumptionCache assumptions(function);
  llvm::DominatorTree dominators(function);
  llvm::LoopInfo loops(dominators);
  llvm::ScalarEvolution evolution(function, library, assumptions, dominators, loops);
  size_t count = 0;
  for (llvm::Loop* loop : loops.getLoopsInPreorder()) count += holds(evolution, loop);
  return count;
}

size_t loopsRunning(llvm::Function& function, unsigned iterations) {
  return loopsWhoseIterations(function, [&](llvm::ScalarEvolution& evolution, llvm::Loop* loop) {
    return evolution.getSmallConstantTripCount(loop) == iterations;
  });
}

// Whether every use of `value` compares it with a constant: the check that chooses the code.
bool onlyComparedWithConstants(const llvm::Value& value) {
  return llvm::all_of(value.users(), [](const llvm::User* user) {
    auto* comparison = llvm::dyn_cast<llvm::ICmpInst>(user);
    return comparison && (llvm::isa<llvm::Constant>(comparison->getOperand(0)) || llvm::isa<llvm::Constant>(comparison->getOperand(1)));
  });
}

// The reads of the context's localSize array that do more than choose the code.
size_t groupSizeReadsInTheLoops(const llvm::Function& function) {
  const llvm::DataLayout& layout = function.getParent()->getDataLayout();
  const uint64_t localSize = offsetof(WorkGroupContext, localSize);
  size_t count = 0;
  for (const llvm::Instruction& instruction : llvm::instructions(function)) {
    auto* load = llvm::dyn_cast<llvm::LoadInst>(&instruction);
    if (!load || onlyComparedWithConstants(*load)) continue;
    llvm::APInt offset(64, 0);
    const llvm::Value* base = load->getPointerOperand()->stripAndAccumulateConstantOffsets(layout, offset, true);
    count += base == function.getArg(cpu::kContext) && offset.getZExtValue() >= localSize &&
             offset.getZExtValue() < localSize + sizeof(WorkGroupContext::localSize);
  }
  return count;
}

// The one function `function` calls that the module defines; null (and a failure) otherwise.
llvm::Function* onlyDefinedCallee(const llvm::Function& function) {
  std::vector<llvm::Function*> callees;
  for (const llvm::Instruction& instruction : llvm::instructions(function))
    if (auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction))
      if (call->getCalledFunction() && !call->getCalledFunction()->isDeclaration()) callees.push_back(call->getCalledFunction());
  EXPECT_EQ(callees.size(), 1u);
  return callees.size() == 1 ? callees[0] : nullptr;
}

KernelDescriptor requiringGroupSize(KernelDescriptor kernel, std::array<uint32_t, 3> size) {
  kernel.requiredWorkGroupSize = size;
  return kernel;
}

constexpr unsigned kRequiredWidth = 8;

TEST(RequiredGroupSizeIr, TheRegionLoopsOfARequiredSizeRunThatManyTimes) {
  const KernelDescriptor across = pointerKernel("across", {kGlobalPointer, kGlobalPointer, kGlobalPointer});
  Built general(kAcrossABarrier, across);
  ASSERT_NE(general.function, nullptr);
  EXPECT_EQ(loopsRunning(*general.function, kRequiredWidth), 0u) << "without reqd_work_group_size the group size is read at run time";
  Built fixed(kAcrossABarrier, requiringGroupSize(across, {kRequiredWidth, 1, 1}));
  ASSERT_NE(fixed.function, nullptr);
  EXPECT_EQ(loopsRunning(*fixed.function, kRequiredWidth), 2u) << "each region's loop over x runs the required width";
  expectNoTurnCrossesTheBarrier(*fixed.function);
}

TEST(RequiredGroupSizeIr, AKernelWithoutBarriersReadsTheGroupSizeOnlyToChooseItsCode) {
  const KernelDescriptor scale = pointerKernel("scale", {kGlobalPointer});
  Built general(kScale, scale);
  ASSERT_NE(general.function, nullptr);
  EXPECT_GT(groupSizeReadsInTheLoops(*general.function), 0u);
  Built fixed(kScale, requiringGroupSize(scale, {kRequiredWidth, 1, 1}));
  ASSERT_NE(fixed.function, nullptr);
  EXPECT_EQ(groupSizeReadsInTheLoops(*fixed.function), 0u) << "the work-item loops run to the required size";
}

TEST(RequiredGroupSizeIr, GroupsOfAnotherSizeRunTheGeneralCodeUnoptimized) {
  Built fixed(kAcrossABarrier, requiringGroupSize(pointerKernel("across", {kGlobalPointer, kGlobalPointer, kGlobalPointer}),
                                                  {kRequiredWidth, 1, 1}));
  ASSERT_NE(fixed.function, nullptr);
  llvm::Function* general = onlyDefinedCallee(*fixed.function);
  ASSERT_NE(general, nullptr) << "the smaller last groups of a non-uniform range need code for their size";
  EXPECT_TRUE(general->hasLocalLinkage());
  EXPECT_TRUE(general->hasFnAttribute(llvm::Attribute::OptimizeNone)) << "rare groups do not double the build's optimization time";
  EXPECT_EQ(loopsRunning(*general, kRequiredWidth), 0u) << "the general code reads the group's size";
  expectNoTurnCrossesTheBarrier(*general);
}

// OpenCL C 1.x, -cl-uniform-work-group-size and Level Zero launch whole groups only.
TEST(RequiredGroupSizeIr, UniformGroupsNeedNoCodeForOtherSizes) {
  Built fixed(kAcrossABarrier,
              requiringGroupSize(pointerKernel("across", {kGlobalPointer, kGlobalPointer, kGlobalPointer}), {kRequiredWidth, 1, 1}),
              /*uniformGroups=*/true);
  ASSERT_NE(fixed.function, nullptr);
  for (const llvm::Instruction& instruction : llvm::instructions(*fixed.function))
    if (auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction))
      EXPECT_TRUE(call->getCalledFunction() && call->getCalledFunction()->isDeclaration()) << "no general copy to call";
  EXPECT_EQ(groupSizeReadsInTheLoops(*fixed.function), 0u);
  EXPECT_EQ(loopsRunning(*fixed.function, kRequiredWidth), 2u);
  expectNoTurnCrossesTheBarrier(*fixed.function);
}

}  // namespace
}  // namespace loom::compiler::test
