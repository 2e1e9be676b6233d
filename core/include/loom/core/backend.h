#pragma once
// The small interface through which core sees hardware. One Backend object per device (root or
// sub-device); backends/cpu and backends/cuda implement it. core never includes a backend header.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "loom/compiler/compiler.h"
#include "loom/compiler/kernel_descriptor.h"
#include "loom/core/address_space.h"
#include "loom/core/command_stream.h"
#include "loom/core/device_info.h"
#include "loom/core/kernel_launch.h"
#include "loom/core/memory_coloring.h"
#include "loom/core/memory_type.h"
#include "loom/core/peer_link.h"
#include "loom/core/telemetry.h"
#include "loom/core/work_counters.h"

namespace loom::core {

class Image;
struct ImageShape;

// A kernel loaded on a device; owned by its BackendProgram.
class BackendKernel {
 public:
  virtual ~BackendKernel() = default;
  // The most work-items one group of this kernel may have when the kernel itself sets a lower
  // limit than the device (a GPU kernel's register use does); 0 when only the device's applies.
  virtual uint32_t groupSizeLimit() const { return 0; }
  // How many groups of `groupItems` work-items using `localMemorySize` bytes of local memory run at
  // once on one compute unit, all resident together, as a cooperative launch needs them; the
  // default is one (the CPU runs each group of a cooperative launch on a thread of its own).
  virtual uint32_t residentGroupsPerComputeUnit(uint32_t groupItems, uint32_t localMemorySize) const { return 1; }
  // The compute units a cooperative launch of this kernel runs on where they are fewer than the
  // device's (a root over tiles runs it on tile 0); 0: all of the device's.
  virtual uint32_t cooperativeComputeUnits() const { return 0; }
};

// A compiled program loaded on a device.
class BackendProgram {
 public:
  virtual ~BackendProgram() = default;
  // nullptr when absent or unresolved; the log says why.
  virtual BackendKernel* kernel(const std::string& name, std::string& log) = 0;
  virtual void* globalVariable(const std::string& name) = 0;
  virtual void* function(const std::string& name) = 0;
  virtual bool link(const std::vector<BackendProgram*>& others, std::string& log) = 0;
};

// How a device reaches the memory of another root device.
struct PeerAccess {
  bool access = false;   // its kernels and copies read and write the peer's memory directly
  bool atomics = false;  // atomics on the peer's memory included
};

// The hardware queue one engine issues its commands to (a CUDA stream on a GPU). Commands on an
// asynchronous queue run in issue order and may still be running when launch, copy and fill
// return; synchronize() waits for all of them. A synchronous queue completes each before return.
class BackendQueue {
 public:
  virtual ~BackendQueue() = default;
  virtual bool asynchronous() const = 0;
  // The one way kernels run. `arguments` holds launch.argumentSize bytes laid out by the
  // descriptor, local pointer arguments holding their offsets in the local arena; it stays valid
  // only until the call returns.
  virtual void launch(const KernelLaunch& launch, const uint8_t* arguments) = 0;
  virtual void copy(void* destination, const void* source, size_t size) = 0;
  virtual void fill(void* destination, const void* pattern, size_t patternSize, size_t size) = 0;
  // A 3-D region between pitched layouts; the default issues one copy per row.
  virtual void copyRegion(const CopyRegionCommand& copy);
  // `fill.patternSize` bytes of `pattern` repeated over a 3-D region; the default fills the first
  // row, then copies the rows filled so far after themselves, then the slices likewise.
  virtual void fillRegion(const FillRegionCommand& fill, const void* pattern);
  // True when every command issued so far has completed; never blocks.
  virtual bool completed() = 0;
  virtual void synchronize() = 0;
  // Device time between commands, for the timestamps of events: markTime() records a mark after
  // the commands issued so far and returns its number; timeOfMark() is its time in the backend's
  // timestamp clock once completed() or synchronize() found the work before it done;
  // forgetMarks() frees every mark (the queue is idle then). A queue whose commands complete as
  // they are issued has no marks (kNoMark): the executor reads the clock itself.
  static constexpr uint32_t kNoMark = UINT32_MAX;
  virtual uint32_t markTime() { return kNoMark; }
  virtual uint64_t timeOfMark(uint32_t mark) { return 0; }
  virtual void forgetMarks() {}
  // True once the device has passed `mark`: the commands issued before it have completed, while
  // later ones (a wait in the queue) may not have. Never blocks.
  virtual bool markReached(uint32_t mark) { return false; }
  // A queue over the tiles of a root device times each tile apart: markTiles() of them, and
  // timeOfMarkOnTile() is when `tile` passed `mark` (timeOfMark() when the last tile did). Other
  // queues are one tile.
  virtual uint32_t markTiles() const { return 1; }
  virtual uint64_t timeOfMarkOnTile(uint32_t mark, uint32_t tile) { return timeOfMark(mark); }
  // The first failure among the commands issued since the last call, as a negative execution
  // status (event.h), or 0; the call clears it. A command the device refused counts when it is
  // issued; a failure while the device ran the work once completed() or synchronize() saw it.
  virtual int32_t takeFailure() { return 0; }
  // Synchronization in the queue itself, on a 32-bit word of host memory the device can address
  // (MemoryManager::allocateDeviceVisible): waitValue holds the commands issued after it until
  // the word is at least `value`; writeValue stores `value` once the commands before it have
  // completed. False when the queue cannot (a synchronous queue; a driver without the
  // operations): the caller then waits, or writes, on the host.
  virtual bool waitValue(const uint32_t* address, uint32_t value) { return false; }
  virtual bool writeValue(uint32_t* address, uint32_t value) { return false; }
  // A join between the queues of two tiles of one root device, in the queues themselves: the
  // commands issued on this queue from now on start only after those issued on `other` so far
  // have completed, and see what they wrote. False when the queues cannot (other kinds of queue,
  // a synchronous queue, a driver failure): the caller then synchronizes `other`.
  virtual bool joinAfter(BackendQueue& other) { return false; }
  // A synchronous queue may instead start a launch that runs while the caller goes on, so that a
  // composite queue (composite_backend.h) runs its tiles' parts at once: false when it cannot, and
  // then nothing started. The arguments are copied. finishLaunches() returns once every launch
  // started so far has completed; their failures count as launch()'s do.
  virtual bool startLaunch(const KernelLaunch& launch, const uint8_t* arguments) { return false; }
  virtual void finishLaunches() {}
};

// A handle for sharing one allocation of a backend's allocator with another process: the
// driver's own (a CUDA IPC handle), or, for implicit scaling's colored memory, a ticket of the
// descriptor channel (descriptor_channel.h) that fetches the descriptors of its chunks.
struct DriverIpcHandle {
  enum class Form : uint32_t { Driver = 0, ColoredChunks = 1 };
  uint8_t bytes[64];
  Form form = Form::Driver;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual const DeviceInfo& info() const = 0;
  virtual compiler::Target compilerTarget() const = 0;
  virtual std::unique_ptr<BackendProgram> loadProgram(std::shared_ptr<const compiler::CompiledProgram> program,
                                                      std::string& log) = 0;
  // True when this device's queues run a part of a launch (KernelLaunch::isPart) with the ids of
  // the whole launch: a composite splits launches only among tiles that do.
  virtual bool runsLaunchParts() const { return false; }
  // True when the programs `other` loads run on this device as they are, their global variables
  // shared (the tiles of one CPU): a composite over both then loads each program once.
  virtual bool runsProgramsOf(const Backend& other) const { return false; }
  // A queue of its own for one engine: where its kernels, copies and fills run.
  virtual std::unique_ptr<BackendQueue> createQueue() = 0;
  // Copies and fills outside any engine (initial contents of new memory), complete on return.
  virtual void copy(void* destination, const void* source, size_t size) = 0;
  virtual void fill(void* destination, const void* pattern, size_t patternSize, size_t size) = 0;
  // Device clock in nanoseconds; kernel timestamps use it.
  virtual uint64_t timestamp() const = 0;

