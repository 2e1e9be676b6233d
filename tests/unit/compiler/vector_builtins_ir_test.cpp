// Element-wise builtins of vectors at the IR level: the builtin library's vector forms of mad,
// fma, fmin, sqrt and the like are one LLVM operation on the whole vector at every width (not the
// vector's halves down to scalars), for float and double (mad and mix for half too), and a float16
// kernel keeps them whole through the CPU target's work-group transformation, with or without
// implicit barriers (clpeak's mad chains). That the results are right at every width is
// math_builtins_test.cpp's part.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "ir_test_helpers.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"

namespace loom::compiler::test {
namespace {

struct ElementWise {
  const char* name;
  int arguments;
  const char* intrinsic;  // the one the vector form calls
};
const ElementWise kElementWise[] = {
    {"mad", 3, "fmuladd"}, {"fma", 3, "fma"},     {"mix", 3, "fmuladd"},   {"fmin", 2, "minnum"},     {"fmax", 2, "maxnum"},
    {"copysign", 2, "copysign"}, {"sqrt", 1, "sqrt"}, {"fabs", 1, "fabs"}, {"floor", 1, "floor"}, {"ceil", 1, "ceil"},
    {"trunc", 1, "trunc"}, {"rint", 1, "rint"},   {"round", 1, "round"},
};

struct VectorType {
  std::string llvm;      // <16 x float>
  std::string mangled;   // Dv16_f
  std::string overload;  // v16f32, as intrinsic names spell it
};
// The vectors of every width of a component type: its LLVM name, mangling and intrinsic suffix.
std::vector<VectorType> everyVectorOf(const std::string& llvm, const std::string& mangled, const std::string& overload) {
  std::vector<VectorType> types;
  for (int width : {2, 3, 4, 8, 16}) {
    const std::string n = std::to_string(width);
    types.push_back({"<" + n + " x " + llvm + ">", "Dv" + n + "_" + mangled, "v" + n + overload});
  }
  return types;
}

// Each builtin with the vector types the test checks it for: float and double vectors, and for
// mad and mix also half vectors.
std::vector<std::pair<ElementWise, VectorType>> formsToCheck() {
  std::vector<VectorType> types = everyVectorOf("float", "f", "f32");
  for (const VectorType& type : everyVectorOf("double", "d", "f64")) types.push_back(type);
  std::vector<std::pair<ElementWise, VectorType>> forms;
  for (const VectorType& type : types)
    for (const ElementWise& function : kElementWise) forms.emplace_back(function, type);
  for (const VectorType& type : everyVectorOf("half", "Dh", "f16"))
    for (const ElementWise& function : kElementWise)
      if (std::string(function.name) == "mad" || std::string(function.name) == "mix") forms.emplace_back(function, type);
  return forms;
}

std::string mangledName(const ElementWise& function, const VectorType& type) {
  std::string name = "_Z" + std::to_string(std::string(function.name).size()) + function.name + type.mangled;
  for (int i = 1; i < function.arguments; ++i) name += "S_";
  return name;
}

// A function per builtin and vector type that calls it, so that the library's form is linked in.
std::string callersOfEveryForm() {
  std::string assembly = LOOM_SPIR_MODULE;
  int caller = 0;
  for (const auto& [function, type] : formsToCheck()) {
    std::string parameters, arguments;
    for (int i = 0; i < function.arguments; ++i) {
      parameters += std::string(i ? ", " : "") + type.llvm;
      arguments += std::string(i ? ", " : "") + type.llvm + " %v";
    }
    const std::string callee = "@" + mangledName(function, type);
    assembly += "declare spir_func " + type.llvm + " " + callee + "(" + parameters + ")\n";
    assembly += "define spir_func " + type.llvm + " @caller" + std::to_string(caller++) + "(" + type.llvm + " %v) {\n" +
                "  %r = call spir_func " + type.llvm + " " + callee + "(" + arguments + ")\n  ret " + type.llvm + " %r\n}\n";
  }
  return assembly;
}

bool splitsVectors(const llvm::Instruction& instruction) {
  return llvm::isa<llvm::ShuffleVectorInst>(instruction) || llvm::isa<llvm::ExtractElementInst>(instruction) ||
         llvm::isa<llvm::InsertElementInst>(instruction);
}

// Calls of intrinsic llvm.<name>.* in `function`, by the overload they call (v16f32, f32...).
std::map<std::string, int> intrinsicCalls(const llvm::Function& function, const std::string& name) {
  std::map<std::string, int> calls;
  const std::string prefix = "llvm." + name + ".";
  for (const llvm::Instruction& instruction : llvm::instructions(function))
    if (auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction))
      if (call->getCalledFunction()->getName().startswith(prefix))
        ++calls[call->getCalledFunction()->getName().drop_front(prefix.size()).str()];
  return calls;
}

// The overloads of intrinsic llvm.<name>.* that `function` calls.
std::set<std::string> intrinsicOverloads(const llvm::Function& function, const std::string& name) {
  std::set<std::string> overloads;
  for (const auto& [overload, count] : intrinsicCalls(function, name)) overloads.insert(overload);
  return overloads;
}

TEST(VectorBuiltinsIr, ElementWiseBuiltinsAreOneWholeVectorOperationAtEveryWidth) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = parseModule(context, callersOfEveryForm().c_str(), /*withBuiltinLibrary=*/true);
  ASSERT_NE(module, nullptr);
  for (const auto& [element, type] : formsToCheck()) {
    const std::string name = mangledName(element, type);
    SCOPED_TRACE(name);
    const llvm::Function* function = module->getFunction(name);
    ASSERT_TRUE(function && !function->isDeclaration()) << "the library has no " << name;
    for (const llvm::Instruction& instruction : llvm::instructions(*function))
      EXPECT_FALSE(splitsVectors(instruction)) << "the vector is taken apart";
    const std::map<std::string, int> expected = {{type.overload, 1}};
    EXPECT_EQ(intrinsicCalls(*function, element.intrinsic), expected);
  }
}

