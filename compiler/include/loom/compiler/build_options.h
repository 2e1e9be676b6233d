#pragma once
// Build options of both APIs (zeModuleCreate, clBuildProgram, clCompileProgram, clLinkProgram),
// parsed once: what the OpenCL C frontend passes to clang, what the code generators do, and what
// the runtime asks of a built program.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace loom::compiler {

struct BuildOptions {
  // -cl-std= as given (clang's spelling, any case: CL1.2, cl2.0, CLC++2021); empty without it.
  std::string standard;
  std::vector<std::string> clangArguments;  // -D, -U, -I, warnings, math flags: for OpenCL C only
  bool optimize = true;                     // -ze-opt-disable, -cl-opt-disable, -O0 turn it off
  bool fastMath = false;                    // -cl-fast-relaxed-math, -cl-unsafe-math-optimizations
  bool finiteMathOnly = false;              // -cl-finite-math-only
  bool noSignedZeros = false;               // -cl-no-signed-zeros
  bool denormsAreZero = false;              // -cl-denorms-are-zero
  bool uniformWorkGroupSize = false;        // -cl-uniform-work-group-size
  bool createLibrary = false;               // -create-library (clLinkProgram)
  uint32_t profileFlags = 0;                // -zet-profile-flags <hex>: what a profiling tool asked for

  // The OpenCL C version the source is compiled as (120 for OpenCL C 1.2): -cl-std=, or 1.2
  // without it, as the OpenCL specification says. C++ for OpenCL 1.0 is OpenCL C 2.0, 2021 is 3.0.
  unsigned languageVersion() const;
};

// Unknown options, options without their argument and unknown -cl-std= values are an error:
// nullopt, with `error` naming the option.
std::optional<BuildOptions> parseBuildOptions(const std::string& text, std::string& error);

}  // namespace loom::compiler
