#pragma once
// SPIR-V 1.4 made an entry point's interface list name every global variable its call tree uses,
// not only Input and Output ones. LLVM 15's translator writes 1.4 modules whose kernels use
// UniformConstant and CrossWorkgroup variables (program-scope __constant and __global data) they
// do not list. For OpenCL kernels the list carries no meaning, so Loom validates such modules as
// if every entry point listed every global variable.
#include <cstdint>
#include <vector>

namespace loom::compiler::spirv {

// `words` with each OpEntryPoint's interface list completed with the module-scope variables it
// lacks; unchanged for modules before SPIR-V 1.4.
std::vector<uint32_t> withCompleteInterfaces(const std::vector<uint32_t>& words);

}  // namespace loom::compiler::spirv
