// Fuzz target: Loom's IPC handles, the 64 bytes zeMemOpenIpcHandle and zeEventPoolOpenIpcHandle
// get from another process (core/ipc_handle.h). The input's first 64 bytes go through both
// decoders; the bytes after them are taken as what readlink showed for the descriptor the
// importer opened, for the check of the opened file and for the reading of a file's name. Nothing is opened: decoding and checking are
// apart from opening, so no file of a random process is touched.
#include <algorithm>
#include <cstdint>
#include <string>

#include "fuzz_check.h"
#include "loom/core/ipc_handle.h"

namespace {

using namespace loom::core;
using loom::fuzz::require;

bool sameBytes(const IpcHandleBytes& encoded, const uint8_t* data) { return std::equal(encoded.begin(), encoded.end(), data); }

void checkReference(const IpcFileReference& file) {
  require(file.pid > 0 && file.fd >= 0, "a decoded handle names a process and a descriptor");
  require(!file.identity.empty(), "a decoded handle carries an identity");
}

// The file a decoded handle names passes the check only as itself, large enough and sealed, and
// a link other than its own name is refused whatever it says.
void checkOpenedFiles(const IpcFileReference& file, uint64_t minimumSize, const std::string& link) {
  OpenedFileFacts genuine{true, file.device, file.inode, minimumSize, true, memoryFileLink(file.identity, file.contents)};
  require(checkOpenedFile(file, genuine, minimumSize).empty(), "the genuine file is accepted");
  OpenedFileFacts facts = genuine;
  facts.link = link;
  require(checkOpenedFile(file, facts, minimumSize).empty() == (link == genuine.link), "only the file's own link is accepted");
  facts = genuine;
  facts.inode ^= 1;
  require(!checkOpenedFile(file, facts, minimumSize).empty(), "another inode is refused");
  facts = genuine;
  facts.cannotShrink = false;
  require(!checkOpenedFile(file, facts, minimumSize).empty(), "an unsealed file is refused");
  if (minimumSize == 0) return;
  facts = genuine;
  facts.size = minimumSize - 1;
  require(!checkOpenedFile(file, facts, minimumSize).empty(), "a file smaller than the handle claims is refused");
}

// One decoder's verdict on the input: a refusal says why; an accepted handle has no complaint,
// names a process and a descriptor, and encodes back to the same bytes.
template <typename Handle>
std::optional<Handle> decodeChecked(std::optional<Handle> (*decode)(const uint8_t*, size_t, std::string&), const uint8_t* data,
                                    size_t size) {
  std::string why;
  std::optional<Handle> handle = decode(data, size, why);
  if (!handle) {
    require(!why.empty(), "a refused handle says why");
    return handle;
  }
  require(why.empty(), "an accepted handle has no complaint");
  require(sameBytes(encodeIpcHandle(*handle), data), "an accepted handle encodes to the same bytes");
  checkReference(handle->file);
  return handle;
}

void checkMemoryHandle(const IpcMemoryHandle& handle, const std::string& link) {
  require(handle.offset < handle.size || (handle.size == 0 && handle.offset == 0),
          "the exported pointer lies inside its allocation");
  checkOpenedFiles(handle.file, handle.size, link);
}

void checkEventPoolHandle(const IpcEventPoolHandle& handle, const std::string& link) {
  require(handle.count > 0, "an accepted event pool has events");
  checkOpenedFiles(handle.file, uint64_t(handle.count) * 32, link);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string link = size > kIpcHandleSize ? std::string(data + kIpcHandleSize, data + size) : std::string();
  if (const std::optional<NamedMemoryFile> named = parseMemoryFileLink(link))
    require(memoryFileLink(named->identity, named->contents) == link, "a link is read only when it is exactly a Loom file's");
  const std::optional<IpcMemoryHandle> memory = decodeChecked(decodeIpcMemoryHandle, data, size);
  const std::optional<IpcEventPoolHandle> pool = decodeChecked(decodeIpcEventPoolHandle, data, size);
  require(!(memory && pool), "no handle is both a memory handle and an event pool handle");
  if (memory) checkMemoryHandle(*memory, link);
  if (pool) checkEventPoolHandle(*pool, link);
  return 0;
}
