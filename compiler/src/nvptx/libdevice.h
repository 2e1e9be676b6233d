#pragma once
// CUDA's libdevice (libdevice.10.bc): the math functions the NVPTX backend does not provide.
#include <string>

#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

namespace loom::compiler::nvptx {

// The libdevice the compiler links, found at run time: $LOOM_LibdevicePath when set (and only
// that), else nvvm/libdevice/libdevice.10.bc under $CUDA_HOME, $CUDA_PATH, /usr/local/cuda,
// /usr/lib/cuda. Empty when there is none.
std::string findLibdevice();

// Intrinsics that the NVPTX backend of LLVM 15 would turn into C library calls (sin, exp, pow...).
bool needsLibdevice(llvm::Intrinsic::ID intrinsic);

// Replaces those intrinsics, C math library calls and frem, scalar or vector, with libdevice's
// __nv_ functions, and links the ones used as internal functions. A module without such math
// compiles without libdevice; one with it fails, when libdevice is missing, naming the file.
llvm::Error linkLibdevice(llvm::Module& module);

}  // namespace loom::compiler::nvptx
