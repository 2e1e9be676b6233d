#pragma once
// What both compiler fuzz targets check of a build or of a native binary read: a failure is of
// the kind the input calls for, with a log; a program goes into a native binary and back.
#include <memory>
#include <vector>

#include "fuzz_check.h"
#include "loom/compiler/compiler.h"

namespace loom::fuzz {

// True when `result` holds a program; false when it failed, as it must: with `failure` as its
// status (a build failure, an invalid binary), a log and no program.
inline bool succeeded(const compiler::BuildResult& result, compiler::Status failure) {
  if (result.status != compiler::Status::Success) {
    require(result.status == failure, "a bad input fails with the status of its kind");
    require(!result.log.empty() && result.program == nullptr, "a failure has a log and no program");
    return false;
  }
  require(result.program != nullptr, "a success has a program");
  return true;
}

// The program as the runtime gets it back from its native binary (the compiler cache, a module
// or program created from a binary): the binary reads, and what it reads writes the same bytes.
inline std::shared_ptr<const compiler::CompiledProgram> throughNativeBinary(const compiler::CompiledProgram& program) {
  const std::vector<uint8_t> binary = compiler::writeNativeBinary(program);
  const compiler::BuildResult read = compiler::readNativeBinary(binary.data(), binary.size());
  require(read.status == compiler::Status::Success && read.program, "a program's native binary reads back");
  require(compiler::writeNativeBinary(*read.program) == binary, "a native binary read back writes the same bytes");
  return read.program;
}

}  // namespace loom::fuzz
