// IPC handles passed as programs written for the model runtime pass them (MPI libraries, oneCCL,
// level-zero-tests' test_ipc_comm.hpp): the first 4 bytes of a handle are a descriptor of the
// exporting process; it travels over a Unix socket with SCM_RIGHTS, and the receiver writes the
// descriptor it got into those 4 bytes, with the rest of the handle as exported, or with nothing
// else (level-zero-tests sends only the descriptor). The receiver is a new process (fork and
// exec): Loom's descriptors are close-on-exec, so it has only the one it received.
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>

#include "ze_test_helpers.h"

namespace loom::test {
namespace {

enum class Delivery : uint32_t {
  DescriptorInTheHandle,  // the exported bytes, their first 4 replaced by the received descriptor
  DescriptorAlone,        // the received descriptor, then bytes that mean nothing
};

// What the parent gives the child: its end of a socket pair on which one descriptor waits, and
// the handle the parent exported.
template <typename Handle>
struct DescriptorMessage {
  int32_t socket;
  Delivery delivery;
  Handle handle;
  uint32_t bytes;  // of memory to read and write
};

// One byte of data with room for one descriptor beside it, as sendmsg and recvmsg take them.
struct OneDescriptorMessage {
  OneDescriptorMessage() {
    header.msg_iov = &data;
    header.msg_iovlen = 1;
    header.msg_control = control;
    header.msg_controllen = sizeof(control);
  }
  OneDescriptorMessage(const OneDescriptorMessage&) = delete;

  char byte = 0;
  iovec data{&byte, 1};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr header{};
};

// False when the descriptor cannot be sent (it is no open descriptor of this process).
bool sendDescriptor(int socket, int descriptor) {
  OneDescriptorMessage message;
  cmsghdr* control = CMSG_FIRSTHDR(&message.header);
  control->cmsg_level = SOL_SOCKET;
  control->cmsg_type = SCM_RIGHTS;
  control->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(control), &descriptor, sizeof(int));
  return sendmsg(socket, &message.header, 0) == 1;
}

// The descriptor waiting on `socket`; -1 when none is.
int receiveDescriptor(int socket) {
  OneDescriptorMessage message;
  if (recvmsg(socket, &message.header, MSG_CMSG_CLOEXEC | MSG_DONTWAIT) != 1) return -1;
  const cmsghdr* control = CMSG_FIRSTHDR(&message.header);
  if (!control || control->cmsg_type != SCM_RIGHTS) return -1;
  int descriptor = -1;
  std::memcpy(&descriptor, CMSG_DATA(control), sizeof(int));
  return descriptor;
}

// The handle the receiver builds: `descriptor` in the first 4 bytes, then the exported bytes or noise.
template <typename Handle>
Handle patched(const Handle& exported, Delivery delivery, int32_t descriptor) {
  Handle handle = exported;
  if (delivery == Delivery::DescriptorAlone)
    for (size_t i = 0; i < sizeof(handle.data); ++i) handle.data[i] = char(0x5a ^ (i * 13));
  std::memcpy(handle.data, &descriptor, sizeof(descriptor));
  return handle;
}

template <typename Handle>
int32_t descriptorOf(const Handle& handle) {
  int32_t descriptor = -1;
  std::memcpy(&descriptor, handle.data, sizeof(descriptor));
  return descriptor;
}

size_t openDescriptors() {
  return size_t(std::distance(std::filesystem::directory_iterator("/proc/self/fd"), std::filesystem::directory_iterator()));
}

uint8_t exportedByte(uint32_t i) { return uint8_t(0x11 + i * 3); }
uint8_t importedByte(uint32_t i) { return uint8_t(0xe5 ^ i); }

class IpcDescriptorTest : public ZeTest {
 protected:
  // Sends `descriptor` on a new socket pair and runs `childTest` in a new process with the other
  // end and `handle`; its exit code.
  template <typename Handle>
  int receiveInAnotherProcess(const char* childTest, int32_t descriptor, const Handle& handle, Delivery delivery,
                              uint32_t bytes = 0) {
    int sockets[2];
    EXPECT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sockets), 0);  // inherited through exec
    const DescriptorMessage<Handle> message{sockets[1], delivery, handle, bytes};
    const bool sent = sendDescriptor(sockets[0], descriptor);
    EXPECT_TRUE(sent) << "the handle begins with a descriptor of this process";
    const int exitCode = sent ? runTestInNewProcess(std::string("IpcDescriptorTest.") + childTest, bytesOf(message)) : -1;
    close(sockets[0]);
    close(sockets[1]);
    return exitCode;
  }

  // Memory of `type` holding exportedByte, its handle checked to begin with a descriptor of it.
  void* exportedMemory(ze_memory_type_t type, uint32_t bytes, ze_ipc_mem_handle_t& handle) {
    std::vector<uint8_t> pattern(bytes);
    for (uint32_t i = 0; i < bytes; ++i) pattern[i] = exportedByte(i);
    uint8_t* memory = type == ZE_MEMORY_TYPE_HOST     ? hostMemory<uint8_t>(bytes)
                      : type == ZE_MEMORY_TYPE_DEVICE ? deviceMemory<uint8_t>(bytes)
                                                      : shared<uint8_t>(bytes);
    upload(memory, pattern);
    EXPECT_ZE(zeMemGetIpcHandle(context, memory, &handle));
    EXPECT_EQ(fcntl(descriptorOf(handle), F_GETFD) & FD_CLOEXEC, FD_CLOEXEC)
        << "the handle begins with a descriptor of this process";
    return memory;
  }
};

