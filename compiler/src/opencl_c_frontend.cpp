// compileOpenClSource: OpenCL C to SPIR-V with clang in-process, then the SPIR-V translator.
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "loom/compiler/build_options.h"
#include "loom/compiler/opencl_c.h"
#include "half_atomics.h"
#include "kernel_descriptor_builder.h"
#include "spirv_writer.h"

namespace loom::compiler {

extern const uint8_t kOpenClBaseHeader[];
extern const size_t kOpenClBaseHeaderSize;
extern const uint8_t kIntelSubgroupsHeader[];
extern const size_t kIntelSubgroupsHeaderSize;

namespace {

// The name diagnostics give the program's source.
constexpr const char* kMainFile = "<source>";
// In-memory directories: clang's header and Loom's prelude; the request's headers.
constexpr const char* kClangHeaderDir = "/loom/clang";
constexpr const char* kPreludePath = "/loom/clang/loom-opencl-c.h";
constexpr const char* kIntelSubgroupsPath = "/loom/clang/loom-intel-subgroups.h";
constexpr const char* kInputHeaderDir = "/loom/input";

// What Loom's CPU device supports, as clang's target options: clang defines the macros and checks
// the code against them (OpenCL C 3.0 features and extensions alike).
constexpr const char* kSupportedExtensions =
    "-cl-ext=-all,+cl_khr_fp64,+cl_khr_fp16,+cl_khr_int64_base_atomics,+cl_khr_int64_extended_atomics,"
    "+cl_khr_global_int32_base_atomics,+cl_khr_global_int32_extended_atomics,+cl_khr_local_int32_base_atomics,"
    "+cl_khr_local_int32_extended_atomics,+cl_khr_byte_addressable_store,+__opencl_c_fp64,"
    "+__opencl_c_atomic_order_acq_rel,+__opencl_c_atomic_order_seq_cst,+__opencl_c_program_scope_global_variables,"
    "+__opencl_c_generic_address_space,+cl_khr_subgroups,+__opencl_c_subgroups,+cl_khr_subgroup_shuffle,"
    "+cl_khr_subgroup_shuffle_relative,+cl_khr_subgroup_extended_types,+cl_khr_subgroup_non_uniform_vote,"
    "+cl_khr_subgroup_ballot,+cl_khr_subgroup_non_uniform_arithmetic,+cl_khr_subgroup_clustered_reduce,"
    "+cl_intel_subgroups,+cl_intel_subgroups_short,+__opencl_c_work_group_collective_functions,+cl_ext_float_atomics,"
    "+__opencl_c_ext_fp32_global_atomic_add,+__opencl_c_ext_fp32_local_atomic_add,+__opencl_c_ext_fp32_global_atomic_min_max,"
    "+__opencl_c_ext_fp32_local_atomic_min_max,+__opencl_c_ext_fp64_global_atomic_add,+__opencl_c_ext_fp64_local_atomic_add,"
    "+__opencl_c_ext_fp64_global_atomic_min_max,+__opencl_c_ext_fp64_local_atomic_min_max,+__opencl_c_images,"
    "+__opencl_c_read_write_images,+__opencl_c_3d_image_writes,+cl_khr_3d_image_writes,+cl_khr_depth_images";

// Included before the program. opencl-c-base.h and clang claim more for every SPIR target than Loom
// has; builtins that depend on these macros disappear with them. Clang declares none of Intel's
// sub-group functions: Loom's header does.
constexpr const char* kPrelude = R"(#include <opencl-c-base.h>
#include <loom-intel-subgroups.h>
#undef cl_khr_extended_bit_ops
#undef cl_khr_integer_dot_product
#undef __opencl_c_integer_dot_product_input_4x8bit
#undef __opencl_c_integer_dot_product_input_4x8bit_packed
// The OpenCL version of the device, which drivers define (clang defines only the language's).
#define __OPENCL_VERSION__ 300
#if __OPENCL_C_VERSION__ >= 300
// Clang 15 has no __opencl_c_fp16 feature: defined beside cl_khr_fp16, as clang defines __opencl_c_fp64.
#define __opencl_c_fp16 1
#endif
)";

std::vector<std::string> clangArguments(const BuildOptions& options, bool withInputHeaders) {
  std::vector<std::string> arguments = {
      "-triple", "spir64-unknown-unknown", "-cl-std=" + (options.standard.empty() ? "CL1.2" : options.standard),
      "-no-opaque-pointers",  // LLVM 15's SPIR-V translator needs typed pointers
      // No LLVM optimization: compileSpirv optimizes, and optimized IR can hold what the translator
      // cannot express (odd integer widths, intrinsics), on which it ends the process. The level is
      // above 0 all the same, because only then does clang emit the bodies of C99 inline
      // definitions (plain `inline`), which keepInlineDefinitions turns into the program's own.
      // Aliasing metadata and lifetime markers, which optimizing levels add, stay out: the IR is
      // the same as at -O0.
      "-O2", "-disable-llvm-passes", "-relaxed-aliasing", "-disable-lifetime-markers",
      "-cl-kernel-arg-info",  // argument names and type names for the kernel descriptors
      kSupportedExtensions,
      // Builtins declared by clang itself: much faster than parsing opencl-c.h.
      "-fdeclare-opencl-builtins", "-include", kPreludePath,
      // Only Loom's in-memory headers, never the host's or clang's resource directory.
      "-nostdsysteminc", "-nobuiltininc", "-internal-isystem", kClangHeaderDir,
      "-ferror-limit", "20"};  // as clang's driver does: garbage input gives a short log
  if (withInputHeaders) arguments.push_back(std::string("-I") + kInputHeaderDir);
  arguments.insert(arguments.end(), options.clangArguments.begin(), options.clangArguments.end());
  arguments.insert(arguments.end(), {"-x", "cl", kMainFile});
  return arguments;
}

// The real file system (for -I directories) under Loom's in-memory headers.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem(const SourceRequest& request) {
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  const llvm::StringRef baseHeader(reinterpret_cast<const char*>(kOpenClBaseHeader), kOpenClBaseHeaderSize);
  memory->addFile(std::string(kClangHeaderDir) + "/opencl-c-base.h", 0, llvm::MemoryBuffer::getMemBuffer(baseHeader));
  memory->addFile(kPreludePath, 0, llvm::MemoryBuffer::getMemBuffer(kPrelude));
  const llvm::StringRef intelSubgroups(reinterpret_cast<const char*>(kIntelSubgroupsHeader), kIntelSubgroupsHeaderSize);
  memory->addFile(kIntelSubgroupsPath, 0, llvm::MemoryBuffer::getMemBuffer(intelSubgroups));
  for (const auto& [name, content] : request.headers)
    memory->addFile(std::string(kInputHeaderDir) + "/" + name, 0, llvm::MemoryBuffer::getMemBufferCopy(content, name));
  // A physical file system of its own: clang may change its working directory.
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> disk(llvm::vfs::createPhysicalFileSystem().release());
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(disk);
  overlay->pushOverlay(memory);
  return overlay;
}

