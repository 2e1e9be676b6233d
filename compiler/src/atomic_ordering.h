#pragma once
// The memory order of SPIR-V atomics, kept as fences before the translator's OpenCL 1.2 lowering
// drops it (it turns OpAtomicExchange of any semantics into atomic_xchg, which has none).
#include "llvm/IR/Module.h"

namespace loom::compiler {

// Around each __spirv_Atomic* call of the translator's SPIR-V friendly IR whose memory semantics
// ask for an order: `fence release` before the ones that write (stores, read-modify-writes,
// flag clears) with release, acquire-release or sequentially consistent semantics, and `fence
// acquire` after the ones that read with acquire, acquire-release or sequentially consistent
// semantics. Relaxed atomics (OpenCL 1.x's among them) get none. Each fence has the atomic's
// scope: a work-group's or sub-group's is kWorkGroupSyncScope, all SVM devices' (SPIR-V's
// CrossDevice) kAllSvmDevicesSyncScope, a device's (or one not constant) the system's, one
// work-item's a single thread's. On x86 these fences only keep the compiler from moving memory
// accesses across them (its locked instructions order the rest); NVPTX, whose atomics carry no
// order in LLVM 15, makes them membar of the scope (nvptx::lowerFences).
void fenceOrderedAtomics(llvm::Module& module);

constexpr const char* kWorkGroupSyncScope = "workgroup";
constexpr const char* kAllSvmDevicesSyncScope = "all_svm_devices";

}  // namespace loom::compiler
