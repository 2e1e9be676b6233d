#pragma once
// The build options both APIs pass to the compiler, parsed once.
#include <string>

#include "llvm/Support/Error.h"

namespace loom::compiler {

struct BuildOptions {
  bool optimize = true;        // -ze-opt-disable, -cl-opt-disable turn it off
  bool fastMath = false;       // -cl-fast-relaxed-math, -cl-unsafe-math-optimizations
  bool finiteMathOnly = false; // -cl-finite-math-only
  bool noSignedZeros = false;  // -cl-no-signed-zeros
  bool denormsAreZero = false; // -cl-denorms-are-zero
};

// Unknown options are an error that names them.
llvm::Expected<BuildOptions> parseBuildOptions(const std::string& text);

}  // namespace loom::compiler
