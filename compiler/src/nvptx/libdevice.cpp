#include "libdevice.h"

#include <cstdlib>
#include <cstring>
#include <optional>
#include <set>

#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "loom/compiler/compiler.h"
#include "loom/core/debug_keys.h"

namespace loom::compiler::nvptx {

namespace {

constexpr const char* kPathInToolkit = "/nvvm/libdevice/libdevice.10.bc";

std::vector<std::string> candidatePaths() {
  if (std::string path; core::readDebugKey("LibdevicePath", path) && !path.empty()) return {path};
  std::vector<std::string> paths;
  for (const char* variable : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* root = std::getenv(variable); root && *root) paths.push_back(root + std::string(kPathInToolkit));
  for (const char* root : {"/usr/local/cuda", "/usr/lib/cuda"}) paths.push_back(root + std::string(kPathInToolkit));
  return paths;
}

// An instruction that libdevice implements, and the __nv_ function that does.
struct MathUse {
  llvm::Instruction* instruction;
  std::string function;
};

bool isFloatingPoint(llvm::Type* type) {
  llvm::Type* scalar = type->getScalarType();
  return scalar->isHalfTy() || scalar->isFloatTy() || scalar->isDoubleTy();
}

// libdevice names its functions as the C library does, with a prefix: __nv_sinf, __nv_sin. It has
// none for half, which computes in float (replaceWithCalls converts).
std::string libdeviceName(llvm::StringRef base, llvm::Type* type) {
  return "__nv_" + base.str() + (type->getScalarType()->isDoubleTy() ? "" : "f");
}

// C99 math functions that LLVM's list of C library functions lacks; libdevice has all of them
// (__nv_erff, __nv_erf...) within OpenCL C's error bounds.
bool isMathBeyondTheLibraryList(llvm::StringRef name) {
  static const llvm::StringSet<> functions = {"erf",   "erff",   "erfc",  "erfcf",  "tgamma", "tgammaf",
                                              "lgamma", "lgammaf", "hypot", "hypotf", "fdim",   "fdimf"};
  return functions.contains(name);
}

// A C library function that libdevice implements as __nv_ and the same name.
bool isCLibraryFunction(const llvm::Function& callee, const llvm::TargetLibraryInfoImpl& cLibrary) {
  llvm::LibFunc function;
  if (callee.isVarArg()) return false;
  return cLibrary.getLibFunc(callee.getName(), function) || isMathBeyondTheLibraryList(callee.getName());
}

std::optional<std::string> libdeviceFunction(llvm::Instruction& instruction, const llvm::TargetLibraryInfoImpl& cLibrary) {
  if (instruction.getOpcode() == llvm::Instruction::FRem && isFloatingPoint(instruction.getType()))
    return libdeviceName("fmod", instruction.getType());
  auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction);
  llvm::Function* callee = call ? call->getCalledFunction() : nullptr;
  if (!callee || !callee->isDeclaration()) return std::nullopt;
  if (callee->isIntrinsic()) {
    if (!needsLibdevice(callee->getIntrinsicID()) || !isFloatingPoint(call->getType())) return std::nullopt;
    const llvm::StringRef base = llvm::Intrinsic::getBaseName(callee->getIntrinsicID()).drop_front(std::strlen("llvm."));
    return libdeviceName(base, call->getType());
  }
  if (!isCLibraryFunction(*callee, cLibrary)) return std::nullopt;
  return "__nv_" + callee->getName().str();
}

std::vector<MathUse> mathUses(llvm::Module& module) {
  const llvm::TargetLibraryInfoImpl cLibrary;
  std::vector<MathUse> uses;
  for (llvm::Function& function : module)
    for (llvm::Instruction& instruction : llvm::instructions(function))
      if (auto name = libdeviceFunction(instruction, cLibrary)) uses.push_back({&instruction, std::move(*name)});
  return uses;
}

llvm::Error missingLibdevice(const std::vector<MathUse>& uses) {
  std::set<std::string> functions;
  for (const MathUse& use : uses) functions.insert(use.function);
  std::string needed, looked;
  for (const std::string& function : functions) needed += (needed.empty() ? "" : ", ") + function;
  for (const std::string& path : candidatePaths()) looked += (looked.empty() ? "" : ", ") + path;
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "the kernels use math from CUDA's libdevice (%s), but libdevice.10.bc was not found "
                                 "(looked for %s); install the CUDA toolkit or set LOOM_LibdevicePath",
                                 needed.c_str(), looked.c_str());
}

