#pragma once
// clBuildProgram / clCompileProgram options, checked and turned into clang -cc1 arguments.
#include <string>
#include <vector>

#include "llvm/Support/Error.h"

namespace loom::compiler {

struct OpenClCOptions {
  std::string standard = "CL1.2";          // what -cl-std= says; OpenCL C 1.2 without it
  std::vector<std::string> clangArguments;  // -D, -I, warnings, math and optimization flags
};

// Unknown options, options without their argument and unsupported -cl-std= values are an error that
// names them.
llvm::Expected<OpenClCOptions> parseOpenClCOptions(const std::string& text);

}  // namespace loom::compiler