// Parses the arguments with diagnostics into `log`; false when clang rejects them.
bool createInvocation(clang::CompilerInstance& clang, const std::vector<std::string>& arguments, llvm::raw_ostream& log) {
  std::vector<const char*> pointers;
  for (const std::string& argument : arguments) pointers.push_back(argument.c_str());
  auto options = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  clang::TextDiagnosticPrinter printer(log, options.get());
  auto diagnostics = clang::CompilerInstance::createDiagnostics(options.get(), &printer, false);
  return clang::CompilerInvocation::CreateFromArgs(clang.getInvocation(), pointers, *diagnostics);
}

// Runs clang on a configured instance: the program's LLVM module, or null (the log says why).
std::unique_ptr<llvm::Module> runClang(clang::CompilerInstance& clang, const SourceRequest& request,
                                       llvm::LLVMContext& context, llvm::raw_ostream& log) {
  // Diagnostics after option parsing, so that -w and -Werror apply.
  clang.createDiagnostics(new clang::TextDiagnosticPrinter(log, &clang.getDiagnosticOpts()), true);
  clang.setVerboseOutputStream(log);  // "1 warning generated."
  clang.createFileManager(fileSystem(request));
  clang::PreprocessorOptions& preprocessor = clang.getPreprocessorOpts();
  preprocessor.addRemappedFile(kMainFile, llvm::MemoryBuffer::getMemBufferCopy(request.source, kMainFile).release());
  preprocessor.DisablePragmaDebugCrash = true;  // "#pragma clang __debug crash" must not end the application
  clang::EmitLLVMOnlyAction action(&context);
  if (!clang.ExecuteAction(action)) return nullptr;
  return action.takeModule();
}

std::map<std::string, std::string> vectorTypeHints(const llvm::Module& module) {
  std::map<std::string, std::string> hints;
  for (const llvm::Function& function : module) {
    if (!isKernel(function)) continue;
    if (std::string hint = sourceVectorTypeHint(function); !hint.empty()) hints[function.getName().str()] = hint;
  }
  return hints;
}

// A C99 inline definition (a plain `inline` function that no declaration of the program makes
// external) comes out of clang as available_externally: a body the optimizer may inline, whose
// symbol another program is expected to define. Real OpenCL code writes plain `inline` for
// helpers that nothing else defines, and every common implementation builds it, so the body
// becomes the program's own, private to it: calls use it, and programs linked together each keep
// their copy instead of clashing.
void keepInlineDefinitions(llvm::Module& module) {
  for (llvm::Function& function : module)
    if (function.hasAvailableExternallyLinkage()) function.setLinkage(llvm::GlobalValue::InternalLinkage);
}

}  // namespace

SpirvResult compileOpenClSource(const SourceRequest& request) {
  std::string invalidOptions;
  const std::optional<BuildOptions> options = parseBuildOptions(request.options, invalidOptions);
  if (!options) return {Status::InvalidOptions, invalidOptions, {}};
  std::string log;
  llvm::raw_string_ostream logStream(log);
  llvm::LLVMContext context;  // one per compilation: several threads may compile at once
  context.setOpaquePointers(false);
  clang::CompilerInstance clang;
  if (!createInvocation(clang, clangArguments(*options, !request.headers.empty()), logStream))
    return {Status::InvalidOptions, log, {}};
  std::unique_ptr<llvm::Module> module = runClang(clang, request, context, logStream);
  if (!module) return {Status::BuildFailure, log, {}};
  keepInlineDefinitions(*module);
  lowerHalfAtomics(*module);
  auto hints = vectorTypeHints(*module);  // before the translator rewrites the kernels' metadata
  auto spirv = writeSpirvModule(*module);
  if (!spirv) return {Status::BuildFailure, log + llvm::toString(spirv.takeError()), {}};
  return {Status::Success, log, std::move(*spirv), std::move(hints), true};
}

}  // namespace loom::compiler
