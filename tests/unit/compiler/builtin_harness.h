#pragma once
// A data-driven check of builtin library functions: each builtin is called from a generated kernel
// at every vector width it has, on the same inputs (edge cases, then random values), and compared
// with a host reference computed in higher precision. Every scalar of every OpenCL type is carried
// as a long double, which holds all of them exactly (64-bit integers included).
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace loom::compiler::test::builtins {

enum class Type { Char, UChar, Short, UShort, Int, UInt, Long, ULong, Float, Double, Half };

struct TypeInfo {
  const char* name;
  size_t size;
  bool floating;
  bool isSigned;
  long double min, max;  // integers: the range; floating point: the largest finite magnitude in max
};
const TypeInfo& info(Type type);

// A value rounded to the type (floating point: to nearest even; integers: clamped).
long double representable(Type type, long double value);

// The reference for one call: a value per result component, with no value where the result is
// undefined (the spec leaves it so, or the inputs break the function's preconditions).
using Lanes = std::vector<long double>;
struct Expected {
  std::optional<long double> value;
  std::optional<long double> second;       // the result stored through the builtin's pointer argument
  std::optional<long double> alternative;  // another acceptable value (fmin(-0, +0), mad with or without fusing)
};
// Arguments as vectors of the call's width (scalar arguments repeated) -> expected per component.
using Reference = std::function<std::vector<Expected>(const std::vector<Lanes>& arguments)>;
// A component-wise reference from a scalar one.
Reference componentwise(std::function<Expected(const Lanes& scalars)> scalar);

struct Builtin {
  // OpenCL C; A0..A2: arguments, S0..S2: scalar arguments, R: the second result's address,
  // #: the width in names (convert_int#_sat: convert_int_sat, convert_int2_sat...)
  std::string call;
  std::vector<Type> arguments;
  Type result;
  Reference reference;
  double ulps = 0;                   // floating-point results: allowed error (0: exact, infinity: any finite value)
  std::optional<Type> second;        // the type R points to
  std::optional<Type> vectorResult;  // relational functions: the component type of vector results (0 / -1)
  std::vector<int> widths = {1, 2, 3, 4, 8, 16};
  bool reduces = false;  // dot, length, distance: one result per vector
  // Edits generated inputs to meet the function's preconditions (clamp's minimum below its maximum).
  std::function<void(Lanes& scalars)> prepare;
};

// Inputs of `type`: edge cases first (for two-argument functions every pair of them), then random
// values. Floating point: +-0, denormals, +-inf, NaN, the extremes, integers, values near
// overflow; random bit patterns, random magnitudes and small values.
std::vector<long double> edgeCases(Type type);

// Compiles one program with a kernel per builtin and width, runs each on `count` inputs per width
// (a multiple of 48) and reports every builtin that differs from its reference as a test failure.
void checkFamily(const std::vector<Builtin>& family, size_t count, const std::string& options = "");

}  // namespace loom::compiler::test::builtins
