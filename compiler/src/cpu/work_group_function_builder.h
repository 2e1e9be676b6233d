#pragma once
// Turns each kernel (code for one work-item) into a work-group function
// `void __loom_wg_<kernel>(const void* argumentBuffer, const WorkGroupContext*)` that runs every
// work-item of a group: a loop nest over local ids when the kernel has no barrier; barrier regions,
// each a loop nest over local ids, with the values that cross barriers in frames, when it has
// barriers (or when a loop gets implicit ones, see uniform_loop_barriers.h). A kernel with
// reqd_work_group_size gets its work-group function specialized for that size
// (group_size_specialization.h).
#include <vector>

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "loom/compiler/kernel_descriptor.h"

namespace loom::compiler::cpu {

std::string workGroupFunctionName(const std::string& kernelName);

// The work-group function's parameters.
enum WorkGroupFunctionParameter : unsigned { kArgumentBuffer = 0, kContext = 1 };

// The attribute that marks work-group functions.
constexpr const char* kWorkGroupFunctionAttribute = "loom-work-group-function";

// Whether `function` is a work-group function (buildWorkGroupFunctions made it).
bool isWorkGroupFunction(const llvm::Function& function);

// Fills hasBarriers, barrierFrameSize, staticLocalMemorySize and privateMemorySize.
// `uniformGroups`: every launch runs groups of one size (CompileRequest::uniformWorkGroups).
llvm::Error buildWorkGroupFunctions(llvm::Module& module, std::vector<KernelDescriptor>& kernels, bool uniformGroups);

}  // namespace loom::compiler::cpu
