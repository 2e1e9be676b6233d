#include "backends/cpu/kernel_fault_guard.h"

#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>

#include <atomic>
#include <iterator>
#include <mutex>

namespace loom::backends::cpu {

namespace {

constexpr int kFaultSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
// Room for the handler and for an application handler it passes a fault on to.
constexpr size_t kAlternateStackSize = size_t(64) << 10;

// Where runKernelCode resumes after a fault. Lives on runKernelCode's stack.
struct RecoveryPoint {
  sigjmp_buf resume;
  KernelFault fault;
};

// Set while the thread runs kernel code. Initial-exec, so that the handler reads it without a
// call into the dynamic linker (which may allocate).
thread_local RecoveryPoint* recoveryPoint __attribute__((tls_model("initial-exec"))) = nullptr;

// The actions the application had before Loom's handler, by index in kFaultSignals; written
// before the handler is installed, read by the handler only.
struct sigaction previousActions[std::size(kFaultSignals)];

struct sigaction& previousAction(int signal) {
  for (size_t i = 0; i < std::size(kFaultSignals); ++i)
    if (kFaultSignals[i] == signal) return previousActions[i];
  return previousActions[0];  // unreachable: the handler is installed for these signals only
}

// Raised by the instruction that faulted, rather than sent by kill(), raise() or sigqueue().
bool raisedByTheFault(const siginfo_t* info) { return info->si_code > 0; }

void takeDefaultAction(int signal, const siginfo_t* info) {
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  sigemptyset(&fallback.sa_mask);
  sigaction(signal, &fallback, nullptr);
  // A fault repeats when the instruction runs again on return; a sent signal must be sent again.
  if (!raisedByTheFault(info)) raise(signal);
}

// Calls the application's handler as the kernel would have: with its mask, once only when it
// asked for SA_RESETHAND.
void callApplicationHandler(struct sigaction& previous, int signal, siginfo_t* info, void* context) {
  const struct sigaction handler = previous;
  if (handler.sa_flags & SA_RESETHAND) {
    previous.sa_handler = SIG_DFL;
    previous.sa_flags = 0;
  }
  sigset_t mask = handler.sa_mask;
  sigset_t before;
  pthread_sigmask(SIG_BLOCK, &mask, &before);
  if (handler.sa_flags & SA_NODEFER) {
    sigemptyset(&mask);
    sigaddset(&mask, signal);
    pthread_sigmask(SIG_UNBLOCK, &mask, nullptr);
  }
  if (handler.sa_flags & SA_SIGINFO)
    handler.sa_sigaction(signal, info, context);
  else
    handler.sa_handler(signal);
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
}

// Everything that is not a fault of kernel code: what would have happened without Loom.
void passOn(int signal, siginfo_t* info, void* context) {
  struct sigaction& previous = previousAction(signal);
  const bool handled = (previous.sa_flags & SA_SIGINFO) ||
                       (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN);
  if (handled) return callApplicationHandler(previous, signal, info, context);
  // The kernel does not let a fault be ignored: it takes the default action.
  if (previous.sa_handler == SIG_IGN && !raisedByTheFault(info)) return;
  takeDefaultAction(signal, info);
}

void onFaultSignal(int signal, siginfo_t* info, void* context) {
  RecoveryPoint* point = recoveryPoint;
  if (point == nullptr || !raisedByTheFault(info)) return passOn(signal, info, context);
  recoveryPoint = nullptr;
  point->fault.signal = signal;
  point->fault.code = info->si_code;
  point->fault.address = info->si_addr;
  siglongjmp(point->resume, 1);
}

// An alternate signal stack for a thread that runs kernels and has none, so that the handler can
// run when a kernel has used up the thread's stack. Removed and freed when the thread exits.
class AlternateStack {
 public:
  AlternateStack() {
    stack_t current{};
    if (sigaltstack(nullptr, &current) != 0 || !(current.ss_flags & SS_DISABLE)) return;
    void* memory = mmap(nullptr, kAlternateStackSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (memory == MAP_FAILED) return;
    stack_t stack{};
    stack.ss_sp = memory;
    stack.ss_size = kAlternateStackSize;
    if (sigaltstack(&stack, nullptr) != 0) {
      munmap(memory, kAlternateStackSize);
      return;
    }
    memory_ = memory;
  }
  ~AlternateStack() {
    if (!memory_) return;
    stack_t current{};
    if (sigaltstack(nullptr, &current) == 0 && current.ss_sp == memory_) {
      stack_t off{};
      off.ss_flags = SS_DISABLE;
      sigaltstack(&off, nullptr);
    }
    munmap(memory_, kAlternateStackSize);
  }
  AlternateStack(const AlternateStack&) = delete;
  AlternateStack& operator=(const AlternateStack&) = delete;

 private:
  void* memory_ = nullptr;
};

void ensureAlternateStack() { thread_local AlternateStack stack; }

void unblock(int signal) {
  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, signal);
  pthread_sigmask(SIG_UNBLOCK, &mask, nullptr);
}

}  // namespace

void installKernelFaultHandler() {
  static std::once_flag installed;
  std::call_once(installed, [] {
    for (size_t i = 0; i < std::size(kFaultSignals); ++i) {
      sigaction(kFaultSignals[i], nullptr, &previousActions[i]);
      struct sigaction action {};
      action.sa_sigaction = onFaultSignal;
      action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
      sigemptyset(&action.sa_mask);
      sigaction(kFaultSignals[i], &action, nullptr);
    }
  });
}

KernelFault runKernelCode(void (*call)(void*), void* data) {
  ensureAlternateStack();
  RecoveryPoint point;
  // No signal mask saved: that costs a system call per run. The handler left the signal blocked,
  // so it is unblocked here by hand.
  if (sigsetjmp(point.resume, 0) != 0) {
    std::atomic_signal_fence(std::memory_order_seq_cst);  // the handler wrote point.fault
    unblock(point.fault.signal);
    return point.fault;
  }
  recoveryPoint = &point;
  call(data);
  recoveryPoint = nullptr;
  return {};
}

const char* faultName(int signal) {
  switch (signal) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    default: return "a signal";
  }
}

}  // namespace loom::backends::cpu
