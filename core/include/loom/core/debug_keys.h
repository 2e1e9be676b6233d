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

}  // namespace loom::core
