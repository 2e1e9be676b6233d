#include "spirv_reader.h"

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "LLVMSPIRVLib.h"
#include "atomic_ordering.h"
#include "spirv-tools/libspirv.hpp"
#include "translator_guard.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"
#include "module_passes.h"
#include "spirv_interfaces.h"
#include "composite_constructs.h"
#include "half_atomics.h"
#include "spirv_producer_slips.h"
#include "sampler_types.h"
#include "spirv_words.h"
#include "block_order.h"

namespace loom::compiler {

namespace {

using namespace spirv;
constexpr size_t kHeaderBytes = kHeaderWords * 4;

llvm::Error malformed(const char* what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "invalid SPIR-V module: %s", what);
}

bool isTerminator(uint32_t opcode) { return opcode >= OpBranch && opcode <= OpUnreachable; }

// Functions and blocks must nest properly: the translator asserts (and aborts the process) on a
// function that never ends or a block without a terminator.
class FunctionStructure {
 public:
  llvm::Error see(uint32_t opcode) {
    if (opcode == OpFunction) {
      if (inFunction_) return malformed("OpFunction inside another function");
      inFunction_ = true, inBlock_ = false;
    } else if (opcode == OpFunctionEnd) {
      if (!inFunction_) return malformed("OpFunctionEnd without OpFunction");
      if (inBlock_) return malformed("a block does not end with a terminator");
      inFunction_ = false;
    } else if (opcode == OpLabel) {
      if (!inFunction_) return malformed("OpLabel outside a function");
      if (inBlock_) return malformed("a block does not end with a terminator");
      inBlock_ = true;
    } else if (inFunction_ && opcode != OpFunctionParameter) {
      if (!inBlock_) return malformed("an instruction outside any block of a function");
      if (isTerminator(opcode)) inBlock_ = false;
    }
    return llvm::Error::success();
  }
  llvm::Error end() const { return inFunction_ ? malformed("a function has no OpFunctionEnd (truncated?)") : llvm::Error::success(); }

 private:
  bool inFunction_ = false, inBlock_ = false;
};

// The translator trusts its input; reject what would make it read past the end first.
llvm::Error checkStructure(const std::vector<uint8_t>& spirv) {
  if (spirv.size() < kHeaderBytes) return malformed("shorter than the 20-byte header");
  if (spirv.size() % 4 != 0) return malformed("size is not a multiple of 4 bytes");
  const std::vector<uint32_t> words = spirv::words(spirv.data(), spirv.size());
  if (words[0] != kMagic) return malformed("wrong magic number (not SPIR-V, or the other byte order)");
  const uint32_t version = words[1];
  if (version < 0x00010000 || version > 0x00010600) return malformed("unsupported SPIR-V version");
  // The validator ignores it; the translator reads its instructions wrongly and crashes.
  if (words[4] != 0) return malformed("the header's schema word is not 0");
  FunctionStructure functions;
  for (size_t at = kHeaderWords; at < words.size();) {
    const uint32_t wordCount = words[at] >> 16;
    if (wordCount == 0) return malformed("an instruction has a word count of 0");
    if (at + wordCount > words.size()) return malformed("the last instruction is truncated");
    if (llvm::Error error = functions.see(words[at] & 0xffff)) return error;
    at += wordCount;
  }
  return functions.end();
}

bool declares(const std::vector<uint32_t>& words, uint32_t opcode, uint32_t firstOperand = kAnyOperand) {
  for (size_t at = kHeaderWords; at < words.size() && (words[at] >> 16) != 0; at += words[at] >> 16)
    if ((words[at] & 0xffff) == opcode && (firstOperand == kAnyOperand || (at + 1 < words.size() && words[at + 1] == firstOperand)))
      return true;
  return false;
}

// The opcode of the `number`th instruction (counted from 1, as the validator counts); 0 if none.
uint32_t opcodeOfInstruction(const std::vector<uint32_t>& words, size_t number) {
  size_t at = kHeaderWords;
  for (size_t count = 1; at < words.size() && count < number; ++count) at += std::max(words[at] >> 16, 1u);
  return at < words.size() && number > 0 ? words[at] & 0xffff : 0;
}

// SPIRV-Tools' parser: every opcode, operand and enumerant known and every operand inside its
// instruction. What it cannot parse, the translator cannot read either.
llvm::Error parse(const std::vector<uint32_t>& words) {
  spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_5);
  spv_diagnostic diagnostic = nullptr;
  const bool parsed = spvBinaryParse(context, nullptr, words.data(), words.size(), nullptr, nullptr, &diagnostic) == SPV_SUCCESS;
  std::string message = diagnostic ? "word " + std::to_string(diagnostic->position.index) + ": " + diagnostic->error : "";
  spvDiagnosticDestroy(diagnostic);
  spvContextDestroy(context);
  if (parsed) return llvm::Error::success();
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "invalid SPIR-V module: %s", message.c_str());
}

