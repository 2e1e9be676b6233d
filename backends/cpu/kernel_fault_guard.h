#pragma once
// Kernel code that faults (a wild store, a stack overflow, a trap) fails its launch instead of
// killing the process, as a GPU reports a lost device. One process-wide handler for SIGSEGV,
// SIGBUS, SIGFPE and SIGILL recognises a fault raised synchronously by code that a thread runs
// inside runKernelCode, and returns that thread to where runKernelCode began; every other signal
// goes to the handler the application had before (or takes its default action), as if Loom were
// not there. An application handler installed after Loom's takes the faults first: Loom then
// recovers only where that handler passes them on to the one it replaced.

namespace loom::backends::cpu {

// Installs the handler, once per process; later calls do nothing.
void installKernelFaultHandler();

// What a fault in kernel code left for the report.
struct KernelFault {
  int signal = 0;  // 0: none
  int code = 0;    // siginfo's si_code
  void* address = nullptr;  // siginfo's si_addr: the faulting access or instruction
};

// Runs call(data) as kernel code on the calling thread and returns the fault it raised, if any.
// On a fault the call is abandoned where it was: nothing between here and the faulting code may
// own resources (objects with destructors, locks). The thread gets an alternate signal stack on
// first use, so that a kernel overflowing its stack is caught too.
KernelFault runKernelCode(void (*call)(void*), void* data);

// The name of a fault's signal ("SIGSEGV"), for messages.
const char* faultName(int signal);

}  // namespace loom::backends::cpu
