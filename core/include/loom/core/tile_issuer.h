#pragma once
// A thread that issues one tile's parts of split launches (CompositeQueue), so that the GPUs of a
// root start their parts together: the driver takes about 3 us to issue a launch on a GPU, which
// one thread would pay once per tile in turn (benchmarks/gpu/split_join_probe.cu).
//
// After each part the thread spins a while, where the next launch of a busy application finds it,
// then sleeps. A part offered to a sleeping issuer is refused, and the caller issues it itself:
// waking the thread would cost as much as it saves. wake() then readies it for the next.
#include <atomic>
#include <cstdint>
#include <thread>

#include "loom/core/backend.h"

namespace loom::core {

class TileIssuer {
 public:
  explicit TileIssuer(BackendQueue& tile);
  ~TileIssuer();
  TileIssuer(const TileIssuer&) = delete;
  TileIssuer& operator=(const TileIssuer&) = delete;

  // Hands `part` to the thread, which issues it on the tile; false (nothing issued) while the
  // thread sleeps. `part` and `arguments` must live until finish() returns.
  bool start(const KernelLaunch& part, const uint8_t* arguments);
  // Returns once the part handed over last is issued.
  void finish();
  // Wakes a sleeping thread, off the path of the launch it would have issued.
  void wake();

 private:
  enum State : uint32_t { kSpinning, kHandedOver, kSleeping, kStopping };
  void serve();
  // Spins until a part is handed over or the spin ends; then sleeps until woken.
  bool awaitPart();

  BackendQueue& tile_;
  const KernelLaunch* part_ = nullptr;
  const uint8_t* arguments_ = nullptr;
  std::atomic<uint32_t> state_{kSpinning};  // also the futex word the thread sleeps on
  std::thread thread_;
};

}  // namespace loom::core
