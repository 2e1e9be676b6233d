#include "loom/core/ipc_handle.h"

#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <string_view>
#include <type_traits>

namespace loom::core {

namespace {

// The layout of a handle (the offsets in `at`), in the byte order of the machine (both processes run on it):
//   0  i32 fd (where the exporter holds the file open; an importer may put its own descriptor here)
//   4  u8 version   5 u8 kind (MemoryFilePurpose)   6 u8 memory type   7 u8 zero
//   8  i32 pid      12 u32 magic "LIPC"      16 16 bytes identity
//  32  u64 device   40 u64 inode
//  48  memory: u64 size, u64 offset;  event pool: u32 count, u32 flags, 8 zero bytes
namespace at {
constexpr size_t kFd = 0, kVersion = 4, kKind = 5, kMemoryType = 6, kReserved = 7, kPid = 8, kMagic = 12, kIdentity = 16,
                 kDevice = 32, kInode = 40;
constexpr size_t kSize = 48, kOffset = 56;                       // memory handles
constexpr size_t kCount = 48, kFlags = 52, kEventPoolUnused = 56;  // event pool handles
}  // namespace at
constexpr uint32_t kHandleMagic = 0x4350494c;  // "LIPC"
constexpr uint8_t kHandleVersion = 2;

class HandleWriter {
 public:
  template <typename T>
  void put(size_t at, const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    std::memcpy(bytes_.data() + at, &value, sizeof(value));
  }
  const IpcHandleBytes& bytes() const { return bytes_; }

 private:
  IpcHandleBytes bytes_{};
};

class HandleReader {
 public:
  explicit HandleReader(const uint8_t* bytes) : bytes_(bytes) {}
  template <typename T>
  T get(size_t at) const {
    T value;
    std::memcpy(&value, bytes_ + at, sizeof(value));
    return value;
  }
  bool zeroFrom(size_t at, size_t count) const {
    for (size_t i = at; i < at + count; ++i)
      if (bytes_[i] != 0) return false;
    return true;
  }

