// Every math, common, geometric, relational and integer builtin of OpenCL C, each overload (every
// element type and vector width, scalar arguments, pointers in every address space), built for
// the NVPTX target: a builtin whose library body leaves a call the GPU has no body for (a C
// library function libdevice does not map) fails the build with "functions the NVPTX target
// cannot provide", as fdim, hypot and lgamma did in OpenCL-CTS test_bruteforce.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernel_runner.h"

namespace loom::compiler::test {
namespace {

const std::vector<std::string> kWidths = {"", "2", "3", "4", "8", "16"};

// Expressions over the kernel's values of one width: X, Y, Z of the element type T at the width,
// S a scalar T, I an int at the width, U the unsigned type of T's size at the width, k an int;
// `#` is the width in type names.
struct Family {
  std::vector<std::string> calls;
  std::vector<std::string> widths = kWidths;
};

std::string replaceAll(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) text.replace(at, from.size(), to);
  return text;
}

// `call` at `width`: the placeholders spelled as the kernel names its values.
std::string instantiate(std::string call, const std::string& type, const std::string& width) {
  for (const char* value : {"X", "Y", "Z", "I", "U"}) call = replaceAll(call, value, std::string("v") + value + width);
  call = replaceAll(call, "S", "s");
  call = replaceAll(call, "#", width);
  return replaceAll(call, "T", type);
}

std::string unsignedOfSameSize(const std::string& type) {
  if (type == "double" || type == "long" || type == "ulong") return "ulong";
  if (type == "half" || type == "short" || type == "ushort") return "ushort";
  if (type == "char" || type == "uchar") return "uchar";
  return "uint";
}

// Element `index` of `pointer` (of element type `type`) as a vector of `width`.
std::string load(const std::string& width, const std::string& index, const std::string& pointer) {
  return width.empty() ? "(" + pointer + ")[" + index + "]" : "vload" + width + "(" + index + ", " + pointer + ")";
}

// A kernel that stores the result of each call at each width into its own slot of `out`.
std::string kernel(const std::string& name, const std::string& type, const Family& family) {
  const std::string unsignedType = unsignedOfSameSize(type);
  std::string source = "kernel void " + name + "(global " + type + "* in, global char* out, global char* buffer) {\n" +
                       "  size_t i = get_global_id(0);\n  local char scratch[256];\n" +
                       "  __attribute__((aligned(128))) char own[256];\n" + "  " + type + " s = in[i + 3];\n  int k = (int)i;\n";
  for (const std::string& width : kWidths) {
    source += "  " + type + width + " vX" + width + " = " + load(width, "i", "in") + ", vY" + width + " = " +
              load(width, "i + 1", "in") + ", vZ" + width + " = " + load(width, "i + 2", "in") + ";\n";
    source += "  int" + width + " vI" + width + " = " + load(width, "i", "(global int*)buffer") + ";\n";
    source += "  " + unsignedType + width + " vU" + width + " = " + load(width, "i", "(global " + unsignedType + "*)buffer") + ";\n";
  }
  size_t slot = 0;
  for (const std::string& width : family.widths)
    for (const std::string& call : family.calls) {
      const std::string expression = instantiate(call, type, width);
      source += "  *(global __typeof__(" + expression + ")*)(out + " + std::to_string(256 * slot++) + ") = " + expression + ";\n";
    }
  return source + "}\n";
}

// The pointer argument of frexp, modf and the like, of type R#, in each address space: global,
// local, private and (OpenCL C 3.0) generic.
std::vector<std::string> pointers(const std::string& pointee) {
  return {"(global " + pointee + "#*)buffer", "(local " + pointee + "#*)scratch", "(private " + pointee + "#*)own",
          "(" + pointee + "#*)(generic char*)own"};
}

const std::vector<std::string> kFloatingUnary = {
    "acos",  "acosh",  "acospi", "asin",   "asinh",    "asinpi",   "atan",    "atanh",    "atanpi", "cbrt",    "ceil",
    "cos",   "cosh",   "cospi",  "erfc",   "erf",      "exp",      "exp2",    "exp10",    "expm1",  "fabs",    "floor",
    "lgamma", "log",   "log2",   "log10",  "log1p",    "logb",     "rint",    "round",    "rsqrt",  "sin",     "sinh",
    "sinpi", "sqrt",   "tan",    "tanh",   "tanpi",    "tgamma",   "trunc",   "ilogb",    "degrees", "radians", "sign",
    "isnan", "isinf",  "isfinite", "isnormal", "signbit"};
const std::vector<std::string> kFloatingBinary = {
    "atan2", "atan2pi", "copysign", "fdim",      "fmax",   "fmin",      "fmod",        "hypot",     "maxmag",
    "minmag", "nextafter", "pow",   "powr",      "remainder", "max",    "min",         "step",      "isequal",
    "isnotequal", "isgreater", "isgreaterequal", "isless", "islessequal", "islessgreater", "isordered", "isunordered"};

// The floating builtins at the scalar width, the odd width and the widest: every other width takes
// the vector path of the widest, and building all six made each type's program take minutes.
Family floatingFamily() {
  Family family{{}, {"", "3", "16"}};
  for (const std::string& name : kFloatingUnary) family.calls.push_back(name + "(X)");
  for (const std::string& name : kFloatingBinary) family.calls.push_back(name + "(X, Y)");
  for (const std::string& name : {"fma", "mad", "clamp", "mix", "smoothstep", "bitselect", "select"})
    family.calls.push_back(name + std::string(name == std::string("select") ? "(X, Y, U)" : "(X, Y, Z)"));
  for (const std::string call : {"fmax(X, S)", "fmin(X, S)", "max(X, S)", "min(X, S)", "step(S, X)", "clamp(X, S, S)",
                                 "mix(X, Y, S)", "smoothstep(S, S, X)", "ldexp(X, I)", "ldexp(X, k)", "pown(X, I)",
                                 "rootn(X, I)", "nan(U)", "any(I)", "all(I)"})
    family.calls.push_back(call);
  for (const std::string& pointer : pointers("int"))
    for (const std::string& name : {"frexp(X, ", "lgamma_r(X, ", "remquo(X, Y, "}) family.calls.push_back(name + pointer + ")");
  for (const std::string& pointer : pointers("T"))
    for (const std::string& name : {"fract(X, ", "modf(X, ", "sincos(X, "}) family.calls.push_back(name + pointer + ")");
  return family;
}

Family geometricFamily(bool fast) {
  Family family{{"dot(X, Y)", "distance(X, Y)", "length(X)", "normalize(X)"}, {"", "2", "3", "4"}};
  if (fast) family.calls.insert(family.calls.end(), {"fast_distance(X, Y)", "fast_length(X)", "fast_normalize(X)"});
  return family;
}

Family crossFamily() { return {{"cross(X, Y)"}, {"3", "4"}}; }

Family nativeFamily() {
  Family family;
  for (const std::string name : {"cos", "exp", "exp2", "exp10", "log", "log2", "log10", "recip", "rsqrt", "sin", "sqrt", "tan"})
    for (const std::string prefix : {"native_", "half_"}) family.calls.push_back(prefix + name + "(X)");
  for (const std::string prefix : {"native_", "half_"})
    for (const std::string name : {"divide(X, Y)", "powr(X, Y)"}) family.calls.push_back(prefix + name);
  return family;
}

Family integerFamily(const std::string& type) {
  Family family{{"abs(X)", "clz(X)", "ctz(X)", "popcount(X)", "abs_diff(X, Y)", "add_sat(X, Y)", "hadd(X, Y)", "rhadd(X, Y)",
                 "max(X, Y)", "min(X, Y)", "max(X, S)", "min(X, S)", "mul_hi(X, Y)", "rotate(X, Y)", "sub_sat(X, Y)",
                 "clamp(X, Y, Z)", "clamp(X, S, S)", "mad_hi(X, Y, Z)", "mad_sat(X, Y, Z)", "bitselect(X, Y, Z)",
                 "select(X, Y, as_T#(U))"}};
  if (type == "int" || type == "uint") family.calls.insert(family.calls.end(), {"mad24(X, Y, Z)", "mul24(X, Y)"});
  if (type != "long" && type != "ulong") family.calls.push_back("upsample(X, as_" + unsignedOfSameSize(type) + "#(Y))");
  return family;
}

std::string program(const std::string& type) {
  std::string source = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  const bool floating = type == "float" || type == "double" || type == "half";
  if (!floating) return source + kernel("integer_builtins", type, integerFamily(type));
  source += kernel("floating_builtins", type, floatingFamily());
  source += kernel("geometric_builtins", type, geometricFamily(type == "float"));
  source += kernel("cross_builtins", type, crossFamily());
  if (type == "float") source += kernel("native_builtins", type, nativeFamily());
  return source;
}

class NvptxBuiltins : public testing::TestWithParam<const char*> {};

TEST_P(NvptxBuiltins, EveryOverloadBuilds) {
  const BuildResult built = compileSourceFor(Target::Nvptx, program(GetParam()), "-cl-std=CL3.0");
  ASSERT_EQ(built.status, Status::Success) << built.log;
}

INSTANTIATE_TEST_SUITE_P(ElementTypes, NvptxBuiltins,
                         testing::Values("float", "double", "half", "char", "uchar", "short", "ushort", "int", "uint", "long",
                                         "ulong"));

}  // namespace
}  // namespace loom::compiler::test
