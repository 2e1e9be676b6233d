#pragma once
// Passing file descriptors to another process of the same user: what IPC of memory needs where the
// memory's shareable handles are descriptors that only their process holds (CUDA's handles of
// physical memory, one per chunk of a colored allocation). The exporting process offers a provider
// of descriptors and gets a ticket for it; another process that holds the ticket fetches them over
// a Unix-domain socket (SOCK_SEQPACKET, abstract name "loom-descriptors-<pid>") as SCM_RIGHTS, with
// the provider's payload bytes beside them. One thread serves while any offer is open, one
// connection at a time; a withdrawn offer is never served again. Both ends check who the other
// is: the server serves only processes of its own user (SO_PEERCRED), the client accepts only the
// ticket's process as the server (an abstract name can be taken by anyone), and a ticket names its
// offer by a number and 128 random bits that no other process can guess.
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "loom/core/ipc_handle.h"

namespace loom::core {

struct DescriptorTicket {
  int32_t pid = 0;     // of the serving process
  uint32_t offer = 0;  // its number there
  FileIdentity secret;
  bool operator==(const DescriptorTicket&) const = default;
};

class DescriptorChannel {
 public:
  // The channel of this process (a forked child gets a fresh one on first use: its parent's
  // offers are not its own).
  static DescriptorChannel& instance();

  // Called on the serving thread for each fetch: fills `descriptors` (which the channel closes
  // once sent) and `payload`; false when it cannot, which the client is told.
  using Provider = std::function<bool(std::vector<int>& descriptors, std::vector<uint8_t>& payload)>;

  // Serves `provider` until withdraw(ticket.offer); nullopt, with the reason in `why`, when the
  // process cannot listen.
  std::optional<DescriptorTicket> offer(Provider provider, std::string& why);
  // Returns once the offer is no longer served (a fetch in progress has finished); the thread
  // stops with the last offer.
  void withdraw(uint32_t offer);

  // The descriptors (the caller's to close) and payload of `ticket`'s offer; false, with the
  // reason in `why` and nothing left open, when the process, the offer or the transfer fails.
  static bool fetch(const DescriptorTicket& ticket, std::vector<int>& descriptors, std::vector<uint8_t>& payload,
                    std::string& why);

 private:
  DescriptorChannel() = default;
  bool startServing(std::string& why);
  void stopServing();
  void serve(int listener);
  void answer(int connection);

  std::mutex lifecycle_;  // starting and stopping the thread
  std::mutex offers_;     // the offers, held while one is served
  std::map<uint32_t, std::pair<FileIdentity, Provider>> open_;
  uint32_t nextOffer_ = 1;
  int listener_ = -1;
  int wake_ = -1;  // an eventfd that stops the serving thread
  std::thread server_;
};

}  // namespace loom::core
