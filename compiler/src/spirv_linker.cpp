// linkSpirvModules: SPIR-V modules read back into LLVM, joined by LLVM's linker and written again.
#include "builtin_library.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Linker/Linker.h"
#include "loom/compiler/opencl_c.h"
#include "spirv_imports.h"
#include "spirv_reader.h"
#include "spirv_words.h"
#include "spirv_writer.h"

namespace loom::compiler {

namespace {

// The linker reports duplicate definitions through the context, whose default handler would end the
// process; this one collects the errors instead.
class CollectErrors : public llvm::DiagnosticHandler {
 public:
  explicit CollectErrors(std::string& log) : log_(log) {}
  bool handleDiagnostics(const llvm::DiagnosticInfo& info) override {
    if (info.getSeverity() != llvm::DS_Error) return true;
    llvm::raw_string_ostream out(log_);
    llvm::DiagnosticPrinterRawOStream printer(out);
    info.print(printer);
    out << "\n";
    return true;
  }

 private:
  std::string& log_;
};

void appendName(std::string& names, llvm::StringRef name) { names += (names.empty() ? "" : ", ") + name.str(); }

// Used functions and variables that no module defines, other than the builtins the target provides.
std::string unresolvedSymbols(const llvm::Module& module) {
  std::string names;
  auto check = [&](const llvm::GlobalValue& symbol) {
    if (!symbol.isDeclaration() || symbol.use_empty() || isBuiltinName(symbol.getName())) return;
    if (const auto* function = llvm::dyn_cast<llvm::Function>(&symbol); function && function->isIntrinsic()) return;
    appendName(names, symbol.getName());
  };
  for (const llvm::Function& function : module) check(function);
  for (const llvm::GlobalVariable& variable : module.globals()) check(variable);
  return names;
}

SpirvResult failure(Status status, std::string log) { return {status, std::move(log), {}}; }

SpirvResult unresolvedFailure(const std::string& names) {
  return failure(Status::LinkFailure, "undefined symbols (used, but defined in no module): " + names);
}

// An executable linked from one module is that module: linking would only read it into LLVM and
// write it again (most of a large program's link time). What remains is the check that everything
// it uses is defined, which its linkage decorations tell.
SpirvResult linkAlone(const std::vector<uint8_t>& module, bool fromLoom) {
  const auto imports = module.size() % 4 == 0 ? spirv::usedImports(spirv::words(module.data(), module.size())) : std::nullopt;
  if (!imports) return failure(Status::InvalidBinary, "module 0: invalid SPIR-V module (it does not parse)");
  std::string unresolved;
  for (const std::string& name : *imports)
    if (!isBuiltinName(name)) appendName(unresolved, name);
  if (!unresolved.empty()) return unresolvedFailure(unresolved);
  return {Status::Success, "", module, {}, fromLoom};
}

}  // namespace

SpirvResult linkSpirvModules(const std::vector<std::vector<uint8_t>>& modules, bool library, bool fromLoom) {
  if (modules.empty()) return failure(Status::LinkFailure, "no modules to link");
  if (modules.size() == 1 && !library) return linkAlone(modules.front(), fromLoom);
  std::string log;
  llvm::LLVMContext context;
  context.setOpaquePointers(false);  // the translator's IR has typed pointers (LLVM 15)
  context.setDiagnosticHandler(std::make_unique<CollectErrors>(log));
  auto linked = std::make_unique<llvm::Module>("linked", context);
  llvm::Linker linker(*linked);
  for (size_t index = 0; index < modules.size(); ++index) {
    auto module = readSpirvModule(context, modules[index], {}, nullptr, fromLoom ? SpirvOrigin::Loom : SpirvOrigin::Foreign);
    if (!module)
      return failure(Status::InvalidBinary, "module " + std::to_string(index) + ": " + llvm::toString(module.takeError()));
    if (linker.linkInModule(std::move(*module))) return failure(Status::LinkFailure, log);
  }
  if (const std::string unresolved = library ? "" : unresolvedSymbols(*linked); !unresolved.empty())
    return unresolvedFailure(unresolved);
  auto spirv = writeSpirvModule(*linked);
  if (!spirv) return failure(Status::LinkFailure, llvm::toString(spirv.takeError()));
  return {Status::Success, log, std::move(*spirv), {}, true};
}

}  // namespace loom::compiler
