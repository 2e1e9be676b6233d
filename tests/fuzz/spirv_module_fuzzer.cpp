// Fuzz target: the SPIR-V a module build takes (zeModuleCreate, clCreateProgramWithIL and
// clBuildProgram). Each input goes through the specialization-constant scan and compileSpirv for
// the CPU (structure checks, SPIRV-Tools' validator, the translator, Loom's passes, code
// generation); a module with specialization constants is built a second time with values of its
// own. A successful build then goes where the runtime takes it: into a native binary (the
// compiler cache) and back, and into the JIT, where every kernel is looked up. The NVPTX target
// is left out: it shares everything up to code generation, and an input should take milliseconds.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "build_result_check.h"
#include "loom/compiler/compiler.h"
#include "loom/compiler/cpu_executable.h"

namespace {

using namespace loom::compiler;
using loom::fuzz::require;
using loom::fuzz::succeeded;
using loom::fuzz::throughNativeBinary;

// Every specialization constant set to all ones of its size, which no default of the seeds is.
std::map<uint32_t, uint64_t> allOnes(const std::map<uint32_t, size_t>& sizes) {
  std::map<uint32_t, uint64_t> values;
  for (const auto& [id, size] : sizes) values[id] = size >= 8 ? ~0ull : (1ull << (8 * size)) - 1;
  return values;
}

void checkLoads(const std::shared_ptr<const CompiledProgram>& program) {
  std::string log;
  auto executable = CpuExecutable::load(program, log);
  require(executable != nullptr, "a compiled program loads into the JIT");
  // Imports resolve only once another module is linked (zeModuleDynamicLink).
  if (!program->info.importedFunctions.empty()) return;
  for (const KernelDescriptor& kernel : program->info.kernels)
    require(executable->kernel(kernel.name, log) != nullptr, "every kernel of a compiled program can be looked up");
}

void checkBuild(const BuildResult& result) {
  if (succeeded(result, Status::BuildFailure)) checkLoads(throughNativeBinary(*result.program));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  CompileRequest request;
  request.spirv.assign(data, data + size);
  checkBuild(compileSpirv(request));
  const std::map<uint32_t, size_t> sizes = specializationConstantSizes(data, size);
  if (sizes.empty()) return 0;
  request.specializationConstants = allOnes(sizes);
  checkBuild(compileSpirv(request));
  return 0;
}