Verdict runValidator(const std::vector<uint32_t>& words, bool friendlyNames) {
  Verdict verdict;
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_5);
  tools.SetMessageConsumer([&](spv_message_level_t level, const char*, const spv_position_t& position, const char* message) {
    if (level > SPV_MSG_ERROR || !verdict.message.empty()) return;
    verdict.instruction = position.index;
    verdict.message = message;
  });
  // OpenCL kernels may take more parameters than SPIR-V's universal limit of 255: the
  // parameter-size limit of the device is the one that applies (CL_DEVICE_MAX_PARAMETER_SIZE).
  spvtools::ValidatorOptions options;
  options.SetUniversalLimit(spv_validator_limit_max_function_args, 65535);
  options.SetFriendlyNames(friendlyNames);
  verdict.valid = tools.Validate(words.data(), words.size(), options);
  return verdict;
}

// Intel's driver builds modules without kernels (no OpEntryPoint) that lack the Linkage capability
// as empty modules; the validator requires Linkage there. Such a module is valid if it would be
// valid with Linkage.
bool validWithoutKernels(const std::vector<uint32_t>& words) {
  if (declares(words, OpEntryPoint) || declares(words, OpCapability, kCapabilityLinkage)) return false;
  std::vector<uint32_t> withLinkage(words.begin(), words.begin() + kHeaderWords);
  withLinkage.insert(withLinkage.end(), {(2u << 16) | OpCapability, kCapabilityLinkage});
  withLinkage.insert(withLinkage.end(), words.begin() + kHeaderWords, words.end());
  return runValidator(withLinkage, false).valid;
}

enum class Validity { Valid, Unchecked };

struct Checked {
  Validity validity = Validity::Valid;
  std::vector<CapabilitySlip> slips;  // tolerated: the translator reads the module with them fixed
  size_t samplerTypes = 0;            // OpTypeSampler declarations; more than one are read as one
  size_t strengthenedCompareExchanges = 0;  // OpAtomicCompareExchangeWeak of SPIR-V 1.4 and later, read as strong
  size_t reorderedFunctions = 0;  // functions whose blocks came before their dominators, read in dominance order
};

// Whether an error of the validator at an instruction of `opcode` may be a rule an extension it does
// not know lifts: at an instruction an extension defines (opcodes from 4096) in a module that
// declares extensions, e.g. SPV_INTEL_function_pointers' OpConstantFunctionPointerINTEL, which
// names a function before its definition; at a pointer type in a module with that extension's
// capability, which lets pointers point to functions (OpenCL C 2.0's generic function pointers).
bool extensionMayAllow(const std::vector<uint32_t>& words, uint32_t opcode) {
  if (opcode >= kFirstExtensionOpcode) return declares(words, OpExtension);
  return opcode == OpTypePointer && declares(words, OpCapability, kCapabilityFunctionPointersINTEL);
}

// While the validator's first error is a block listed before its dominator, puts the blocks of
// `words` in dominance order (block_order.h) and validates again. Returns the functions changed.
size_t tolerateBlockOrder(std::vector<uint32_t>& words, Verdict& verdict) {
  if (verdict.valid || !isBlockOrderError(verdict.message)) return 0;
  const size_t reordered = putBlocksInDominanceOrder(words);
  if (reordered > 0) verdict = runValidator(words, true);
  return reordered;
}

