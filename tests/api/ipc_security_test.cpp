// IPC handles that do not name a live allocation (or event pool) of the exporting process: a
// freed allocation's, one whose descriptor names another file of the exporter, one claiming more
// bytes than the allocation has, garbage. Another process opens each (where a mapping could raise
// SIGBUS, only that process would die): it must get ZE_RESULT_ERROR_INVALID_ARGUMENT, and its
// driver must go on working, with a good handle too.
#include <fcntl.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>

#include "ze_test_helpers.h"

namespace loom::test {
namespace {

// Where Loom's handles keep the fields a forger changes (core/src/ipc_handle.cpp); each test first
// checks that a genuine handle has them there.
constexpr size_t kPidAt = 8, kFdAt = 0, kSizeAt = 48, kCountAt = 48, kFlagsAt = 52;
constexpr size_t kMaxForged = 8;
constexpr uint32_t kGoodSize = 4096;

template <typename T, typename Handle>
T field(const Handle& handle, size_t at) {
  T value;
  std::memcpy(&value, handle.data + at, sizeof(value));
  return value;
}

template <typename T, typename Handle>
Handle withField(Handle handle, size_t at, T value) {
  std::memcpy(handle.data + at, &value, sizeof(value));
  return handle;
}

std::string descriptorLink(int32_t fd) {
  std::error_code error;
  return std::filesystem::read_symlink("/proc/self/fd/" + std::to_string(fd), error).string();
}

// What the parent gives the child process: handles to refuse, then a good one to open.
template <typename Handle>
struct ForgedHandles {
  Handle good;
  uint32_t count;
  Handle forged[kMaxForged];
};
using ForgedMemoryHandles = ForgedHandles<ze_ipc_mem_handle_t>;
using ForgedEventPoolHandles = ForgedHandles<ze_ipc_event_pool_handle_t>;

uint8_t goodByte(uint32_t i) { return uint8_t(0x3c ^ i); }

class IpcSecurityTest : public ZeTest {
 protected:
  void TearDown() override {
    for (int fd : files) close(fd);
    ZeTest::TearDown();
  }

  // Device memory of kGoodSize bytes of the pattern goodByte, and its handle.
  ze_ipc_mem_handle_t goodMemoryHandle() {
    void* memory = deviceMemory<uint8_t>(kGoodSize);
    std::vector<uint8_t> pattern(kGoodSize);
    for (uint32_t i = 0; i < kGoodSize; ++i) pattern[i] = goodByte(i);
    upload(static_cast<uint8_t*>(memory), pattern);
    ze_ipc_mem_handle_t handle{};
    EXPECT_ZE(zeMemGetIpcHandle(context, memory, &handle));
    return handle;
  }

  // The descriptor of a genuine handle, once the test has checked that it is where the forgers
  // below write it: a Loom memory file of this process (the allocation's own on the CPU, the file
  // holding the driver's handle on a GPU).
  int32_t checkedDescriptor(const ze_ipc_mem_handle_t& handle) {
    EXPECT_EQ(field<int32_t>(handle, kPidAt), getpid()) << "Loom's handle layout changed";
    const int32_t fd = field<int32_t>(handle, kFdAt);
    EXPECT_EQ(descriptorLink(fd).rfind("/memfd:loom-", 0), 0u) << "Loom's handle layout changed";
    return fd;
  }

  // A regular file of this process, with data the child must never see.
  int32_t secretFile() {
    char path[] = "/tmp/loom-ipc-secret-XXXXXX";
    const int fd = mkstemp(path);
    EXPECT_GE(fd, 0);
    unlink(path);
    const std::string secret(1 << 20, 's');
    EXPECT_EQ(write(fd, secret.data(), secret.size()), ssize_t(secret.size()));
    files.push_back(fd);
    return fd;
  }

  // A memory file the application made with the very name of the handle's file.
  int32_t impostorOf(int32_t fd) {
    std::string name = descriptorLink(fd).substr(std::strlen("/memfd:"));
    name = name.substr(0, name.find(' '));
    const int impostor = memfd_create(name.c_str(), 0);
    EXPECT_GE(impostor, 0);
    EXPECT_EQ(ftruncate(impostor, 1 << 20), 0);
    files.push_back(impostor);
    return impostor;
  }

