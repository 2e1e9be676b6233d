#include "loom/core/debug_keys.h"

#include <cstdlib>
#include <string>

namespace loom::core {
namespace {

bool parse(const char* text, bool& out) {
  std::string value(text);
  if (value == "1" || value == "true" || value == "TRUE") return out = true, true;
  if (value == "0" || value == "false" || value == "FALSE") return out = false, true;
  return false;
}

bool parse(const char* text, int64_t& out) {
  char* end = nullptr;
  long long value = std::strtoll(text, &end, 0);
  if (end == text || *end != '\0') return false;
  out = value;
  return true;
}

bool parse(const char* text, std::string& out) {
  out = text;
  return true;
}

template <typename T>
bool readKey(const char* name, T& value) {
  std::string variable = std::string("LOOM_") + name;
  const char* text = std::getenv(variable.c_str());
  return text && parse(text, value);
}

std::string show(bool value) { return value ? "1" : "0"; }
std::string show(int64_t value) { return std::to_string(value); }
std::string show(const std::string& value) { return value; }

}  // namespace

DebugKeys::DebugKeys() {
#define LOOM_DEBUG_KEY(type, name, defaultValue, description) readKey(#name, name);
#include "loom/core/debug_keys.inl"
#undef LOOM_DEBUG_KEY
}

std::vector<DebugKeyInfo> DebugKeys::list() const {
  std::vector<DebugKeyInfo> keys;
#define LOOM_DEBUG_KEY(type, name, defaultValue, description) \
  keys.push_back({#name, #type, show(type(defaultValue)), show(name), description});
#include "loom/core/debug_keys.inl"
#undef LOOM_DEBUG_KEY
  return keys;
}

bool readDebugKey(const char* name, bool& value) { return readKey(name, value); }
bool readDebugKey(const char* name, std::string& value) { return readKey(name, value); }

const DebugKeys& debugKeys() {
  static const DebugKeys keys;
  return keys;
}

}  // namespace loom::core