 private:
  const uint8_t* bytes_;
};

HandleWriter writeHeader(MemoryFilePurpose kind, uint8_t memoryType, const IpcFileReference& file) {
  HandleWriter writer;
  writer.put(at::kMagic, kHandleMagic);
  writer.put(at::kVersion, kHandleVersion);
  writer.put(at::kKind, kind);
  writer.put(at::kMemoryType, memoryType);
  writer.put(at::kPid, file.pid);
  writer.put(at::kFd, file.fd);
  writer.put(at::kIdentity, file.identity.bytes);
  writer.put(at::kDevice, file.device);
  writer.put(at::kInode, file.inode);
  return writer;
}

// The common part of every handle, but for what the file holds; nullopt with `why` when it is malformed.
std::optional<IpcFileReference> readHeader(const uint8_t* bytes, size_t size, std::string& why) {
  if (size < kIpcHandleSize) {
    why = "the handle is shorter than an IPC handle";
    return std::nullopt;
  }
  if (!isLoomIpcHandle(bytes, size)) {
    why = "not a Loom IPC handle (or one of another version)";
    return std::nullopt;
  }
  const HandleReader reader(bytes);
  if (!reader.zeroFrom(at::kReserved, 1)) {
    why = "the handle's reserved byte is not zero";
    return std::nullopt;
  }
  IpcFileReference file;
  file.pid = reader.get<int32_t>(at::kPid);
  file.fd = reader.get<int32_t>(at::kFd);
  file.identity.bytes = reader.get<decltype(file.identity.bytes)>(at::kIdentity);
  file.contents.purpose = reader.get<MemoryFilePurpose>(at::kKind);
  file.device = reader.get<uint64_t>(at::kDevice);
  file.inode = reader.get<uint64_t>(at::kInode);
  if (file.pid <= 0 || file.fd < 0) {
    why = "the handle names no process or no descriptor";
    return std::nullopt;
  }
  if (file.identity.empty()) {
    why = "the handle carries no file identity";
    return std::nullopt;
  }
  return file;
}

bool validMemoryType(uint32_t type) { return type <= uint32_t(MemoryType::Shared); }

// A memory handle of `file` (its contents say what the allocation is) at `offset`.
std::optional<IpcMemoryHandle> memoryHandleOf(const IpcFileReference& file, uint64_t offset, std::string& why) {
  const MemoryFilePurpose purpose = file.contents.purpose;
  if (purpose != MemoryFilePurpose::Allocation && purpose != MemoryFilePurpose::DriverRecord) {
    why = "not an IPC memory handle";
    return std::nullopt;
  }
  if (!validMemoryType(file.contents.detail)) {
    why = "the handle's memory type is unknown";
    return std::nullopt;
  }
  IpcMemoryHandle handle;
  handle.file = file;
  handle.kind = purpose == MemoryFilePurpose::DriverRecord ? IpcMemoryKind::DriverHandle : IpcMemoryKind::MemoryFile;
  handle.type = MemoryType(file.contents.detail);
  handle.size = file.contents.amount;
  handle.offset = offset;
  // The exported pointer lies inside the allocation (an empty one has only its base).
  if (handle.offset >= handle.size && !(handle.size == 0 && handle.offset == 0)) {
    why = "the handle's offset lies outside its allocation";
    return std::nullopt;
  }
  return handle;
}

std::optional<IpcEventPoolHandle> eventPoolHandleOf(const IpcFileReference& file, std::string& why) {
  if (file.contents.purpose != MemoryFilePurpose::EventPool) {
    why = "not an IPC event pool handle";
    return std::nullopt;
  }
  if (file.contents.amount == 0 || file.contents.amount > UINT32_MAX) {
    why = "the event pool handle has no events, or more than a pool can have";
    return std::nullopt;
  }
  return IpcEventPoolHandle{file, uint32_t(file.contents.amount), file.contents.detail};
}

constexpr char kHexDigits[] = "0123456789abcdef";
constexpr const char* kLinkPrefix = "/memfd:";
constexpr const char* kLinkSuffix = " (deleted)";
constexpr MemoryFilePurpose kPurposes[] = {MemoryFilePurpose::Allocation, MemoryFilePurpose::DriverRecord,
                                           MemoryFilePurpose::EventPool};

const char* purposeWord(MemoryFilePurpose purpose) {
  switch (purpose) {
    case MemoryFilePurpose::Allocation: return "allocation";
    case MemoryFilePurpose::DriverRecord: return "driver-handle";
    case MemoryFilePurpose::EventPool: return "event-pool";
  }
  return "unknown";
}

std::string hex(uint64_t value) {
  std::string digits;
  do digits.insert(digits.begin(), kHexDigits[value & 15]);
  while (value >>= 4);
  return digits;
}

// Reads a memory file's link from the front; each step false (or nullopt) when the text does not follow.
class NameParser {
 public:
  explicit NameParser(std::string_view text) : text_(text) {}
  bool skip(std::string_view expected) {
    if (text_.substr(0, expected.size()) != expected) return false;
    text_.remove_prefix(expected.size());
    return true;
  }
  std::optional<MemoryFilePurpose> purpose() {
    for (MemoryFilePurpose purpose : kPurposes)
      if (skip(purposeWord(purpose))) return purpose;
    return std::nullopt;
  }
  bool identity(FileIdentity& identity) {
    for (uint8_t& byte : identity.bytes) {
      const std::optional<uint64_t> high = digit(), low = digit();
      if (!high || !low) return false;
      byte = uint8_t(*high << 4 | *low);
    }
    return true;
  }
  // Up to 16 hexadecimal digits.
  std::optional<uint64_t> number() {
    uint64_t value = 0;
    size_t digits = 0;
    while (digits < 16 && !text_.empty() && std::string_view(kHexDigits).find(text_.front()) != std::string_view::npos) {
      value = value << 4 | *digit();
      ++digits;
    }
    if (digits == 0) return std::nullopt;
    return value;
  }

