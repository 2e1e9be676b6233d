#pragma once
// The functions and variables a SPIR-V module imports (LinkageAttributes of type Import) and uses:
// what an executable linked from that module alone would leave undefined.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace loom::compiler::spirv {

// Names of the imports that some instruction uses, in the order they are declared; nullopt when
// the module does not parse.
std::optional<std::vector<std::string>> usedImports(const std::vector<uint32_t>& words);

}  // namespace loom::compiler::spirv
