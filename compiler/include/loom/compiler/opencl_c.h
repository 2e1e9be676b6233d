#pragma once
// OpenCL C source to SPIR-V, and SPIR-V modules linked into one: what clBuildProgram,
// clCompileProgram and clLinkProgram need before compileSpirv. Depends on clang and LLVM privately.
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "loom/compiler/compiler.h"

namespace loom::compiler {

struct SourceRequest {
  std::string source;   // OpenCL C
  std::string options;  // clBuildProgram / clCompileProgram options
  std::vector<std::pair<std::string, std::string>> headers;  // include name -> content (clCompileProgram input_headers)
};

struct SpirvResult {
  Status status = Status::BuildFailure;  // Success, BuildFailure, InvalidOptions or (linking) LinkFailure
  std::string log;                       // diagnostics ("<source>:line:col: error: ..."), warnings too on success
  std::vector<uint8_t> spirv;            // set on Success
  // Kernel name -> vec_type_hint type with its signedness, which the SPIR-V loses: pass it on
  // in CompileRequest::vectorTypeHints.
  std::map<std::string, std::string> vectorTypeHints;
  // Loom's own frontend or linker wrote the SPIR-V: pass it on in CompileRequest::spirvFromLoom.
  bool fromLoom = false;
};

// OpenCL C 1.0 to 3.0 (-cl-std=; CL1.2 without it, as the OpenCL specification says) to a SPIR-V
// module for spir64. Safe to call from several threads at once.
SpirvResult compileOpenClSource(const SourceRequest& request);

// clLinkProgram: joins SPIR-V modules into one. A `library` (-create-library) may leave functions
// unresolved; otherwise a function or variable used but defined nowhere is a LinkFailure whose log
// names it, as are duplicate definitions. `fromLoom`: every module is what compileOpenClSource or
// this function wrote (SpirvResult::fromLoom), so none is validated again.
SpirvResult linkSpirvModules(const std::vector<std::vector<uint8_t>>& modules, bool library, bool fromLoom = false);

}  // namespace loom::compiler
