#include "code_partitions.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <thread>

#include "cpu_code_generator.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"
#include "module_passes.h"
#include "work_group_function_builder.h"

namespace loom::compiler::cpu {

namespace {

// Below this many instructions (counted before optimization, which multiplies them: OpenMM's
// programs of 900 to 7000 compile 1.3-1.9x faster on two threads) a module compiles faster on one
// thread than it takes to copy it into the other threads' contexts.
constexpr unsigned kParallelThreshold = 500;
// Each partition holds a copy of the module while it is cut down: bounded memory.
constexpr unsigned kMaxPartitions = 16;

// What the partitions share out: work-group functions and exported functions, each compiled in
// one partition (a Level Zero module may export hundreds of functions, as much work as its kernels).
std::vector<llvm::Function*> partitionedFunctions(llvm::Module& module) {
  std::vector<llvm::Function*> functions;
  for (llvm::Function& function : module)
    if (!function.isDeclaration() && (isWorkGroupFunction(function) || !function.hasLocalLinkage())) functions.push_back(&function);
  return functions;
}

unsigned partitionCount(const llvm::Module& module, size_t functions, unsigned threads, bool dumpIr) {
  if (dumpIr) return 1;  // one module printed whole
  if (threads == 0) {
    if (module.getInstructionCount() < kParallelThreshold) return 1;
    threads = std::max(1u, std::thread::hardware_concurrency());
  }
  return static_cast<unsigned>(std::clamp<size_t>(std::min<size_t>(threads, functions), 1, kMaxPartitions));
}

// Largest functions first, each to the partition with the fewest instructions so far.
std::vector<std::vector<std::string>> assignFunctions(std::vector<llvm::Function*> functions, unsigned count) {
  std::stable_sort(functions.begin(), functions.end(),
                   [](llvm::Function* a, llvm::Function* b) { return a->getInstructionCount() > b->getInstructionCount(); });
  std::vector<std::vector<std::string>> partitions(count);
  std::vector<size_t> load(count, 0);
  for (llvm::Function* function : functions) {
    const size_t lightest = std::min_element(load.begin(), load.end()) - load.begin();
    partitions[lightest].push_back(function->getName().str());
    load[lightest] += function->getInstructionCount();
  }
  return partitions;
}

// A program has one of each variable that is not a local constant: such variables become external
// (hidden) symbols with names of their own, so that the first partition's definition serves all.
void shareVariables(llvm::Module& module) {
  for (llvm::GlobalVariable& variable : module.globals()) {
    if (variable.isDeclaration() || (variable.isConstant() && variable.hasLocalLinkage())) continue;
    if (!variable.hasName()) variable.setName("__loom_variable");
    if (variable.hasLocalLinkage()) {
      variable.setLinkage(llvm::GlobalValue::ExternalLinkage);
      variable.setVisibility(llvm::GlobalValue::HiddenVisibility);
    }
  }
}

// Cuts a copy of the module down to the partition: the work-group and exported functions assigned
// to it (the others' work-group functions go, their exported functions are only declared); in
// partitions after the first, external variables only declared.
void keepPartition(llvm::Module& module, const std::vector<std::string>& functions, bool first) {
  llvm::StringSet<> kept;
  for (const std::string& name : functions) kept.insert(name);
  for (llvm::Function* function : partitionedFunctions(module)) {
    if (kept.contains(function->getName())) continue;
    if (isWorkGroupFunction(*function))
      function->eraseFromParent();
    else
      function->deleteBody();
  }
  if (!first)
    for (llvm::GlobalVariable& variable : module.globals())
      if (!variable.isDeclaration() && !variable.hasLocalLinkage()) variable.setInitializer(nullptr);
  runModulePipeline(module, nullptr, [](llvm::PassBuilder&) {
    llvm::ModulePassManager manager;
    manager.addPass(llvm::GlobalDCEPass());
    return manager;
  });
}

llvm::Expected<std::vector<uint8_t>> compilePartition(llvm::StringRef bitcode, const std::vector<std::string>& functions, bool first,
                                                      const BuildOptions& options) {
  llvm::LLVMContext context;
  context.setOpaquePointers(false);
  auto module = llvm::parseBitcodeFile(llvm::MemoryBufferRef(bitcode, "loom-partition"), context);
  if (!module) return module.takeError();
  keepPartition(**module, functions, first);
  return generateObject(**module, options, false);
}

void appendObject(std::vector<uint8_t>& code, const std::vector<uint8_t>& object) {
  const uint64_t size = object.size();
  const auto* bytes = reinterpret_cast<const uint8_t*>(&size);
  code.insert(code.end(), bytes, bytes + sizeof(size));
  code.insert(code.end(), object.begin(), object.end());
}

}  // namespace

llvm::Expected<std::vector<uint8_t>> generateCode(llvm::Module& module, const BuildOptions& options, unsigned threads, bool dumpIr) {
  const std::vector<llvm::Function*> functions = partitionedFunctions(module);
  const unsigned count = partitionCount(module, functions.size(), threads, dumpIr);
  std::vector<uint8_t> code;
  if (count == 1) {
    auto object = generateObject(module, options, dumpIr);
    if (!object) return object.takeError();
    appendObject(code, *object);
    return code;
  }
  const std::vector<std::vector<std::string>> partitions = assignFunctions(functions, count);
  shareVariables(module);
  std::string bitcode;
  llvm::raw_string_ostream stream(bitcode);
  llvm::WriteBitcodeToFile(module, stream);
  stream.flush();
  std::vector<std::optional<llvm::Expected<std::vector<uint8_t>>>> objects(count);
  std::vector<std::thread> workers;
  for (unsigned i = 1; i < count; ++i)
    workers.emplace_back([&, i] { objects[i].emplace(compilePartition(bitcode, partitions[i], false, options)); });
  objects[0].emplace(compilePartition(bitcode, partitions[0], true, options));
  for (std::thread& worker : workers) worker.join();
  llvm::Error failure = llvm::Error::success();
  for (auto& object : objects) {
    if (*object)
      appendObject(code, **object);
    else
      failure = llvm::joinErrors(std::move(failure), object->takeError());
  }
  if (failure) return failure;
  return code;
}

std::optional<std::vector<llvm::StringRef>> objectsOf(const std::vector<uint8_t>& code) {
  std::vector<llvm::StringRef> objects;
  for (size_t at = 0; at < code.size();) {
    uint64_t size = 0;
    if (code.size() - at < sizeof(size)) return std::nullopt;
    std::memcpy(&size, code.data() + at, sizeof(size));
    at += sizeof(size);
    if (size < 4 || size > code.size() - at || std::memcmp(code.data() + at, "\x7f" "ELF", 4) != 0) return std::nullopt;
    objects.emplace_back(reinterpret_cast<const char*>(code.data() + at), size);
    at += size;
  }
  if (objects.empty()) return std::nullopt;
  return objects;
}

}  // namespace loom::compiler::cpu
