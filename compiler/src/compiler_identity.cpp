#include <algorithm>
#include <vector>

#include "loom/compiler/compiler.h"
#include "loom_compiler_build_id.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Host.h"

namespace loom::compiler {

std::string compilerIdentity(Target target) {
  std::string identity = std::string("loom-compiler-") + LOOM_COMPILER_BUILD_ID + "-llvm15";
  if (target != Target::Cpu) return identity + "-nvptx";
  identity += "-" + llvm::sys::getHostCPUName().str();
  llvm::StringMap<bool> features;
  llvm::sys::getHostCPUFeatures(features);
  std::vector<std::string> enabled;  // sorted: StringMap's order is not stable
  for (const auto& feature : features)
    if (feature.second) enabled.push_back(feature.first().str());
  std::sort(enabled.begin(), enabled.end());
  for (const std::string& feature : enabled) identity += "+" + feature;
  return identity;
}

}  // namespace loom::compiler
