#pragma once
// The kernel compiler's public interface: bytes + options + target in, a program binary out (opencl_c.h
// adds OpenCL C source to SPIR-V and SPIR-V linking).
// It depends on LLVM and clang only (privately), and on no runtime object: of core, only the debug
// keys (loom_debug_keys), read as each compilation runs.
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "loom/compiler/kernel_descriptor.h"

namespace loom::compiler {

enum class Target : uint8_t { Cpu, Nvptx };

enum class Status {
  Success,
  BuildFailure,    // the input is malformed or uses something unsupported; the log says what and where
  InvalidOptions,  // an option the compiler does not know
  InvalidBinary,   // a native binary that is truncated, corrupted or for another target
  LinkFailure,     // unresolved imports or duplicate exports when linking
};

struct CompileRequest {
  std::vector<uint8_t> spirv;
  std::string options;                               // e.g. "-ze-opt-disable", "-cl-fast-relaxed-math"
  std::map<uint32_t, uint64_t> specializationConstants;  // SpecId -> value (raw bits, zero-extended)
  Target target = Target::Cpu;
  // Kernel name -> vec_type_hint type as OpenCL C source wrote it (SpirvResult::vectorTypeHints);
  // it replaces the SPIR-V's, which cannot tell uchar2 from char2.
  std::map<std::string, std::string> vectorTypeHints;
  bool dumpKernelIr = false;  // print the final LLVM IR to stderr (also when LOOM_DumpKernelIr=1 is set)
  // Level Zero modules export their functions other than kernels (zeModuleGetFunctionPointer,
  // zeModuleDynamicLink). An OpenCL executable has nothing that reaches them: without exports,
  // what the kernels inlined needs no code of its own (hashcat's helpers were most of its build).
  bool exportFunctions = true;
  // CPU code generation on up to this many threads, one partition of the kernels each; 0: one per
  // core for modules large enough to gain from it. The code does the same either way.
  unsigned codeGenerationThreads = 0;
  // Every launch runs groups of one size (Level Zero always; OpenCL where the program needs a
  // global size that is a multiple of the local size, -cl-uniform-work-group-size also says so):
  // a CPU kernel with reqd_work_group_size then has code for that size only.
  bool uniformWorkGroups = false;
  // The SPIR-V is what Loom's own OpenCL C frontend or linker wrote (compileOpenClSource,
  // linkSpirvModules of such modules): it is not validated again. Modules from anywhere else are.
  bool spirvFromLoom = false;
  // The program runs on a device made of several GPUs (a composite root over tiles): what the
  // OpenCL C and SPIR-V call the device spans them, so its fences order at system scope
  // (membar.sys) where one GPU's code orders at the GPU's (membar.gl). NVPTX only.
  bool spansGpus = false;
};

// A compiled program: metadata plus target code (for the CPU, relocatable x86-64 ELF objects, one
// per partition of the kernels, each preceded by its size as a uint64_t).
// For NVPTX, code is NUL-terminated PTX text for sm_80 whose entries take their parameters as
// nvptx_launch_abi.h says; math links CUDA's libdevice, found at run time
// ($LOOM_LibdevicePath, else under $CUDA_HOME, $CUDA_PATH, /usr/local/cuda, /usr/lib/cuda).
struct CompiledProgram {
  Target target = Target::Cpu;
  ProgramInfo info;
  std::vector<uint8_t> code;
};

struct BuildResult {
  Status status = Status::BuildFailure;
  std::string log;  // diagnostics; empty when the build had nothing to say
  std::shared_ptr<const CompiledProgram> program;  // set when status == Success
};

// The one sub-group size of the code made for `target`: 1 on the CPU (a sub-group is one
// work-item), 32 on NVPTX (a warp). A kernel that requires another fails to build.
constexpr uint32_t subGroupSize(Target target) { return target == Target::Nvptx ? 32 : 1; }

// SPIR-V (1.0 to 1.4) to target code.
BuildResult compileSpirv(const CompileRequest& request);

// What, besides the request, decides the code compileSpirv makes for `target`: this build of the
// compiler and, for the CPU, the host's processor and features. Part of every cache key.
std::string compilerIdentity(Target target);

// Names the native binaries compileSpirv makes for `target`: devices of one target with the same
// compiler agree, so a binary one made loads on the other (Level Zero's nativeKernelSupported).
// A hash of compilerIdentity, computed once per target.
std::array<uint8_t, 16> nativeBinaryUuid(Target target);

// SpecId -> byte size (1, 2, 4 or 8) of every specialization constant a SPIR-V module declares
// (Level Zero passes values without sizes). Malformed input yields what was found before the damage.
std::map<uint32_t, size_t> specializationConstantSizes(const uint8_t* spirv, size_t size);

// The libdevice NVPTX programs link for their math (see CompiledProgram); empty when none is found.
std::string libdevicePath();

// Loom's native binary: an ELF container holding metadata and code. readNativeBinary validates
// everything it reads; a truncated or corrupted binary yields InvalidBinary, never a crash.
std::vector<uint8_t> writeNativeBinary(const CompiledProgram& program);
BuildResult readNativeBinary(const uint8_t* data, size_t size);

}  // namespace loom::compiler
