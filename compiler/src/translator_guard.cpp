#include "translator_guard.h"

#include <csetjmp>
#include <csignal>
#include <mutex>

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/Pass.h"

namespace loom::compiler {

namespace {

thread_local sigjmp_buf* translating = nullptr;
std::mutex handlerMutex;
int activeTranslations = 0;
struct sigaction previousHandler;

void onAbort(int signal) {
  if (translating) siglongjmp(*translating, 1);
  // Not a translation of ours: behave as if this handler had never been installed.
  sigaction(SIGABRT, &previousHandler, nullptr);
  raise(signal);
}

void enter() {
  std::lock_guard lock(handlerMutex);
  if (activeTranslations++ > 0) return;
  struct sigaction ours {};
  ours.sa_handler = onAbort;
  sigemptyset(&ours.sa_mask);
  sigaction(SIGABRT, &ours, &previousHandler);
}

void leave() {
  std::lock_guard lock(handlerMutex);
  if (--activeTranslations == 0) sigaction(SIGABRT, &previousHandler, nullptr);
}

// Runs `translate`, returning what it returns, or false when it aborted.
bool guarded(llvm::function_ref<bool()> translate, bool& aborted) {
  sigjmp_buf jump;
  volatile bool translated = false;  // volatile: read after a possible siglongjmp
  aborted = false;
  enter();
  if (sigsetjmp(jump, 1) == 0) {
    translating = &jump;
    translated = translate();
  } else {
    aborted = true;
  }
  translating = nullptr;
  leave();
  return translated && !aborted;
}

}  // namespace

bool readSpirvGuarded(llvm::LLVMContext& context, const SPIRV::TranslatorOpts& options, std::istream& stream,
                      llvm::Module*& module, std::string& message, bool& aborted) {
  const bool translated = guarded([&] { return llvm::readSpirv(context, options, stream, module, message); }, aborted);
  if (aborted) module = nullptr;
  return translated;
}

bool lowerToOpenCl12Guarded(llvm::Module& module, bool& aborted) {
  return guarded(
      [&] {
        llvm::legacy::PassManager passes;
        passes.add(llvm::createSPIRVBIsLoweringPass(module, SPIRV::BIsRepresentation::OpenCL12));
        passes.run(module);
        return true;
      },
      aborted);
}

bool writeSpirvGuarded(llvm::Module& module, const SPIRV::TranslatorOpts& options, std::ostream& stream,
                       std::string& message, bool& aborted) {
  return guarded([&] { return llvm::writeSpirv(&module, options, stream, message); }, aborted);
}

}  // namespace loom::compiler
