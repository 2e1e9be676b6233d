#include "spirv_writer.h"

#include <sstream>

#include "translator_guard.h"

namespace loom::compiler {

llvm::Expected<std::vector<uint8_t>> writeSpirvModule(llvm::Module& module) {
  // The translator's defaults, as llvm-spirv uses them, with the extensions that are the only way
  // to express some builtins, used only by programs that call them: SPV_INTEL_subgroups (Intel's
  // sub-group shuffles and block reads and writes) and the floating-point atomics
  // (cl_ext_float_atomics' atomic_fetch_add, _sub, _min and _max on atomic_float and atomic_double);
  // plus the source's argument type names (OpenCL's clGetKernelArgInfo reports `uint*`, which
  // SPIR-V types alone cannot tell from `int*`).
  SPIRV::TranslatorOpts options(SPIRV::VersionNumber::MaximumVersion,
                                {{SPIRV::ExtensionID::SPV_INTEL_subgroups, true},
                                 {SPIRV::ExtensionID::SPV_EXT_shader_atomic_float_add, true},
                                 {SPIRV::ExtensionID::SPV_EXT_shader_atomic_float_min_max, true}});
  options.setPreserveOCLKernelArgTypeMetadataThroughString(true);
  std::ostringstream stream;
  std::string message;
  bool aborted = false;
  if (!writeSpirvGuarded(module, options, stream, message, aborted)) {
    if (aborted) message = "it failed an internal consistency check or crashed";
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "the SPIR-V translator cannot express the program: %s",
                                   message.c_str());
  }
  const std::string bytes = std::move(stream).str();
  return std::vector<uint8_t>(bytes.begin(), bytes.end());
}

}  // namespace loom::compiler
