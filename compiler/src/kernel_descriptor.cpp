#include "loom/compiler/kernel_descriptor.h"

namespace loom::compiler {

namespace {

bool isPointer(ArgumentKind kind) { return kind != ArgumentKind::Value; }

std::string checkArgument(const KernelDescriptor& kernel, size_t index) {
  const KernelArgument& argument = kernel.arguments[index];
  const std::string which = "argument " + std::to_string(index) + (argument.name.empty() ? "" : " ('" + argument.name + "')");
  if (isPointer(argument.kind) && argument.size != 8) return which + " is a pointer of " + std::to_string(argument.size) + " bytes, not 8";
  if (uint64_t(argument.offset) + argument.size > kernel.argumentBufferSize)
    return which + " lies outside the argument buffer of " + std::to_string(kernel.argumentBufferSize) + " bytes";
  return {};
}

}  // namespace

std::string checkKernelDescriptor(const KernelDescriptor& kernel) {
  std::string problem;
  if (kernel.argumentBufferSize > kMaxArgumentBufferSize)
    problem = "its arguments take " + std::to_string(kernel.argumentBufferSize) + " bytes, more than the " +
              std::to_string(kMaxArgumentBufferSize) + " Loom supports";
  for (size_t index = 0; index < kernel.arguments.size() && problem.empty(); ++index) problem = checkArgument(kernel, index);
  const auto& required = kernel.requiredWorkGroupSize;
  const bool anyZero = !required[0] || !required[1] || !required[2], allZero = !required[0] && !required[1] && !required[2];
  if (problem.empty() && anyZero && !allZero) problem = "reqd_work_group_size has a zero dimension";
  return problem.empty() ? problem : "kernel '" + kernel.name + "': " + problem;
}

}  // namespace loom::compiler
