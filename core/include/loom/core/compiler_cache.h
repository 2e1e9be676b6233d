#pragma once
// Compiled programs kept on disk, keyed by everything that decides the code: the SPIR-V, the
// options, the specialization constants, the target and the compiler's identity. Entries are
// native binaries written to a temporary name and renamed into place, so concurrent processes
// never see half an entry; a corrupted entry fails the binary's own checks and is ignored. The
// cache holds code that Loom runs, so only what the user alone controls is used: folders are
// made 0700 and entries 0600; a folder that is a symlink, belongs to another user or that others
// may write is not used at all (the program is compiled), and neither is such an entry.
#include <memory>
#include <string>

#include "loom/compiler/compiler.h"

namespace loom::core {

class CompilerCache {
 public:
  // An empty directory disables the cache.
  explicit CompilerCache(std::string directory) : directory_(std::move(directory)) {}

  static std::string key(const compiler::CompileRequest& request);
  // nullptr on a miss or a corrupted entry. `log`, when given, receives the build's warnings,
  // which a program built from the cache reports as one built anew does.
  std::shared_ptr<const compiler::CompiledProgram> load(const std::string& key, std::string* log = nullptr) const;
  void store(const std::string& key, const compiler::CompiledProgram& program, const std::string& log = {}) const;

 private:
  // An entry: the log's size (32 bits), the log, then the native binary.
  static std::string entryName(const std::string& key) { return key + ".bin"; }
  std::string directory_;
};

// The process's cache, configured by EnableCompilerCache and CompilerCacheDir.
const CompilerCache& compilerCache();

}  // namespace loom::core
