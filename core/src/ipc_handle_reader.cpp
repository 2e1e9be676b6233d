#include "loom/core/ipc_handle_reader.h"

#include <cstring>

#include "loom/core/shared_memory.h"

namespace loom::core {

namespace {

// The handle that `decode` reads in bytes that carry Loom's mark (a malformed one is refused,
// never read as a bare descriptor); else the one the descriptor in their first 4 bytes leads to.
template <typename Handle>
std::optional<Handle> readHandle(std::optional<Handle> (*decode)(const uint8_t*, size_t, std::string&),
                                 std::optional<Handle> (*ofFile)(const IpcFileReference&, std::string&),
                                 const uint8_t* bytes, size_t size, std::string& why) {
  if (isLoomIpcHandle(bytes, size)) return decode(bytes, size, why);
  int32_t descriptor = -1;
  if (size >= sizeof(descriptor)) std::memcpy(&descriptor, bytes, sizeof(descriptor));
  std::string notDescriptor;
  std::optional<IpcFileReference> file = describeOwnDescriptor(descriptor, notDescriptor);
  std::optional<Handle> handle = file ? ofFile(*file, notDescriptor) : std::nullopt;
  if (!handle) why = "not a Loom IPC handle (or one of another version), nor a descriptor of one: " + notDescriptor;
  return handle;
}

}  // namespace

std::optional<IpcMemoryHandle> readIpcMemoryHandle(const uint8_t* bytes, size_t size, std::string& why) {
  return readHandle(decodeIpcMemoryHandle, ipcMemoryHandleOfFile, bytes, size, why);
}

std::optional<IpcEventPoolHandle> readIpcEventPoolHandle(const uint8_t* bytes, size_t size, std::string& why) {
  return readHandle(decodeIpcEventPoolHandle, ipcEventPoolHandleOfFile, bytes, size, why);
}

}  // namespace loom::core
