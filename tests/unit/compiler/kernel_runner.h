#pragma once
// What the tests need to play the runtime's part: compile a test kernel, fill an argument buffer
// by the kernel's descriptor, and run every work-group of a range on this thread.
#include <array>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "loom/compiler/compiler.h"
#include "loom/compiler/cpu_executable.h"
#include "loom/compiler/opencl_c.h"

namespace loom::compiler::test {

// The SPIR-V of tests/unit/compiler/kernels/<name>.cl, compiled at build time and built into the
// program.
std::vector<uint8_t> readSpirv(const std::string& name);

BuildResult compile(std::vector<uint8_t> spirv, const std::string& options = "");
BuildResult compileKernels(const std::string& name, const std::string& options = "");
// OpenCL C built from source, with `options` (its -cl-std among them), for `target`; the
// front end's log when that step fails.
BuildResult compileSourceFor(Target target, const std::string& source, const std::string& options = "");

// SPIR-V (from compileOpenClSource) compiled for the CPU with build `options` and loaded; null,
// with a test failure showing the failing step's log, when any step fails.
std::unique_ptr<CpuExecutable> load(const SpirvResult& spirv, const std::string& options = "");
// A build loaded for the CPU; null, with a test failure showing the log, when either step failed.
std::unique_ptr<CpuExecutable> loadBuilt(const BuildResult& built);

// Compiled and loaded once per test program: the build log is in `log` when it failed.
struct LoadedProgram {
  BuildResult build;
  std::unique_ptr<CpuExecutable> executable;
  std::string log;
};
const LoadedProgram& loadKernels(const std::string& name);

// The kernel `name` of test program `kernels` (loadKernels), ready to run; nulls, with a test
// failure, when it cannot be had.
struct Kernel {
  const KernelDescriptor* descriptor = nullptr;
  WorkGroupFunction function = nullptr;
};
Kernel findKernel(const std::string& kernels, const std::string& name);

struct Range {
  std::array<uint64_t, 3> globalSize{1, 1, 1};
  std::array<uint32_t, 3> localSize{1, 1, 1};
  std::array<uint64_t, 3> globalOffset{0, 0, 0};
  uint32_t workDim = 1;
};

Range range1d(uint64_t globalSize, uint32_t localSize);

// Runs barriers.cl's reverse_in_groups from `built` (a build of barriers.cl) over one group of
// `workItems` and expects the data reversed: the barrier state machine works in that build.
void expectReversesOneGroup(const BuildResult& built, int workItems);

// The argument buffer of one launch, laid out by the kernel's descriptor.
class Arguments {
 public:
  explicit Arguments(const KernelDescriptor& kernel)
      : kernel_(kernel), buffer_(kernel.argumentBufferSize), localSizes_(kernel.arguments.size()) {}

  template <typename T>
  Arguments& set(size_t index, const T& value) {
    if (!fits(index, sizeof(T))) return *this;
    std::memcpy(buffer_.data() + kernel_.arguments[index].offset, &value, sizeof(T));
    return *this;
  }
  // A __local pointer argument of `bytes` bytes; its offset is chosen at launch.
  Arguments& setLocal(size_t index, size_t bytes);

  // Runs every work-group of `range`, like the runtime does, but one group after another.
  void run(WorkGroupFunction function, const Range& range);

 private:
  bool fits(size_t index, size_t size) const;  // records a test failure when not

  const KernelDescriptor& kernel_;
  std::vector<uint8_t> buffer_;
  std::vector<uint64_t> localSizes_;
};

}  // namespace loom::compiler::test
