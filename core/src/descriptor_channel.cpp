#include "loom/core/descriptor_channel.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "loom/core/log.h"
#include "loom/core/process_generation.h"

namespace loom::core {

namespace {

// The messages, in order: the client's Request; the server's ReplyHeader; while the reply has
// payload bytes or descriptors left, a Part header with up to kPayloadPerPart bytes after it and
// up to kDescriptorsPerPart descriptors beside it (the kernel passes at most 253 in one message).
constexpr uint32_t kRequestMagic = 0x51444c4c;  // "LLDQ"
constexpr uint32_t kReplyMagic = 0x52444c4c;    // "LLDR"
constexpr size_t kPayloadPerPart = 16 << 10;
constexpr size_t kDescriptorsPerPart = 200;
// Neither end waits longer than this for the other (a stuck peer must not hold the serving
// thread, or the importing application, for ever).
constexpr int kPeerTimeoutSeconds = 10;

struct Request {
  uint32_t magic;
  uint32_t offer;
  FileIdentity secret;
};

enum class Status : uint32_t { Served = 0, NoSuchOffer = 1, ProviderFailed = 2 };

struct ReplyHeader {
  uint32_t magic;
  Status status;
  uint64_t payloadSize;
  uint64_t descriptorCount;
};

struct Part {
  uint32_t payloadBytes;
  uint32_t descriptors;
};

sockaddr_un addressOf(int32_t pid, socklen_t& length) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::string name = "loom-descriptors-" + std::to_string(pid);
  std::memcpy(address.sun_path + 1, name.data(), name.size());  // sun_path[0] = 0: the abstract namespace
  length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
  return address;
}

std::string systemError(const char* call) { return std::string(call) + ": " + std::strerror(errno); }

void closeAll(std::vector<int>& descriptors) {
  for (int descriptor : descriptors) ::close(descriptor);
  descriptors.clear();
}

void limitWaits(int socket) {
  const timeval limit{kPeerTimeoutSeconds, 0};
  setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof(limit));
  setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof(limit));
}

std::optional<ucred> peerOf(int socket) {
  ucred peer{};
  socklen_t length = sizeof(peer);
  if (getsockopt(socket, SOL_SOCKET, SO_PEERCRED, &peer, &length) != 0) return std::nullopt;
  return peer;
}

// One whole message of exactly `size` bytes.
bool sendMessage(int socket, const void* bytes, size_t size) {
  ssize_t sent;
  do sent = ::send(socket, bytes, size, MSG_NOSIGNAL);
  while (sent < 0 && errno == EINTR);
  return sent == ssize_t(size);
}

bool receiveMessage(int socket, void* bytes, size_t size) {
  ssize_t got;
  do got = ::recv(socket, bytes, size, 0);
  while (got < 0 && errno == EINTR);
  return got == ssize_t(size);
}

bool sendPart(int socket, const uint8_t* payload, size_t payloadBytes, const int* descriptors, size_t count) {
  std::vector<uint8_t> message(sizeof(Part) + payloadBytes);
  const Part part{uint32_t(payloadBytes), uint32_t(count)};
  std::memcpy(message.data(), &part, sizeof(part));
  if (payloadBytes) std::memcpy(message.data() + sizeof(part), payload, payloadBytes);
  iovec vector{message.data(), message.size()};
  msghdr header{};
  header.msg_iov = &vector;
  header.msg_iovlen = 1;
  std::vector<uint8_t> control(CMSG_SPACE(sizeof(int) * kDescriptorsPerPart));
  if (count) {
    header.msg_control = control.data();
    header.msg_controllen = CMSG_SPACE(sizeof(int) * count);
    cmsghdr* rights = CMSG_FIRSTHDR(&header);
    rights->cmsg_level = SOL_SOCKET;
    rights->cmsg_type = SCM_RIGHTS;
    rights->cmsg_len = CMSG_LEN(sizeof(int) * count);
    std::memcpy(CMSG_DATA(rights), descriptors, sizeof(int) * count);
  }
  ssize_t sent;
  do sent = ::sendmsg(socket, &header, MSG_NOSIGNAL);
  while (sent < 0 && errno == EINTR);
  return sent == ssize_t(message.size());
}

bool sendReply(int socket, const std::vector<int>& descriptors, const std::vector<uint8_t>& payload) {
  const ReplyHeader reply{kReplyMagic, Status::Served, payload.size(), descriptors.size()};
  if (!sendMessage(socket, &reply, sizeof(reply))) return false;
  size_t payloadSent = 0, descriptorsSent = 0;
  while (payloadSent < payload.size() || descriptorsSent < descriptors.size()) {
    const size_t bytes = std::min(kPayloadPerPart, payload.size() - payloadSent);
    const size_t count = std::min(kDescriptorsPerPart, descriptors.size() - descriptorsSent);
    if (!sendPart(socket, payload.data() + payloadSent, bytes, descriptors.data() + descriptorsSent, count)) return false;
    payloadSent += bytes;
    descriptorsSent += count;
  }
  return true;
}