// SPIRV-Tools' validator catches the semantic damage the translator would assert on, or exit the
// process on (Debian's translator calls exit() on the errors it detects). Its verdict is not final
// where it does not know an extension's rules (extensionMayAllow). Such a module is Unchecked:
// damage elsewhere may hide behind that first error. Slips of producers are tolerated first.
llvm::Expected<Checked> validate(const std::vector<uint8_t>& spirv) {
  std::vector<uint32_t> words = withCompleteInterfaces(spirv::words(spirv.data(), spirv.size()));
  if (llvm::Error error = parse(words)) return error;
  const size_t samplerTypes = samplerTypeCount(words);
  const size_t strengthened = strengthenWeakCompareExchanges(words);
  words = withOneSamplerType(words);
  // Naming every id for messages costs about a third of the validation of a large module: only
  // a module that fails is validated again with names, for a readable message.
  if (runValidator(words, false).valid || validWithoutKernels(words)) return Checked{Validity::Valid, {}, samplerTypes, strengthened};
  Verdict verdict = runValidator(words, true);
  // The validator checks capabilities before block order: a module may have both slips.
  size_t reordered = tolerateBlockOrder(words, verdict);
  std::vector<CapabilitySlip> slips =
      tolerateCapabilitySlips(words, verdict, [](const std::vector<uint32_t>& module) { return runValidator(module, true); });
  reordered += tolerateBlockOrder(words, verdict);
  if (verdict.valid || validWithoutKernels(words)) return Checked{Validity::Valid, std::move(slips), samplerTypes, strengthened, reordered};
  const uint32_t opcode = opcodeOfInstruction(words, verdict.instruction);
  if (extensionMayAllow(words, opcode)) return Checked{Validity::Unchecked, std::move(slips), samplerTypes, strengthened, reordered};
  // Errors about the module as a whole (a missing OpMemoryModel, say) have no instruction.
  const std::string where = verdict.instruction == 0 ? ""
                            : "instruction " + std::to_string(verdict.instruction) + " (Op" + spvOpcodeString(opcode) + "): ";
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "invalid SPIR-V module: %s%s", where.c_str(),
                                 verdict.message.c_str());
}

llvm::Expected<Checked> check(const std::vector<uint8_t>& spirv, SpirvOrigin origin) {
  if (origin == SpirvOrigin::Foreign) return validate(spirv);
  return Checked{Validity::Valid, {}, samplerTypeCount(spirv::words(spirv.data(), spirv.size()))};
}

// SPIR-V scopes and memory semantics (SPIR-V 1.6 sections 3.27 and 3.25) in OpenCL C's terms
// (clang's __OPENCL_MEMORY_SCOPE_* and CLK_*_MEM_FENCE).
uint32_t openClMemoryScope(uint64_t scope) {
  switch (scope) {
    case 0: return 3;  // CrossDevice: memory_scope_all_svm_devices
    case 1: return 2;  // Device: memory_scope_device
    case 2: return 1;  // Workgroup: memory_scope_work_group
    case 3: return 4;  // Subgroup: memory_scope_sub_group
    default: return 0;  // Invocation: memory_scope_work_item
  }
}
uint32_t openClFenceFlags(uint64_t semantics) {
  return ((semantics & 0x100) ? 1 : 0) | ((semantics & 0x200) ? 2 : 0) | ((semantics & 0x800) ? 4 : 0);
}

