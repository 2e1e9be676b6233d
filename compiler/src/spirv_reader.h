#pragma once
// SPIR-V to an LLVM module, with every check that keeps malformed input from crashing the reader.
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

namespace loom::compiler {

llvm::Expected<std::unique_ptr<llvm::Module>> readSpirvModule(llvm::LLVMContext& context, const std::vector<uint8_t>& spirv,
                                                              const std::map<uint32_t, uint64_t>& specializationConstants);

}  // namespace loom::compiler
