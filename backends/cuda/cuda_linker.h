#pragma once
// Dynamic linking on CUDA: a CUDA module cannot import from another loaded module, so a program
// with imports is linked from its own PTX and the PTX of the programs that export what it imports,
// into one module of its own (the exporters' code and globals are copies of theirs).
#include <string>
#include <vector>

#include "backends/cuda/cuda_context.h"
#include "loom/compiler/compiler.h"

namespace loom::backends::cuda {

// `importer` first, then each program of `candidates` that exports an import of the programs
// already chosen (so imports of imports resolve too), each once. Empty, with a line in `log` for
// each import no candidate exports, when some stay unresolved.
std::vector<const compiler::CompiledProgram*> linkInputs(const compiler::CompiledProgram& importer,
                                                         const std::vector<const compiler::CompiledProgram*>& candidates,
                                                         std::string& log);

// The JIT's two logs, as the options of cuModuleLoadDataEx and cuLinkCreate.
class JitLogs {
 public:
  JitLogs();
  JitLogs(const JitLogs&) = delete;
  JitLogs& operator=(const JitLogs&) = delete;

  static constexpr unsigned kCount = 4;
  JitOption* options() { return options_; }
  void** values() { return values_; }
  std::string errors() const { return error_.c_str(); }

 private:
  std::string info_, error_;
  JitOption options_[kCount];
  void* values_[kCount];
};

// Links `ptxs` (the PTX of NVPTX programs) and loads the result into the current context;
// nullptr, with the driver's error and the linker's log in `log`, on failure.
CUmodule linkModule(const Driver& driver, const std::vector<std::string>& ptxs, std::string& log);

// PTX is text the driver reads up to its NUL; the compiler's code may or may not end with one.
std::string ptxText(const std::vector<uint8_t>& code);

}  // namespace loom::backends::cuda