 private:
  std::optional<uint64_t> digit() {
    if (text_.empty()) return std::nullopt;
    const size_t value = std::string_view(kHexDigits).find(text_.front());
    if (value == std::string_view::npos) return std::nullopt;
    text_.remove_prefix(1);
    return value;
  }
  std::string_view text_;
};

}  // namespace

std::optional<FileIdentity> FileIdentity::random() {
  FileIdentity identity;
  size_t filled = 0;
  while (filled < identity.bytes.size()) {
    const ssize_t got = getrandom(identity.bytes.data() + filled, identity.bytes.size() - filled, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return std::nullopt;
    filled += size_t(got);
  }
  if (identity.empty()) return std::nullopt;  // not random, and the decoder rejects it
  return identity;
}

std::string memoryFileName(const FileIdentity& identity, const MemoryFileContents& contents) {
  std::string name = std::string("loom-") + purposeWord(contents.purpose) + "-";
  for (uint8_t byte : identity.bytes) name += kHexDigits[byte >> 4], name += kHexDigits[byte & 15];
  return name + "-" + hex(contents.detail) + "-" + hex(contents.amount);
}

std::string memoryFileLink(const FileIdentity& identity, const MemoryFileContents& contents) {
  return std::string(kLinkPrefix) + memoryFileName(identity, contents) + kLinkSuffix;
}

std::optional<NamedMemoryFile> parseMemoryFileLink(const std::string& link) {
  NameParser parser(link);
  NamedMemoryFile file;
  if (!parser.skip(kLinkPrefix) || !parser.skip("loom-")) return std::nullopt;
  std::optional<MemoryFilePurpose> purpose = parser.purpose();
  std::optional<uint64_t> detail, amount;
  if (!purpose || !parser.skip("-") || !parser.identity(file.identity) || !parser.skip("-") ||
      !(detail = parser.number()) || !parser.skip("-") || !(amount = parser.number()) || *detail > UINT32_MAX)
    return std::nullopt;
  file.contents = {*purpose, uint32_t(*detail), *amount};
  // Exactly the link such a file has, nothing before or after it, no other spelling of a number.
  if (memoryFileLink(file.identity, file.contents) != link) return std::nullopt;
  return file;
}

std::string checkOpenedFile(const IpcFileReference& reference, const OpenedFileFacts& facts, uint64_t minimumSize) {
  if (!facts.regular || facts.link != memoryFileLink(reference.identity, reference.contents))
    return "the descriptor is not the Loom memory file the handle names (it was freed, or the handle is forged)";
  if (facts.device != reference.device || facts.inode != reference.inode)
    return "the memory file has the handle's name but not its inode (another file named like it)";
  if (!facts.cannotShrink) return "the memory file is not sealed against shrinking";
  if (facts.size < minimumSize) return "the handle claims more bytes than its memory file has";
  return {};
}

bool isLoomIpcHandle(const uint8_t* bytes, size_t size) {
  if (size < kIpcHandleSize) return false;
  const HandleReader reader(bytes);
  return reader.get<uint32_t>(at::kMagic) == kHandleMagic && reader.get<uint8_t>(at::kVersion) == kHandleVersion;
}

IpcHandleBytes encodeIpcHandle(const IpcMemoryHandle& handle) {
  const MemoryFilePurpose kind =
      handle.kind == IpcMemoryKind::DriverHandle ? MemoryFilePurpose::DriverRecord : MemoryFilePurpose::Allocation;
  HandleWriter writer = writeHeader(kind, uint8_t(handle.type), handle.file);
  writer.put(at::kSize, handle.size);
  writer.put(at::kOffset, handle.offset);
  return writer.bytes();
}

IpcHandleBytes encodeIpcHandle(const IpcEventPoolHandle& handle) {
  HandleWriter writer = writeHeader(MemoryFilePurpose::EventPool, 0, handle.file);
  writer.put(at::kCount, handle.count);
  writer.put(at::kFlags, handle.flags);
  return writer.bytes();
}

std::optional<IpcMemoryHandle> decodeIpcMemoryHandle(const uint8_t* bytes, size_t size, std::string& why) {
  std::optional<IpcFileReference> file = readHeader(bytes, size, why);
  if (!file) return std::nullopt;
  const HandleReader reader(bytes);
  file->contents.detail = reader.get<uint8_t>(at::kMemoryType);
  file->contents.amount = reader.get<uint64_t>(at::kSize);
  return memoryHandleOf(*file, reader.get<uint64_t>(at::kOffset), why);
}

std::optional<IpcEventPoolHandle> decodeIpcEventPoolHandle(const uint8_t* bytes, size_t size, std::string& why) {
  std::optional<IpcFileReference> file = readHeader(bytes, size, why);
  if (!file) return std::nullopt;
  const HandleReader reader(bytes);
  if (file->contents.purpose == MemoryFilePurpose::EventPool &&
      (!reader.zeroFrom(at::kMemoryType, 1) || !reader.zeroFrom(at::kEventPoolUnused, 8))) {
    why = "the event pool handle's unused bytes are not zero";
    return std::nullopt;
  }
  file->contents.detail = reader.get<uint32_t>(at::kFlags);
  file->contents.amount = reader.get<uint32_t>(at::kCount);
  return eventPoolHandleOf(*file, why);
}

std::optional<IpcMemoryHandle> ipcMemoryHandleOfFile(const IpcFileReference& file, std::string& why) {
  return memoryHandleOf(file, 0, why);
}

std::optional<IpcEventPoolHandle> ipcEventPoolHandleOfFile(const IpcFileReference& file, std::string& why) {
  return eventPoolHandleOf(file, why);
}

}  // namespace loom::core