// The float16 element-wise builtins of one work-item: out[gid * 8 + i] = mad(a, b, c), fma,
// clamp, mix, fmin, max, sqrt and fabs of in[gid * 3 + 0..2].
const char* const kFloat16Builtins = LOOM_SPIR_MODULE R"(
declare spir_func <16 x float> @_Z3madDv16_fS_S_(<16 x float>, <16 x float>, <16 x float>)
declare spir_func <16 x float> @_Z3fmaDv16_fS_S_(<16 x float>, <16 x float>, <16 x float>)
declare spir_func <16 x float> @_Z5clampDv16_fS_S_(<16 x float>, <16 x float>, <16 x float>)
declare spir_func <16 x float> @_Z3mixDv16_fS_S_(<16 x float>, <16 x float>, <16 x float>)
declare spir_func <16 x float> @_Z4fminDv16_fS_(<16 x float>, <16 x float>)
declare spir_func <16 x float> @_Z3maxDv16_fS_(<16 x float>, <16 x float>)
declare spir_func <16 x float> @_Z4sqrtDv16_f(<16 x float>)
declare spir_func <16 x float> @_Z4fabsDv16_f(<16 x float>)

define spir_kernel void @builtins16(<16 x float> addrspace(1)* %in, <16 x float> addrspace(1)* %out) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %first = mul i64 %gid, 3
  %pa = getelementptr inbounds <16 x float>, <16 x float> addrspace(1)* %in, i64 %first
  %pb = getelementptr inbounds <16 x float>, <16 x float> addrspace(1)* %pa, i64 1
  %pc = getelementptr inbounds <16 x float>, <16 x float> addrspace(1)* %pa, i64 2
  %a = load <16 x float>, <16 x float> addrspace(1)* %pa, align 64
  %b = load <16 x float>, <16 x float> addrspace(1)* %pb, align 64
  %c = load <16 x float>, <16 x float> addrspace(1)* %pc, align 64
  %r0 = call spir_func <16 x float> @_Z3madDv16_fS_S_(<16 x float> %a, <16 x float> %b, <16 x float> %c)
  %r1 = call spir_func <16 x float> @_Z3fmaDv16_fS_S_(<16 x float> %a, <16 x float> %b, <16 x float> %c)
  %r2 = call spir_func <16 x float> @_Z5clampDv16_fS_S_(<16 x float> %a, <16 x float> %b, <16 x float> %c)
  %r3 = call spir_func <16 x float> @_Z3mixDv16_fS_S_(<16 x float> %a, <16 x float> %b, <16 x float> %c)
  %r4 = call spir_func <16 x float> @_Z4fminDv16_fS_(<16 x float> %a, <16 x float> %b)
  %r5 = call spir_func <16 x float> @_Z3maxDv16_fS_(<16 x float> %a, <16 x float> %b)
  %r6 = call spir_func <16 x float> @_Z4sqrtDv16_f(<16 x float> %a)
  %r7 = call spir_func <16 x float> @_Z4fabsDv16_f(<16 x float> %a)
  %results = mul i64 %gid, 8
  %p0 = getelementptr inbounds <16 x float>, <16 x float> addrspace(1)* %out, i64 %results
  store <16 x float> %r0, <16 x float> addrspace(1)* %p0, align 64
  %p1 = getelementptr inbounds <16 x float>, <16 x float> addrspace(1)* %p0, i64 1
  store <16 x float> %r1, <16 x float> addrspace(1)* %p1, align 64
  %p2 = getelementptr inbounds <16 x float>, <16 x float> addrspace(1)* %p0, i64 2
  store <16 x float> %r2, <16 x float> addrspace(1)* %p2, align 64
  %p3 = getelementptr inbounds <16 x float>, <16 x float> addrspace(1)* %p0, i64 3
  store <16 x float> %r3, <16 x float> addrspace(1)* %p3, align 64
  %p4 = getelementptr inbounds <16 x float>, <16 x float> addrspace(1)* %p0, i64 4
  store <16 x float> %r4, <16 x float> addrspace(1)* %p4, align 64
  %p5 = getelementptr inbounds <16 x float>, <16 x float> addrspace(1)* %p0, i64 5
  store <16 x float> %r5, <16 x float> addrspace(1)* %p5, align 64
  %p6 = getelementptr inbounds <16 x float>, <16 x float> addrspace(1)* %p0, i64 6
  store <16 x float> %r6, <16 x float> addrspace(1)* %p6, align 64
  %p7 = getelementptr inbounds <16 x float>, <16 x float> addrspace(1)* %p0, i64 7
  store <16 x float> %r7, <16 x float> addrspace(1)* %p7, align 64
  ret void
}
)";

