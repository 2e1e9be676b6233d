#include "build_options.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"

namespace loom::compiler {

namespace {

// Options that are valid but change nothing for SPIR-V input on Loom's targets.
bool acceptedWithoutEffect(llvm::StringRef option) {
  return llvm::StringSwitch<bool>(option)
      .Cases("-ze-opt-greater-than-4GB-buffer-required", "-ze-opt-large-register-file", "-ze-opt-small-register-file", true)
      .Cases("-g", "-w", "-Werror", "-cl-mad-enable", "-cl-single-precision-constant", "-cl-kernel-arg-info", true)
      .Cases("-cl-fp32-correctly-rounded-divide-sqrt", "-cl-uniform-work-group-size", "-cl-no-subgroup-ifp", true)
      .Case("-cl-strict-aliasing", true)
      .Default(option.startswith("-ze-opt-level=") || option.startswith("-cl-std=") || option.startswith("-D") ||
               option.startswith("-I"));
}

}  // namespace

llvm::Expected<BuildOptions> parseBuildOptions(const std::string& text) {
  BuildOptions options;
  llvm::SmallVector<llvm::StringRef, 8> words;
  llvm::StringRef(text).split(words, ' ', -1, false);
  for (llvm::StringRef word : words) {
    word = word.trim();
    if (word.empty()) continue;
    if (word == "-ze-opt-disable" || word == "-cl-opt-disable" || word == "-ze-opt-level=0") {
      options.optimize = false;
    } else if (word == "-cl-fast-relaxed-math" || word == "-cl-unsafe-math-optimizations") {
      options.fastMath = true;
      options.noSignedZeros = true;
      options.finiteMathOnly |= word == "-cl-fast-relaxed-math";
    } else if (word == "-cl-finite-math-only") {
      options.finiteMathOnly = true;
    } else if (word == "-cl-no-signed-zeros") {
      options.noSignedZeros = true;
    } else if (word == "-cl-denorms-are-zero") {
      options.denormsAreZero = true;
    } else if (!acceptedWithoutEffect(word)) {
      return llvm::createStringError(llvm::inconvertibleErrorCode(), "unknown build option '%s'", word.str().c_str());
    }
  }
  return options;
}

}  // namespace loom::compiler
