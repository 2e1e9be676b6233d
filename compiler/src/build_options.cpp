#include "loom/compiler/build_options.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/StringSaver.h"

namespace loom::compiler {

namespace {

std::string invalid(const char* what, llvm::StringRef option) { return std::string(what) + " '" + option.str() + "'"; }

// OpenCL C options clang -cc1 takes under the same name; SPIR-V input is already past them.
bool passedToClang(llvm::StringRef option) {
  return llvm::StringSwitch<bool>(option)
      .Cases("-w", "-cl-single-precision-constant", "-cl-fp32-correctly-rounded-divide-sqrt", "-cl-mad-enable", true)
      .Cases("-cl-opt-disable", "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations", "-cl-finite-math-only", true)
      .Cases("-cl-fast-relaxed-math", "-cl-uniform-work-group-size", true)
      // Warning flags (-Werror, -Wall, -Wno-...), which clang checks itself, as other clang-based
      // implementations pass them.
      .Default(option.startswith("-W"));
}

// Valid options that change nothing in Loom's code: argument info is always kept, Loom's code
// carries no debug information, the register-file and 4 GB hints are Intel's, the rest concern
// linking or features Loom lacks.
bool acceptedWithoutEffect(llvm::StringRef option) {
  return llvm::StringSwitch<bool>(option)
      .Cases("-cl-kernel-arg-info", "-g", "-enable-link-options", "-cl-strict-aliasing", true)
      .Cases("-cl-no-subgroup-ifp", "-ze-opt-greater-than-4GB-buffer-required", "-ze-opt-large-register-file", true)
      .Case("-ze-opt-small-register-file", true)
      .Default(option.startswith("-ze-opt-level="));
}

// clang's -cl-std= values, in either case.
unsigned standardVersion(llvm::StringRef standard) {
  return llvm::StringSwitch<unsigned>(standard.lower())
      .Cases("cl", "cl1.0", 100)
      .Case("cl1.1", 110)
      .Case("cl1.2", 120)
      .Cases("cl2.0", "clc++", "clc++1.0", 200)
      .Cases("cl3.0", "clc++2021", 300)
      .Default(0);
}

// Optimization levels, as clang-based implementations take them: -O0 is -cl-opt-disable.
bool isOptimizationLevel(llvm::StringRef option) {
  return llvm::StringSwitch<bool>(option).Cases("-O", "-O0", "-O1", "-O2", "-O3", true).Cases("-Os", "-Oz", true).Default(false);
}

// -D, -U and -I take their argument attached or as the next word; false when it has none.
bool addWithArgument(llvm::StringRef option, llvm::ArrayRef<const char*> words, size_t& at, std::vector<std::string>& arguments) {
  llvm::StringRef value = option.drop_front(2);
  if (value.empty()) {
    if (++at == words.size()) return false;
    value = words[at];
  }
  arguments.push_back(option.take_front(2).str() + value.str());
  return true;
}

// Options that set a flag of their own; false for any other.
bool setFlag(llvm::StringRef option, BuildOptions& options) {
  if (option == "-ze-opt-disable" || option == "-cl-opt-disable" || option == "-ze-opt-level=0" || option == "-O0") {
    options.optimize = false;
  } else if (option == "-cl-fast-relaxed-math" || option == "-cl-unsafe-math-optimizations") {
    options.fastMath = true;
    options.noSignedZeros = true;
    options.finiteMathOnly |= option == "-cl-fast-relaxed-math";
  } else if (option == "-cl-finite-math-only") {
    options.finiteMathOnly = true;
  } else if (option == "-cl-no-signed-zeros") {
    options.noSignedZeros = true;
  } else if (option == "-cl-denorms-are-zero") {
    options.denormsAreZero = true;
  } else if (option == "-cl-uniform-work-group-size") {
    options.uniformWorkGroupSize = true;
  } else if (option == "-create-library") {
    options.createLibrary = true;
  } else {
    return false;
  }
  return true;
}

}  // namespace

unsigned BuildOptions::languageVersion() const { return standard.empty() ? 120 : standardVersion(standard); }

std::optional<BuildOptions> parseBuildOptions(const std::string& text, std::string& error) {
  llvm::BumpPtrAllocator allocator;
  llvm::StringSaver saver(allocator);
  llvm::SmallVector<const char*, 16> words;
  llvm::cl::TokenizeGNUCommandLine(text, saver, words);  // quotes, as in -D NAME="a b"
  BuildOptions options;
  for (size_t at = 0; at < words.size(); ++at) {
    const llvm::StringRef word = words[at];
    if (word.startswith("-D") || word.startswith("-U") || word.startswith("-I")) {
      if (addWithArgument(word, words, at, options.clangArguments)) continue;
      error = invalid("an argument is missing after", word);
      return std::nullopt;
    }
    if (word == "-zet-profile-flags") {
      // Level Zero tools' request for profiling information (zetKernelGetProfileInfo), its flags
      // in hex the next word; as with the model runtime, a missing or malformed value builds too.
      if (at + 1 < words.size() && !llvm::StringRef(words[at + 1]).startswith("-") &&
          llvm::StringRef(words[++at]).getAsInteger(16, options.profileFlags))
        options.profileFlags = 0;
      continue;
    }
    if (word.startswith("-cl-std=")) {
      options.standard = word.drop_front(8).str();
      if (standardVersion(options.standard) != 0) continue;
      error = invalid("unsupported OpenCL C version in", word);
      return std::nullopt;
    }
    const bool flag = setFlag(word, options);
    const bool toClang = passedToClang(word);
    if (toClang) options.clangArguments.push_back(word.str());
    if (flag || toClang || isOptimizationLevel(word) || acceptedWithoutEffect(word)) continue;
    error = invalid("unknown build option", word);
    return std::nullopt;
  }
  return options;
}

}  // namespace loom::compiler
