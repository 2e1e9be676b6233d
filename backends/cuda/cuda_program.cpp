#include "backends/cuda/cuda_program.h"

#include <algorithm>

#include "backends/cuda/cuda_dependent_launch.h"
#include "backends/cuda/cuda_linker.h"
#include "backends/cuda/cuda_texture_mirror.h"
#include "loom/compiler/nvptx_launch_abi.h"
#include "loom/core/log.h"

namespace loom::backends::cuda {

namespace {
// The PTX of programs as this GPU compiles it.
struct DevicePtx {
  std::vector<std::string> texts;
  bool waitsForGridDependencies = false;
};

// Raised for dependent launches where the GPU has them and every program's PTX allows it, so that
// a linked module's kernels launch early only when all its code waits.
DevicePtx devicePtx(const std::vector<const compiler::CompiledProgram*>& programs, bool dependentLaunches) {
  DevicePtx ptx;
  for (const compiler::CompiledProgram* program : programs) ptx.texts.push_back(ptxText(program->code));
  if (!dependentLaunches) return ptx;
  std::vector<std::string> raised;
  for (const std::string& text : ptx.texts) {
    std::optional<std::string> waiting = ptxWaitingForGridDependencies(text);
    if (!waiting) return ptx;
    raised.push_back(std::move(*waiting));
  }
  ptx.texts = std::move(raised);
  ptx.waitsForGridDependencies = true;
  return ptx;
}

// Whether the PTX calls vprintf: the driver prints that output only at a synchronization.
bool callsVprintf(const std::vector<std::string>& ptxs) {
  return std::any_of(ptxs.begin(), ptxs.end(), [](const std::string& ptx) { return ptx.find(" vprintf") != std::string::npos; });
}
}  // namespace

std::unique_ptr<CudaProgram> CudaProgram::load(std::shared_ptr<const PrimaryContext> context,
                                               std::shared_ptr<const compiler::CompiledProgram> program,
                                               bool dependentLaunches, std::string& log) {
  if (program->target != compiler::Target::Nvptx) {
    log += "the program was not compiled for NVPTX\n";
    return nullptr;
  }
  std::unique_ptr<CudaProgram> loaded(new CudaProgram(context, program, dependentLaunches));
  if (!program->info.importedFunctions.empty()) return loaded;  // compiled when linked
  const DevicePtx ptx = devicePtx({program.get()}, dependentLaunches);
  JitLogs logs;
  const Driver& driver = context->driver();
  auto scope = context->makeCurrent();
  CUmodule module = nullptr;
  const CUresult result =
      driver.cuModuleLoadDataEx(&module, ptx.texts[0].c_str(), JitLogs::kCount, logs.options(), logs.values());
  if (result != CUDA_SUCCESS) {
    log += driver.describe("cuModuleLoadDataEx", result) + "\n";
    log += logs.errors();
    return nullptr;
  }
  loaded->module_ = module;
  loaded->mayPrint_ = callsVprintf(ptx.texts);
  loaded->launchesEarly_ = ptx.waitsForGridDependencies;
  return loaded;
}

CudaProgram::~CudaProgram() {
  if (!module_) return;
  auto scope = context_->makeCurrent();
  context_->driver().cuModuleUnload(module_);
}

CUmodule CudaProgram::module() {
  std::lock_guard lock(mutex_);
  return module_;
}

uint32_t CudaKernel::residentGroupsPerComputeUnit(uint32_t groupItems, uint32_t localMemorySize) const {
  auto scope = context_->makeCurrent();
  uint32_t resident = UINT32_MAX;
  for (CUfunction function : {entries_.anyLaunch, entries_.wholeGroups}) {
    int blocks = 0;
    const CUresult result = context_->driver().cuOccupancyMaxActiveBlocksPerMultiprocessor(
        &blocks, function, static_cast<int>(groupItems), size_t(localMemorySize));
    if (result != CUDA_SUCCESS) {
      core::debugMessage("%s", context_->driver().describe("cuOccupancyMaxActiveBlocksPerMultiprocessor", result).c_str());
      return 0;
    }
    resident = std::min(resident, static_cast<uint32_t>(std::max(blocks, 0)));
  }
  return resident;
}

core::BackendKernel* CudaProgram::kernel(const std::string& name, std::string& log) {
  std::lock_guard lock(mutex_);
  if (auto found = kernels_.find(name); found != kernels_.end()) return found->second.get();
  if (!module_) {
    log += "the program's imports are unresolved: link it first\n";
    return nullptr;
  }
  auto scope = context_->makeCurrent();
  uint32_t anyLaunchLimit = 0;
  CUfunction anyLaunch = findFunction(name, &log);
  if (!anyLaunch || !readThreadLimit(anyLaunch, name, anyLaunchLimit, log)) return nullptr;
  // The compiler leaves large kernels without an entry for whole groups (kernel_entries.cpp).
  const std::string wholeGroupsName = name + compiler::nvptx::kWholeGroupsEntrySuffix;
  uint32_t wholeGroupsLimit = anyLaunchLimit;
  CUfunction wholeGroups = findFunction(wholeGroupsName, nullptr);
  if (!wholeGroups) wholeGroups = anyLaunch;
  else if (!readThreadLimit(wholeGroups, wholeGroupsName, wholeGroupsLimit, log)) return nullptr;
  const KernelEntries entries{anyLaunch, wholeGroups};
  auto& slot = kernels_[name];
  // Either entry may run a launch: the kernel samples where either does.
  const std::string_view ptx(reinterpret_cast<const char*>(program_->code.data()), program_->code.size());
  const bool maySample = ptxEntryMaySampleTextures(ptx, name) ||
                         (wholeGroups != anyLaunch && ptxEntryMaySampleTextures(ptx, wholeGroupsName));
  slot = std::make_unique<CudaKernel>(context_, entries, std::min(anyLaunchLimit, wholeGroupsLimit), mayPrint_, launchesEarly_,
                                      maySample);
  return slot.get();
}

CUfunction CudaProgram::findFunction(const std::string& name, std::string* log) {
  CUfunction function = nullptr;
  CUresult result = context_->driver().cuModuleGetFunction(&function, module_, name.c_str());
  if (result == CUDA_SUCCESS) return function;
  if (log) *log += context_->driver().describe("cuModuleGetFunction(" + name + ")", result) + "\n";
  return nullptr;
}

bool CudaProgram::readThreadLimit(CUfunction function, const std::string& name, uint32_t& maxThreadsPerBlock,
                                  std::string& log) {
  int limit = 0;
  if (CUresult result = context_->driver().cuFuncGetAttribute(&limit, FunctionAttribute::MaxThreadsPerBlock, function);
      result != CUDA_SUCCESS) {
    log += context_->driver().describe("cuFuncGetAttribute(" + name + ", MAX_THREADS_PER_BLOCK)", result) + "\n";
    return false;
  }
  maxThreadsPerBlock = static_cast<uint32_t>(limit);
  return true;
}

void* CudaProgram::globalVariable(const std::string& name) {
  CUmodule module = this->module();
  if (!module) return nullptr;
  auto scope = context_->makeCurrent();
  CUdeviceptr address = 0;
  size_t size = 0;
  if (context_->driver().cuModuleGetGlobal(&address, &size, module, name.c_str()) != CUDA_SUCCESS) return nullptr;
  return reinterpret_cast<void*>(address);
}

void* CudaProgram::function(const std::string& name) {
  const auto* holder = static_cast<const void*>(globalVariable(compiler::nvptx::kFunctionAddressPrefix + name));
  if (!holder) return nullptr;
  auto scope = context_->makeCurrent();
  void* address = nullptr;
  // With unified addressing the driver tells the host destination from the device source.
  if (context_->driver().cuMemcpy(reinterpret_cast<CUdeviceptr>(&address), reinterpret_cast<CUdeviceptr>(holder),
                                  sizeof(address)) != CUDA_SUCCESS)
    return nullptr;
  return address;
}

bool CudaProgram::link(const std::vector<core::BackendProgram*>& others, std::string& log) {
  std::lock_guard lock(mutex_);
  if (module_) return true;  // no imports, or resolved already
  std::vector<const compiler::CompiledProgram*> candidates;
  for (core::BackendProgram* other : others) candidates.push_back(static_cast<CudaProgram*>(other)->program_.get());
  const std::vector<const compiler::CompiledProgram*> inputs = linkInputs(*program_, candidates, log);
  if (inputs.empty()) return false;
  const DevicePtx ptx = devicePtx(inputs, dependentLaunches_);
  auto scope = context_->makeCurrent();
  module_ = linkModule(context_->driver(), ptx.texts, log);
  mayPrint_ = callsVprintf(ptx.texts);
  launchesEarly_ = ptx.waitsForGridDependencies;
  return module_ != nullptr;
}

}  // namespace loom::backends::cuda
