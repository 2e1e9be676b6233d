// CpuExecutable on LLVM's ORC JIT: one process-wide LLJIT, one JITDylib per loaded program.
#include "loom/compiler/cpu_executable.h"

#include <atomic>
#include <mutex>
#include <set>

#include "cpu/code_partitions.h"
#include "cpu/contiguous_memory_manager.h"
#include "cpu/streaming_stores.h"
#include "cpu/work_group_function_builder.h"
#include "loom/core/debug_keys.h"
#include "llvm/ExecutionEngine/JITEventListener.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"

namespace loom::compiler {

namespace {

std::mutex jitMutex;

// Under LOOM_EnablePerfJitDump, perf can name and annotate kernel code: LLVM's listener writes
// each loaded object's functions, with their code, to a jitdump that `perf inject --jit` reads.
void addPerfListener(llvm::orc::RTDyldObjectLinkingLayer& layer) {
  bool enabled = false;
  if (!core::readDebugKey("EnablePerfJitDump", enabled) || !enabled) return;
  llvm::JITEventListener* listener = llvm::JITEventListener::createPerfJITEventListener();
  // Null where LLVM was built without perf support: nothing to record then.
  if (listener) layer.registerJITEventListener(*listener);
}

// Never destroyed: executables held in static objects are destroyed at exit, in an order
// relative to this JIT that no one controls.
llvm::orc::LLJIT* processJit(std::string& log) {
  static llvm::orc::LLJIT* jit = nullptr;
  static std::string error;
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // Each object's sections in one mapping: see ContiguousMemoryManager.
    auto created = llvm::orc::LLJITBuilder()
                       .setObjectLinkingLayerCreator([](llvm::orc::ExecutionSession& session, const llvm::Triple&) {
                         auto memory = [] { return std::make_unique<cpu::ContiguousMemoryManager>(); };
                         auto layer = std::make_unique<llvm::orc::RTDyldObjectLinkingLayer>(session, std::move(memory));
                         addPerfListener(*layer);
                         return layer;
                       })
                       .create();
    if (!created) {
      error = llvm::toString(created.takeError());
      return;
    }
    jit = created->release();
  });
  if (!jit) log += "cannot start the JIT: " + error + "\n";
  return jit;
}

class OrcCpuExecutable final : public CpuExecutable {
 public:
  OrcCpuExecutable(std::shared_ptr<const CompiledProgram> program, llvm::orc::LLJIT& jit, llvm::orc::JITDylib& library)
      : CpuExecutable(std::move(program)), jit_(jit), library_(library) {}

  ~OrcCpuExecutable() override {
    std::lock_guard lock(jitMutex);
    llvm::consumeError(jit_.getExecutionSession().removeJITDylib(library_));
  }

  bool link(const std::vector<CpuExecutable*>& others, std::string& log) override {
    std::lock_guard lock(jitMutex);
    std::vector<CpuExecutable*> candidates = linked_;
    candidates.insert(candidates.end(), others.begin(), others.end());
    if (!importsResolvedBy(candidates, log)) return false;
    for (CpuExecutable* other : others) library_.addToLinkOrder(static_cast<OrcCpuExecutable*>(other)->library_);
    linked_ = std::move(candidates);
    return true;
  }

  WorkGroupFunction kernel(const std::string& name, std::string& log) override {
    return reinterpret_cast<WorkGroupFunction>(lookup(cpu::workGroupFunctionName(name), log));
  }

  WorkGroupFunction streamingKernel(const std::string& name) override {
    return reinterpret_cast<WorkGroupFunction>(lookupQuietly(cpu::streamingVariantName(cpu::workGroupFunctionName(name))));
  }

  void* globalVariable(const std::string& name) override { return lookupQuietly(name); }
  void* function(const std::string& name) override { return lookupQuietly(name); }

 private:
  // Checked by the programs' own tables before the JIT sees a lookup: a lookup that fails on an
  // import fails the whole object for good, and ORC's message names only the symbol looked up.
  bool importsResolvedBy(const std::vector<CpuExecutable*>& programs, std::string& log) const {
    std::set<std::string> exported;
    for (CpuExecutable* program : programs)
      exported.insert(program->program().info.exportedFunctions.begin(), program->program().info.exportedFunctions.end());
    bool resolved = true;
    for (const std::string& import : program_->info.importedFunctions)
      if (!exported.count(import)) {
        log += "unresolved import: " + import + "\n";
        resolved = false;
      }
    return resolved;
  }

  void* lookupQuietly(const std::string& name) {
    std::string ignored;
    return lookup(name, ignored);
  }

  void* lookup(const std::string& name, std::string& log) {
    std::lock_guard lock(jitMutex);
    if (!importsResolvedBy(linked_, log)) return nullptr;
    auto symbol = jit_.lookup(library_, name);
    if (!symbol) {
      log += llvm::toString(symbol.takeError()) + "\n";
      return nullptr;
    }
    return symbol->toPtr<void*>();
  }

  llvm::orc::LLJIT& jit_;
  llvm::orc::JITDylib& library_;
  std::vector<CpuExecutable*> linked_;  // programs whose exports this one's imports may use
};

// The partitions' objects, which resolve each other's symbols in the program's library.
llvm::Error addObjects(llvm::orc::LLJIT& jit, llvm::orc::JITDylib& library, const std::vector<uint8_t>& code) {
  const auto objects = cpu::objectsOf(code);
  if (!objects) return llvm::createStringError(llvm::inconvertibleErrorCode(), "the CPU code is not a list of object files");
  for (llvm::StringRef object : *objects)
    if (llvm::Error error = jit.addObjectFile(library, llvm::MemoryBuffer::getMemBufferCopy(object, "loom-program"))) return error;
  return llvm::Error::success();
}

}  // namespace

std::unique_ptr<CpuExecutable> CpuExecutable::load(std::shared_ptr<const CompiledProgram> program, std::string& log) {
  if (!program || program->target != Target::Cpu) {
    log += "not a CPU program\n";
    return nullptr;
  }
  llvm::orc::LLJIT* jit = processJit(log);
  if (!jit) return nullptr;
  std::lock_guard lock(jitMutex);
  static std::atomic<uint64_t> nextLibrary{0};
  auto library = jit->createJITDylib("loom-program-" + std::to_string(nextLibrary++));
  if (!library) {
    log += llvm::toString(library.takeError()) + "\n";
    return nullptr;
  }
  // Builtins may call the C math library and the like: resolve those from the process.
  auto processSymbols = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(jit->getDataLayout().getGlobalPrefix());
  if (!processSymbols) {
    log += llvm::toString(processSymbols.takeError()) + "\n";
    return nullptr;
  }
  library->addGenerator(std::move(*processSymbols));
  if (llvm::Error error = addObjects(*jit, *library, program->code)) {
    log += llvm::toString(std::move(error)) + "\n";
    llvm::consumeError(jit->getExecutionSession().removeJITDylib(*library));
    return nullptr;
  }
  return std::make_unique<OrcCpuExecutable>(std::move(program), *jit, *library);
}

}  // namespace loom::compiler
