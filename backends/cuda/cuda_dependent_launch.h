#pragma once
// Programmatic dependent launch (compute capability 9.0 and later, driver 12.0): a kernel launched
// with CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION may start its blocks while the kernel
// before it in the stream retires, and waits with `griddepcontrol.wait` for that kernel's
// completion and memory before it touches memory, which hides part of each launch's latency
// between kernels back to back. Stream operations that are not kernels (copies, event records,
// value waits and writes) keep their full ordering.
//
// The compiler marks where each entry waits (kGridDependencyWaitMarker); LLVM 15 writes PTX 7.5
// for sm_80, which lacks griddepcontrol, so the GPU gets the same code as PTX 7.8 for sm_90.
#include <optional>
#include <string>
#include <string_view>

namespace loom::backends::cuda {

constexpr int kDependentLaunchComputeCapabilityMajor = 9;

// `ptx` as PTX 7.8 for sm_90 with each marker a `griddepcontrol.wait`. nullopt when `ptx` is not
// as the compiler writes it (another version or target, or an entry without the marker): it then
// loads as it is, and its kernels launch the usual way.
std::optional<std::string> ptxWaitingForGridDependencies(std::string_view ptx);

}  // namespace loom::backends::cuda
