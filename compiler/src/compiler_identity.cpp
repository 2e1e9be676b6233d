#include <algorithm>
#include <cstring>
#include <vector>

#include "loom/compiler/compiler.h"
#include "loom_compiler_build_id.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Host.h"
#include "llvm/Support/MD5.h"
#include "nvptx/libdevice.h"
#include "nvptx/ptx_code_generator.h"

namespace loom::compiler {

namespace {

// PTX embeds the libdevice functions it uses: another libdevice makes other code.
std::string nvptxIdentity() {
  std::string identity = std::string("-nvptx-") + nvptx::kProcessor + nvptx::kFeatures;
  const std::string libdevice = nvptx::findLibdevice();
  llvm::sys::fs::file_status status;
  if (libdevice.empty() || llvm::sys::fs::status(libdevice, status)) return identity + "-no-libdevice";
  return identity + "-" + libdevice + ":" + std::to_string(status.getSize()) + ":" +
         std::to_string(llvm::sys::toTimeT(status.getLastModificationTime()));
}

}  // namespace

std::string compilerIdentity(Target target) {
  std::string identity = std::string("loom-compiler-") + LOOM_COMPILER_BUILD_ID + "-llvm15";
  if (target == Target::Nvptx) return identity + nvptxIdentity();
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

std::array<uint8_t, 16> nativeBinaryUuid(Target target) {
  auto hash = [](Target of) {
    const llvm::MD5::MD5Result digest = llvm::MD5::hash(llvm::arrayRefFromStringRef(compilerIdentity(of)));
    std::array<uint8_t, 16> uuid{};
    std::memcpy(uuid.data(), digest.data(), uuid.size());
    return uuid;
  };
  static const std::array<uint8_t, 16> cpu = hash(Target::Cpu);
  static const std::array<uint8_t, 16> nvptx = hash(Target::Nvptx);
  return target == Target::Nvptx ? nvptx : cpu;
}

}  // namespace loom::compiler
