#pragma once
// Device addresses of exported functions for the host (zeModuleGetFunctionPointer): PTX gives a
// function's address only to the module's own code and to initializers of its variables.
#include <string>
#include <vector>

#include "llvm/IR/Module.h"

namespace loom::compiler::nvptx {

// Adds, for each function of `exported` the module defines, a global variable that its address
// initializes, named as the CUDA backend looks it up (kFunctionAddressPrefix + name).
void addFunctionAddresses(llvm::Module& module, const std::vector<std::string>& exported);

}  // namespace loom::compiler::nvptx
