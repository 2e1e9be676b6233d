#pragma once
// Integer division that cannot trap on the CPU.
#include "llvm/IR/Module.h"

namespace loom::compiler::cpu {

// OpenCL C leaves x / 0 and INT_MIN / -1 unspecified but without an exception (6.3), while x86's
// div and idiv raise SIGFPE for both. Every division and remainder gets a divisor of 1 in those
// cases instead: x / 0 is x, x % 0 is 0, INT_MIN / -1 is INT_MIN (the wrapped quotient), and
// INT_MIN % -1 is 0. Constant divisors fold the guard away.
void guardIntegerDivision(llvm::Module& module);

}  // namespace loom::compiler::cpu