  // Memory from the device's own allocator (GPU memory, pinned or managed host memory), or
  // nullptr when the backend leaves allocations of `type` to core's host memory (the CPU does:
  // its memory must be shareable across processes). releaseMemory frees what allocateMemory gave.
  virtual void* allocateMemory(MemoryType type, size_t size) { return nullptr; }
  // True when host allocations, which belong to no device, should be pinned by this backend,
  // which a GPU then reads directly and copies from at full speed: core's host memory registered
  // with registerHostMemory, else (when that fails) memory of the backend's own allocator.
  virtual bool providesHostMemory() const { return false; }
  virtual void releaseMemory(void* address, MemoryType type) {}
  // Implicit scaling, asked of a root's tile 0: device memory of `size` bytes made of `chunks`
  // (memory_coloring.h), each physical memory of its owner `tiles[chunk.tile]`, all of it one
  // range of addresses that every tile reads and writes, atomics included. nullptr when the
  // backend has no such memory (the CPU: core's host memory is its) or the tiles have too little;
  // releaseColoredMemory frees it.
  virtual void* allocateColoredMemory(const std::vector<Backend*>& tiles, const std::vector<MemoryChunk>& chunks, size_t size) {
    return nullptr;
  }
  virtual void releaseColoredMemory(void* address) {}
  // IPC of colored memory. exportColoredMemory: a descriptor per chunk of the allocation at
  // `address` (allocateColoredMemory's), in its chunks' order, which the caller closes; empty
  // when the backend cannot share it. importColoredMemory: the chunks another process exported
  // (`descriptors`, which stay the caller's, laid out as `chunks` of an allocation of `size`
  // bytes) mapped as one range that every tile of `tiles` reads and writes; nullptr when the
  // driver refuses. releaseColoredMemory closes it.
  virtual std::vector<int> exportColoredMemory(void* address) { return {}; }
  virtual void* importColoredMemory(const std::vector<Backend*>& tiles, const std::vector<MemoryChunk>& chunks, size_t size,
                                    const std::vector<int>& descriptors) {
    return nullptr;
  }
  // The unit of the device's physical memory that colored memory's chunks are whole numbers of
  // (CUDA's allocation granularity); 0 when any size will do.
  virtual size_t physicalGranularity() const { return 0; }
  // Core's host memory that became a device allocation of this device (allocateMemory gave none),
  // before anything touched it: a root over tiles records its chunks (colored_allocations.h, which
  // the memory manager clears when it frees the memory) and places each on its tile
  // (placeHostMemory).
  virtual void adoptHostMemory(void* address, size_t size) {}
  // Places core's host memory that nothing touched yet on this device's own memory (a CPU tile's
  // NUMA node); false when the device has no memory of its own to place it on.
  virtual bool placeHostMemory(void* address, size_t size) { return false; }
  // Makes core's host memory (shared_memory.h) addressable by the device at the same address,
  // for kernels, copies and queue waits: pinned and mapped for every device of the driver. False
  // when the backend cannot, or has no need to (the CPU). unregisterHostMemory undoes it before
  // the memory is unmapped.
  virtual bool registerHostMemory(void* address, size_t size) { return false; }
  virtual void unregisterHostMemory(void* address) {}

