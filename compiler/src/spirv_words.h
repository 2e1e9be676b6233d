#pragma once
// The few SPIR-V encoding facts Loom's own scans of a module need (the translator does the rest).
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace loom::compiler::spirv {

constexpr uint32_t kMagic = 0x07230203;
constexpr size_t kHeaderWords = 5;
constexpr uint32_t kVersion1_4 = 0x00010400;  // the header's version word of SPIR-V 1.4

enum Opcode : uint32_t {
  OpUndef = 1,
  OpName = 5,
  OpMemberName = 6,
  OpExtension = 10,
  OpCapability = 17,
  OpEntryPoint = 15,
  OpTypeBool = 20,
  OpTypeInt = 21,
  OpTypeFloat = 22,
  OpTypeVector = 23,
  OpTypeSampler = 26,
  OpTypePointer = 32,
  OpConstantTrue = 41,
  OpConstantNull = 46,  // OpConstantTrue .. OpConstantNull are the constants
  OpSpecConstantTrue = 48,
  OpSpecConstantFalse = 49,
  OpSpecConstant = 50,
  OpSpecConstantComposite = 51,
  OpFunction = 54,
  OpFunctionParameter = 55,
  OpFunctionEnd = 56,
  OpVariable = 59,
  OpDecorate = 71,
  OpCompositeConstruct = 80,
  OpCompositeExtract = 81,
  OpCompositeInsert = 82,
  OpAtomicCompareExchange = 230,
  OpAtomicCompareExchangeWeak = 231,
  OpLabel = 248,
  OpBranch = 249,
  OpUnreachable = 255,  // OpBranch .. OpUnreachable are the block terminators
  OpDecorateString = 5632,
};

constexpr uint32_t kFirstExtensionOpcode = 4096;  // SPIR-V leaves opcodes from here to extensions

constexpr uint32_t kCapabilityLinkage = 5;
constexpr uint32_t kCapabilityFunctionPointersINTEL = 5603;
constexpr uint32_t kAnyOperand = ~0u;

constexpr uint32_t kDecorationSpecId = 1;
constexpr uint32_t kDecorationLinkageAttributes = 41;
constexpr uint32_t kLinkageTypeImport = 1;

// Offsets of the instructions, in order.
inline std::vector<size_t> instructionOffsets(const std::vector<uint32_t>& words) {
  std::vector<size_t> offsets;
  for (size_t at = kHeaderWords; at < words.size() && (words[at] >> 16) != 0; at += words[at] >> 16) offsets.push_back(at);
  return offsets;
}

// A literal string's words: nul-terminated, padded with zeros to a whole word.
inline std::vector<uint32_t> literalWords(const std::string& text) {
  std::vector<uint32_t> packed((text.size() + 4) / 4, 0);
  std::memcpy(packed.data(), text.data(), text.size());
  return packed;
}

inline std::vector<uint32_t> words(const uint8_t* bytes, size_t size) {
  std::vector<uint32_t> result(size / 4);
  if (!result.empty()) std::memcpy(result.data(), bytes, result.size() * 4);
  return result;
}

}  // namespace loom::compiler::spirv
