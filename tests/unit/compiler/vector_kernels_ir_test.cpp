// Kernels that compute in OpenCL vector types, at the IR level (compiler/src/cpu): which are
// scalarized before their work-item loops are built, so that the vectorizer widens them across
// work-items, and which keep their vectors; and that a long loop loading a wide vector per
// work-item is left to run one work-item at a time (no implicit barriers), while one loading a
// vector all work-items share still gets them.
#include <gtest/gtest.h>

#include <string>

#include "cpu/cpu_code_generator.h"
#include "ir_test_helpers.h"
#include "llvm/IR/InstIterator.h"

namespace loom::compiler::test {
namespace {

// y[gid] += 0.5 * x[gid] in vectors of floats (axpy() gives the width): two loads and a store for two
// operations.
const char* const kAxpy = LOOM_SPIR_MODULE R"(
define spir_kernel void @axpy(VECTOR addrspace(1)* %x, VECTOR addrspace(1)* %y) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %xs = getelementptr inbounds VECTOR, VECTOR addrspace(1)* %x, i64 %gid
  %ys = getelementptr inbounds VECTOR, VECTOR addrspace(1)* %y, i64 %gid
  %xv = load VECTOR, VECTOR addrspace(1)* %xs, align ALIGN
  %yv = load VECTOR, VECTOR addrspace(1)* %ys, align ALIGN
  %scaled = fmul VECTOR %xv, HALVES
  %sum = fadd VECTOR %scaled, %yv
  store VECTOR %sum, VECTOR addrspace(1)* %ys, align ALIGN
  ret void
}
)";

// out[gid] = in[gid] * 3 + 1 in float2s, the global id read from the SPIR-V builtin variable
// (a <3 x i64>, which is no vector the kernel computes in).
const char* const kScale2 = LOOM_SPIR_MODULE R"(
@__spirv_BuiltInGlobalInvocationId = external addrspace(1) global <3 x i64>

define spir_kernel void @scale2(<2 x float> addrspace(1)* %in, <2 x float> addrspace(1)* %out) {
entry:
  %ids = load <3 x i64>, <3 x i64> addrspace(1)* @__spirv_BuiltInGlobalInvocationId, align 32
  %gid = extractelement <3 x i64> %ids, i32 0
  %ins = getelementptr inbounds <2 x float>, <2 x float> addrspace(1)* %in, i64 %gid
  %outs = getelementptr inbounds <2 x float>, <2 x float> addrspace(1)* %out, i64 %gid
  %v = load <2 x float>, <2 x float> addrspace(1)* %ins, align 8
  %tripled = fmul <2 x float> %v, <float 3.0, float 3.0>
  %result = fadd <2 x float> %tripled, <float 1.0, float 1.0>
  store <2 x float> %result, <2 x float> addrspace(1)* %outs, align 8
  ret void
}
)";

// A polynomial of degree 4 of a float4: eight operations for a load and a store.
const char* const kPolynomial4 = LOOM_SPIR_MODULE R"(
define spir_kernel void @polynomial4(<4 x float> addrspace(1)* %in, <4 x float> addrspace(1)* %out) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %ins = getelementptr inbounds <4 x float>, <4 x float> addrspace(1)* %in, i64 %gid
  %outs = getelementptr inbounds <4 x float>, <4 x float> addrspace(1)* %out, i64 %gid
  %x = load <4 x float>, <4 x float> addrspace(1)* %ins, align 16
  %a1 = fmul <4 x float> %x, <float 2.0, float 2.0, float 2.0, float 2.0>
  %a2 = fadd <4 x float> %a1, <float 3.0, float 3.0, float 3.0, float 3.0>
  %a3 = fmul <4 x float> %a2, %x
  %a4 = fadd <4 x float> %a3, <float 5.0, float 5.0, float 5.0, float 5.0>
  %a5 = fmul <4 x float> %a4, %x
  %a6 = fadd <4 x float> %a5, <float 7.0, float 7.0, float 7.0, float 7.0>
  %a7 = fmul <4 x float> %a6, %x
  %a8 = fadd <4 x float> %a7, <float 11.0, float 11.0, float 11.0, float 11.0>
  store <4 x float> %a8, <4 x float> addrspace(1)* %outs, align 16
  ret void
}
)";