// Appends one part's payload and descriptors; false, with `why`, when it is not a whole part.
bool receivePart(int socket, std::vector<int>& descriptors, std::vector<uint8_t>& payload, std::string& why) {
  std::vector<uint8_t> message(sizeof(Part) + kPayloadPerPart);
  iovec vector{message.data(), message.size()};
  std::vector<uint8_t> control(CMSG_SPACE(sizeof(int) * kDescriptorsPerPart));
  msghdr header{};
  header.msg_iov = &vector;
  header.msg_iovlen = 1;
  header.msg_control = control.data();
  header.msg_controllen = control.size();
  ssize_t got;
  do got = ::recvmsg(socket, &header, MSG_CMSG_CLOEXEC);
  while (got < 0 && errno == EINTR);
  size_t arrived = 0;
  for (cmsghdr* rights = CMSG_FIRSTHDR(&header); rights; rights = CMSG_NXTHDR(&header, rights)) {
    if (rights->cmsg_level != SOL_SOCKET || rights->cmsg_type != SCM_RIGHTS) continue;
    const size_t count = (rights->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (size_t i = 0; i < count; ++i) {
      int descriptor;
      std::memcpy(&descriptor, CMSG_DATA(rights) + i * sizeof(int), sizeof(int));
      descriptors.push_back(descriptor);  // the caller closes them, whatever happens next
    }
    arrived += count;
  }
  if (got < ssize_t(sizeof(Part))) {
    why = got < 0 ? systemError("recvmsg") : "the serving process ended the transfer early";
    return false;
  }
  if (header.msg_flags & MSG_CTRUNC) {
    why = "descriptors were lost on the way (this process's limit of open files?)";
    return false;
  }
  Part part;
  std::memcpy(&part, message.data(), sizeof(part));
  if (part.payloadBytes != size_t(got) - sizeof(Part) || part.descriptors != arrived) {
    why = "a part of the transfer is malformed";
    return false;
  }
  payload.insert(payload.end(), message.begin() + sizeof(Part), message.begin() + got);
  return true;
}

bool receiveReply(int socket, std::vector<int>& descriptors, std::vector<uint8_t>& payload, std::string& why) {
  ReplyHeader reply{};
  if (!receiveMessage(socket, &reply, sizeof(reply)) || reply.magic != kReplyMagic) {
    why = "the serving process gave no answer";
    return false;
  }
  if (reply.status == Status::NoSuchOffer) {
    why = "the serving process offers nothing under this ticket (the memory was freed, or the handle is forged)";
    return false;
  }
  if (reply.status != Status::Served) {
    why = "the serving process could not provide its descriptors";
    return false;
  }
  while (payload.size() < reply.payloadSize || descriptors.size() < reply.descriptorCount)
    if (!receivePart(socket, descriptors, payload, why)) return false;
  if (payload.size() != reply.payloadSize || descriptors.size() != reply.descriptorCount) {
    why = "the transfer carried more than its header announced";
    return false;
  }
  return true;
}

int connectTo(const DescriptorTicket& ticket, std::string& why) {
  const int socket = ::socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
  if (socket < 0) {
    why = systemError("socket");
    return -1;
  }
  socklen_t length;
  const sockaddr_un address = addressOf(ticket.pid, length);
  if (::connect(socket, reinterpret_cast<const sockaddr*>(&address), length) != 0) {
    why = systemError("connect") + " (the exporting process has ended, or freed the memory)";
    ::close(socket);
    return -1;
  }
  const std::optional<ucred> server = peerOf(socket);
  if (!server || server->pid != ticket.pid || server->uid != geteuid()) {
    why = "the socket of the exporting process is held by another process";
    ::close(socket);
    return -1;
  }
  limitWaits(socket);
  return socket;
}

}  // namespace

DescriptorChannel& DescriptorChannel::instance() {
  static DescriptorChannel* channel = nullptr;
  static uint32_t generation = 0;
  static std::mutex creating;
  std::lock_guard lock(creating);
  if (channel && generation == processGeneration()) return *channel;
  // A parent's channel is left behind (its thread does not exist here), its sockets closed.
  if (channel && channel->listener_ >= 0) ::close(channel->listener_), ::close(channel->wake_);
  channel = new DescriptorChannel();
  generation = processGeneration();
  return *channel;
}

