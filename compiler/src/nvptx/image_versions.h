#pragma once
// Kernel entries specialized for the images GPUs read fastest. Each image of a kernel is
// described by a descriptor in device memory (loom/compiler/image_abi.h) that the builtin library
// reads at every image access: its channel order to arrange channels, its texture objects to
// choose between the texture units and sampling in software. Inside a loop of reads those checks
// split every read into branches, which keeps the reads from being unrolled and issued together.
#include <vector>

#include "llvm/IR/Module.h"
#include "loom/compiler/kernel_descriptor.h"

namespace loom::compiler::nvptx {

// Marks the loads of image descriptors as invariant (nothing changes a descriptor while kernels
// run) and the descriptors as dereferenceable, so that the optimizer may load a field once per
// kernel, out of loops and ahead of the branches that use it.
void markImageDescriptorsInvariant(llvm::Module& module, const std::vector<KernelDescriptor>& kernels);

// Gives each entry that reads images through the texture units two versions of its body: one for
// launches whose images are all CL_RGBA with texture objects, where the optimizer folds the
// descriptor checks away (the reads become texture fetches and the writes whole-texel stores),
// and the general one, for every other launch. The entry's block ends choosing between them.
void versionEntriesForTexturedRgbaImages(llvm::Module& module, const std::vector<KernelDescriptor>& kernels);

}  // namespace loom::compiler::nvptx
