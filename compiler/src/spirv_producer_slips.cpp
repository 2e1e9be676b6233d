#include "spirv_producer_slips.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "spirv_words.h"

namespace loom::compiler {

namespace {

using namespace spirv;

// The validator says this of a capability whose extension the module does not declare.
constexpr const char* kRequiresExtension = "requires one of these extensions: ";

// Each step adds one OpExtension; a module has few capabilities.
constexpr size_t kMostSlips = 32;

// The slip the validator's first error is about, if it is one: the capability and the extension it names.
std::optional<CapabilitySlip> slipOf(const std::vector<uint32_t>& words, const Verdict& verdict) {
  const size_t named = verdict.message.find(kRequiresExtension);
  const std::vector<size_t> offsets = instructionOffsets(words);
  if (named == std::string::npos || verdict.instruction == 0 || verdict.instruction > offsets.size()) return std::nullopt;
  const size_t at = offsets[verdict.instruction - 1];
  if ((words[at] & 0xffff) != OpCapability || (words[at] >> 16) != 2) return std::nullopt;
  const size_t first = named + std::strlen(kRequiresExtension);
  const size_t end = verdict.message.find_first_of(" ,\n", first);
  CapabilitySlip slip;
  slip.capability = words[at + 1];
  slip.extension = verdict.message.substr(first, end == std::string::npos ? std::string::npos : end - first);
  slip.validatorMessage = verdict.message.substr(0, verdict.message.find('\n'));
  if (slip.extension.empty()) return std::nullopt;
  return slip;
}

// OpExtension "name" after the last OpCapability, where the logical layout wants it.
std::vector<uint32_t> withExtension(const std::vector<uint32_t>& words, const std::string& name) {
  const std::vector<uint32_t> literal = literalWords(name);
  size_t insertAt = kHeaderWords;
  for (size_t at : instructionOffsets(words))
    if ((words[at] & 0xffff) == OpCapability) insertAt = at + (words[at] >> 16);
  std::vector<uint32_t> result(words.begin(), words.begin() + static_cast<ptrdiff_t>(insertAt));
  result.push_back(static_cast<uint32_t>(literal.size() + 1) << 16 | OpExtension);
  result.insert(result.end(), literal.begin(), literal.end());
  result.insert(result.end(), words.begin() + static_cast<ptrdiff_t>(insertAt), words.end());
  return result;
}

std::vector<uint32_t> withoutCapability(const std::vector<uint32_t>& words, uint32_t capability) {
  std::vector<uint32_t> result(words.begin(), words.begin() + kHeaderWords);
  for (size_t at : instructionOffsets(words)) {
    const uint32_t count = words[at] >> 16;
    if ((words[at] & 0xffff) == OpCapability && count == 2 && words[at + 1] == capability) continue;
    result.insert(result.end(), words.begin() + static_cast<ptrdiff_t>(at), words.begin() + static_cast<ptrdiff_t>(at + count));
  }
  return result;
}

}  // namespace

std::vector<CapabilitySlip> tolerateCapabilitySlips(std::vector<uint32_t>& words, Verdict& verdict, const Validator& validate) {
  std::vector<CapabilitySlip> slips;
  while (!verdict.valid && slips.size() < kMostSlips) {
    std::optional<CapabilitySlip> slip = slipOf(words, verdict);
    if (!slip) return slips;
    words = withExtension(words, slip->extension);
    verdict = validate(words);
    slips.push_back(std::move(*slip));
  }
  if (!verdict.valid) return slips;
  for (CapabilitySlip& slip : slips) {
    std::vector<uint32_t> without = withoutCapability(words, slip.capability);
    if (!validate(without).valid) continue;
    slip.used = false;
    words = std::move(without);
  }
  return slips;
}

std::vector<uint32_t> withSlipsTolerated(std::vector<uint32_t> words, const std::vector<CapabilitySlip>& slips) {
  for (const CapabilitySlip& slip : slips) words = withExtension(words, slip.extension);
  for (const CapabilitySlip& slip : slips)
    if (!slip.used) words = withoutCapability(words, slip.capability);
  return words;
}

std::string describe(const CapabilitySlip& slip) {
  const std::string what = "the module declares capability " + std::to_string(slip.capability) + " without its extension " +
                           slip.extension + " (" + slip.validatorMessage + ")";
  return slip.used ? what + "; read as if it declared the extension" : what + "; nothing uses it, so it is ignored";
}

size_t strengthenWeakCompareExchanges(std::vector<uint32_t>& words) {
  if (words.size() < kHeaderWords || words[1] < kVersion1_4) return 0;
  size_t rewritten = 0;
  for (size_t at : instructionOffsets(words)) {
    if ((words[at] & 0xffff) != OpAtomicCompareExchangeWeak) continue;
    words[at] = (words[at] & 0xffff0000) | OpAtomicCompareExchange;
    ++rewritten;
  }
  return rewritten;
}

std::string describeStrengthenedCompareExchanges(size_t count) {
  return "the module uses OpAtomicCompareExchangeWeak " + std::to_string(count) +
         " times, which SPIR-V 1.4 and later no longer have; read as OpAtomicCompareExchange (never failing spuriously)";
}

}  // namespace loom::compiler