std::optional<DescriptorTicket> DescriptorChannel::offer(Provider provider, std::string& why) {
  std::optional<FileIdentity> secret = FileIdentity::random();
  if (!secret) {
    why = "no random bits for the offer's secret";
    return std::nullopt;
  }
  std::lock_guard lifecycle(lifecycle_);
  if (listener_ < 0 && !startServing(why)) return std::nullopt;
  std::lock_guard lock(offers_);
  const uint32_t number = nextOffer_++;
  open_.emplace(number, std::make_pair(*secret, std::move(provider)));
  return DescriptorTicket{int32_t(getpid()), number, *secret};
}

void DescriptorChannel::withdraw(uint32_t offer) {
  std::lock_guard lifecycle(lifecycle_);
  bool last = false;
  {
    std::lock_guard lock(offers_);  // waits for a fetch of it in progress
    if (open_.erase(offer) == 0) return;
    last = open_.empty();
  }
  if (last) stopServing();
}

bool DescriptorChannel::startServing(std::string& why) {
  const int listener = ::socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
  if (listener < 0) {
    why = systemError("socket");
    return false;
  }
  socklen_t length;
  const sockaddr_un address = addressOf(getpid(), length);
  if (::bind(listener, reinterpret_cast<const sockaddr*>(&address), length) != 0 || ::listen(listener, 16) != 0) {
    why = systemError("bind") + " (the socket name of this process is taken)";
    ::close(listener);
    return false;
  }
  wake_ = eventfd(0, EFD_CLOEXEC);
  if (wake_ < 0) {
    why = systemError("eventfd");
    ::close(listener);
    return false;
  }
  listener_ = listener;
  server_ = std::thread([this, listener] { serve(listener); });
  return true;
}

void DescriptorChannel::stopServing() {
  const uint64_t one = 1;
  if (::write(wake_, &one, sizeof(one)) != ssize_t(sizeof(one))) debugMessage("descriptor channel: %s", systemError("write").c_str());
  server_.join();
  ::close(listener_);
  ::close(wake_);
  listener_ = wake_ = -1;
}

void DescriptorChannel::serve(int listener) {
  pollfd waits[2] = {{listener, POLLIN, 0}, {wake_, POLLIN, 0}};
  for (;;) {
    waits[0].revents = waits[1].revents = 0;
    if (::poll(waits, 2, -1) < 0 && errno != EINTR) {
      debugMessage("descriptor channel: %s; no more descriptors are served", systemError("poll").c_str());
      return;
    }
    if (waits[1].revents) return;
    if (!waits[0].revents) continue;
    const int connection = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (connection < 0) continue;
    answer(connection);
    ::close(connection);
  }
}

void DescriptorChannel::answer(int connection) {
  limitWaits(connection);
  const std::optional<ucred> client = peerOf(connection);
  if (!client || client->uid != geteuid()) {
    debugMessage("descriptor channel: a process of another user asked for descriptors; refused");
    return;
  }
  Request request{};
  if (!receiveMessage(connection, &request, sizeof(request)) || request.magic != kRequestMagic) return;
  std::lock_guard lock(offers_);
  const auto found = open_.find(request.offer);
  if (found == open_.end() || found->second.first != request.secret) {
    const ReplyHeader refusal{kReplyMagic, Status::NoSuchOffer, 0, 0};
    sendMessage(connection, &refusal, sizeof(refusal));
    return;
  }
  std::vector<int> descriptors;
  std::vector<uint8_t> payload;
  if (!found->second.second(descriptors, payload)) {
    closeAll(descriptors);
    const ReplyHeader failure{kReplyMagic, Status::ProviderFailed, 0, 0};
    sendMessage(connection, &failure, sizeof(failure));
    return;
  }
  if (!sendReply(connection, descriptors, payload))
    debugMessage("descriptor channel: process %d did not take its descriptors: %s", int(client->pid), systemError("sendmsg").c_str());
  closeAll(descriptors);
}

bool DescriptorChannel::fetch(const DescriptorTicket& ticket, std::vector<int>& descriptors, std::vector<uint8_t>& payload,
                              std::string& why) {
  descriptors.clear();
  payload.clear();
  const int socket = connectTo(ticket, why);
  if (socket < 0) return false;
  const Request request{kRequestMagic, ticket.offer, ticket.secret};
  const bool fetched = sendMessage(socket, &request, sizeof(request)) && receiveReply(socket, descriptors, payload, why);
  if (!fetched && why.empty()) why = systemError("send");
  ::close(socket);
  if (fetched) return true;
  closeAll(descriptors);
  payload.clear();
  return false;
}

}  // namespace loom::core
