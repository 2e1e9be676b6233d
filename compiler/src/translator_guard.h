#pragma once
// Debian's SPIR-V translator is built with assertions: some malformed modules that pass every
// check (or LLVM IR it cannot express) make it call abort(), and some valid forms it mishandles make
// it follow a null pointer; either would end the application. The guarded calls turn such an abort
// or fault (SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL) into a build failure. Only the translating
// thread is affected; these signals raised anywhere else go to the handlers that were there before
// (a fault elsewhere, such as a CPU kernel's, puts the previous handler back and faults again there).
// What the translator had allocated for that module is lost (a bounded leak on a failed build); a
// fault that leaves the heap damaged is not repaired, and a stack overflow still ends the process.
// The lasting fix is to translate out of process, which the compiler cache makes affordable.
#include <istream>
#include <ostream>
#include <string>

#include "LLVMSPIRVLib.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

namespace loom::compiler {

// As llvm::readSpirv and llvm::writeSpirv; `aborted` says whether the translator aborted or crashed.
bool readSpirvGuarded(llvm::LLVMContext& context, const SPIRV::TranslatorOpts& options, std::istream& stream,
                      llvm::Module*& module, std::string& message, bool& aborted);
// The translator's lowering of SPIR-V friendly IR (__spirv_* calls) to OpenCL 1.2 builtin names,
// which llvm::readSpirv runs itself unless asked for SPIR-V friendly IR.
bool lowerToOpenCl12Guarded(llvm::Module& module, bool& aborted);
bool writeSpirvGuarded(llvm::Module& module, const SPIRV::TranslatorOpts& options, std::ostream& stream,
                       std::string& message, bool& aborted);

// Reads `spirv` with the translator in a child process, for modules the validator could not
// vouch for: on the errors it detects the translator calls exit(), and damage it does not detect
// can crash it. True when the child read the module within 5 seconds and 1 GiB more memory;
// otherwise `message` says how it failed. When the translator calls exit() in the child, the
// process's exit handlers run there; stdio is flushed before the fork, so nothing is written twice.
bool readsInChildProcess(const SPIRV::TranslatorOpts& options, const std::string& spirv, std::string& message);

}  // namespace loom::compiler
