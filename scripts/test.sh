#!/usr/bin/env bash
# Sets up, builds and runs every test (CTest: unit tests and API tests through the real loader).
# With --sanitize, builds and tests an AddressSanitizer + UndefinedBehaviorSanitizer build instead.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
cmake_args=()
if [ "${1:-}" = "--sanitize" ]; then
  build=$root/build-sanitize
  cmake_args=(-DLOOM_SANITIZE=ON)
  # Full stacks (fast_unwind_on_malloc=0) so that leaks inside the translator, which has no frame
  # pointers, are matched by the suppression file.
  # handle_*=0: the CPU device's fault handler (backends/cpu/kernel_fault_guard.h) is what the
  # tests check, chaining to the default action for faults outside kernels; the sanitizer's own
  # handlers would come first and turn those into its reports. Its checks of memory accesses stay.
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:fast_unwind_on_malloc=0:handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0
  # use_tls=0: Debian 12's LeakSanitizer crashes walking the dynamic TLS of dlopen'ed libraries
  # (the runtime, opened by the loaders) at exit ("Tracer caught signal 11", a bogus DTLS range).
  # Not scanning TLS can only add reports (blocks reachable from TLS alone), never hide a leak.
  export LSAN_OPTIONS=suppressions=$root/tests/sanitizer/lsan.supp:fast_unwind_on_malloc=0:use_tls=0
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fi
"$root/scripts/setup.sh"
"$root/scripts/build.sh" "$build" "${cmake_args[@]}"
ctest --test-dir "$build" --output-on-failure -j2 --timeout 300
