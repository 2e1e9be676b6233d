#pragma once
// API tracing: the generated wrapper of every core function with a slot in ze_callbacks_t calls
// the entry point through tracedCall (ddi/generate_ddi_tables.py). With no tracer enabled that
// costs one relaxed atomic load and a branch. Otherwise the prologues of the enabled tracers run
// in the order the tracers were created, then the call, then their epilogues with its result;
// each tracer's prologue and epilogue of one call share a slot of instance data. API calls that
// callbacks make are not traced.
#include <level_zero/zet_api.h>

#include <array>
#include <atomic>
#include <memory>
#include <vector>

#include "level_zero/tools/tracer.h"

namespace loom::l0 {

class ApiTracing {
 public:
  static bool anyEnabled() { return anyEnabled_.load(std::memory_order_relaxed); }
  // Calls that begin after these return see the change; calls in flight keep the tracers they
  // began with (Tracer::hold).
  static void enable(Tracer& tracer);
  static void disable(Tracer& tracer);
  // True while this thread runs tracer callbacks.
  static bool insideCallbacks();

  // The tracers enabled at one moment, in creation order, with copies of their callbacks. The
  // set holds its tracers until the last call that uses it ends.
  class EnabledSet {
   public:
    explicit EnabledSet(const std::vector<Tracer*>& tracers);
    ~EnabledSet();
    EnabledSet(const EnabledSet&) = delete;
    EnabledSet& operator=(const EnabledSet&) = delete;
    size_t size() const { return callbacks_.size(); }
    const TracerCallbacks& operator[](size_t index) const { return callbacks_[index]; }

   private:
    std::vector<Tracer*> tracers_;
    std::vector<TracerCallbacks> callbacks_;
  };

  // One traced call: the tracers enabled when it began, none on a thread inside callbacks.
  class Call {
   public:
    Call();
    Call(const Call&) = delete;
    Call& operator=(const Call&) = delete;
    bool traced() const { return tracers_ != nullptr; }

    // Runs `run(callbacks, instanceData)` for each tracer in creation order; the thread counts
    // as inside callbacks meanwhile.
    template <typename Run>
    void forEachTracer(Run&& run) {
      InsideCallbacks inside;
      for (size_t i = 0; i < tracers_->size(); ++i) run((*tracers_)[i], &instanceData_[i]);
    }

   private:
    class InsideCallbacks {
     public:
      InsideCallbacks();
      ~InsideCallbacks();
    };
    static constexpr size_t kInlineTracers = 4;
    std::shared_ptr<const EnabledSet> tracers_;
    std::array<void*, kInlineTracers> inlineInstanceData_{};
    std::vector<void*> moreInstanceData_;
    void** instanceData_ = inlineInstanceData_.data();
  };

 private:
  static void publish();
  static inline std::atomic<bool> anyEnabled_{false};
};

// Calls `entry(arguments...)` between the prologues and the epilogues that the enabled tracers
// set in slot `Slot` of group `Group` of ze_callbacks_t. `Params` (the function's
// ze_xxx_params_t) points at this call's copies of the arguments, so that prologues may change
// them. The wrappers call it only when ApiTracing::anyEnabled(), and keep it out of line so that
// their path without tracers stays short.
template <auto Group, auto Slot, typename Params, typename Entry, typename... Arguments>
[[gnu::noinline]] ze_result_t tracedCall(const Entry& entry, Arguments... arguments) {
  ApiTracing::Call call;
  if (!call.traced()) return entry(arguments...);
  Params params{&arguments...};
  const auto callbackIn = [](const zet_core_callbacks_t& table) { return (table.*Group).*Slot; };
  call.forEachTracer([&](const TracerCallbacks& tracer, void** instanceData) {
    if (auto prologue = callbackIn(tracer.prologues)) prologue(&params, ZE_RESULT_SUCCESS, tracer.userData, instanceData);
  });
  const ze_result_t result = entry(arguments...);
  call.forEachTracer([&](const TracerCallbacks& tracer, void** instanceData) {
    if (auto epilogue = callbackIn(tracer.epilogues)) epilogue(&params, result, tracer.userData, instanceData);
  });
  return result;
}

}  // namespace loom::l0