// ze_peak's integer chain on an int8: x = y * x + y, y = x * y + x, each step waiting on the one
// before; nine operations for a load and a store.
const char* const kChain8 = LOOM_SPIR_MODULE R"(
define spir_kernel void @chain8(<8 x i32> addrspace(1)* %in, <8 x i32> addrspace(1)* %out) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %ins = getelementptr inbounds <8 x i32>, <8 x i32> addrspace(1)* %in, i64 %gid
  %outs = getelementptr inbounds <8 x i32>, <8 x i32> addrspace(1)* %out, i64 %gid
  %x0 = load <8 x i32>, <8 x i32> addrspace(1)* %ins, align 32
  %y0 = add <8 x i32> %x0, <i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %m1 = mul <8 x i32> %y0, %x0
  %x1 = add <8 x i32> %m1, %y0
  %m2 = mul <8 x i32> %x1, %y0
  %y1 = add <8 x i32> %m2, %x1
  %m3 = mul <8 x i32> %y1, %x1
  %x2 = add <8 x i32> %m3, %y1
  %m4 = mul <8 x i32> %x2, %y1
  %y2 = add <8 x i32> %m4, %x2
  store <8 x i32> %y2, <8 x i32> addrspace(1)* %outs, align 32
  ret void
}
)";

// y[gid] += 0.5 * x[gid] in float4s, one component at a time (as CLBlast's AXPY writes it).
const char* const kComponentWiseAxpy4 = LOOM_SPIR_MODULE R"(
define spir_kernel void @axpy4(<4 x float> addrspace(1)* %x, <4 x float> addrspace(1)* %y) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %xs = getelementptr inbounds <4 x float>, <4 x float> addrspace(1)* %x, i64 %gid
  %ys = getelementptr inbounds <4 x float>, <4 x float> addrspace(1)* %y, i64 %gid
  %xv = load <4 x float>, <4 x float> addrspace(1)* %xs, align 16
  %yv = load <4 x float>, <4 x float> addrspace(1)* %ys, align 16
  %x0 = extractelement <4 x float> %xv, i32 0
  %x1 = extractelement <4 x float> %xv, i32 1
  %x2 = extractelement <4 x float> %xv, i32 2
  %x3 = extractelement <4 x float> %xv, i32 3
  %y0 = extractelement <4 x float> %yv, i32 0
  %y1 = extractelement <4 x float> %yv, i32 1
  %y2 = extractelement <4 x float> %yv, i32 2
  %y3 = extractelement <4 x float> %yv, i32 3
  %m0 = fmul float %x0, 0.5
  %m1 = fmul float %x1, 0.5
  %m2 = fmul float %x2, 0.5
  %m3 = fmul float %x3, 0.5
  %s0 = fadd float %y0, %m0
  %s1 = fadd float %y1, %m1
  %s2 = fadd float %y2, %m2
  %s3 = fadd float %y3, %m3
  %r0 = insertelement <4 x float> %yv, float %s0, i32 0
  %r1 = insertelement <4 x float> %r0, float %s1, i32 1
  %r2 = insertelement <4 x float> %r1, float %s2, i32 2
  %r3 = insertelement <4 x float> %r2, float %s3, i32 3
  store <4 x float> %r3, <4 x float> addrspace(1)* %ys, align 16
  ret void
}
)";

// 64 times: acc += in[BASE + i * 4096], in VECTOR, where BASE is the global id or 0 (the same
// element for every work-item); then out[gid] = acc's first lane.
const char* const kVectorSum = LOOM_SPIR_MODULE R"(
define spir_kernel void @sum(VECTOR addrspace(1)* %in, float addrspace(1)* %out) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  BASE
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %acc = phi VECTOR [ zeroinitializer, %entry ], [ %acc.next, %loop ]
  %step = mul i64 %i, 4096
  %index = add i64 %base, %step
  %slot = getelementptr inbounds VECTOR, VECTOR addrspace(1)* %in, i64 %index
  %value = load VECTOR, VECTOR addrspace(1)* %slot, align 16
  %acc.next = fadd VECTOR %acc, %value
  %next = add i64 %i, 1
  %more = icmp slt i64 %next, 64
  br i1 %more, label %loop, label %done
done:
  %first = extractelement VECTOR %acc.next, i32 0
  %outs = getelementptr inbounds float, float addrspace(1)* %out, i64 %gid
  store float %first, float addrspace(1)* %outs, align 4
  ret void
}
)";

void replaceAll(std::string& text, const std::string& placeholder, const std::string& value) {
  for (size_t at; (at = text.find(placeholder)) != std::string::npos;) text.replace(at, placeholder.size(), value);
}

std::string vectorSum(const char* vector, bool perWorkItem) {
  std::string assembly = kVectorSum;
  replaceAll(assembly, "VECTOR", vector);
  replaceAll(assembly, "BASE", perWorkItem ? "%base = add i64 %gid, 0" : "%base = add i64 0, 0");
  return assembly;
}

std::string axpy(unsigned width) {
  std::string assembly = kAxpy, halves;
  for (unsigned i = 0; i < width; ++i) halves += i ? ", float 0.5" : "<float 0.5";
  replaceAll(assembly, "VECTOR", "<" + std::to_string(width) + " x float>");
  replaceAll(assembly, "HALVES", halves + ">");
  replaceAll(assembly, "ALIGN", std::to_string(4 * width));
  return assembly;
}

