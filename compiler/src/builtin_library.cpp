#include "builtin_library.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"

namespace loom::compiler {

extern const uint8_t kBuiltinLibraryBitcode[];
extern const size_t kBuiltinLibraryBitcodeSize;

llvm::Error linkBuiltinLibrary(llvm::Module& module) {
  llvm::StringRef bytes(reinterpret_cast<const char*>(kBuiltinLibraryBitcode), kBuiltinLibraryBitcodeSize);
  // Lazily: the linker materializes only the functions the module uses, not the whole library.
  auto library = llvm::getLazyBitcodeModule(llvm::MemoryBufferRef(bytes, "loom-builtins"), module.getContext());
  if (!library) return library.takeError();
  (*library)->setDataLayout(module.getDataLayout());
  (*library)->setTargetTriple(module.getTargetTriple());
  if (llvm::Linker::linkModules(module, std::move(*library), llvm::Linker::LinkOnlyNeeded))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "linking the builtin library failed");
  return llvm::Error::success();
}

bool isBuiltinName(llvm::StringRef name) {
  return name.startswith("_Z") || name.startswith("__spirv") || name == "printf" || name == "__to_global" || name == "__to_local" ||
         name == "__to_private" || name == "global_barrier";
}

}  // namespace loom::compiler
