#include "builtin_harness.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <random>
#include <regex>
#include <sstream>

#include "kernel_runner.h"

namespace loom::compiler::test::builtins {

const TypeInfo& info(Type type) {
  static const TypeInfo table[] = {
      {"char", 1, false, true, INT8_MIN, INT8_MAX},       {"uchar", 1, false, false, 0, UINT8_MAX},
      {"short", 2, false, true, INT16_MIN, INT16_MAX},    {"ushort", 2, false, false, 0, UINT16_MAX},
      {"int", 4, false, true, INT32_MIN, INT32_MAX},      {"uint", 4, false, false, 0, UINT32_MAX},
      {"long", 8, false, true, INT64_MIN, INT64_MAX},     {"ulong", 8, false, false, 0, UINT64_MAX},
      {"float", 4, true, true, -FLT_MAX, FLT_MAX},        {"double", 8, true, true, -DBL_MAX, DBL_MAX},
      {"half", 2, true, true, -65504, 65504},
  };
  return table[int(type)];
}

long double representable(Type type, long double value) {
  if (type == Type::Half) return (_Float16)value;
  if (type == Type::Float) return (float)value;
  if (type == Type::Double) return (double)value;
  return std::clamp(value, info(type).min, info(type).max);
}

Reference componentwise(std::function<Expected(const Lanes& scalars)> scalar) {
  return [scalar](const std::vector<Lanes>& arguments) {
    std::vector<Expected> results(arguments[0].size());
    Lanes scalars(arguments.size());
    for (size_t lane = 0; lane < results.size(); ++lane) {
      for (size_t a = 0; a < arguments.size(); ++a) scalars[a] = arguments[a][lane];
      results[lane] = scalar(scalars);
    }
    return results;
  };
}

namespace {

// Integer values of a type, exactly (long double holds every 64-bit integer).
long double integer(Type type, uint64_t bits) {
  const TypeInfo& t = info(type);
  if (t.size < 8) bits &= (uint64_t(1) << (8 * t.size)) - 1;
  if (!t.isSigned) return (long double)bits;
  const int shift = 64 - 8 * int(t.size);
  return (long double)(int64_t(bits << shift) >> shift);
}

// The precision and exponent range of a floating-point type.
struct Format {
  int mantissa, minExponent, maxExponent;
};
Format format(Type type) {
  if (type == Type::Half) return {10, -14, 15};
  if (type == Type::Float) return {23, -126, 127};
  return {52, -1022, 1023};
}

long double randomValue(Type type, std::mt19937_64& random) {
  const uint64_t bits = random();
  const int kind = int(random() % 3);
  if (type == Type::Half) {
    std::uniform_real_distribution<long double> unit(1, 2), small(-10, 10);
    const long double sign = bits & 1 ? -1 : 1;
    if (kind == 0) {
      const uint16_t word = uint16_t(bits >> 48);
      _Float16 h;
      std::memcpy(&h, &word, 2);
      return h;
    }
    if (kind == 1) return representable(type, sign * std::ldexp(unit(random), int(bits >> 40) % 31 - 15));
    return representable(type, small(random));
  }
  if (type == Type::Float || type == Type::Double) {
    const bool single = type == Type::Float;
    std::uniform_real_distribution<long double> unit(1, 2), small(-10, 10);
    const long double sign = bits & 1 ? -1 : 1;
    if (kind == 0) {
      if (single) {
        float f;
        const uint32_t word = uint32_t(bits >> 32);
        std::memcpy(&f, &word, 4);
        return f;
      }
      double d;
      std::memcpy(&d, &bits, 8);
      return d;
    }
    if (kind == 1) return representable(type, sign * std::ldexp(unit(random), int(bits >> 40) % 61 - 30));
    return representable(type, small(random));
  }
  if (kind == 0) return integer(type, bits);
  const long double spread = info(type).isSigned ? (long double)(int(bits % 201) - 100) : (long double)(bits % 201);
  return representable(type, spread);
}

std::string vectorName(Type type, int width) { return std::string(info(type).name) + (width == 1 ? "" : std::to_string(width)); }

void encode(Type type, long double value, uint8_t* out) {
  switch (type) {
    case Type::Float: { const float f = float(value); std::memcpy(out, &f, 4); return; }
    case Type::Double: { const double d = double(value); std::memcpy(out, &d, 8); return; }
    case Type::Half: { const _Float16 h = _Float16(value); std::memcpy(out, &h, 2); return; }
    default: {
      const uint64_t bits = info(type).isSigned ? uint64_t(int64_t(value)) : uint64_t(value);
      std::memcpy(out, &bits, info(type).size);  // little-endian: the low bytes
    }
  }
}

long double decode(Type type, const uint8_t* in) {
  if (type == Type::Float) { float f; std::memcpy(&f, in, 4); return f; }
  if (type == Type::Double) { double d; std::memcpy(&d, in, 8); return d; }
  if (type == Type::Half) { _Float16 h; std::memcpy(&h, in, 2); return h; }
  uint64_t bits = 0;
  std::memcpy(&bits, in, info(type).size);
  return integer(type, bits);
}

// Floating-point values in hexadecimal, so a failure shows exact inputs.
std::string show(long double value) {
  std::ostringstream text;
  text << value;
  if (std::isfinite(value) && value != std::trunc(value)) text << " (" << std::hexfloat << value << ")";
  return text.str();
}

// The error of `got` in units of the last place of `expected`, as the OpenCL specification
// measures it: results past the largest finite value count as infinities, and an infinity
// returned for a finite reference as the next power of two beyond the range.
double ulpError(long double got, long double expected, Type type) {
  const auto [mantissa, minExponent, maxExponent] = format(type);
  const long double beyond = std::ldexp(1.0L, maxExponent + 1);
  if (std::isnan(expected) || std::isnan(got)) return std::isnan(expected) && std::isnan(got) ? 0 : INFINITY;
  if (std::fabs(expected) >= beyond) expected = std::copysign(INFINITY, expected);
  if (std::isinf(expected)) return got == expected ? 0 : INFINITY;
  if (std::isinf(got)) got = std::copysign(beyond, got);
  const int exponent = expected == 0 ? minExponent : std::clamp(std::ilogb(expected), minExponent, maxExponent);
  return double(std::fabs(got - expected) / std::ldexp(1.0L, exponent - mantissa));
}

bool matches(long double got, long double expected, Type type, double ulps) {
  if (!info(type).floating) return got == expected;
  if (ulps == 0) expected = representable(type, expected);  // correctly rounded
  if (ulps == 0 && got == 0 && expected == 0) return std::signbit(got) == std::signbit(expected);
  if (std::isinf(ulps)) return std::isnan(got) == std::isnan(expected) && (std::isinf(expected) ? got == expected : true);
  return ulpError(got, expected, type) <= ulps;
}

// Memory for one argument or result array, aligned for any scalar.
struct Buffer {
  explicit Buffer(size_t bytes) : words((bytes + 7) / 8) {}
  uint8_t* data() { return reinterpret_cast<uint8_t*>(words.data()); }
  std::vector<uint64_t> words;
};

// The call of `builtin` at `width` in OpenCL C, its arguments read from a0..a2 at vector i.
std::string callAt(const Builtin& builtin, int width) {
  static const std::regex argument("\\bA([0-2])\\b"), scalar("\\bS([0-2])\\b"), second("\\bR\\b"), widthMark("#");
  const std::string load = width == 1 ? "a$1[i]" : "vload" + std::to_string(width) + "(i, a$1)";
  std::string call = std::regex_replace(builtin.call, argument, load);
  call = std::regex_replace(call, scalar, "a$1[i]");
  call = std::regex_replace(call, widthMark, width == 1 ? "" : std::to_string(width));
  return std::regex_replace(call, second, "&r");
}

std::string store(const std::string& value, int width, const std::string& to) {
  if (width == 1) return to + "[i] = " + value + ";";
  return "vstore" + std::to_string(width) + "(" + value + ", i, " + to + ");";
}

Type resultType(const Builtin& builtin, int width) {
  return width > 1 && builtin.vectorResult ? *builtin.vectorResult : builtin.result;
}

// Results of each width go to a section of their own, 8 bytes per input.
size_t sectionBytes(size_t count) { return count * 8; }

// One kernel per builtin that calls it at each of its widths in turn, over `count` inputs.
std::string kernelSource(const Builtin& builtin, size_t index) {
  std::ostringstream source;
  source << "kernel void k" << index << "(";
  for (size_t a = 0; a < builtin.arguments.size(); ++a) source << "global const " << info(builtin.arguments[a]).name << "* a" << a << ", ";
  source << "global uchar* out, global uchar* out2, uint count) {\n";
  for (size_t section = 0; section < builtin.widths.size(); ++section) {
    const int width = builtin.widths[section];
    source << "  for (uint i = 0; i < count / " << width << "; ++i) {\n";
    source << "    global " << info(resultType(builtin, width)).name << "* o = (global void*)(out + " << section << " * count * 8UL);\n";
    if (builtin.second) {
      source << "    global " << info(*builtin.second).name << "* o2 = (global void*)(out2 + " << section << " * count * 8UL);\n";
      source << "    " << vectorName(*builtin.second, width) << " r;\n";
    }
    source << "    " << store(callAt(builtin, width), builtin.reduces ? 1 : width, "o") << "\n";
    if (builtin.second) source << "    " << store("r", width, "o2") << "\n";
    source << "  }\n";
  }
  source << "}\n";
  return source.str();
}

// count rows of arguments: every pair of edge cases for the first two, then random values.
std::vector<Lanes> makeInputs(const Builtin& builtin, size_t count, uint64_t seed) {
  std::mt19937_64 random(seed);
  const size_t arity = builtin.arguments.size();
  std::vector<std::vector<long double>> edges;
  for (Type type : builtin.arguments) edges.push_back(edgeCases(type));
  size_t edgeRows = edges[0].size();
  if (arity >= 2) edgeRows *= edges[1].size();
  std::vector<Lanes> rows(count, Lanes(arity));
  for (size_t row = 0; row < count; ++row) {
    for (size_t a = 0; a < arity; ++a) {
      if (row >= edgeRows) {
        rows[row][a] = randomValue(builtin.arguments[a], random);
        continue;
      }
      const size_t pick = a == 0 ? row % edges[0].size() : a == 1 ? row / edges[0].size() : row;
      rows[row][a] = edges[a][pick % edges[a].size()];
    }
    if (builtin.prepare) builtin.prepare(rows[row]);
  }
  return rows;
}

struct Mismatches {
  size_t count = 0;
  std::string examples;
};

void compare(const Builtin& builtin, int width, const std::vector<Lanes>& rows, const uint8_t* out, const uint8_t* out2,
             Mismatches& found) {
  const Type result = resultType(builtin, width);
  const size_t vectors = rows.size() / width, lanesOut = builtin.reduces ? 1 : width;
  const long double truth = width > 1 && builtin.vectorResult ? -1 : 1;  // relational results
  for (size_t i = 0; i < vectors; ++i) {
    std::vector<Lanes> arguments(builtin.arguments.size(), Lanes(width));
    for (size_t a = 0; a < arguments.size(); ++a) {
      const bool scalar = builtin.call.find("S" + std::to_string(a)) != std::string::npos;
      for (int lane = 0; lane < width; ++lane) arguments[a][lane] = rows[scalar ? i : i * width + lane][a];
    }
    const std::vector<Expected> expected = builtin.reference(arguments);
    for (size_t lane = 0; lane < lanesOut; ++lane) {
      const size_t element = i * lanesOut + lane;
      const Expected& want = expected[lane];
      std::optional<long double> wrongFirst, wrongSecond;
      const long double got = decode(result, out + element * info(result).size);
      const long double wantValue = want.value && builtin.vectorResult ? *want.value * truth : want.value.value_or(0);
      const bool alternative = want.alternative && matches(got, *want.alternative, result, builtin.ulps);
      if (want.value && !matches(got, wantValue, result, builtin.ulps) && !alternative) wrongFirst = got;
      if (builtin.second && want.second) {
        const long double got2 = decode(*builtin.second, out2 + element * info(*builtin.second).size);
        if (!matches(got2, *want.second, *builtin.second, builtin.ulps)) wrongSecond = got2;
      }
      if (!wrongFirst && !wrongSecond) continue;
      if (++found.count > 4) continue;
      std::ostringstream text;
      text << "  width " << width << ", lane " << lane << ", arguments";
      for (const Lanes& argument : arguments) text << " " << show(argument[lane]);
      if (wrongFirst) text << ": got " << show(*wrongFirst) << ", expected " << show(wantValue);
      if (wrongSecond) text << ": second result " << show(*wrongSecond) << ", expected " << show(*want.second);
      if (wrongFirst && info(result).floating) text << " (" << ulpError(*wrongFirst, wantValue, result) << " ulp)";
      found.examples += text.str() + "\n";
    }
  }
}

// Runs the kernel of `builtin` and compares the results of every width.
void run(CpuExecutable& executable, const Builtin& builtin, size_t index, const std::vector<Lanes>& rows, Mismatches& found) {
  std::string log;
  const std::string name = "k" + std::to_string(index);
  WorkGroupFunction function = executable.kernel(name, log);
  const KernelDescriptor* descriptor = executable.program().info.findKernel(name);
  if (!function || !descriptor) {
    ++found.count;
    found.examples += "  the kernel does not run: " + log + "\n";
    return;
  }
  std::vector<Buffer> inputs;
  for (size_t a = 0; a < builtin.arguments.size(); ++a) {
    const TypeInfo& type = info(builtin.arguments[a]);
    inputs.emplace_back(rows.size() * type.size);
    for (size_t row = 0; row < rows.size(); ++row) encode(builtin.arguments[a], rows[row][a], inputs.back().data() + row * type.size);
  }
  const size_t section = sectionBytes(rows.size());
  Buffer out(section * builtin.widths.size()), out2(section * builtin.widths.size());
  Arguments arguments(*descriptor);
  size_t slot = 0;
  for (Buffer& input : inputs) arguments.set(slot++, input.data());
  arguments.set(slot, out.data());
  arguments.set(slot + 1, out2.data());
  arguments.set(slot + 2, uint32_t(rows.size()));
  arguments.run(function, Range{});
  for (size_t s = 0; s < builtin.widths.size(); ++s)
    compare(builtin, builtin.widths[s], rows, out.data() + s * section, out2.data() + s * section, found);
}

}  // namespace

std::vector<long double> edgeCases(Type type) {
  const TypeInfo& t = info(type);
  if (!t.floating) {
    std::vector<long double> values = {0, 1, 2, 3, 7, 8, 100, t.max, t.max - 1, (long double)(uint64_t(t.max) / 2 + 1)};
    if (t.isSigned) values.insert(values.end(), {-1, -2, -7, -8, -100, t.min, t.min + 1, (long double)(int64_t(t.min) / 2)});
    return values;
  }
  const Format f = format(type);
  const long double denormMin = std::ldexp(1.0L, f.minExponent - f.mantissa), normMin = std::ldexp(1.0L, f.minExponent);
  // The first power of two whose neighbours are all integers, and the largest value below it with a fraction.
  const long double integral = std::ldexp(1.0L, f.mantissa + 1), lastFraction = std::ldexp(1.0L, f.mantissa) - 0.5L;
  const long double magnitudes[] = {0, denormMin, normMin - denormMin, normMin, t.max, INFINITY, 1, 0.5, 2, 3, 0.25, 1.5, 2.5,
                                    10, 100, 1e-10, 1e10, 1e30, 88.75, 103.5, 709.75, 745.25, 0.75, 1e-3,
                                    integral, lastFraction};
  std::vector<long double> values;
  for (long double magnitude : magnitudes) {
    values.push_back(representable(type, magnitude));
    values.push_back(-representable(type, magnitude));
  }
  values.push_back(NAN);
  values.push_back(representable(type, M_PIl));
  return values;
}

void checkFamily(const std::vector<Builtin>& family, size_t count, const std::string& options) {
  EXPECT_EQ(count % 48, 0u) << "every width needs whole vectors";
  std::string source = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n";
  for (size_t index = 0; index < family.size(); ++index)
    source += kernelSource(family[index], index);
  // The builtin library is optimized when Loom is built; only these wrapper kernels are not
  // (optimizing hundreds of them would take most of the test's time).
  const std::string unoptimized = options + " -cl-opt-disable";
  auto executable = load(compileOpenClSource({source, unoptimized, {}}), unoptimized);
  if (!executable) return;
  for (size_t index = 0; index < family.size(); ++index) {
    const Builtin& builtin = family[index];
    const std::vector<Lanes> rows = makeInputs(builtin, count, 0x10c0 + index);
    Mismatches found;
    run(*executable, builtin, index, rows, found);
    EXPECT_EQ(found.count, 0u) << builtin.call << " with " << info(builtin.arguments[0]).name << " arguments differs from "
                               << "the reference " << found.count << " times, e.g.\n" << found.examples;
  }
}

}  // namespace loom::compiler::test::builtins