KernelDescriptor twoPointers(const char* name) { return pointerKernel(name, {ArgumentKind::GlobalPointer, ArgumentKind::GlobalPointer}); }

TEST(VectorBuiltinsIr, AFloat16KernelKeepsItsElementWiseBuiltinsWhole) {
  Built built(kFloat16Builtins, twoPointers("builtins16"), false, /*withBuiltinLibrary=*/true);
  ASSERT_NE(built.function, nullptr);
  for (const llvm::Instruction& instruction : llvm::instructions(*built.function))
    EXPECT_FALSE(splitsVectors(instruction)) << "a float16 is taken apart";
  using Calls = std::map<std::string, int>;
  EXPECT_EQ(intrinsicCalls(*built.function, "fmuladd"), (Calls{{"v16f32", 2}})) << "mad and mix";
  EXPECT_EQ(intrinsicCalls(*built.function, "fma"), (Calls{{"v16f32", 1}})) << "fma stays a fused multiply-add";
  EXPECT_EQ(intrinsicCalls(*built.function, "minnum"), (Calls{{"v16f32", 2}})) << "clamp and fmin";
  EXPECT_EQ(intrinsicCalls(*built.function, "maxnum"), (Calls{{"v16f32", 2}})) << "clamp and max";
  EXPECT_EQ(intrinsicCalls(*built.function, "sqrt"), (Calls{{"v16f32", 1}}));
  EXPECT_EQ(intrinsicCalls(*built.function, "fabs"), (Calls{{"v16f32", 1}}));
}

