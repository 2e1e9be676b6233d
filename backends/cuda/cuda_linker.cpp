#include "backends/cuda/cuda_linker.h"

#include <algorithm>
#include <deque>

namespace loom::backends::cuda {

namespace {

constexpr size_t kJitLogBytes = 16 * 1024;

void* optionValue(size_t value) { return reinterpret_cast<void*>(static_cast<uintptr_t>(value)); }

bool exports(const compiler::CompiledProgram& program, const std::string& function) {
  const auto& exported = program.info.exportedFunctions;
  return std::find(exported.begin(), exported.end(), function) != exported.end();
}

// The link state, destroyed with the cubin it owns once the module is loaded.
class LinkState {
 public:
  LinkState(const Driver& driver, JitLogs& logs, std::string& log) : driver_(driver) {
    if (CUresult result = driver.cuLinkCreate(JitLogs::kCount, logs.options(), logs.values(), &state_); result != CUDA_SUCCESS) {
      log += driver.describe("cuLinkCreate", result) + "\n";
      state_ = nullptr;
    }
  }
  ~LinkState() {
    if (state_) driver_.cuLinkDestroy(state_);
  }
  LinkState(const LinkState&) = delete;
  LinkState& operator=(const LinkState&) = delete;

  CUlinkState handle() const { return state_; }

 private:
  const Driver& driver_;
  CUlinkState state_ = nullptr;
};

// `ptx` by value: the driver's signature takes a mutable pointer.
bool addPtx(const Driver& driver, CUlinkState state, std::string ptx, size_t index, std::string& log) {
  const std::string name = "program" + std::to_string(index) + ".ptx";  // how the linker's log names it
  // The size counts the NUL: the driver reads PTX up to it.
  const CUresult result =
      driver.cuLinkAddData(state, JitInputType::Ptx, ptx.data(), ptx.size() + 1, name.c_str(), 0, nullptr, nullptr);
  if (result == CUDA_SUCCESS) return true;
  log += driver.describe("cuLinkAddData(" + name + ")", result) + "\n";
  return false;
}

}  // namespace

std::vector<const compiler::CompiledProgram*> linkInputs(const compiler::CompiledProgram& importer,
                                                         const std::vector<const compiler::CompiledProgram*>& candidates,
                                                         std::string& log) {
  std::vector<const compiler::CompiledProgram*> inputs{&importer};
  std::deque<std::string> pending(importer.info.importedFunctions.begin(), importer.info.importedFunctions.end());
  bool resolved = true;
  for (; !pending.empty(); pending.pop_front()) {
    const std::string& import = pending.front();
    if (std::any_of(inputs.begin(), inputs.end(), [&](const auto* input) { return exports(*input, import); })) continue;
    auto exporter = std::find_if(candidates.begin(), candidates.end(), [&](const auto* candidate) { return exports(*candidate, import); });
    if (exporter == candidates.end()) {
      log += "unresolved import: " + import + "\n";
      resolved = false;
      continue;
    }
    inputs.push_back(*exporter);
    pending.insert(pending.end(), (*exporter)->info.importedFunctions.begin(), (*exporter)->info.importedFunctions.end());
  }
  if (!resolved) return {};
  return inputs;
}

JitLogs::JitLogs()
    : info_(kJitLogBytes, '\0'),
      error_(kJitLogBytes, '\0'),
      options_{JitOption::InfoLogBuffer, JitOption::InfoLogBufferSizeBytes, JitOption::ErrorLogBuffer,
               JitOption::ErrorLogBufferSizeBytes},
      values_{info_.data(), optionValue(info_.size()), error_.data(), optionValue(error_.size())} {}

CUmodule linkModule(const Driver& driver, const std::vector<std::string>& ptxs, std::string& log) {
  JitLogs logs;
  LinkState state(driver, logs, log);
  if (!state.handle()) return nullptr;
  for (size_t i = 0; i < ptxs.size(); ++i)
    if (!addPtx(driver, state.handle(), ptxs[i], i, log)) {
      log += logs.errors();
      return nullptr;
    }
  void* cubin = nullptr;
  size_t size = 0;
  if (CUresult result = driver.cuLinkComplete(state.handle(), &cubin, &size); result != CUDA_SUCCESS) {
    log += driver.describe("cuLinkComplete", result) + "\n" + logs.errors();
    return nullptr;
  }
  CUmodule module = nullptr;
  if (CUresult result = driver.cuModuleLoadDataEx(&module, cubin, 0, nullptr, nullptr); result != CUDA_SUCCESS) {
    log += driver.describe("cuModuleLoadDataEx", result) + "\n";
    return nullptr;
  }
  return module;
}

std::string ptxText(const std::vector<uint8_t>& code) {
  std::string text(code.begin(), code.end());
  if (const size_t end = text.find('\0'); end != std::string::npos) text.resize(end);
  return text;
}

}  // namespace loom::backends::cuda
