#include "opencl_c_options.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/StringSaver.h"

namespace loom::compiler {

namespace {

llvm::Error invalid(const char* format, llvm::StringRef option) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), format, option.str().c_str());
}

// Options clang -cc1 takes under the same name.
bool passedThrough(llvm::StringRef option) {
  return llvm::StringSwitch<bool>(option)
      .Cases("-w", "-Werror", "-cl-single-precision-constant", "-cl-fp32-correctly-rounded-divide-sqrt", true)
      .Cases("-cl-opt-disable", "-cl-mad-enable", "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations", true)
      .Cases("-cl-finite-math-only", "-cl-fast-relaxed-math", "-cl-uniform-work-group-size", true)
      .Default(false);
}

// Valid options that change nothing in the SPIR-V: argument info is always kept, compileSpirv
// flushes denormals, Loom's CPU code carries no debug information (and the translator's does not
// validate in LLVM 15), and the rest concern linking or features Loom lacks.
bool acceptedWithoutEffect(llvm::StringRef option) {
  return llvm::StringSwitch<bool>(option)
      .Cases("-cl-kernel-arg-info", "-cl-denorms-are-zero", "-g", "-create-library", "-enable-link-options", true)
      .Cases("-cl-strict-aliasing", "-cl-no-subgroup-ifp", true)
      .Default(false);
}

bool knownStandard(llvm::StringRef standard) {
  return llvm::StringSwitch<bool>(standard).Cases("CL1.0", "CL1.1", "CL1.2", "CL2.0", "CL3.0", true).Default(false);
}

// -D and -I take their argument attached or as the next word.
llvm::Error addWithArgument(llvm::StringRef option, llvm::ArrayRef<const char*> words, size_t& at,
                            std::vector<std::string>& arguments) {
  llvm::StringRef value = option.drop_front(2);
  if (value.empty()) {
    if (++at == words.size()) return invalid("option '%s' needs an argument", option);
    value = words[at];
  }
  arguments.push_back(option.take_front(2).str() + value.str());
  return llvm::Error::success();
}

}  // namespace

llvm::Expected<OpenClCOptions> parseOpenClCOptions(const std::string& text) {
  llvm::BumpPtrAllocator allocator;
  llvm::StringSaver saver(allocator);
  llvm::SmallVector<const char*, 16> words;
  llvm::cl::TokenizeGNUCommandLine(text, saver, words);  // quotes, as in -D NAME="a b"
  OpenClCOptions options;
  for (size_t at = 0; at < words.size(); ++at) {
    const llvm::StringRef word = words[at];
    if (word.startswith("-D") || word.startswith("-I")) {
      if (llvm::Error error = addWithArgument(word, words, at, options.clangArguments)) return error;
    } else if (word.startswith("-cl-std=")) {
      const llvm::StringRef standard = word.drop_front(8);
      if (!knownStandard(standard)) return invalid("unsupported OpenCL C version in '%s'", word);
      options.standard = standard.str();
    } else if (passedThrough(word)) {
      options.clangArguments.push_back(word.str());
    } else if (!acceptedWithoutEffect(word)) {
      return invalid("unknown build option '%s'", word);
    }
  }
  return options;
}

}  // namespace loom::compiler
