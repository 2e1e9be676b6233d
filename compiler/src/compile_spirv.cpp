// compileSpirv: the compiler's pipeline from SPIR-V to target code.
#include <cstdlib>
#include <string_view>

#include "loom/compiler/build_options.h"
#include "builtin_library.h"
#include "cpu/code_partitions.h"
#include "cpu/cpu_code_generator.h"
#include "cpu/integer_division.h"
#include "cpu/work_group_function_builder.h"
#include "cpu/work_item_builtins.h"
#include "float_atomics.h"
#include "kernel_descriptor_builder.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"
#include "loom/compiler/compiler.h"
#include "loom/compiler/nvptx_launch_abi.h"
#include "loom/compiler/work_group_context.h"
#include "module_passes.h"
#include "loom/core/debug_keys.h"
#include "nvptx/function_addresses.h"
#include "nvptx/image_versions.h"
#include "nvptx/kernel_entries.h"
#include "nvptx/libdevice.h"
#include "nvptx/memory_ordering.h"
#include "nvptx/ptx_code_generator.h"
#include "printf_vectors.h"
#include "sampler_literals.h"
#include "spirv_reader.h"
#include "texture_reads.h"
#include "work_group_scratch.h"

namespace loom::compiler {

namespace {

BuildResult failure(Status status, llvm::Error error) { return {status, llvm::toString(std::move(error)), nullptr}; }

// Builtins neither the library nor the target provides: a clear error now instead of an
// unresolved symbol when the kernel is first looked up.
llvm::Error checkBuiltinsResolved(const llvm::Module& module) {
  std::string missing;
  for (const llvm::Function& function : module) {
    if (!function.isDeclaration() || function.use_empty()) continue;
    const llvm::StringRef name = function.getName();
    if (!name.startswith("_Z") && !name.startswith("__spirv") && !name.startswith("__loom_")) continue;
    missing += (missing.empty() ? "" : ", ") + llvm::demangle(name.str());
  }
  if (missing.empty()) return llvm::Error::success();
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "unsupported builtin functions: %s", missing.c_str());
}

llvm::Error verify(const llvm::Module& module, const char* after) {
  std::string problems;
  llvm::raw_string_ostream out(problems);
  if (!llvm::verifyModule(module, &out)) return llvm::Error::success();
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "internal compiler error after %s: %s", after, problems.c_str());
}

// Work-item functions, barriers and sub-group functions reach the work-item's state through the
// calls that lead to them from a kernel (both targets inline or extend those): a function called
// through a pointer has no such path.
llvm::Error checkIndirectCallees(const llvm::Module& module, const llvm::DenseSet<const llvm::Function*>& usingWorkItemState) {
  for (const llvm::Function& function : module) {
    if (function.isDeclaration() || isKernel(function) || !function.hasAddressTaken() || !usingWorkItemState.count(&function))
      continue;
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "function '%s' is called through a pointer but uses work-item, barrier or sub-group "
                                   "functions, which only functions called directly may use",
                                   function.getName().str().c_str());
  }
  return llvm::Error::success();
}

// Kernels that take images Loom does not support (multisampled ones) leave the module, with the
// builtins they call, so that the rest of it builds; creating them fails.
std::vector<UnavailableKernel> setAsideKernelsWithUnsupportedImages(llvm::Module& module) {
  std::vector<llvm::Function*> setAside;
  std::vector<UnavailableKernel> unavailable;
  for (llvm::Function& function : module) {
    if (!isKernel(function)) continue;
    std::string reason = unsupportedImageArgument(function);
    if (reason.empty()) continue;
    setAside.push_back(&function);
    unavailable.push_back({function.getName().str(), std::move(reason)});
  }
  llvm::SetVector<llvm::Function*> callees;  // declarations left unused would read as imports
  for (llvm::Function* kernel : setAside) {
    for (llvm::Instruction& instruction : llvm::instructions(*kernel))
      if (auto* call = llvm::dyn_cast<llvm::CallBase>(&instruction); call && call->getCalledFunction())
        callees.insert(call->getCalledFunction());
    kernel->deleteBody();  // only kernels that take such images can call one that does
  }
  for (llvm::Function* kernel : setAside)
    if (kernel->use_empty()) kernel->eraseFromParent();
  for (llvm::Function* callee : callees)
    if (!llvm::is_contained(setAside, callee) && callee->isDeclaration() && callee->use_empty()) callee->eraseFromParent();
  return unavailable;
}

