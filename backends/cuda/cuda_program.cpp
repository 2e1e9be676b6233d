#include "backends/cuda/cuda_program.h"

#include <algorithm>

#include "backends/cuda/cuda_launch_parameters.h"

namespace loom::backends::cuda {

namespace {
constexpr size_t kJitLogBytes = 16 * 1024;

// PTX is text the driver reads up to its NUL; the compiler's code may or may not end with one.
std::string ptxText(const std::vector<uint8_t>& code) {
  std::string text(code.begin(), code.end());
  if (const size_t end = text.find('\0'); end != std::string::npos) text.resize(end);
  return text;
}

void* optionValue(size_t value) { return reinterpret_cast<void*>(static_cast<uintptr_t>(value)); }
}  // namespace

std::unique_ptr<CudaProgram> CudaProgram::load(std::shared_ptr<const PrimaryContext> context,
                                               std::shared_ptr<const compiler::CompiledProgram> program, std::string& log) {
  if (program->target != compiler::Target::Nvptx) {
    log += "the program was not compiled for NVPTX\n";
    return nullptr;
  }
  const std::string ptx = ptxText(program->code);
  std::string infoLog(kJitLogBytes, '\0'), errorLog(kJitLogBytes, '\0');
  JitOption options[] = {JitOption::InfoLogBuffer, JitOption::InfoLogBufferSizeBytes, JitOption::ErrorLogBuffer,
                         JitOption::ErrorLogBufferSizeBytes};
  void* values[] = {infoLog.data(), optionValue(infoLog.size()), errorLog.data(), optionValue(errorLog.size())};
  const Driver& driver = context->driver();
  auto scope = context->makeCurrent();
  CUmodule module = nullptr;
  const CUresult result = driver.cuModuleLoadDataEx(&module, ptx.c_str(), 4, options, values);
  if (result != CUDA_SUCCESS) {
    log += driver.describe("cuModuleLoadDataEx", result) + "\n";
    log += errorLog.c_str();
    return nullptr;
  }
  const bool mayPrint = ptx.find(" vprintf") != std::string::npos;
  return std::unique_ptr<CudaProgram>(new CudaProgram(std::move(context), std::move(program), module, mayPrint));
}

CudaProgram::~CudaProgram() {
  auto scope = context_->makeCurrent();
  context_->driver().cuModuleUnload(module_);
}

core::BackendKernel* CudaProgram::kernel(const std::string& name, std::string& log) {
  std::lock_guard lock(kernelsMutex_);
  if (auto found = kernels_.find(name); found != kernels_.end()) return found->second.get();
  auto scope = context_->makeCurrent();
  uint32_t anyLaunchLimit = 0, wholeGroupsLimit = 0;
  const KernelEntries entries{entry(name, anyLaunchLimit, log), entry(name + kWholeGroupsEntrySuffix, wholeGroupsLimit, log)};
  if (!entries.anyLaunch || !entries.wholeGroups) return nullptr;
  auto& slot = kernels_[name];
  slot = std::make_unique<CudaKernel>(entries, std::min(anyLaunchLimit, wholeGroupsLimit), mayPrint_);
  return slot.get();
}

CUfunction CudaProgram::entry(const std::string& name, uint32_t& maxThreadsPerBlock, std::string& log) {
  CUfunction function = nullptr;
  if (CUresult result = context_->driver().cuModuleGetFunction(&function, module_, name.c_str()); result != CUDA_SUCCESS) {
    log += context_->driver().describe("cuModuleGetFunction(" + name + ")", result) + "\n";
    return nullptr;
  }
  int limit = 0;
  if (CUresult result = context_->driver().cuFuncGetAttribute(&limit, FunctionAttribute::MaxThreadsPerBlock, function);
      result != CUDA_SUCCESS) {
    log += context_->driver().describe("cuFuncGetAttribute(" + name + ", MAX_THREADS_PER_BLOCK)", result) + "\n";
    return nullptr;
  }
  maxThreadsPerBlock = static_cast<uint32_t>(limit);
  return function;
}

void* CudaProgram::globalVariable(const std::string& name) {
  auto scope = context_->makeCurrent();
  CUdeviceptr address = 0;
  size_t size = 0;
  if (context_->driver().cuModuleGetGlobal(&address, &size, module_, name.c_str()) != CUDA_SUCCESS) return nullptr;
  return reinterpret_cast<void*>(address);
}

bool CudaProgram::link(const std::vector<core::BackendProgram*>&, std::string& log) {
  const auto& imports = program_->info.importedFunctions;
  if (imports.empty()) return true;
  log += "dynamic linking is unsupported on CUDA devices; unresolved:";
  for (const auto& name : imports) log += " " + name;
  log += "\n";
  return false;
}

}  // namespace loom::backends::cuda
