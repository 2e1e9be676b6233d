#include "loom/core/ipc_handle.h"

#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <type_traits>

namespace loom::core {

namespace {

// The layout of a handle (the offsets in `at`), in the byte order of the machine (both processes run on it):
//   0  u32 magic "LIPC"      4 u8 version   5 u8 kind   6 u8 memory type   7 u8 zero
//   8  i32 pid              12 i32 fd      16 16 bytes identity
//  32  u64 device           40 u64 inode
//  48  memory: u64 size, u64 offset;  event pool: u32 count, u32 flags, 8 zero bytes
namespace at {
constexpr size_t kMagic = 0, kVersion = 4, kKind = 5, kMemoryType = 6, kReserved = 7, kPid = 8, kFd = 12, kIdentity = 16,
                 kDevice = 32, kInode = 40;
constexpr size_t kSize = 48, kOffset = 56;                       // memory handles
constexpr size_t kCount = 48, kFlags = 52, kEventPoolUnused = 56;  // event pool handles
}  // namespace at
constexpr uint32_t kHandleMagic = 0x4350494c;  // "LIPC"
constexpr uint8_t kHandleVersion = 1;
enum class HandleKind : uint8_t { MemoryFile = 1, DriverHandle = 2, EventPool = 3 };

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

HandleWriter writeHeader(HandleKind kind, uint8_t memoryType, const IpcFileReference& file) {
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

// The common part of every handle; nullopt with `why` when it is malformed.
std::optional<IpcFileReference> readHeader(const uint8_t* bytes, size_t size, std::string& why) {
  if (size < kIpcHandleSize) {
    why = "the handle is shorter than an IPC handle";
    return std::nullopt;
  }
  const HandleReader reader(bytes);
  if (reader.get<uint32_t>(at::kMagic) != kHandleMagic || reader.get<uint8_t>(at::kVersion) != kHandleVersion) {
    why = "not a Loom IPC handle (or one of another version)";
    return std::nullopt;
  }
  if (!reader.zeroFrom(at::kReserved, 1)) {
    why = "the handle's reserved byte is not zero";
    return std::nullopt;
  }
  IpcFileReference file;
  file.pid = reader.get<int32_t>(at::kPid);
  file.fd = reader.get<int32_t>(at::kFd);
  file.identity.bytes = reader.get<decltype(file.identity.bytes)>(at::kIdentity);
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

bool validMemoryType(uint8_t type) { return type <= uint8_t(MemoryType::Shared); }

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

std::string memoryFileName(const FileIdentity& identity) {
  std::string name = "loom-allocation-";
  for (uint8_t byte : identity.bytes) name += "0123456789abcdef"[byte >> 4], name += "0123456789abcdef"[byte & 15];
  return name;
}

std::string memoryFileLink(const FileIdentity& identity) { return "/memfd:" + memoryFileName(identity) + " (deleted)"; }

std::string checkOpenedFile(const IpcFileReference& reference, const OpenedFileFacts& facts, uint64_t minimumSize) {
  if (!facts.regular || facts.link != memoryFileLink(reference.identity))
    return "the descriptor is not the Loom memory file the handle names (it was freed, or the handle is forged)";
  if (facts.device != reference.device || facts.inode != reference.inode)
    return "the memory file has the handle's name but not its inode (another file named like it)";
  if (!facts.cannotShrink) return "the memory file is not sealed against shrinking";
  if (facts.size < minimumSize) return "the handle claims more bytes than its memory file has";
  return {};
}

IpcHandleBytes encodeIpcHandle(const IpcMemoryHandle& handle) {
  const HandleKind kind = handle.kind == IpcMemoryKind::DriverHandle ? HandleKind::DriverHandle : HandleKind::MemoryFile;
  HandleWriter writer = writeHeader(kind, uint8_t(handle.type), handle.file);
  writer.put(at::kSize, handle.size);
  writer.put(at::kOffset, handle.offset);
  return writer.bytes();
}

IpcHandleBytes encodeIpcHandle(const IpcEventPoolHandle& handle) {
  HandleWriter writer = writeHeader(HandleKind::EventPool, 0, handle.file);
  writer.put(at::kCount, handle.count);
  writer.put(at::kFlags, handle.flags);
  return writer.bytes();
}

std::optional<IpcMemoryHandle> decodeIpcMemoryHandle(const uint8_t* bytes, size_t size, std::string& why) {
  std::optional<IpcFileReference> file = readHeader(bytes, size, why);
  if (!file) return std::nullopt;
  const HandleReader reader(bytes);
  const auto kind = reader.get<HandleKind>(at::kKind);
  if (kind != HandleKind::MemoryFile && kind != HandleKind::DriverHandle) {
    why = "not an IPC memory handle";
    return std::nullopt;
  }
  const auto type = reader.get<uint8_t>(at::kMemoryType);
  if (!validMemoryType(type)) {
    why = "the handle's memory type is unknown";
    return std::nullopt;
  }
  IpcMemoryHandle handle;
  handle.file = *file;
  handle.kind = kind == HandleKind::DriverHandle ? IpcMemoryKind::DriverHandle : IpcMemoryKind::MemoryFile;
  handle.type = MemoryType(type);
  handle.size = reader.get<uint64_t>(at::kSize);
  handle.offset = reader.get<uint64_t>(at::kOffset);
  // The exported pointer lies inside the allocation (an empty one has only its base).
  if (handle.offset >= handle.size && !(handle.size == 0 && handle.offset == 0)) {
    why = "the handle's offset lies outside its allocation";
    return std::nullopt;
  }
  return handle;
}

std::optional<IpcEventPoolHandle> decodeIpcEventPoolHandle(const uint8_t* bytes, size_t size, std::string& why) {
  std::optional<IpcFileReference> file = readHeader(bytes, size, why);
  if (!file) return std::nullopt;
  const HandleReader reader(bytes);
  if (reader.get<HandleKind>(at::kKind) != HandleKind::EventPool) {
    why = "not an IPC event pool handle";
    return std::nullopt;
  }
  if (!reader.zeroFrom(at::kMemoryType, 1) || !reader.zeroFrom(at::kEventPoolUnused, 8)) {
    why = "the event pool handle's unused bytes are not zero";
    return std::nullopt;
  }
  IpcEventPoolHandle handle;
  handle.file = *file;
  handle.count = reader.get<uint32_t>(at::kCount);
  handle.flags = reader.get<uint32_t>(at::kFlags);
  if (handle.count == 0) {
    why = "the event pool handle has no events";
    return std::nullopt;
  }
  return handle;
}

}  // namespace loom::core
