#pragma once
// The bytes of Loom's IPC handles (Level Zero's ze_ipc_mem_handle_t and
// ze_ipc_event_pool_handle_t) and the checks that a handle, and the file it leads to, name exactly
// one live Loom memory file. A handle names the file by where the exporter holds it open (pid,
// descriptor) and by what it must be once opened: the 128 random bits the file carries in its
// name for its whole life, what it holds (also in its name), and its device and inode. The
// descriptor is the handle's first 4 bytes, as in the model runtime's handles: an importer may
// send it over a Unix socket (SCM_RIGHTS) and put the descriptor it received there instead
// (ipc_handle_reader.h). Only parsing and checking here, nothing is opened: shared_memory.h
// opens and maps the files.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "loom/core/memory_type.h"

namespace loom::core {

constexpr size_t kIpcHandleSize = 64;  // ZE_MAX_IPC_HANDLE_SIZE
using IpcHandleBytes = std::array<uint8_t, kIpcHandleSize>;

// The identity of one shareable memory file, never given to another.
struct FileIdentity {
  std::array<uint8_t, 16> bytes{};
  bool operator==(const FileIdentity&) const = default;
  bool empty() const { return *this == FileIdentity{}; }
  // 128 bits from the kernel's random source; nullopt when it cannot give them.
  static std::optional<FileIdentity> random();
};

// What a shareable memory file holds, written into its name when it is made, so that a
// descriptor of the file tells by itself what to open (when the rest of a handle is lost).
enum class MemoryFilePurpose : uint8_t { Allocation = 1, DriverRecord = 2, EventPool = 3 };
struct MemoryFileContents {
  MemoryFilePurpose purpose = MemoryFilePurpose::Allocation;
  uint32_t detail = 0;  // an allocation's MemoryType, an event pool's flags
  uint64_t amount = 0;  // an allocation's size in bytes, an event pool's count of events
  bool operator==(const MemoryFileContents&) const = default;
};

// The name a shareable memory file is created with: "loom-<purpose>-<32 hex digits of the
// identity>-<detail>-<amount>" (hexadecimal).
std::string memoryFileName(const FileIdentity& identity, const MemoryFileContents& contents);
// What readlink shows for a descriptor of that file ("/memfd:<name> (deleted)").
std::string memoryFileLink(const FileIdentity& identity, const MemoryFileContents& contents);

struct NamedMemoryFile {
  FileIdentity identity;
  MemoryFileContents contents;
};
// The identity and contents a link names; nullopt unless it is exactly a Loom memory file's link.
std::optional<NamedMemoryFile> parseMemoryFileLink(const std::string& link);

// Which file a handle names and where the exporting process holds it open.
struct IpcFileReference {
  int32_t pid = 0;
  int32_t fd = -1;
  FileIdentity identity;
  MemoryFileContents contents;
  uint64_t device = 0;  // st_dev
  uint64_t inode = 0;   // st_ino
};

// What the importing process sees of the file on the descriptor it opened itself.
struct OpenedFileFacts {
  bool regular = false;
  uint64_t device = 0;
  uint64_t inode = 0;
  uint64_t size = 0;
  bool cannotShrink = false;  // sealed with F_SEAL_SHRINK: mapping it can never raise SIGBUS
  std::string link;           // readlink of /proc/self/fd/<descriptor>
};

// Empty when `facts` show the very file `reference` names, sealed and at least `minimumSize`
// bytes long; else why not.
std::string checkOpenedFile(const IpcFileReference& reference, const OpenedFileFacts& facts, uint64_t minimumSize);

// How an IPC handle reaches the memory: the allocation's own file (core's host memory), or a
// file holding the driver's handle of memory from a device's allocator (a GPU's).
enum class IpcMemoryKind : uint8_t { MemoryFile = 1, DriverHandle = 2 };

struct IpcMemoryHandle {
  IpcFileReference file;
  IpcMemoryKind kind = IpcMemoryKind::MemoryFile;
  MemoryType type = MemoryType::Host;
  uint64_t size = 0;    // of the allocation
  uint64_t offset = 0;  // of the exported pointer inside the allocation
};

struct IpcEventPoolHandle {
  IpcFileReference file;  // the pool's event storage
  uint32_t count = 0;     // of events
  uint32_t flags = 0;     // the API's pool flags, which the API checks
};

IpcHandleBytes encodeIpcHandle(const IpcMemoryHandle& handle);
IpcHandleBytes encodeIpcHandle(const IpcEventPoolHandle& handle);
// True when the bytes carry the mark and version of Loom's handles (well-formed or not).
bool isLoomIpcHandle(const uint8_t* bytes, size_t size);
// nullopt, with the reason in `why`, unless the bytes are a well-formed handle of that kind; the
// file it names is checked when it is opened.
std::optional<IpcMemoryHandle> decodeIpcMemoryHandle(const uint8_t* bytes, size_t size, std::string& why);
std::optional<IpcEventPoolHandle> decodeIpcEventPoolHandle(const uint8_t* bytes, size_t size, std::string& why);

// The handle of a whole file known only by a descriptor, from what its name says it holds
// (`file.contents`); nullopt, with `why`, when it holds no memory, or no event pool.
std::optional<IpcMemoryHandle> ipcMemoryHandleOfFile(const IpcFileReference& file, std::string& why);
std::optional<IpcEventPoolHandle> ipcEventPoolHandleOfFile(const IpcFileReference& file, std::string& why);

}  // namespace loom::core
