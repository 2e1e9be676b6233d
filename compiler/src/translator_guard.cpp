#include "translator_guard.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csetjmp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/Pass.h"

namespace loom::compiler {

namespace {

thread_local sigjmp_buf* translating = nullptr;
std::mutex handlerMutex;
int activeTranslations = 0;

// abort() of a failed assertion, and the faults of a translator bug (a null pointer it follows).
constexpr int kCaughtSignals[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL};
constexpr size_t kCaughtSignalCount = sizeof(kCaughtSignals) / sizeof(kCaughtSignals[0]);
struct sigaction previousHandlers[kCaughtSignalCount];

void restorePreviousHandler(int signal) {
  for (size_t index = 0; index < kCaughtSignalCount; ++index)
    if (kCaughtSignals[index] == signal) sigaction(signal, &previousHandlers[index], nullptr);
}

void onTranslatorFailure(int signal) {
  if (translating) siglongjmp(*translating, 1);
  // Not a translation of ours: behave as if this handler had never been installed. A fault
  // returns to the faulting instruction, which faults again under the previous handler with its
  // own details; an abort is raised again.
  restorePreviousHandler(signal);
  if (signal == SIGABRT) raise(signal);
}

void enter() {
  std::lock_guard lock(handlerMutex);
  if (activeTranslations++ > 0) return;
  struct sigaction ours {};
  ours.sa_handler = onTranslatorFailure;
  // On the alternate stack where a thread has one: a CPU kernel that overflows its stack while
  // another thread translates reaches, through this handler, the CPU device's fault handler.
  ours.sa_flags = SA_ONSTACK;
  sigemptyset(&ours.sa_mask);
  for (size_t index = 0; index < kCaughtSignalCount; ++index) sigaction(kCaughtSignals[index], &ours, &previousHandlers[index]);
}

void leave() {
  std::lock_guard lock(handlerMutex);
  if (--activeTranslations > 0) return;
  for (size_t index = 0; index < kCaughtSignalCount; ++index) sigaction(kCaughtSignals[index], &previousHandlers[index], nullptr);
}

// Runs `translate`, returning what it returns, or false when it aborted or crashed.
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

// Far longer than the translator takes for any module a compiler wrote.
constexpr std::chrono::seconds kChildTimeLimit(5);

// Lets this process map at most `headroom` more bytes of private memory than it has now (VmData):
// a module whose damage makes the translator allocate without end fails fast instead of swapping.
void limitGrowth(uint64_t headroom) {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmData:", 0) != 0) continue;
    const uint64_t kilobytes = std::strtoull(line.c_str() + 7, nullptr, 10);
    const rlimit limit{kilobytes * 1024 + headroom, kilobytes * 1024 + headroom};
    setrlimit(RLIMIT_DATA, &limit);
    return;
  }
}

// Waits up to `limit` for `child`; kills it after that. Its wait status, or -1 when it was killed.
int waitFor(pid_t child, std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  int status = 0;
  while (waitpid(child, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return status;
}

}  // namespace

bool readsInChildProcess(const SPIRV::TranslatorOpts& options, const std::string& spirv, std::string& message) {
  std::fflush(nullptr);  // or the child's exit() would write the parent's buffered output again
  const pid_t child = fork();
  if (child < 0) {
    message = "cannot start a process to check the module";
    return false;
  }
  if (child == 0) {
    // Only the translation runs here; _exit skips the parent's exit handlers. A crash ends the
    // child quietly: the application's crash handlers are not told about it.
    for (int signal : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) std::signal(signal, SIG_DFL);
    limitGrowth(uint64_t(1) << 30);
    llvm::LLVMContext context;
    context.setOpaquePointers(false);
    std::istringstream stream(spirv);
    llvm::Module* module = nullptr;
    std::string ignored;
    _exit(llvm::readSpirv(context, options, stream, module, ignored) && module ? 0 : 1);
  }
  const int status = waitFor(child, kChildTimeLimit);
  if (status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
  if (status < 0)
    message = "the SPIR-V translator did not finish reading the module in " + std::to_string(kChildTimeLimit.count()) + " seconds";
  else if (WIFSIGNALED(status))
    message = "the SPIR-V translator failed on the module (" + std::string(strsignal(WTERMSIG(status))) + ")";
  else
    message = "the SPIR-V translator rejected the module";
  return false;
}

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