KernelDescriptor twoPointers(const char* name) { return pointerKernel(name, {ArgumentKind::GlobalPointer, ArgumentKind::GlobalPointer}); }

// Loads of vectors from global memory: none once the kernel is scalarized.
size_t vectorLoads(const llvm::Function& function) {
  size_t count = 0;
  for (const llvm::Instruction* access : accessesIn(function, 1))
    count += llvm::isa<llvm::LoadInst>(access) && access->getType()->isVectorTy();
  return count;
}

TEST(VectorKernelsIr, AMemoryBoundKernelOfFloat4KeepsItsVectors) {
  Built built(axpy(4), twoPointers("axpy"));
  ASSERT_NE(built.function, nullptr);
  EXPECT_EQ(vectorLoads(*built.function), 2u) << "interleaving float4 accesses across work-items costs more than it gains";
}

TEST(VectorKernelsIr, AKernelOfFloat2IsScalarizedToBeWidenedAcrossWorkItems) {
  Built built(kScale2, twoPointers("scale2"));
  ASSERT_NE(built.function, nullptr);
  EXPECT_EQ(vectorLoads(*built.function), 0u) << "a float2 fills half a register";
}

TEST(VectorKernelsIr, AnArithmeticKernelOfFloat4IsScalarizedToBeWidenedAcrossWorkItems) {
  Built built(kPolynomial4, twoPointers("polynomial4"));
  ASSERT_NE(built.function, nullptr);
  EXPECT_EQ(vectorLoads(*built.function), 0u) << "eight float4 operations per access gain from eight work-items at once";
}

TEST(VectorKernelsIr, AnArithmeticKernelOfInt8IsScalarizedToBeWidenedAcrossWorkItems) {
  Built built(kChain8, twoPointers("chain8"));
  ASSERT_NE(built.function, nullptr);
  EXPECT_EQ(vectorLoads(*built.function), 0u) << "kept whole, one work-item's chain waits on every multiply";
}

TEST(VectorKernelsIr, AMemoryBoundKernelOfFloat8KeepsItsVectors) {
  Built built(axpy(8), twoPointers("axpy"));
  ASSERT_NE(built.function, nullptr);
  EXPECT_EQ(vectorLoads(*built.function), 2u);
}

// The SLP vectorizer (left out of LLVM's default pipelines) joins the four components' operations.
TEST(VectorKernelsIr, ComponentWiseOperationsOnAFloat4BecomeVectorOperations) {
  Built built(kComponentWiseAxpy4, twoPointers("axpy4"));
  ASSERT_NE(built.function, nullptr);
  testing::internal::CaptureStderr();
  auto object = cpu::generateObject(*built.module, BuildOptions{}, /*dumpIr=*/true);
  const std::string ir = testing::internal::GetCapturedStderr();
  ASSERT_TRUE(bool(object)) << llvm::toString(object.takeError());
  const size_t body = ir.find("define void @__loom_wg_axpy4(");
  ASSERT_NE(body, std::string::npos) << ir;
  const std::string function = ir.substr(body, ir.find("\n}\n", body) - body);
  const bool vectorMultiplyAdd = function.find("fmul <4 x float>") != std::string::npos ||
                                 function.find("fmuladd.v4f32") != std::string::npos;
  EXPECT_TRUE(vectorMultiplyAdd) << function;
}

TEST(VectorKernelsIr, ALongLoopLoadingAWideVectorPerWorkItemGetsNoImplicitBarriers) {
  for (const char* vector : {"<4 x float>", "<8 x float>", "<16 x float>"}) {
    SCOPED_TRACE(vector);
    Built built(vectorSum(vector, true), twoPointers("sum"));
    ASSERT_NE(built.function, nullptr);
    EXPECT_EQ(built.kernel.barrierFrameSize, 0u) << "each work-item runs its loop with its vectors";
  }
}

TEST(VectorKernelsIr, ALongLoopLoadingOneVectorForAllWorkItemsGetsImplicitBarriers) {
  Built built(vectorSum("<4 x float>", false), twoPointers("sum"));
  ASSERT_NE(built.function, nullptr);
  EXPECT_GT(built.kernel.barrierFrameSize, 0u) << "the loop runs one iteration for all work-items at a time";
}

TEST(VectorKernelsIr, ALongLoopLoadingAFloat2PerWorkItemGetsImplicitBarriers) {
  Built built(vectorSum("<2 x float>", true), twoPointers("sum"));
  ASSERT_NE(built.function, nullptr);
  EXPECT_GT(built.kernel.barrierFrameSize, 0u) << "float2 loads interleave cheaply across work-items";
}

}  // namespace
}  // namespace loom::compiler::test
