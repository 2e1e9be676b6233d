#pragma once
// Reads the IPC handle an importing process holds, in each form it may have reached it:
//  - the bytes as exported (copied to a forked or unrelated process, or kept by the exporter);
//  - those bytes with the first 4 replaced by the importer's own descriptor of the file, received
//    over a Unix socket with SCM_RIGHTS (the model runtime's layout: MPI libraries, oneCCL and
//    level-zero-tests pass handles so);
//  - only that descriptor in the first 4 bytes, the rest anything (level-zero-tests sends only
//    the descriptor): the file's name then says what it holds (ipc_handle.h).
// Which form applies is decided on what the descriptor refers to, never on its number alone
// (shared_memory.h: mapForeignSharedMemory uses the importer's descriptor only when it is the very
// file the handle names, and opens the exporter's otherwise).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "loom/core/ipc_handle.h"

namespace loom::core {

// nullopt, with `why`, when the bytes are neither a Loom handle of that kind nor a descriptor of
// this process that is a Loom memory file of that kind in their first 4 bytes.
std::optional<IpcMemoryHandle> readIpcMemoryHandle(const uint8_t* bytes, size_t size, std::string& why);
std::optional<IpcEventPoolHandle> readIpcEventPoolHandle(const uint8_t* bytes, size_t size, std::string& why);

}  // namespace loom::core
