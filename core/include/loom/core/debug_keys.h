#pragma once
// Typed accessors for Loom's debug keys, generated from debug_keys.inl.
#include <cstdint>
#include <string>
#include <vector>

namespace loom::core {

struct DebugKeyInfo {
  const char* name;
  const char* type;
  std::string defaultValue;
  std::string currentValue;
  const char* description;
};

class DebugKeys {
 public:
  // Reads every key from the environment (LOOM_<Name>); unset or malformed values keep defaults.
  DebugKeys();

#define LOOM_DEBUG_KEY(type, name, defaultValue, description) \
  type name = defaultValue;
#include "loom/core/debug_keys.inl"
#undef LOOM_DEBUG_KEY

  std::vector<DebugKeyInfo> list() const;
};

// The process-wide keys, read on first use.
const DebugKeys& debugKeys();

// Reads the key `name` (a name of debug_keys.inl) from the environment now, as DebugKeys does:
// for code that must see the environment as it is at each use (the compiler, which tools and
// tests use without a runtime). False, leaving `value`, when the key is unset or malformed.
bool readDebugKey(const char* name, bool& value);
bool readDebugKey(const char* name, std::string& value);

}  // namespace loom::core
