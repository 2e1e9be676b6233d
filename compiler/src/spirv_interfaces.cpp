#include "spirv_interfaces.h"

#include <algorithm>

#include "spirv_words.h"

namespace loom::compiler::spirv {

namespace {

constexpr uint32_t kVersion14 = 0x00010400;
constexpr uint32_t kStorageClassFunction = 7;

uint32_t wordCount(uint32_t firstWord) { return std::max(firstWord >> 16, 1u); }

// Module-scope OpVariables (those before the first function) other than Function ones.
std::vector<uint32_t> globalVariables(const std::vector<uint32_t>& words) {
  std::vector<uint32_t> ids;
  for (size_t at = kHeaderWords; at < words.size(); at += wordCount(words[at])) {
    const uint32_t opcode = words[at] & 0xffff;
    if (opcode == OpFunction) break;
    if (opcode == OpVariable && wordCount(words[at]) >= 4 && at + 3 < words.size() && words[at + 3] != kStorageClassFunction)
      ids.push_back(words[at + 2]);
  }
  return ids;
}

// The entry point at `at` with every id of `globals` it lacks appended to its interface.
void appendCompleted(const std::vector<uint32_t>& words, size_t at, const std::vector<uint32_t>& globals, std::vector<uint32_t>& out) {
  const size_t end = std::min(words.size(), at + wordCount(words[at]));
  // Operands: execution model, function id, the name (a nul-terminated string padded to words),
  // then the interface ids.
  size_t interface = at + 3;
  while (interface < end && (words[interface] >> 24) != 0) ++interface;
  interface = std::min(end, interface + 1);
  std::vector<uint32_t> instruction(words.begin() + at, words.begin() + end);
  for (uint32_t id : globals)
    if (std::find(words.begin() + interface, words.begin() + end, id) == words.begin() + end) instruction.push_back(id);
  instruction[0] = (uint32_t(instruction.size()) << 16) | OpEntryPoint;
  out.insert(out.end(), instruction.begin(), instruction.end());
}

}  // namespace

std::vector<uint32_t> withCompleteInterfaces(const std::vector<uint32_t>& words) {
  if (words.size() < kHeaderWords || words[1] < kVersion14) return words;
  const std::vector<uint32_t> globals = globalVariables(words);
  std::vector<uint32_t> out(words.begin(), words.begin() + kHeaderWords);
  out.reserve(words.size() + globals.size());
  for (size_t at = kHeaderWords; at < words.size(); at += wordCount(words[at])) {
    const size_t end = std::min(words.size(), at + wordCount(words[at]));
    if ((words[at] & 0xffff) == OpEntryPoint && end - at >= 3)
      appendCompleted(words, at, globals, out);
    else
      out.insert(out.end(), words.begin() + at, words.begin() + end);
  }
  return out;
}

}  // namespace loom::compiler::spirv