  template <typename Handle>
  int refuseInAnotherProcess(const char* childTest, const Handle& good, std::initializer_list<Handle> forged) {
    ForgedHandles<Handle> input{good, uint32_t(forged.size()), {}};
    EXPECT_LE(forged.size(), kMaxForged);
    std::copy(forged.begin(), forged.end(), input.forged);
    return runTestInNewProcess(std::string("IpcSecurityTest.") + childTest, bytesOf(input));
  }

  int refuseMemoryHandles(const ze_ipc_mem_handle_t& good, std::initializer_list<ze_ipc_mem_handle_t> forged) {
    return refuseInAnotherProcess("DISABLED_RefusesForgedMemoryHandlesAndGoesOn", good, forged);
  }

  // The child's proof that its driver still works: a new allocation takes a copy, and the good
  // handle opens on the exporter's data.
  void expectTheDriverStillWorks(const ze_ipc_mem_handle_t& good) {
    std::vector<uint32_t> values(256);
    for (uint32_t i = 0; i < values.size(); ++i) values[i] = i * 3;
    uint32_t* memory = deviceMemory<uint32_t>(values.size());
    ASSERT_NE(memory, nullptr);
    upload(memory, values);
    EXPECT_EQ(download(memory, values.size()), values);
    void* opened = nullptr;
    ASSERT_ZE(zeMemOpenIpcHandle(context, device, good, 0, &opened));
    const std::vector<uint8_t> seen = download(static_cast<const uint8_t*>(opened), kGoodSize);
    for (uint32_t i = 0; i < kGoodSize; ++i) ASSERT_EQ(seen[i], goodByte(i)) << "byte " << i;
    EXPECT_ZE(zeMemCloseIpcHandle(context, opened));
  }