// clpeak's single-precision compute kernel in VECTOR (mangled MANGLED): 256 times x = mad(y, x, y),
// y = mad(x, y, x), a chain long enough for implicit barriers; then out[gid] = y's first lane.
const char* const kMadChain = LOOM_SPIR_MODULE R"(
declare spir_func VECTOR @_Z3madMANGLEDS_S_(VECTOR, VECTOR, VECTOR)

define spir_kernel void @mads(float addrspace(1)* %out) {
entry:
  %lid = call spir_func i64 @_Z12get_local_idj(i32 0)
  %lidf = uitofp i64 %lid to float
  %one = insertelement VECTOR undef, float %lidf, i32 0
  %y0 = shufflevector VECTOR %one, VECTOR undef, MASK zeroinitializer
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %x = phi VECTOR [ %y0, %entry ], [ %x2, %loop ]
  %y = phi VECTOR [ %y0, %entry ], [ %y2, %loop ]
  %x2 = call spir_func VECTOR @_Z3madMANGLEDS_S_(VECTOR %y, VECTOR %x, VECTOR %y)
  %y2 = call spir_func VECTOR @_Z3madMANGLEDS_S_(VECTOR %x2, VECTOR %y, VECTOR %x2)
  %next = add i32 %i, 1
  %more = icmp ult i32 %next, 256
  br i1 %more, label %loop, label %done
done:
  %first = extractelement VECTOR %y2, i32 0
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr inbounds float, float addrspace(1)* %out, i64 %gid
  store float %first, float addrspace(1)* %p, align 4
  ret void
}
)";

std::string madChain(int width) {
  const std::string n = std::to_string(width);
  std::string assembly = kMadChain;
  const std::pair<std::string, std::string> replacements[] = {
      {"VECTOR", "<" + n + " x float>"}, {"MANGLED", "Dv" + n + "_f"}, {"MASK", "<" + n + " x i32>"}};
  for (const auto& [from, to] : replacements)
    for (size_t at; (at = assembly.find(from)) != std::string::npos;) assembly.replace(at, from.size(), to);
  return assembly;
}

// Scalarized, each of the two float16 values would take 16 registers across work-items. (The
// region builder may copy the loop's body: the test counts kinds of calls, not calls.)
TEST(VectorBuiltinsIr, AFloat16MadChainWithImplicitBarriersKeepsWholeVectors) {
  Built built(madChain(16), pointerKernel("mads", {ArgumentKind::GlobalPointer}), false, /*withBuiltinLibrary=*/true);
  ASSERT_NE(built.function, nullptr);
  EXPECT_GT(built.kernel.barrierFrameSize, 0u) << "the loop runs one iteration for all work-items at a time";
  EXPECT_EQ(intrinsicOverloads(*built.function, "fmuladd"), std::set<std::string>{"v16f32"});
}

// A float8 fills one register: its components, widened across work-items, fit the registers.
TEST(VectorBuiltinsIr, AFloat8MadChainWithImplicitBarriersIsScalarized) {
  Built built(madChain(8), pointerKernel("mads", {ArgumentKind::GlobalPointer}), false, /*withBuiltinLibrary=*/true);
  ASSERT_NE(built.function, nullptr);
  EXPECT_GT(built.kernel.barrierFrameSize, 0u);
  EXPECT_EQ(intrinsicOverloads(*built.function, "fmuladd"), std::set<std::string>{"f32"});
}

}  // namespace
}  // namespace loom::compiler::test