llvm::Expected<std::unique_ptr<llvm::Module>> loadLibdevice(llvm::LLVMContext& context, const std::vector<MathUse>& uses) {
  const std::string path = findLibdevice();
  if (path.empty()) return missingLibdevice(uses);
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return llvm::createStringError(buffer.getError(), "cannot read %s: %s", path.c_str(), buffer.getError().message().c_str());
  // Lazy: linking materializes only the functions the module calls.
  auto library = llvm::getOwningLazyBitcodeModule(std::move(*buffer), context);
  if (!library)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "cannot load %s: %s", path.c_str(),
                                   llvm::toString(library.takeError()).c_str());
  return library;
}

// `instruction` (a call or frem, on scalars or vectors) as calls of `function`, lane by lane; half
// operands extended to float and half results rounded back.
void replaceWithCalls(llvm::Instruction& instruction, llvm::FunctionCallee function) {
  auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction);
  const llvm::SmallVector<llvm::Value*, 3> operands =
      call ? llvm::SmallVector<llvm::Value*, 3>(call->args()) : llvm::SmallVector<llvm::Value*, 3>(instruction.operands());
  llvm::IRBuilder<> builder(&instruction);
  auto callLane = [&](std::optional<unsigned> lane) -> llvm::Value* {
    llvm::SmallVector<llvm::Value*, 3> arguments;
    for (llvm::Value* operand : operands) {
      llvm::Value* argument = lane && operand->getType()->isVectorTy() ? builder.CreateExtractElement(operand, *lane) : operand;
      arguments.push_back(argument->getType()->isHalfTy() ? builder.CreateFPExt(argument, builder.getFloatTy()) : argument);
    }
    llvm::CallInst* call = builder.CreateCall(function, arguments);
    return instruction.getType()->getScalarType()->isHalfTy() ? builder.CreateFPTrunc(call, builder.getHalfTy()) : call;
  };
  llvm::Value* result = nullptr;
  if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(instruction.getType())) {
    result = llvm::PoisonValue::get(vector);
    for (unsigned lane = 0; lane < vector->getNumElements(); ++lane)
      result = builder.CreateInsertElement(result, callLane(lane), lane);
  } else {
    result = callLane(std::nullopt);
  }
  instruction.replaceAllUsesWith(result);
  instruction.eraseFromParent();
}

void internalize(llvm::Module& module, const llvm::StringSet<>& linked) {
  for (const auto& name : linked)
    if (llvm::GlobalValue* value = module.getNamedValue(name.getKey()); value && !value->isDeclaration())
      value->setLinkage(llvm::GlobalValue::InternalLinkage);
}

}  // namespace

std::string findLibdevice() {
  for (const std::string& path : candidatePaths())
    if (llvm::sys::fs::exists(path)) return path;
  return {};
}

bool needsLibdevice(llvm::Intrinsic::ID intrinsic) {
  switch (intrinsic) {
    case llvm::Intrinsic::sin:
    case llvm::Intrinsic::cos:
    case llvm::Intrinsic::exp:
    case llvm::Intrinsic::exp2:
    case llvm::Intrinsic::log:
    case llvm::Intrinsic::log2:
    case llvm::Intrinsic::log10:
    case llvm::Intrinsic::pow:
    case llvm::Intrinsic::powi: return true;
    default: return false;
  }
}

llvm::Error linkLibdevice(llvm::Module& module) {
  const std::vector<MathUse> uses = mathUses(module);
  if (uses.empty()) return llvm::Error::success();
  auto library = loadLibdevice(module.getContext(), uses);
  if (!library) return library.takeError();
  for (const MathUse& use : uses)
    if (llvm::Function* definition = (*library)->getFunction(use.function))
      replaceWithCalls(*use.instruction, module.getOrInsertFunction(use.function, definition->getFunctionType()));
  (*library)->setDataLayout(module.getDataLayout());
  (*library)->setTargetTriple(module.getTargetTriple());
  if (llvm::Linker::linkModules(module, std::move(*library), llvm::Linker::LinkOnlyNeeded, internalize))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "linking libdevice failed");
  return llvm::Error::success();
}

}  // namespace loom::compiler::nvptx

namespace loom::compiler {

std::string libdevicePath() { return nvptx::findLibdevice(); }

}  // namespace loom::compiler
