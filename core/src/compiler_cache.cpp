#include "loom/core/compiler_cache.h"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include "loom/core/debug_keys.h"
#include "loom/core/log.h"

namespace loom::core {

namespace {

// Two FNV-1a passes with different offsets make a 128-bit key.
class KeyHash {
 public:
  void add(const void* data, size_t size) {
    const auto* bytes = static_cast<const uint8_t*>(data);
    for (size_t i = 0; i < size; ++i) {
      first_ = (first_ ^ bytes[i]) * 0x100000001b3ull;
      second_ = (second_ ^ bytes[i]) * 0x100000001b3ull;
    }
  }
  void add(const std::string& text) {
    add(uint64_t(text.size()));
    add(text.data(), text.size());
  }
  void add(uint64_t value) { add(&value, sizeof(value)); }
  std::string hex() const {
    char text[33];
    std::snprintf(text, sizeof(text), "%016llx%016llx", (unsigned long long)first_, (unsigned long long)second_);
    return text;
  }

 private:
  uint64_t first_ = 0xcbf29ce484222325ull;
  uint64_t second_ = 0x84222325cbf29ce4ull;
};

void makeDirectories(const std::string& path) {
  for (size_t slash = path.find('/', 1); slash != std::string::npos; slash = path.find('/', slash + 1))
    mkdir(path.substr(0, slash).c_str(), 0755);
  mkdir(path.c_str(), 0755);
}

std::string defaultDirectory() {
  if (const char* cache = std::getenv("XDG_CACHE_HOME"); cache && *cache) return std::string(cache) + "/loom";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/loom";
  return "/tmp/loom-cache-" + std::to_string(getuid());
}

}  // namespace

std::string CompilerCache::key(const compiler::CompileRequest& request) {
  KeyHash hash;
  hash.add(compiler::compilerIdentity(request.target));
  hash.add(uint64_t(request.target));
  hash.add(request.options);
  hash.add(uint64_t(request.specializationConstants.size()));
  for (const auto& [id, value] : request.specializationConstants) hash.add(id), hash.add(value);
  hash.add(uint64_t(request.vectorTypeHints.size()));
  for (const auto& [kernel, hint] : request.vectorTypeHints) hash.add(kernel), hash.add(hint);
  hash.add(uint64_t(request.spirv.size()));
  hash.add(request.spirv.data(), request.spirv.size());
  return hash.hex();
}

std::shared_ptr<const compiler::CompiledProgram> CompilerCache::load(const std::string& key) const {
  if (directory_.empty()) return nullptr;
  std::ifstream file(path(key), std::ios::binary);
  if (!file) return nullptr;
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  compiler::BuildResult read = compiler::readNativeBinary(bytes.data(), bytes.size());
  if (read.status != compiler::Status::Success) {
    debugMessage("compiler cache: ignoring corrupted entry %s (%s)", key.c_str(), read.log.c_str());
    return nullptr;
  }
  debugMessage("compiler cache hit: %s", key.c_str());
  return read.program;
}

void CompilerCache::store(const std::string& key, const compiler::CompiledProgram& program) const {
  if (directory_.empty()) return;
  makeDirectories(directory_);
  static std::atomic<uint64_t> sequence{0};
  const std::string temporary = path(key) + ".tmp." + std::to_string(getpid()) + "." + std::to_string(sequence++);
  const std::vector<uint8_t> binary = compiler::writeNativeBinary(program);
  {
    std::ofstream file(temporary, std::ios::binary);
    file.write(reinterpret_cast<const char*>(binary.data()), std::streamsize(binary.size()));
    if (!file) {
      std::remove(temporary.c_str());
      return;
    }
  }
  if (std::rename(temporary.c_str(), path(key).c_str()) != 0) std::remove(temporary.c_str());
}

const CompilerCache& compilerCache() {
  static const CompilerCache cache(!debugKeys().EnableCompilerCache ? std::string()
                                   : debugKeys().CompilerCacheDir.empty() ? defaultDirectory()
                                                                          : debugKeys().CompilerCacheDir);
  return cache;
}

}  // namespace loom::core
