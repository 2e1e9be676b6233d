#pragma once
// A tracer of the API tracing extension (zetTracerExp*): the callbacks an application sets to run
// before (prologues) and after (epilogues) the core functions, and the user data they receive.
// A tracer is created disabled, takes callbacks only while disabled, and runs them while enabled
// (ApiTracing, api_tracing.h, runs the enabled tracers' callbacks around each call).
#include <level_zero/zet_api.h>

#include <atomic>
#include <cstdint>

#include "level_zero/handle/handle.h"

namespace loom::l0 {

// What a tracer's callbacks receive: its prologues, its epilogues, and its user data.
struct TracerCallbacks {
  zet_core_callbacks_t prologues{};
  zet_core_callbacks_t epilogues{};
  void* userData = nullptr;
};

class Tracer : public _zet_tracer_exp_handle_t {
 public:
  explicit Tracer(void* userData);
  static Tracer* fromHandle(zet_tracer_exp_handle_t handle) { return static_cast<Tracer*>(handle); }

  // Tracers run in the order they were created: this number orders them.
  uint64_t creationNumber() const { return creationNumber_; }
  const TracerCallbacks& callbacks() const { return callbacks_; }
  bool enabled() const { return enabled_.load(std::memory_order_acquire); }

  ze_result_t setPrologues(const zet_core_callbacks_t& prologues, const char* function);
  ze_result_t setEpilogues(const zet_core_callbacks_t& epilogues, const char* function);
  void setEnabled(bool enable);

  // Calls in flight hold the tracers whose callbacks they may still run (ApiTracing), so that
  // destroying a tracer can wait for them.
  void hold() { holders_.fetch_add(1, std::memory_order_relaxed); }
  void release() { holders_.fetch_sub(1, std::memory_order_release); }
  bool held() const { return holders_.load(std::memory_order_acquire) != 0; }
  // Returns once no call can run this tracer's callbacks any more.
  void waitUntilReleased() const;

 private:
  const uint64_t creationNumber_;
  TracerCallbacks callbacks_;
  std::atomic<bool> enabled_{false};
  std::atomic<uint32_t> holders_{0};
};

ze_result_t zetTracerExpCreate(zet_context_handle_t hContext, const zet_tracer_exp_desc_t* desc, zet_tracer_exp_handle_t* phTracer);
ze_result_t zetTracerExpDestroy(zet_tracer_exp_handle_t hTracer);
ze_result_t zetTracerExpSetPrologues(zet_tracer_exp_handle_t hTracer, zet_core_callbacks_t* pCoreCbs);
ze_result_t zetTracerExpSetEpilogues(zet_tracer_exp_handle_t hTracer, zet_core_callbacks_t* pCoreCbs);
ze_result_t zetTracerExpSetEnabled(zet_tracer_exp_handle_t hTracer, ze_bool_t enable);

}  // namespace loom::l0
