#include "backends/cpu/cpu_program.h"

namespace loom::backends::cpu {

std::unique_ptr<CpuProgram> CpuProgram::load(std::shared_ptr<const compiler::CompiledProgram> program, std::string& log) {
  auto executable = compiler::CpuExecutable::load(std::move(program), log);
  if (!executable) return nullptr;
  return std::unique_ptr<CpuProgram>(new CpuProgram(std::move(executable)));
}

core::BackendKernel* CpuProgram::kernel(const std::string& name, std::string& log) {
  std::lock_guard lock(kernelsMutex_);
  auto& slot = kernels_[name];
  if (slot) return slot.get();
  compiler::WorkGroupFunction function = executable_->kernel(name, log);
  if (!function) {
    kernels_.erase(name);
    return nullptr;
  }
  slot = std::make_unique<CpuKernel>(function, executable_->streamingKernel(name));
  return slot.get();
}

bool CpuProgram::link(const std::vector<core::BackendProgram*>& others, std::string& log) {
  std::vector<compiler::CpuExecutable*> executables;
  for (auto* other : others) executables.push_back(static_cast<CpuProgram*>(other)->executable_.get());
  return executable_->link(executables, log);
}

}  // namespace loom::backends::cpu
