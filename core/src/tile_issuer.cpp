#include "loom/core/tile_issuer.h"

#include "loom/core/futex.h"
#include "loom/core/spin_wait.h"

namespace loom::core {

namespace {
// Long enough to span an application's round trip between split launches (tens of microseconds),
// short enough that an idle root keeps no core busy for long.
constexpr uint64_t kIssuerSpinNanoseconds = 1'000'000;

const uint32_t* futexWord(const std::atomic<uint32_t>& word) { return reinterpret_cast<const uint32_t*>(&word); }
}  // namespace

TileIssuer::TileIssuer(BackendQueue& tile) : tile_(tile), thread_([this] { serve(); }) {}

TileIssuer::~TileIssuer() {
  state_.store(kStopping, std::memory_order_release);
  futexWakeAll(futexWord(state_));
  thread_.join();
}

bool TileIssuer::start(const KernelLaunch& part, const uint8_t* arguments) {
  part_ = &part;
  arguments_ = arguments;
  uint32_t spinning = kSpinning;
  return state_.compare_exchange_strong(spinning, kHandedOver, std::memory_order_acq_rel);
}

void TileIssuer::finish() {
  // An issue takes microseconds: spin, yielding past the first stretch.
  spinUntil([&] { return state_.load(std::memory_order_acquire) != kHandedOver; }, UINT64_MAX, UINT64_MAX);
}

void TileIssuer::wake() {
  uint32_t sleeping = kSleeping;
  if (state_.compare_exchange_strong(sleeping, kSpinning, std::memory_order_acq_rel)) futexWakeAll(futexWord(state_));
}

void TileIssuer::serve() {
  while (awaitPart()) {
    tile_.launch(*part_, arguments_);
    state_.store(kSpinning, std::memory_order_release);
  }
}

bool TileIssuer::awaitPart() {
  const auto decided = [&] {
    const uint32_t state = state_.load(std::memory_order_acquire);
    return state == kHandedOver || state == kStopping;
  };
  for (;;) {
    if (!spinUntil(decided, UINT64_MAX, kIssuerSpinNanoseconds)) {
      uint32_t spinning = kSpinning;
      // A part handed over since the last look wins over sleep.
      if (state_.compare_exchange_strong(spinning, kSleeping, std::memory_order_acq_rel))
        while (state_.load(std::memory_order_acquire) == kSleeping) futexWait(futexWord(state_), kSleeping, UINT64_MAX);
    }
    const uint32_t state = state_.load(std::memory_order_acquire);
    if (state == kHandedOver) return true;
    if (state == kStopping) return false;
  }
}

}  // namespace loom::core