TEST_F(IpcDescriptorTest, DISABLED_OpensMemoryThroughAReceivedDescriptor) {
  CHILD_INPUT(DescriptorMessage<ze_ipc_mem_handle_t>, message);
  const int descriptor = receiveDescriptor(message.socket);
  ASSERT_GE(descriptor, 0) << "no descriptor arrived";
  const std::vector<uint8_t> warmUp = download(static_cast<const uint8_t*>(static_cast<void*>(hostMemory<uint8_t>(1))), 1);
  const size_t descriptorsBefore = openDescriptors();
  void* opened = nullptr;
  ASSERT_ZE(zeMemOpenIpcHandle(context, device, patched(message.handle, message.delivery, descriptor), 0, &opened));
  const std::vector<uint8_t> seen = download(static_cast<const uint8_t*>(opened), message.bytes);
  for (uint32_t i = 0; i < message.bytes; ++i) ASSERT_EQ(seen[i], exportedByte(i)) << "byte " << i;
  std::vector<uint8_t> written(message.bytes);
  for (uint32_t i = 0; i < message.bytes; ++i) written[i] = importedByte(i);
  upload(static_cast<uint8_t*>(opened), written);
  ASSERT_ZE(zeMemCloseIpcHandle(context, opened));
  if (deviceType() == ZE_DEVICE_TYPE_CPU)  // a GPU's driver may open files of its own on the way
    EXPECT_EQ(openDescriptors(), descriptorsBefore) << "closing the handle closes what opening it opened";
  EXPECT_EQ(fcntl(descriptor, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC) << "the received descriptor stays the application's";
  close(descriptor);
}

TEST_F(IpcDescriptorTest, AnotherProcessOpensMemoryThroughTheDescriptorItReceives) {
  constexpr uint32_t kBytes = 8192;
  for (ze_memory_type_t type : {ZE_MEMORY_TYPE_HOST, ZE_MEMORY_TYPE_DEVICE, ZE_MEMORY_TYPE_SHARED}) {
    if (type == ZE_MEMORY_TYPE_SHARED && deviceType() != ZE_DEVICE_TYPE_CPU) continue;  // CUDA has no IPC of managed memory
    for (Delivery delivery : {Delivery::DescriptorInTheHandle, Delivery::DescriptorAlone}) {
      ze_ipc_mem_handle_t handle{};
      void* memory = exportedMemory(type, kBytes, handle);
      ASSERT_EQ(receiveInAnotherProcess("DISABLED_OpensMemoryThroughAReceivedDescriptor", descriptorOf(handle), handle,
                                        delivery, kBytes),
                0)
          << "type " << type << ", delivery " << uint32_t(delivery);
      const std::vector<uint8_t> seen = download(static_cast<const uint8_t*>(memory), kBytes);
      for (uint32_t i = 0; i < kBytes; ++i) ASSERT_EQ(seen[i], importedByte(i)) << "type " << type << ", byte " << i;
    }
  }
}

// The handle as exported, copied as plain bytes, still opens in another process (through the
// exporter's descriptor, as before) and in a forked child (which inherited that descriptor).
TEST_F(IpcDescriptorTest, TheExportedBytesOpenInAForkedChild) {
  SKIP_UNLESS_CPU_DEVICE("a forked child that uses the device");
  constexpr uint32_t kBytes = 4096;
  ze_ipc_mem_handle_t handle{};
  auto* memory = static_cast<uint8_t*>(exportedMemory(ZE_MEMORY_TYPE_HOST, kBytes, handle));
  EXPECT_EQ(runInChildProcess([&] {
              void* opened = nullptr;
              if (zeMemOpenIpcHandle(context, device, handle, 0, &opened) != ZE_RESULT_SUCCESS) return false;
              const bool same = static_cast<uint8_t*>(opened)[kBytes - 1] == exportedByte(kBytes - 1);
              static_cast<uint8_t*>(opened)[0] = 0x77;
              return same && zeMemCloseIpcHandle(context, opened) == ZE_RESULT_SUCCESS;
            }),
            0);
  EXPECT_EQ(memory[0], 0x77) << "the child wrote through its own mapping of the same pages";
}

TEST_F(IpcDescriptorTest, DISABLED_RefusesDescriptorsOfOtherFiles) {
  CHILD_INPUT(DescriptorMessage<ze_ipc_mem_handle_t>, message);
  const int eventPoolFile = receiveDescriptor(message.socket);
  ASSERT_GE(eventPoolFile, 0) << "no descriptor arrived";
  const int32_t exported = descriptorOf(message.handle);
  // Open descriptors of this process that are not the handle's file, and one that is not open.
  for (int32_t descriptor : {message.socket, 0, eventPoolFile, 4000}) {
    for (Delivery delivery : {Delivery::DescriptorInTheHandle, Delivery::DescriptorAlone}) {
      // The exporter's own number makes the exported handle again, which opens.
      if (delivery == Delivery::DescriptorInTheHandle && descriptor == exported) continue;
      void* opened = nullptr;
      EXPECT_EQ(zeMemOpenIpcHandle(context, device, patched(message.handle, delivery, descriptor), 0, &opened),
                ZE_RESULT_ERROR_INVALID_ARGUMENT)
          << "descriptor " << descriptor << ", delivery " << uint32_t(delivery);
    }
  }
  close(eventPoolFile);
}

// A number in the first bytes that is not the handle's file is refused, not read as another file.
TEST_F(IpcDescriptorTest, ADescriptorOfAnotherFileOpensNothing) {
  ze_ipc_mem_handle_t handle{};
  exportedMemory(ZE_MEMORY_TYPE_DEVICE, 4096, handle);
  ze_ipc_event_pool_handle_t poolHandle{};
  ASSERT_ZE(zeEventPoolGetIpcHandle(eventPool(ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_IPC, 2), &poolHandle));
  // The event pool's descriptor travels beside the memory handle.
  EXPECT_EQ(receiveInAnotherProcess("DISABLED_RefusesDescriptorsOfOtherFiles", descriptorOf(poolHandle), handle,
                                    Delivery::DescriptorInTheHandle),
            0);
}

TEST_F(IpcDescriptorTest, DISABLED_SignalsEventOneThroughAReceivedDescriptor) {
  CHILD_INPUT(DescriptorMessage<ze_ipc_event_pool_handle_t>, message);
  const int descriptor = receiveDescriptor(message.socket);
  ASSERT_GE(descriptor, 0) << "no descriptor arrived";
  ze_event_pool_handle_t pool = nullptr;
  ASSERT_ZE(zeEventPoolOpenIpcHandle(context, patched(message.handle, message.delivery, descriptor), &pool));
  ze_event_desc_t desc{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 1, 0, 0};
  ze_event_handle_t event = nullptr;
  ASSERT_ZE(zeEventCreate(pool, &desc, &event));
  EXPECT_ZE(zeEventHostSignal(event));
  EXPECT_ZE(zeEventDestroy(event));
  EXPECT_ZE(zeEventPoolCloseIpcHandle(pool));
  close(descriptor);
}

TEST_F(IpcDescriptorTest, AnotherProcessSignalsAnEventOfAPoolWhoseDescriptorItReceives) {
  for (Delivery delivery : {Delivery::DescriptorInTheHandle, Delivery::DescriptorAlone}) {
    ze_event_pool_handle_t pool = eventPool(ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_IPC, 2);
    ze_event_handle_t parentSide = event(pool, 1);
    ze_ipc_event_pool_handle_t handle{};
    ASSERT_ZE(zeEventPoolGetIpcHandle(pool, &handle));
    ASSERT_EQ(receiveInAnotherProcess("DISABLED_SignalsEventOneThroughAReceivedDescriptor", descriptorOf(handle), handle,
                                      delivery),
              0)
        << "delivery " << uint32_t(delivery);
    EXPECT_ZE(zeEventHostSynchronize(parentSide, kTimeout));
  }
}

}  // namespace
}  // namespace loom::test