  // Texture objects through which kernels sample `image` (its descriptor allocated, not yet
  // written): textures[samplerState(bits)] (compiler/image_abi.h) for each sampler state the
  // device's texture units serve for its format and type, left 0 for the rest, which kernels
  // sample in software. The default serves none. destroyImageTextures destroys what
  // createImageTextures made (zeros are skipped), before the image's memory goes.
  virtual void createImageTextures(const Image& image, uint64_t* textures) {}
  virtual void destroyImageTextures(const Image& image, const uint64_t* textures) {}

  // IPC of memory from this backend's allocator. exportMemory writes the driver's handle of the
  // allocation at `address` (its base); false when the driver cannot share memory of `type`.
  // importMemory maps a handle another process exported, nullptr when it names nothing this
  // device can open; closeImportedMemory unmaps it.
  virtual bool exportMemory(void* address, MemoryType type, DriverIpcHandle& handle) { return false; }
  virtual void* importMemory(const DriverIpcHandle& handle) { return nullptr; }
  virtual void closeImportedMemory(void* address) {}

  // Virtual memory: the address space this device's reservations live in, and physical memory
  // of `size` bytes (whole pages of that space) on the device, nullptr when out of memory. The
  // defaults are the host's (host_address_space.h). nullptr for a device without virtual memory.
  virtual AddressSpace* addressSpace();
  virtual std::unique_ptr<PhysicalMemory> createPhysicalMemory(size_t size);
  // How this device reaches the memory of `peer`, another root device; the default: not at all.
  virtual PeerAccess peerAccess(const Backend& peer) const { return {}; }
  // The direct link to `peer`, a device this one has peer access to; the default: nothing known.
  virtual PeerLink peerLink(const Backend& peer) const { return {}; }

  // Level Zero's cache reservation, on a device whose info().maxCacheReservationSize is not 0:
  // reserveCache sets `bytes` (at most that size) of the last-level cache aside, 0 gives it back;
  // adviseCache puts [address, address + size) in the reserved part (`reserved`) or out of it.
  // False, with `why`, when the device cannot; the default cannot.
  virtual bool reserveCache(size_t bytes, std::string& why) {
    why = "the device has no cache reservation";
    return false;
  }
  virtual bool adviseCache(const void* address, size_t size, bool reserved, std::string& why) {
    why = "the device has no cache reservation";
    return false;
  }

  // What the device reports for system management; the default reports nothing. Called once,
  // on first use, since opening the system's sources (NVML) takes time.
  virtual std::unique_ptr<Telemetry> createTelemetry();

  // What this process issued to the device's queues (metric groups read it).
  WorkCounters& workCounters() { return workCounters_; }

 private:
  WorkCounters workCounters_;
};

// A root device's backend and its sub-devices' (tiles). A device of tiles may leave `backend`
// empty: the device tree then makes the root a composite over the tiles it keeps.
struct DiscoveredDevice {
  std::unique_ptr<Backend> backend;
  std::vector<std::unique_ptr<Backend>> subDevices;
};

}  // namespace loom::core