// OpenCL 1.2 has no sub_group_barrier: the translator's lowering would turn a control barrier of
// sub-group execution scope into barrier(), a work-group barrier. Those become sub_group_barrier
// with OpenCL C's fence flags and memory scope first.
void keepSubGroupBarriers(llvm::Module& module) {
  constexpr uint64_t kScopeSubgroup = 3;
  std::vector<llvm::CallInst*> barriers;
  for (llvm::Function& function : module)
    if (function.isDeclaration() && function.getName().contains("__spirv_ControlBarrier"))
      for (llvm::User* user : function.users())
        if (auto* call = llvm::dyn_cast<llvm::CallInst>(user); call && call->arg_size() == 3) barriers.push_back(call);
  for (llvm::CallInst* call : barriers) {
    auto* execution = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(0));
    auto* scope = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(1));
    auto* semantics = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(2));
    if (!execution || !scope || !semantics || execution->getZExtValue() != kScopeSubgroup) continue;
    llvm::IRBuilder<> builder(call);
    llvm::FunctionCallee subGroupBarrier = module.getOrInsertFunction(
        "_Z17sub_group_barrierj12memory_scope", builder.getVoidTy(), builder.getInt32Ty(), builder.getInt32Ty());
    llvm::CallInst* replacement = builder.CreateCall(
        subGroupBarrier, {builder.getInt32(openClFenceFlags(semantics->getZExtValue())),
                          builder.getInt32(openClMemoryScope(scope->getZExtValue()))});
    // The translator's convention (spir_func) on both, as for every builtin it declares.
    if (auto* declared = llvm::dyn_cast<llvm::Function>(subGroupBarrier.getCallee())) declared->setCallingConv(call->getCallingConv());
    replacement->setCallingConv(call->getCallingConv());
    replacement->addFnAttr(llvm::Attribute::Convergent);
    call->eraseFromParent();
  }
}

// The Itanium mangling of __spirv_AtomicLoad(volatile <address space> <integer>*, int, int).
std::string integerAtomicLoadName(unsigned addressSpace, unsigned bits) {
  const std::string pointer = addressSpace == 0 ? "P" : "PU3AS" + std::to_string(addressSpace);
  return "_Z18__spirv_AtomicLoad" + pointer + (bits == 64 ? "l" : "i") + "ii";
}

// The translator's OpenCL 1.2 lowering reads an atomic float as atomic_add(pointer, 0.0f), which
// writes +0 over a stored -0 and quiets a signaling NaN. Floating-point atomic loads become loads
// of the same bits as integers first, whose lowering atomic_add(pointer, 0) leaves memory as it was.
void loadAtomicFloatsAsIntegers(llvm::Module& module) {
  std::vector<llvm::CallInst*> loads;
  for (llvm::Function& function : module)
    if (function.isDeclaration() && function.getName().contains("__spirv_AtomicLoad") &&
        function.getReturnType()->isFloatingPointTy() && !function.getReturnType()->isHalfTy() && function.arg_size() == 3)
      for (llvm::CallInst* call : callsOf(function)) loads.push_back(call);
  for (llvm::CallInst* call : loads) {
    llvm::IRBuilder<> builder(call);
    llvm::Type* floating = call->getType();
    llvm::Type* integer = builder.getIntNTy(floating->getPrimitiveSizeInBits());
    const unsigned addressSpace = call->getArgOperand(0)->getType()->getPointerAddressSpace();
    llvm::FunctionCallee load = module.getOrInsertFunction(integerAtomicLoadName(addressSpace, integer->getIntegerBitWidth()),
                                                           integer, integer->getPointerTo(addressSpace), builder.getInt32Ty(),
                                                           builder.getInt32Ty());
    if (auto* declared = llvm::dyn_cast<llvm::Function>(load.getCallee())) declared->setCallingConv(call->getCallingConv());
    llvm::Value* pointer = builder.CreatePointerCast(call->getArgOperand(0), integer->getPointerTo(addressSpace));
    llvm::CallInst* bits = builder.CreateCall(load, {pointer, call->getArgOperand(1), call->getArgOperand(2)});
    bits->setCallingConv(call->getCallingConv());
    call->replaceAllUsesWith(builder.CreateBitCast(bits, floating));
    call->eraseFromParent();
  }
}

