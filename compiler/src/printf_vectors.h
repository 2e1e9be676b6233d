#pragma once
// printf's vector conversions (OpenCL C 3.0, 6.15.14.2), which the host's printf does not know.
#include "llvm/IR/Module.h"

namespace loom::compiler {

// Rewrites each printf call whose constant format has vector conversions ("%v4hlf") into one with
// a conversion per component, separated by commas, and the components as scalar arguments
// promoted as C's printf expects them.
void expandPrintfVectors(llvm::Module& module);

// Rewrites each %hh conversion of an integer (%hhx, %hhd...) of printf calls with a constant format
// into the conversion without length, of the argument narrowed to 8 bits and promoted again: for
// printf implementations that do not know hh (the CUDA driver's vprintf, whose lengths are h, l
// and ll). Runs after expandPrintfVectors, which makes %v2hhx two %hhx.
void narrowCharConversions(llvm::Module& module);

// Marks every printf call nobuiltin: LLVM's library-call simplifier would turn printf("%s\n", s)
// into puts(s), keeping s in its OpenCL address space against puts's generic pointer (invalid IR).
void keepPrintfCalls(llvm::Module& module);

}  // namespace loom::compiler