  std::vector<int> files;
};

TEST_F(IpcSecurityTest, DISABLED_RefusesForgedMemoryHandlesAndGoesOn) {
  CHILD_INPUT(ForgedMemoryHandles, input);
  for (uint32_t i = 0; i < input.count; ++i) {
    void* opened = nullptr;
    EXPECT_EQ(zeMemOpenIpcHandle(context, device, input.forged[i], 0, &opened), ZE_RESULT_ERROR_INVALID_ARGUMENT)
        << "forged handle " << i;
  }
  expectTheDriverStillWorks(input.good);
}

// The next allocation gets the freed one's descriptor (on the CPU) or place: the freed
// allocation's handle must not open it.
TEST_F(IpcSecurityTest, AFreedAllocationsHandleOpensNothing) {
  void* freed = deviceMemory<uint8_t>(kGoodSize);
  ze_ipc_mem_handle_t stale{};
  ASSERT_ZE(zeMemGetIpcHandle(context, freed, &stale));
  ASSERT_ZE(zeMemFree(context, freed));
  allocations.erase(std::find(allocations.begin(), allocations.end(), freed));
  const ze_ipc_mem_handle_t good = goodMemoryHandle();
  const int32_t fd = checkedDescriptor(good);
  if (deviceType() == ZE_DEVICE_TYPE_CPU) {
    EXPECT_EQ(field<int32_t>(stale, kFdAt), fd) << "the descriptor was reused";
  }
  EXPECT_EQ(refuseMemoryHandles(good, {stale}), 0);
}

// The child inherits the secret file and the impostor (they are not close-on-exec) under the
// same numbers: neither opens, whether the rest of the handle is Loom's or nothing (the model
// runtime's layout, where the first 4 bytes alone are a descriptor of the importer).
TEST_F(IpcSecurityTest, AForgedDescriptorOpensNoOtherFileOfTheExporter) {
  const ze_ipc_mem_handle_t good = goodMemoryHandle();
  const int32_t fd = checkedDescriptor(good);
  const int32_t secret = secretFile(), impostor = impostorOf(fd);
  const ze_ipc_mem_handle_t nothing{};
  EXPECT_EQ(refuseMemoryHandles(good, {withField(good, kFdAt, secret), withField(good, kFdAt, impostor),
                                       withField(good, kFdAt, int32_t(0)), withField(good, kFdAt, int32_t(99999)),
                                       withField(nothing, kFdAt, secret), withField(nothing, kFdAt, impostor),
                                       withField(nothing, kFdAt, int32_t(99999))}),
            0);
}

// Before the size was checked, the importer mapped what the handle claimed and died of SIGBUS
// at the first byte past the file.
TEST_F(IpcSecurityTest, AForgedSizeOpensNothing) {
  const ze_ipc_mem_handle_t good = goodMemoryHandle();
  checkedDescriptor(good);
  ASSERT_EQ(field<uint64_t>(good, kSizeAt), kGoodSize) << "Loom's handle layout changed";
  const uint64_t fileSize = (kGoodSize + getpagesize() - 1) / getpagesize() * getpagesize();
  EXPECT_EQ(refuseMemoryHandles(good, {withField(good, kSizeAt, uint64_t(1) << 40), withField(good, kSizeAt, fileSize + 16)}),
            0);
}

TEST_F(IpcSecurityTest, GarbageOpensNothing) {
  const ze_ipc_mem_handle_t good = goodMemoryHandle();
  ze_ipc_mem_handle_t zeros{}, ones, noise;
  std::memset(ones.data, 0xff, sizeof(ones.data));
  uint32_t state = 12345;
  for (char& byte : noise.data) byte = char((state = state * 1103515245u + 12345u) >> 16);
  ze_ipc_mem_handle_t otherProcess = withField(good, kPidAt, int32_t(1));
  EXPECT_EQ(refuseMemoryHandles(good, {zeros, ones, noise, otherProcess}), 0);
}

// --- event pools ---------------------------------------------------------------------------

TEST_F(IpcSecurityTest, DISABLED_RefusesForgedEventPoolHandlesAndGoesOn) {
  CHILD_INPUT(ForgedEventPoolHandles, input);
  for (uint32_t i = 0; i < input.count; ++i) {
    ze_event_pool_handle_t opened = nullptr;
    EXPECT_EQ(zeEventPoolOpenIpcHandle(context, input.forged[i], &opened), ZE_RESULT_ERROR_INVALID_ARGUMENT)
        << "forged handle " << i;
  }
  ze_event_pool_handle_t pool = nullptr;
  ASSERT_ZE(zeEventPoolOpenIpcHandle(context, input.good, &pool));
  ze_event_desc_t desc{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 1, ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
  ze_event_handle_t event = nullptr;
  ASSERT_ZE(zeEventCreate(pool, &desc, &event));
  EXPECT_ZE(zeEventHostSignal(event));
  EXPECT_ZE(zeEventDestroy(event));
  EXPECT_ZE(zeEventPoolCloseIpcHandle(pool));
}

TEST_F(IpcSecurityTest, ForgedEventPoolHandlesOpenNothing) {
  constexpr ze_event_pool_flags_t kFlags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_IPC;
  ze_event_pool_handle_t destroyed = eventPool(kFlags, 2);
  ze_ipc_event_pool_handle_t stale{};
  ASSERT_ZE(zeEventPoolGetIpcHandle(destroyed, &stale));
  ASSERT_ZE(zeEventPoolDestroy(destroyed));
  eventPools.erase(std::find(eventPools.begin(), eventPools.end(), destroyed));

  ze_event_pool_handle_t pool = eventPool(kFlags, 2);
  ze_event_handle_t signaled = event(pool, 1);
  ze_ipc_event_pool_handle_t good{};
  ASSERT_ZE(zeEventPoolGetIpcHandle(pool, &good));
  ASSERT_EQ(field<int32_t>(good, kPidAt), getpid()) << "Loom's handle layout changed";
  ASSERT_EQ(field<uint32_t>(good, kCountAt), 2u) << "Loom's handle layout changed";
  const int32_t fd = field<int32_t>(good, kFdAt);
  ASSERT_EQ(descriptorLink(fd).rfind("/memfd:loom-event-pool-", 0), 0u) << "Loom's handle layout changed";

  ze_ipc_mem_handle_t memory = goodMemoryHandle();
  ze_ipc_event_pool_handle_t memoryAsPool{};
  std::memcpy(memoryAsPool.data, memory.data, sizeof(memoryAsPool.data));
  EXPECT_EQ(refuseInAnotherProcess("DISABLED_RefusesForgedEventPoolHandlesAndGoesOn", good,
                                   {stale, withField(good, kFdAt, secretFile()), withField(good, kFdAt, impostorOf(fd)),
                                    withField(good, kCountAt, uint32_t(1) << 30), withField(good, kFlagsAt, uint32_t(1)),
                                    ze_ipc_event_pool_handle_t{}, memoryAsPool}),
            0);
  EXPECT_ZE(zeEventQueryStatus(signaled)) << "the child signaled event 1 through the good handle";
}

}  // namespace
}  // namespace loom::test