// The module the translator reads: with the slips validate() tolerated fixed and the valid forms
// the translator would misread rewritten.
std::string translatorInput(const std::vector<uint8_t>& spirv, const Checked& checked) {
  std::vector<uint32_t> words = spirv::words(spirv.data(), spirv.size());
  if (!checked.slips.empty()) words = withSlipsTolerated(std::move(words), checked.slips);
  if (checked.reorderedFunctions > 0) putBlocksInDominanceOrder(words);
  strengthenWeakCompareExchanges(words);
  declareHalfAtomicAddsAsFloatAdds(words);
  words = withOneSamplerType(withCompositeConstructsExpanded(words));
  return std::string(reinterpret_cast<const char*>(words.data()), words.size() * 4);
}

}  // namespace

llvm::Expected<std::unique_ptr<llvm::Module>> readSpirvModule(llvm::LLVMContext& context, const std::vector<uint8_t>& spirv,
                                                              const std::map<uint32_t, uint64_t>& specializationConstants,
                                                              std::string* warnings, SpirvOrigin origin) {
  if (llvm::Error error = checkStructure(spirv)) return error;
  auto checked = check(spirv, origin);
  if (!checked) return checked.takeError();
  if (warnings)
    for (const CapabilitySlip& slip : checked->slips) *warnings += "warning: " + describe(slip) + "\n";
  if (warnings && checked->strengthenedCompareExchanges > 0)
    *warnings += "warning: " + describeStrengthenedCompareExchanges(checked->strengthenedCompareExchanges) + "\n";
  if (warnings && checked->reorderedFunctions > 0)
    *warnings += "warning: " + std::to_string(checked->reorderedFunctions) +
                 " function(s) list blocks before their dominators (SPIR-V 1.6 section 2.4); read in dominance order\n";
  if (warnings && checked->samplerTypes > 1)
    *warnings += "warning: the module declares OpTypeSampler " + std::to_string(checked->samplerTypes) +
                 " times (as llvm-spirv 15 does for a sampler literal beside a sampler argument); read as one type\n";
  SPIRV::TranslatorOpts options(SPIRV::VersionNumber::MaximumVersion);
  options.enableAllExtensions();
  // SPIR-V friendly IR first, so that sub-group barriers keep their scope (keepSubGroupBarriers)
  // and atomic floats load exactly (loadAtomicFloatsAsIntegers); then the translator's own lowering to OpenCL 1.2 names, which the builtin library defines.
  options.setDesiredBIsRepresentation(SPIRV::BIsRepresentation::SPIRVFriendlyIR);
  options.setGenKernelArgNameMDEnabled(true);
  // Argument type names the producer kept as OpString (Loom's OpenCL C frontend does).
  options.setPreserveOCLKernelArgTypeMetadataThroughString(true);
  for (const auto& [id, value] : specializationConstants) options.setSpecConst(id, value);
  const std::string bytes = translatorInput(spirv, *checked);
  std::string message;
  if (checked->validity == Validity::Unchecked && !readsInChildProcess(options, bytes, message))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "invalid SPIR-V module: %s (the validator could not check its extensions)", message.c_str());
  std::istringstream stream(bytes);
  llvm::Module* module = nullptr;
  bool aborted = false;
  if (!readSpirvGuarded(context, options, stream, module, message, aborted) || !module) {
    if (aborted) message = "the SPIR-V translator rejected the module (it failed an internal consistency check or crashed)";
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "invalid SPIR-V module: %s", message.c_str());
  }
  std::unique_ptr<llvm::Module> owned(module);
  keepSubGroupBarriers(*owned);
  loadAtomicFloatsAsIntegers(*owned);
  fenceOrderedAtomics(*owned);
  lowerHalfAtomics(*owned);  // inside the fences an ordered half atomic got
  if (!lowerToOpenCl12Guarded(*owned, aborted)) {
    (void)owned.release();  // half lowered: left alone, a bounded leak as for an aborted read
    return malformed("the SPIR-V translator rejected the module (it failed an internal consistency check or crashed)");
  }
  std::string problems;
  llvm::raw_string_ostream out(problems);
  if (llvm::verifyModule(*owned, &out))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "SPIR-V translated to invalid IR: %s", problems.c_str());
  return owned;
}

}  // namespace loom::compiler
