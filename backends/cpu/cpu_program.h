#pragma once
// A program loaded into this process for the CPU backend.
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "loom/compiler/cpu_executable.h"
#include "loom/core/backend.h"

namespace loom::backends::cpu {

class CpuKernel final : public core::BackendKernel {
 public:
  CpuKernel(compiler::WorkGroupFunction function, compiler::WorkGroupFunction streamingFunction)
      : function_(function), streamingFunction_(streamingFunction) {}
  compiler::WorkGroupFunction function() const { return function_; }
  // The variant with non-temporal stores, or nullptr (see compiler/src/cpu/streaming_stores.h).
  compiler::WorkGroupFunction streamingFunction() const { return streamingFunction_; }

 private:
  compiler::WorkGroupFunction function_;
  compiler::WorkGroupFunction streamingFunction_;
};

class CpuProgram final : public core::BackendProgram {
 public:
  static std::unique_ptr<CpuProgram> load(std::shared_ptr<const compiler::CompiledProgram> program, std::string& log);

  core::BackendKernel* kernel(const std::string& name, std::string& log) override;
  void* globalVariable(const std::string& name) override { return executable_->globalVariable(name); }
  void* function(const std::string& name) override { return executable_->function(name); }
  bool link(const std::vector<core::BackendProgram*>& others, std::string& log) override;

 private:
  explicit CpuProgram(std::unique_ptr<compiler::CpuExecutable> executable) : executable_(std::move(executable)) {}

  std::unique_ptr<compiler::CpuExecutable> executable_;
  std::mutex kernelsMutex_;
  std::map<std::string, std::unique_ptr<CpuKernel>> kernels_;
};

}  // namespace loom::backends::cpu
