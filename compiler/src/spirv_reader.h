#pragma once
// SPIR-V to an LLVM module, with every check that keeps malformed input from crashing the reader.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

namespace loom::compiler {

// Where a module comes from. SPIRV-Tools' validator guards the translator against any producer's
// damage; a module the translator wrote for Loom's own OpenCL C frontend or linker needs no guard.
enum class SpirvOrigin { Foreign, Loom };

// `warnings`, when given, receives a line for each slip of the producer that was tolerated
// (spirv_producer_slips.h).
llvm::Expected<std::unique_ptr<llvm::Module>> readSpirvModule(llvm::LLVMContext& context, const std::vector<uint8_t>& spirv,
                                                              const std::map<uint32_t, uint64_t>& specializationConstants,
                                                              std::string* warnings = nullptr,
                                                              SpirvOrigin origin = SpirvOrigin::Foreign);

}  // namespace loom::compiler
