#pragma once
// A CPU program loaded into this process by the JIT: addresses of kernels, globals and functions.
#include <memory>
#include <string>
#include <vector>

#include "loom/compiler/compiler.h"
#include "loom/compiler/work_group_context.h"

namespace loom::compiler {

class CpuExecutable {
 public:
  // Loads the object code of `program` (Target::Cpu). Symbols are resolved when first looked up,
  // so imports may be satisfied later with link().
  static std::unique_ptr<CpuExecutable> load(std::shared_ptr<const CompiledProgram> program, std::string& log);
  virtual ~CpuExecutable() = default;

  // Makes the exports of `others` visible to this program's imports (zeModuleDynamicLink).
  virtual bool link(const std::vector<CpuExecutable*>& others, std::string& log) = 0;

  // nullptr when absent or when an import cannot be resolved (the log says which).
  virtual WorkGroupFunction kernel(const std::string& name, std::string& log) = 0;
  // The kernel's streaming variant (non-temporal stores, for launches that write more than caches
  // keep), nullptr where the compiler made none.
  virtual WorkGroupFunction streamingKernel(const std::string& name) = 0;
  virtual void* globalVariable(const std::string& name) = 0;
  virtual void* function(const std::string& name) = 0;

  const CompiledProgram& program() const { return *program_; }

 protected:
  explicit CpuExecutable(std::shared_ptr<const CompiledProgram> program) : program_(std::move(program)) {}
  std::shared_ptr<const CompiledProgram> program_;
};

}  // namespace loom::compiler
