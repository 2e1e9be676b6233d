#pragma once
// IR-level tests of the CPU target's transformations (compiler/src/cpu): a small module in LLVM
// assembly goes through one transformation, and the tests look at the shape of what comes out
// (loops, calls, where memory accesses point) rather than at exact instruction sequences.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "loom/compiler/kernel_descriptor.h"

namespace loom::compiler::test {

// The module of `assembly` (typed pointers, as the SPIR-V translator makes them), moved onto the
// host target as the compiler does before it builds work-group functions; null (and a test
// failure saying why) where it does not parse. `withBuiltinLibrary`: the library functions it
// calls are linked in first, as the compiler links them.
std::unique_ptr<llvm::Module> parseModule(llvm::LLVMContext& context, const char* assembly, bool withBuiltinLibrary = false);

// A descriptor for kernel `name` whose arguments are pointers of these kinds, 8 bytes each, one
// after the other in the argument buffer.
KernelDescriptor pointerKernel(const char* name, const std::vector<ArgumentKind>& arguments);

// Runs cpu::buildWorkGroupFunctions over `module` for `kernel` (filling its descriptor) and
// returns the work-group function; null (and a test failure) where that fails or the module
// does not verify afterwards.
// `uniformGroups` as CompileRequest::uniformWorkGroups.
llvm::Function* buildWorkGroupFunction(llvm::Module& module, KernelDescriptor& kernel, bool uniformGroups = false);

// The loops of a function.
class Loops {
 public:
  explicit Loops(llvm::Function& function) : dominators_(function), loops_(dominators_) {}
  // The innermost loop holding `instruction`, null outside every loop.
  const llvm::Loop* innermost(const llvm::Instruction& instruction) const { return loops_.getLoopFor(instruction.getParent()); }
  // Whether `second` can run after `first` in the same iteration of first's innermost loop, that
  // is without going back to that loop's header (for a loop over work-items: in one work-item's
  // turn).
  bool followsInOneIteration(const llvm::Instruction& first, const llvm::Instruction& second) const;

 private:
  llvm::DominatorTree dominators_;
  llvm::LoopInfo loops_;
};

// What the SPIR-V translator gives every test module: the SPIR target and the builtins it calls.
#define LOOM_SPIR_MODULE                                                                         \
  "target datalayout = \"e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024\"\n" \
  "target triple = \"spir64-unknown-unknown\"\n"                                                  \
  "declare spir_func i64 @_Z13get_global_idj(i32)\n"                                              \
  "declare spir_func i64 @_Z12get_local_idj(i32)\n"                                               \
  "declare spir_func void @_Z7barrierj(i32) convergent\n"

// Builds the work-group function of the only kernel in `assembly`.
struct Built {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module;
  KernelDescriptor kernel;
  llvm::Function* function = nullptr;

  Built(const std::string& assembly, KernelDescriptor descriptor, bool uniformGroups = false, bool withBuiltinLibrary = false)
      : kernel(std::move(descriptor)) {
    module = parseModule(context, assembly.c_str(), withBuiltinLibrary);
    if (module) function = buildWorkGroupFunction(*module, kernel, uniformGroups);
  }
};

// Whether `function` calls a function of that name.
bool calls(const llvm::Function& function, llvm::StringRef callee);

// The stores of `function` that store the constant integer `value`: markers the test kernels
// store to tell their parts apart.
std::vector<const llvm::StoreInst*> storesOf(const llvm::Function& function, int64_t value);

// The loads and stores of `function` through pointers of that address space.
std::vector<const llvm::Instruction*> accessesIn(const llvm::Function& function, unsigned addressSpace);

// Whether every object `pointer` may point into is the pointer the work-group function reads
// from its context at `fieldOffset` (a WorkGroupContext field, e.g. localMemory).
bool pointsIntoContextField(const llvm::Value* pointer, const llvm::Function& workGroupFunction, size_t fieldOffset);

// Whether an instruction of `function` uses `value`, directly or through constant expressions.
bool uses(const llvm::Function& function, const llvm::Value* value);

}  // namespace loom::compiler::test
