#include "level_zero/module/linkage_inspection.h"

#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "level_zero/handle/handle.h"
#include "level_zero/module/module.h"
#include "level_zero/validation.h"

namespace loom::l0 {

namespace {

constexpr ze_linkage_inspection_ext_flags_t kKnownFlags =
    ZE_LINKAGE_INSPECTION_EXT_FLAG_IMPORTS | ZE_LINKAGE_INSPECTION_EXT_FLAG_UNRESOLVABLE_IMPORTS | ZE_LINKAGE_INSPECTION_EXT_FLAG_EXPORTS;

// The symbols of the set, one "module <index in phModules>: <name>" each. Functions only: the
// compiler records the functions a module imports and exports, which is what the dynamic linker
// checks imports against, and no such list of variables.
struct Linkage {
  std::vector<std::string> imports;
  std::vector<std::string> unresolvable;
  std::vector<std::string> exports;
};

const compiler::CompiledProgram& compiledOf(ze_module_handle_t module) { return Module::fromHandle(module)->program().compiled(); }

// zeModuleDynamicLink links only modules built for one kind of device, so only their exports
// resolve an import of a module of that kind.
bool exportedWithin(std::span<const ze_module_handle_t> modules, compiler::Target target, const std::string& name) {
  return std::any_of(modules.begin(), modules.end(), [&](ze_module_handle_t module) {
    const compiler::CompiledProgram& compiled = compiledOf(module);
    const auto& exported = compiled.info.exportedFunctions;
    return compiled.target == target && std::find(exported.begin(), exported.end(), name) != exported.end();
  });
}

Linkage inspect(std::span<const ze_module_handle_t> modules) {
  Linkage linkage;
  for (size_t i = 0; i < modules.size(); ++i) {
    const compiler::CompiledProgram& compiled = compiledOf(modules[i]);
    const std::string prefix = "module " + std::to_string(i) + ": ";
    for (const std::string& name : compiled.info.importedFunctions) {
      linkage.imports.push_back(prefix + name);
      if (!exportedWithin(modules, compiled.target, name)) linkage.unresolvable.push_back(prefix + name);
    }
    for (const std::string& name : compiled.info.exportedFunctions) linkage.exports.push_back(prefix + name);
  }
  return linkage;
}

// A list under its title; "(none)" says the list was asked for and is empty.
void appendList(std::string& log, const char* title, const std::vector<std::string>& symbols) {
  log += title;
  log += ":\n";
  if (symbols.empty()) log += "  (none)\n";
  for (const std::string& symbol : symbols) log += "  " + symbol + "\n";
}

// Only the lists `flags` asks for, in the order of the flags' bits: with flags 0 the log is empty.
std::string linkageLog(const Linkage& linkage, ze_linkage_inspection_ext_flags_t flags) {
  std::string log;
  if (flags & ZE_LINKAGE_INSPECTION_EXT_FLAG_IMPORTS) appendList(log, "imports", linkage.imports);
  if (flags & ZE_LINKAGE_INSPECTION_EXT_FLAG_UNRESOLVABLE_IMPORTS) appendList(log, "unresolvable imports", linkage.unresolvable);
  if (flags & ZE_LINKAGE_INSPECTION_EXT_FLAG_EXPORTS) appendList(log, "exports", linkage.exports);
  return log;
}

}  // namespace

ze_result_t zeModuleInspectLinkageExt(ze_linkage_inspection_ext_desc_t* pInspectDesc, uint32_t numModules,
                                      ze_module_handle_t* phModules, ze_module_build_log_handle_t* phLog) {
  ZE_REQUIRE_POINTER(pInspectDesc);
  ZE_REQUIRE_POINTER(phModules);
  ZE_REQUIRE_POINTER(phLog);
  ZE_REQUIRE_DESCRIPTOR(pInspectDesc, ZE_STRUCTURE_TYPE_LINKAGE_INSPECTION_EXT_DESC);
  ZE_REQUIRE_FLAGS(pInspectDesc->flags, kKnownFlags);
  ZE_REQUIRE_HANDLES(numModules, phModules);
  *phLog = new ModuleBuildLog(linkageLog(inspect({phModules, numModules}), pInspectDesc->flags));
  return ZE_RESULT_SUCCESS;
}

}  // namespace loom::l0
