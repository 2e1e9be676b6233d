#include "loom/core/colored_memory_ipc.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "loom/core/colored_allocations.h"
#include "loom/core/descriptor_channel.h"
#include "loom/core/log.h"

namespace loom::core {

namespace {

// The chunk table: a header, then one entry per chunk, in the machine's byte order (both
// processes run on it).
constexpr uint32_t kTableMagic = 0x4b48434c;  // "LCHK"
struct TableHeader {
  uint32_t magic;
  uint32_t count;
  uint64_t size;
};
struct TableEntry {
  uint64_t offset;
  uint64_t size;
  uint32_t tile;
  uint32_t zero;
};
// More chunks than any allocation has (a 2 MiB granule of 2 TiB).
constexpr uint32_t kMostChunks = 1u << 20;

// A colored handle's bytes: a magic, then the ticket.
constexpr uint32_t kHandleMagic = 0x4c4f434c;  // "LCOL"
static_assert(std::is_trivially_copyable_v<DescriptorTicket>);
static_assert(sizeof(kHandleMagic) + sizeof(DescriptorTicket) <= sizeof(DriverIpcHandle::bytes));

void writeTicket(const DescriptorTicket& ticket, DriverIpcHandle& handle) {
  std::memset(handle.bytes, 0, sizeof(handle.bytes));
  std::memcpy(handle.bytes, &kHandleMagic, sizeof(kHandleMagic));
  std::memcpy(handle.bytes + sizeof(kHandleMagic), &ticket, sizeof(ticket));
  handle.form = DriverIpcHandle::Form::ColoredChunks;
}

std::optional<DescriptorTicket> readTicket(const DriverIpcHandle& handle) {
  uint32_t magic;
  std::memcpy(&magic, handle.bytes, sizeof(magic));
  if (handle.form != DriverIpcHandle::Form::ColoredChunks || magic != kHandleMagic) return std::nullopt;
  DescriptorTicket ticket;
  std::memcpy(&ticket, handle.bytes + sizeof(kHandleMagic), sizeof(ticket));
  return ticket;
}

void closeAll(const std::vector<int>& descriptors) {
  for (int descriptor : descriptors) ::close(descriptor);
}

}  // namespace

std::vector<uint8_t> encodeChunkTable(size_t size, const std::vector<MemoryChunk>& chunks) {
  std::vector<uint8_t> bytes(sizeof(TableHeader) + chunks.size() * sizeof(TableEntry));
  const TableHeader header{kTableMagic, uint32_t(chunks.size()), size};
  std::memcpy(bytes.data(), &header, sizeof(header));
  for (size_t i = 0; i < chunks.size(); ++i) {
    const TableEntry entry{chunks[i].offset, chunks[i].size, chunks[i].tile, 0};
    std::memcpy(bytes.data() + sizeof(header) + i * sizeof(entry), &entry, sizeof(entry));
  }
  return bytes;
}

std::optional<std::pair<size_t, std::vector<MemoryChunk>>> decodeChunkTable(const std::vector<uint8_t>& bytes) {
  if (bytes.size() < sizeof(TableHeader)) return std::nullopt;
  TableHeader header;
  std::memcpy(&header, bytes.data(), sizeof(header));
  if (header.magic != kTableMagic || header.count == 0 || header.count > kMostChunks ||
      bytes.size() != sizeof(header) + size_t(header.count) * sizeof(TableEntry))
    return std::nullopt;
  std::vector<MemoryChunk> chunks;
  uint64_t covered = 0;
  for (size_t i = 0; i < header.count; ++i) {
    TableEntry entry;
    std::memcpy(&entry, bytes.data() + sizeof(header) + i * sizeof(entry), sizeof(entry));
    if (entry.offset != covered || entry.size == 0 || entry.size > header.size - covered || entry.zero != 0) return std::nullopt;
    covered += entry.size;
    chunks.push_back({size_t(entry.offset), size_t(entry.size), entry.tile});
  }
  if (covered != header.size) return std::nullopt;
  return std::make_pair(size_t(header.size), std::move(chunks));
}

std::optional<uint32_t> offerColoredMemory(Backend& maker, void* address, DriverIpcHandle& handle) {
  std::vector<MemoryChunk> chunks = ColoredAllocations::instance().chunksOf(address);
  if (chunks.empty()) {
    debugMessage("colored memory at %p has no chunk record to share", address);
    return std::nullopt;
  }
  const size_t size = chunks.back().offset + chunks.back().size;
  const size_t count = chunks.size();
  // Refused now, where the driver cannot share the chunks at all, rather than in the importer.
  const std::vector<int> trial = maker.exportColoredMemory(address);
  closeAll(trial);
  if (trial.size() != count) {
    debugMessage("colored memory at %p cannot be shared: the driver of %s gives no descriptors of its chunks", address,
                 maker.info().name.c_str());
    return std::nullopt;
  }
  DescriptorChannel::Provider provider = [&maker, address, table = encodeChunkTable(size, chunks), count](
                                             std::vector<int>& descriptors, std::vector<uint8_t>& payload) {
    descriptors = maker.exportColoredMemory(address);
    if (descriptors.size() != count) {
      debugMessage("colored memory at %p: its driver gave %zu descriptors for %zu chunks", address, descriptors.size(), count);
      return false;
    }
    payload = table;
    return true;
  };
  std::string why;
  const std::optional<DescriptorTicket> ticket = DescriptorChannel::instance().offer(std::move(provider), why);
  if (!ticket) {
    debugMessage("colored memory at %p cannot be shared: %s", address, why.c_str());
    return std::nullopt;
  }
  writeTicket(*ticket, handle);
  return ticket->offer;
}

std::optional<OpenedColoredMemory> openColoredMemory(Backend& maker, const std::vector<Backend*>& tiles,
                                                     const DriverIpcHandle& handle) {
  const std::optional<DescriptorTicket> ticket = readTicket(handle);
  if (!ticket) {
    debugMessage("the IPC handle's record holds no ticket for colored memory");
    return std::nullopt;
  }
  std::vector<int> descriptors;
  std::vector<uint8_t> payload;
  std::string why;
  if (!DescriptorChannel::fetch(*ticket, descriptors, payload, why)) {
    debugMessage("colored memory of process %d cannot be fetched: %s", int(ticket->pid), why.c_str());
    return std::nullopt;
  }
  auto table = decodeChunkTable(payload);
  std::optional<OpenedColoredMemory> opened;
  if (!table || table->second.size() != descriptors.size()) {
    debugMessage("colored memory of process %d came with a malformed chunk table", int(ticket->pid));
  } else if (std::any_of(table->second.begin(), table->second.end(),
                         [&](const MemoryChunk& chunk) { return chunk.tile >= tiles.size(); })) {
    debugMessage("colored memory of process %d has chunks of more tiles than this root's %zu", int(ticket->pid), tiles.size());
  } else if (void* address = maker.importColoredMemory(tiles, table->second, table->first, descriptors)) {
    opened = OpenedColoredMemory{address, table->first, std::move(table->second)};
  } else {
    debugMessage("colored memory of process %d: the driver of %s cannot map its chunks", int(ticket->pid), maker.info().name.c_str());
  }
  closeAll(descriptors);
  return opened;
}

}  // namespace loom::core
