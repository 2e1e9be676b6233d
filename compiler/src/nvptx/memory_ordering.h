#pragma once
// Memory fences and atomics in PTX's terms.
#include "llvm/IR/Module.h"

namespace loom::compiler::nvptx {

// Memory fences as PTX membar: the NVPTX backend of LLVM 15 cannot select LLVM's fence.
// Fences of ordered atomics take their scope (atomic_ordering.h): a work-group's membar.cta, all
// SVM devices' membar.sys. Every other fence (the builtin library's mem_fence, read_mem_fence,
// write_mem_fence, atomic_work_item_fence, device-scoped atomics) orders for the device: one
// GPU's membar.gl, or membar.sys where the device `spansGpus` (a root over several GPUs, whose
// work-groups run on different GPUs). Single-thread fences (compiler barriers) go away.
void lowerFences(llvm::Module& module, bool spansGpus);

// Atomics on global and generic memory at system scope (atom.sys). LLVM 15's backend writes
// atom without a scope, which PTX takes as .gpu: atomic only among the threads of one GPU. The
// memory Loom gives a kernel may be shared with the host and other GPUs (fine-grained SVM, shared
// allocations) or spread over several GPUs that run parts of one launch (a composite root device),
// and the SPIR-V translator's OpenCL 1.2 lowering has dropped each atomic's scope by now, so every
// such atomic takes the widest. Atomics on shared (local) memory keep the backend's form.
void widenAtomicsToSystemScope(llvm::Module& module);

}  // namespace loom::compiler::nvptx
