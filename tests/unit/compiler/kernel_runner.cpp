#include "kernel_runner.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <mutex>

#include "embedded_files.h"
#include "loom/compiler/local_arguments.h"

namespace loom::compiler::test {

namespace {

// The runtime's choice (backends/cpu): the arena and the frames start aligned as every __local
// pointer argument inside the arena is.
constexpr size_t kScratchAlignment = kLocalArgumentAlignment;

size_t alignUp(size_t value, size_t alignment) { return (value + alignment - 1) / alignment * alignment; }

struct AlignedFree {
  void operator()(char* memory) const { std::free(memory); }
};
using Scratch = std::unique_ptr<char, AlignedFree>;

Scratch allocateScratch(size_t bytes) {
  return Scratch(static_cast<char*>(std::aligned_alloc(kScratchAlignment, alignUp(std::max<size_t>(bytes, 1), kScratchAlignment))));
}

}  // namespace

std::vector<uint8_t> readSpirv(const std::string& name) { return loom::test::embeddedBytes(name + ".spv"); }

BuildResult compile(std::vector<uint8_t> spirv, const std::string& options) {
  CompileRequest request;
  request.spirv = std::move(spirv);
  request.options = options;
  return compileSpirv(request);
}

BuildResult compileKernels(const std::string& name, const std::string& options) { return compile(readSpirv(name), options); }

BuildResult compileSourceFor(Target target, const std::string& source, const std::string& options) {
  const SpirvResult spirv = compileOpenClSource({source, options, {}});
  if (spirv.status != Status::Success) return {spirv.status, spirv.log, nullptr};
  CompileRequest request;
  request.spirv = spirv.spirv;
  request.options = options;
  request.target = target;
  return compileSpirv(request);
}

std::unique_ptr<CpuExecutable> load(const SpirvResult& spirv, const std::string& options) {
  EXPECT_EQ(spirv.status, Status::Success) << spirv.log;
  if (spirv.status != Status::Success) return nullptr;
  return loadBuilt(compile(spirv.spirv, options));
}

std::unique_ptr<CpuExecutable> loadBuilt(const BuildResult& built) {
  EXPECT_EQ(built.status, Status::Success) << built.log;
  if (built.status != Status::Success) return nullptr;
  std::string log;
  auto executable = CpuExecutable::load(built.program, log);
  EXPECT_NE(executable, nullptr) << log;
  return executable;
}

void expectReversesOneGroup(const BuildResult& built, int workItems) {
  auto executable = loadBuilt(built);
  if (!executable) return;
  std::string log;
  WorkGroupFunction reverse = executable->kernel("reverse_in_groups", log);
  ASSERT_NE(reverse, nullptr) << log;
  std::vector<int> data(workItems);
  for (int i = 0; i < workItems; ++i) data[i] = i;
  Arguments(*built.program->info.findKernel("reverse_in_groups")).set(0, data.data()).run(reverse, range1d(workItems, workItems));
  for (int i = 0; i < workItems; ++i) ASSERT_EQ(data[i], workItems - 1 - i);
}

const LoadedProgram& loadKernels(const std::string& name) {
  static std::mutex mutex;
  static std::map<std::string, LoadedProgram> loaded;
  std::lock_guard lock(mutex);
  auto [entry, inserted] = loaded.try_emplace(name);
  LoadedProgram& program = entry->second;
  if (!inserted) return program;
  program.build = compileKernels(name);
  program.log = program.build.log;
  if (program.build.status == Status::Success) program.executable = CpuExecutable::load(program.build.program, program.log);
  return program;
}

Arguments& Arguments::setLocal(size_t index, size_t bytes) {
  if (fits(index, sizeof(uint64_t))) localSizes_[index] = bytes;
  return *this;
}

bool Arguments::fits(size_t index, size_t size) const {
  if (index < kernel_.arguments.size() && kernel_.arguments[index].size == size) return true;
  ADD_FAILURE() << kernel_.name << " has no argument " << index << " of " << size << " bytes";
  return false;
}

void Arguments::run(WorkGroupFunction function, const Range& range) {
  ASSERT_NE(function, nullptr);
  // One area, as the runtime lays it out: local memory, then the barrier frames.
  const size_t localBytes = alignUp(layOutLocalArguments(kernel_, localSizes_, buffer_.data()), kScratchAlignment);
  const size_t groupItems = size_t(range.localSize[0]) * range.localSize[1] * range.localSize[2];
  Scratch scratch = allocateScratch(localBytes + size_t(kernel_.barrierFrameSize) * barrierFrameElements(groupItems));
  WorkGroupContext context{};
  for (int d = 0; d < 3; ++d) {
    context.enqueuedLocalSize[d] = range.localSize[d];
    context.numGroups[d] = uint32_t((range.globalSize[d] + range.localSize[d] - 1) / range.localSize[d]);
    context.globalSize[d] = range.globalSize[d];
    context.globalOffset[d] = range.globalOffset[d];
  }
  context.workDim = range.workDim;
  context.localMemory = scratch.get();
  context.barrierFrame = scratch.get() + localBytes;
  // Each row of groups along x in one call (as many as the runtime's runs can be), the smaller last
  // group of a non-uniform range in a call of its own.
  const uint32_t wholeGroupsX = uint32_t(range.globalSize[0] / range.localSize[0]);
  for (uint32_t z = 0; z < context.numGroups[2]; ++z)
    for (uint32_t y = 0; y < context.numGroups[1]; ++y)
      for (uint32_t x = 0; x < context.numGroups[0]; x += context.groupRun) {
        const uint32_t group[3] = {x, y, z};
        for (int d = 0; d < 3; ++d) {
          context.groupId[d] = group[d];
          const uint64_t left = range.globalSize[d] - uint64_t(group[d]) * range.localSize[d];
          context.localSize[d] = uint32_t(std::min<uint64_t>(range.localSize[d], left));
        }
        context.groupRun = x < wholeGroupsX ? wholeGroupsX - x : 1;
        function(buffer_.data(), &context);
      }
}

Kernel findKernel(const std::string& kernels, const std::string& name) {
  const LoadedProgram& loaded = loadKernels(kernels);
  if (!loaded.executable) {
    ADD_FAILURE() << kernels << ": " << loaded.log;
    return {};
  }
  std::string log;
  Kernel found{loaded.build.program->info.findKernel(name), loaded.executable->kernel(name, log)};
  if (!found.descriptor || !found.function) ADD_FAILURE() << name << ": " << log;
  return found;
}

Range range1d(uint64_t globalSize, uint32_t localSize) {
  Range range;
  range.globalSize[0] = globalSize;
  range.localSize[0] = localSize;
  return range;
}

}  // namespace loom::compiler::test