llvm::Expected<ProgramInfo> describeProgram(const llvm::Module& module, const CompileRequest& request) {
  const std::map<std::string, std::string>& typeHints = request.vectorTypeHints;
  ProgramInfo info;
  for (const llvm::Function& function : module) {
    if (!isKernel(function)) continue;
    const auto hint = typeHints.find(function.getName().str());
    auto descriptor = describeKernel(function, hint == typeHints.end() ? std::string() : hint->second);
    if (!descriptor) return descriptor.takeError();
    info.kernels.push_back(std::move(*descriptor));
  }
  describeProgramSymbols(module, info);
  const auto usingWorkItemState = cpu::functionsUsingWorkItemState(module);
  if (llvm::Error error = checkIndirectCallees(module, usingWorkItemState)) return error;
  llvm::erase_if(info.exportedFunctions, [&](const std::string& name) {
    return !request.exportFunctions || usingWorkItemState.count(module.getFunction(name)) != 0;
  });
  return info;
}

// intel_reqd_sub_group_size: each target has one sub-group size.
llvm::Error checkRequiredSubGroupSizes(const ProgramInfo& info, Target target) {
  for (const KernelDescriptor& kernel : info.kernels) {
    if (kernel.requiredSubGroupSize == 0 || kernel.requiredSubGroupSize == subGroupSize(target)) continue;
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "kernel '%s' requires a sub-group size of %u (intel_reqd_sub_group_size); this device's "
                                   "sub-groups have %u work-items",
                                   kernel.name.c_str(), kernel.requiredSubGroupSize, subGroupSize(target));
  }
  return llvm::Error::success();
}

// The debug key works for every user of the compiler (loom-cc, the unit tests), not just the
// runtime, which passes it in the request.
bool dumpKernelIr(const CompileRequest& request) {
  bool key = false;
  core::readDebugKey("DumpKernelIr", key);
  return request.dumpKernelIr || key;
}

// The kernels and the functions other programs call: what the inlining starts from.
std::vector<std::string> inliningRoots(const ProgramInfo& info) {
  std::vector<std::string> roots = info.exportedFunctions;
  for (const KernelDescriptor& kernel : info.kernels) roots.push_back(kernel.name);
  return roots;
}

// What the runtime looks up by name: on the CPU a kernel's work-group function, on NVPTX its
// entries and the variables holding the exported functions' addresses.
std::vector<std::string> visibleSymbols(const ProgramInfo& info, Target target) {
  std::vector<std::string> names = info.exportedFunctions;
  for (const auto& global : info.globals) names.push_back(global.name);
  if (target == Target::Cpu) {
    for (const auto& kernel : info.kernels) names.push_back(cpu::workGroupFunctionName(kernel.name));
    return names;
  }
  for (const auto& kernel : info.kernels) {
    names.push_back(kernel.name);
    names.push_back(kernel.name + nvptx::kWholeGroupsEntrySuffix);
  }
  for (const auto& function : info.exportedFunctions) names.push_back(nvptx::kFunctionAddressPrefix + function);
  return names;
}

llvm::Expected<std::vector<uint8_t>> compileForCpu(llvm::Module& module, ProgramInfo& info, const BuildOptions& options,
                                                   bool uniformGroups, unsigned threads, bool dumpIr) {
  if (llvm::Error error = linkBuiltinLibrary(module)) return error;
  materializeTextureReads(module, Target::Cpu);
  materializeWorkGroupScratch(module, kMaxWorkGroupSize);
  materializeFloatAtomicAdds(module);
  expandPrintfVectors(module);  // the host's printf formats the output, which has no vector conversions
  keepPrintfCalls(module);
  cpu::guardIntegerDivision(module);
  if (llvm::Error error = cpu::retargetToHost(module)) return error;
  prepareForInlining(module, inliningRoots(info));
  if (llvm::Error error = cpu::buildWorkGroupFunctions(module, info.kernels, uniformGroups)) return error;
  if (llvm::Error error = verify(module, "the work-group transformation")) return error;
  keepOnly(module, visibleSymbols(info, Target::Cpu));
  if (llvm::Error error = checkBuiltinsResolved(module)) return error;
  return cpu::generateCode(module, options, threads, dumpIr);
}

