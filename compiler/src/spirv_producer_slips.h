#pragma once
// Slips of real SPIR-V producers that Loom accepts where they are harmless: a capability declared
// without the extension that defines it (level-zero-tests' ze_peak declares
// ArbitraryPrecisionIntegersINTEL so, and nothing in it uses the capability), and
// OpAtomicCompareExchangeWeak where SPIR-V no longer has it. Whatever else the validator finds
// stays an error.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace loom::compiler {

// SPIRV-Tools' validator's verdict on a module.
struct Verdict {
  bool valid = false;
  size_t instruction = 0;  // the first error's instruction, counted from 1
  std::string message;     // the first error
};
using Validator = std::function<Verdict(const std::vector<uint32_t>& words)>;

// A capability that a module declares without the extension that defines it.
struct CapabilitySlip {
  uint32_t capability = 0;
  std::string extension;  // the one the validator names
  bool used = true;       // the module is invalid without the capability
  std::string validatorMessage;
};

// While the validator's first error is a capability declared without its extension, checks the
// module as if it declared that extension; once valid so, drops each such capability the module
// is valid without. `words` and `verdict` become the module checked last and its verdict.
std::vector<CapabilitySlip> tolerateCapabilitySlips(std::vector<uint32_t>& words, Verdict& verdict, const Validator& validate);

// `words` with the same changes: the translator reads the module as it was validated.
std::vector<uint32_t> withSlipsTolerated(std::vector<uint32_t> words, const std::vector<CapabilitySlip>& slips);

// What was accepted, for the build log.
std::string describe(const CapabilitySlip& slip);

// SPIR-V 1.4 removed OpAtomicCompareExchangeWeak; llvm-spirv 15 still writes it for
// atomic_compare_exchange_weak in modules whose version a NoSignedWrap decoration raised to 1.4.
// In such a module each becomes OpAtomicCompareExchange, whose operands are the same: the weak form
// may fail spuriously, the strong one never does, so the strong one implements the weak one.
// Returns how many were rewritten.
size_t strengthenWeakCompareExchanges(std::vector<uint32_t>& words);

// The build log's line for `count` rewritten instructions.
std::string describeStrengthenedCompareExchanges(size_t count);

}  // namespace loom::compiler
