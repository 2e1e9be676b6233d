#include "spirv_writer.h"

#include <cstring>
#include <sstream>
#include <vector>

#include "llvm/IR/Metadata.h"
#include "spirv_producer_slips.h"
#include "spirv_words.h"
#include "translator_guard.h"

namespace loom::compiler {

namespace {

// LLVM 15's translator gives a kernel argument that kernel_arg_base_type calls sampler_t an
// OpTypeSampler of its own, other than the one it gives every other sampler value of the same
// LLVM type (a sampler literal, an argument spilled to memory): a module with both declares
// OpTypeSampler twice, or the translator stops on a store of the one into a slot of the other.
// The argument's LLVM type already says it is a sampler, so the metadata names that type instead,
// and the translator maps every sampler to one OpTypeSampler. (The argument type names that
// clGetKernelArgInfo reports come from kernel_arg_type, which stays as it is.)
constexpr const char* kSamplerTypeName = "sampler_t";
constexpr const char* kSamplerStructName = "opencl.sampler_t";

llvm::MDNode* withSamplersNamedByStruct(llvm::MDNode& types) {
  std::vector<llvm::Metadata*> operands(types.op_begin(), types.op_end());
  bool renamed = false;
  for (llvm::Metadata*& operand : operands) {
    auto* name = llvm::dyn_cast_or_null<llvm::MDString>(operand);
    if (!name || name->getString() != kSamplerTypeName) continue;
    operand = llvm::MDString::get(types.getContext(), kSamplerStructName);
    renamed = true;
  }
  return renamed ? llvm::MDNode::get(types.getContext(), operands) : &types;
}

void nameSamplerArgumentsByStruct(llvm::Module& module) {
  for (llvm::Function& function : module)
    if (llvm::MDNode* types = function.getMetadata("kernel_arg_base_type"))
      function.setMetadata("kernel_arg_base_type", withSamplersNamedByStruct(*types));
}

}  // namespace

llvm::Expected<std::vector<uint8_t>> writeSpirvModule(llvm::Module& module) {
  // The translator's defaults, as llvm-spirv uses them, with the extensions that are the only way
  // to express some builtins, used only by programs that call them: SPV_INTEL_subgroups (Intel's
  // sub-group shuffles and block reads and writes) and the floating-point atomics
  // (cl_ext_float_atomics' atomic_fetch_add, _sub, _min and _max on atomic_float and atomic_double)
  // and sub-group rotates (cl_khr_subgroup_rotate);
  // plus the source's argument type names (OpenCL's clGetKernelArgInfo reports `uint*`, which
  // SPIR-V types alone cannot tell from `int*`).
  SPIRV::TranslatorOpts options(SPIRV::VersionNumber::MaximumVersion,
                                {{SPIRV::ExtensionID::SPV_INTEL_subgroups, true},
                                 {SPIRV::ExtensionID::SPV_EXT_shader_atomic_float_add, true},
                                 {SPIRV::ExtensionID::SPV_EXT_shader_atomic_float_min_max, true},
                                 {SPIRV::ExtensionID::SPV_KHR_subgroup_rotate, true}});
  options.setPreserveOCLKernelArgTypeMetadataThroughString(true);
  std::ostringstream stream;
  std::string message;
  bool aborted = false;
  nameSamplerArgumentsByStruct(module);
  if (!writeSpirvGuarded(module, options, stream, message, aborted)) {
    if (aborted) message = "it failed an internal consistency check or crashed";
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "the SPIR-V translator cannot express the program: %s",
                                   message.c_str());
  }
  // The translator's slip, fixed where Loom is the producer: what Loom hands out (CL_PROGRAM_IL,
  // loom-cc spirv) is valid SPIR-V.
  const std::string bytes = std::move(stream).str();
  std::vector<uint32_t> words = spirv::words(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  strengthenWeakCompareExchanges(words);
  std::vector<uint8_t> result(words.size() * 4);
  if (!words.empty()) std::memcpy(result.data(), words.data(), result.size());
  return result;
}

}  // namespace loom::compiler
