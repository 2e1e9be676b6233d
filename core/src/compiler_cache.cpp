#include "loom/core/compiler_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

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

// Creates the folders of `path` that are missing, private to this user.
void makeDirectories(const std::string& path) {
  for (size_t slash = path.find('/', 1); slash != std::string::npos; slash = path.find('/', slash + 1))
    mkdir(path.substr(0, slash).c_str(), 0700);
  mkdir(path.c_str(), 0700);
}

// Closes the descriptor it holds.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  Descriptor(Descriptor&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() {
    if (fd_ >= 0) close(fd_);
  }
  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }

 private:
  int fd_;
};

// Empty when only this user can change what `status` describes: it is theirs and no one else
// may write it; else why not. Another user who could would choose the code Loom runs.
std::string ownershipProblem(const struct stat& status) {
  if (status.st_uid != geteuid())
    return "it belongs to uid " + std::to_string(status.st_uid) + ", not to this user (uid " + std::to_string(geteuid()) + ")";
  if (status.st_mode & (S_IWGRP | S_IWOTH)) {
    char mode[8];
    std::snprintf(mode, sizeof(mode), "%04o", unsigned(status.st_mode & 07777));
    return std::string("other users may write it (mode ") + mode + ")";
  }
  return {};
}

// The cache folder, opened without following a symlink, when it is safe to keep code in; an
// invalid descriptor when it is missing or not (said under PrintDebugMessages).
Descriptor openPrivateDirectory(const std::string& path) {
  Descriptor folder(open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!folder.valid()) {
    if (errno != ENOENT)
      debugMessage("compiler cache: not using %s (%s: a symlink or no folder); compiling without the cache", path.c_str(),
                   std::strerror(errno));
    return folder;
  }
  struct stat status;
  const std::string problem = fstat(folder.get(), &status) != 0 ? std::string(std::strerror(errno)) : ownershipProblem(status);
  if (problem.empty()) return folder;
  debugMessage("compiler cache: not using %s: %s; compiling without the cache", path.c_str(), problem.c_str());
  return Descriptor(-1);
}

// The bytes of an entry of `folder` when it is a regular file of this user that no one else may
// write; empty otherwise (and on a miss).
std::vector<uint8_t> readEntry(const Descriptor& folder, const std::string& name) {
  Descriptor entry(openat(folder.get(), name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (!entry.valid()) return {};
  struct stat status;
  if (fstat(entry.get(), &status) != 0) return {};
  const std::string problem = S_ISREG(status.st_mode) ? ownershipProblem(status) : "not a regular file";
  if (!problem.empty()) {
    debugMessage("compiler cache: ignoring entry %s: %s", name.c_str(), problem.c_str());
    return {};
  }
  std::vector<uint8_t> bytes(static_cast<size_t>(status.st_size));
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t got = read(entry.get(), bytes.data() + done, bytes.size() - done);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    done += size_t(got);
  }
  bytes.resize(done);
  return bytes;
}

bool writeAll(int fd, const std::vector<uint8_t>& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t wrote = write(fd, bytes.data() + done, bytes.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return false;
    done += size_t(wrote);
  }
  return true;
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
  hash.add(uint64_t(request.exportFunctions));
  hash.add(uint64_t(request.uniformWorkGroups));
  hash.add(uint64_t(request.spansGpus));
  hash.add(uint64_t(request.specializationConstants.size()));
  for (const auto& [id, value] : request.specializationConstants) hash.add(id), hash.add(value);
  hash.add(uint64_t(request.vectorTypeHints.size()));
  for (const auto& [kernel, hint] : request.vectorTypeHints) hash.add(kernel), hash.add(hint);
  hash.add(uint64_t(request.spirv.size()));
  hash.add(request.spirv.data(), request.spirv.size());
  return hash.hex();
}

std::shared_ptr<const compiler::CompiledProgram> CompilerCache::load(const std::string& key, std::string* log) const {
  if (directory_.empty()) return nullptr;
  const Descriptor folder = openPrivateDirectory(directory_);
  if (!folder.valid()) return nullptr;
  const std::vector<uint8_t> bytes = readEntry(folder, entryName(key));
  uint32_t logSize = 0;
  if (bytes.size() < sizeof(logSize)) return nullptr;
  std::memcpy(&logSize, bytes.data(), sizeof(logSize));
  const size_t binaryStart = sizeof(logSize) + size_t(logSize);
  compiler::BuildResult read = binaryStart < bytes.size()
                                   ? compiler::readNativeBinary(bytes.data() + binaryStart, bytes.size() - binaryStart)
                                   : compiler::BuildResult{compiler::Status::InvalidBinary, "the entry ends inside its log", nullptr};
  if (read.status != compiler::Status::Success) {
    debugMessage("compiler cache: ignoring corrupted entry %s (%s)", key.c_str(), read.log.c_str());
    return nullptr;
  }
  debugMessage("compiler cache hit: %s", key.c_str());
  if (log) log->assign(reinterpret_cast<const char*>(bytes.data()) + sizeof(logSize), logSize);
  return read.program;
}

void CompilerCache::store(const std::string& key, const compiler::CompiledProgram& program, const std::string& log) const {
  if (directory_.empty()) return;
  makeDirectories(directory_);
  const Descriptor folder = openPrivateDirectory(directory_);
  if (!folder.valid()) return;
  static std::atomic<uint64_t> sequence{0};
  const std::string temporary = entryName(key) + ".tmp." + std::to_string(getpid()) + "." + std::to_string(sequence++);
  const uint32_t logSize = static_cast<uint32_t>(log.size());
  std::vector<uint8_t> binary(sizeof(logSize));
  std::memcpy(binary.data(), &logSize, sizeof(logSize));
  binary.insert(binary.end(), log.begin(), log.end());
  const std::vector<uint8_t> code = compiler::writeNativeBinary(program);
  binary.insert(binary.end(), code.begin(), code.end());
  {
    const Descriptor file(openat(folder.get(), temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (!file.valid()) return;
    if (!writeAll(file.get(), binary)) {
      unlinkat(folder.get(), temporary.c_str(), 0);
      return;
    }
  }
  if (renameat(folder.get(), temporary.c_str(), folder.get(), entryName(key).c_str()) != 0)
    unlinkat(folder.get(), temporary.c_str(), 0);
}

const CompilerCache& compilerCache() {
  static const CompilerCache cache(!debugKeys().EnableCompilerCache ? std::string()
                                   : debugKeys().CompilerCacheDir.empty() ? defaultDirectory()
                                                                          : debugKeys().CompilerCacheDir);
  return cache;
}

}  // namespace loom::core