llvm::Expected<std::vector<uint8_t>> compileForNvptx(llvm::Module& module, ProgramInfo& info, bool spansGpus, bool dumpIr) {
  if (llvm::Error error = linkBuiltinLibrary(module)) return error;
  materializeTextureReads(module, Target::Nvptx);
  materializeWorkGroupScratch(module, nvptx::kMaxThreadsPerBlock);
  materializeFloatAtomicAdds(module);
  expandPrintfVectors(module);  // as for the CPU: the driver's vprintf has no vector conversions either
  narrowCharConversions(module);
  if (llvm::Error error = nvptx::retargetToNvptx(module)) return error;
  prepareForInlining(module, inliningRoots(info));
  if (llvm::Error error = nvptx::buildKernelEntries(module, info.kernels)) return error;
  nvptx::markImageDescriptorsInvariant(module, info.kernels);
  nvptx::versionEntriesForTexturedRgbaImages(module, info.kernels);
  nvptx::addFunctionAddresses(module, info.exportedFunctions);
  if (llvm::Error error = verify(module, "building the kernel entries")) return error;
  keepOnly(module, visibleSymbols(info, Target::Nvptx));
  if (llvm::Error error = checkBuiltinsResolved(module)) return error;
  nvptx::lowerFences(module, spansGpus);
  if (llvm::Error error = nvptx::linkLibdevice(module)) return error;
  return nvptx::generatePtx(module, info.importedFunctions, dumpIr);
}

llvm::Expected<std::vector<uint8_t>> compileForTarget(const CompileRequest& request, llvm::Module& module, ProgramInfo& info,
                                                      const BuildOptions& options) {
  const bool uniformGroups = request.uniformWorkGroups || options.uniformWorkGroupSize;
  // Every target keeps the program's promise of uniform groups, so that the launches of a kernel
  // made from a binary are checked as those of the same kernel built from source.
  for (KernelDescriptor& kernel : info.kernels) kernel.uniformGroupsOnly = uniformGroups;
  if (request.target == Target::Nvptx) return compileForNvptx(module, info, request.spansGpus, dumpKernelIr(request));
  return compileForCpu(module, info, options, uniformGroups, request.codeGenerationThreads, dumpKernelIr(request));
}

}  // namespace

BuildResult compileSpirv(const CompileRequest& request) {
  std::string invalidOptions;
  const std::optional<BuildOptions> options = parseBuildOptions(request.options, invalidOptions);
  if (!options) return {Status::InvalidOptions, invalidOptions, nullptr};
  llvm::LLVMContext context;
  // The builtin library and the translator's output use typed pointers (LLVM 15).
  context.setOpaquePointers(false);
  std::string warnings;
  if (options->profileFlags != 0)
    warnings += "warning: -zet-profile-flags " + llvm::utohexstr(options->profileFlags) +
                ": no profiling information is generated (zetKernelGetProfileInfo reports none)\n";
  auto module = readSpirvModule(context, request.spirv, request.specializationConstants, &warnings,
                                request.spirvFromLoom ? SpirvOrigin::Loom : SpirvOrigin::Foreign);
  if (!module) return failure(Status::BuildFailure, module.takeError());
  lowerSamplerLiterals(**module);
  std::vector<UnavailableKernel> unavailable = setAsideKernelsWithUnsupportedImages(**module);
  auto info = describeProgram(**module, request);
  if (!info) return failure(Status::BuildFailure, info.takeError());
  info->unavailableKernels = std::move(unavailable);
  if (llvm::Error error = checkRequiredSubGroupSizes(*info, request.target)) return failure(Status::BuildFailure, std::move(error));
  auto code = compileForTarget(request, **module, *info, *options);
  if (!code) return failure(Status::BuildFailure, code.takeError());
  auto program = std::make_shared<CompiledProgram>();
  program->target = request.target;
  program->info = std::move(*info);
  program->code = std::move(*code);
  return {Status::Success, std::move(warnings), std::move(program)};
}

}  // namespace loom::compiler
