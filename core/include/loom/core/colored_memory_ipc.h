#pragma once
// IPC of implicit scaling's colored memory (Backend::allocateColoredMemory): its chunks are
// physical memory of several devices whose shareable handles are file descriptors, so the
// exporting process offers them on the descriptor channel (descriptor_channel.h) and the IPC
// handle carries the ticket; the importing process fetches the descriptors with the chunk table
// and has its root's tile 0 map them as one range.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "loom/core/backend.h"
#include "loom/core/memory_coloring.h"

namespace loom::core {

// Offers the chunks of the colored allocation at `address` (made by `maker`, recorded in
// colored_allocations.h) and writes the ticket into `handle`; the offer's number, which
// withdraw (descriptor channel) ends before the memory is freed; nullopt when it cannot be
// offered, which PrintDebugMessages says.
std::optional<uint32_t> offerColoredMemory(Backend& maker, void* address, DriverIpcHandle& handle);

// What openColoredMemory mapped: its address, size and chunks (owners are tiles of `tiles`).
struct OpenedColoredMemory {
  void* address = nullptr;
  size_t size = 0;
  std::vector<MemoryChunk> chunks;
};
// Maps the memory of a handle offerColoredMemory wrote, through `maker` (tile 0 of `tiles`),
// for every tile; nullopt when the exporter, the channel or the driver fails, which
// PrintDebugMessages says. Every descriptor fetched is closed either way.
std::optional<OpenedColoredMemory> openColoredMemory(Backend& maker, const std::vector<Backend*>& tiles,
                                                     const DriverIpcHandle& handle);

// The chunk table as the channel carries it, and back: nullopt when the bytes are no table of
// chunks that cover an allocation in order.
std::vector<uint8_t> encodeChunkTable(size_t size, const std::vector<MemoryChunk>& chunks);
std::optional<std::pair<size_t, std::vector<MemoryChunk>>> decodeChunkTable(const std::vector<uint8_t>& bytes);

}  // namespace loom::core
