#include "level_zero/tools/tracer.h"

#include <chrono>
#include <thread>

#include "level_zero/tools/api_tracing.h"
#include "level_zero/validation.h"

namespace loom::l0 {
namespace {

uint64_t nextCreationNumber() {
  static std::atomic<uint64_t> next{0};
  return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

Tracer::Tracer(void* userData) : creationNumber_(nextCreationNumber()) { callbacks_.userData = userData; }

ze_result_t Tracer::setPrologues(const zet_core_callbacks_t& prologues, const char* function) {
  if (enabled()) return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, function, "the tracer is enabled: disable it to change its callbacks");
  callbacks_.prologues = prologues;
  return ZE_RESULT_SUCCESS;
}

ze_result_t Tracer::setEpilogues(const zet_core_callbacks_t& epilogues, const char* function) {
  if (enabled()) return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, function, "the tracer is enabled: disable it to change its callbacks");
  callbacks_.epilogues = epilogues;
  return ZE_RESULT_SUCCESS;
}

void Tracer::setEnabled(bool enable) {
  if (enable == enabled()) return;
  if (enable) {
    enabled_.store(true, std::memory_order_release);
    ApiTracing::enable(*this);
    return;
  }
  ApiTracing::disable(*this);
  enabled_.store(false, std::memory_order_release);
}

// Calls that began while the tracer was enabled end in bounded time unless a callback blocks;
// they are rare enough at destruction that polling does.
void Tracer::waitUntilReleased() const {
  while (held()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

ze_result_t zetTracerExpCreate(zet_context_handle_t hContext, const zet_tracer_exp_desc_t* desc, zet_tracer_exp_handle_t* phTracer) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_POINTER(desc);
  ZE_REQUIRE_POINTER(phTracer);
  ZE_REQUIRE_DESCRIPTOR(desc, static_cast<ze_structure_type_t>(ZET_STRUCTURE_TYPE_TRACER_EXP_DESC));
  ZE_REQUIRE_POINTER(desc->pUserData);
  *phTracer = new Tracer(desc->pUserData);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zetTracerExpDestroy(zet_tracer_exp_handle_t hTracer) {
  ZE_REQUIRE_HANDLE(hTracer);
  Tracer* tracer = Tracer::fromHandle(hTracer);
  ZE_REQUIRE(!tracer->enabled(), ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE, "the tracer is enabled: disable it first");
  // A callback would wait for the call that runs it.
  ZE_REQUIRE(!(ApiTracing::insideCallbacks() && tracer->held()), ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE,
             "a callback cannot destroy a tracer that calls in flight may still run");
  tracer->retireHandle();
  tracer->waitUntilReleased();
  delete tracer;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zetTracerExpSetPrologues(zet_tracer_exp_handle_t hTracer, zet_core_callbacks_t* pCoreCbs) {
  ZE_REQUIRE_HANDLE(hTracer);
  ZE_REQUIRE_POINTER(pCoreCbs);
  return Tracer::fromHandle(hTracer)->setPrologues(*pCoreCbs, __func__);
}

ze_result_t zetTracerExpSetEpilogues(zet_tracer_exp_handle_t hTracer, zet_core_callbacks_t* pCoreCbs) {
  ZE_REQUIRE_HANDLE(hTracer);
  ZE_REQUIRE_POINTER(pCoreCbs);
  return Tracer::fromHandle(hTracer)->setEpilogues(*pCoreCbs, __func__);
}

ze_result_t zetTracerExpSetEnabled(zet_tracer_exp_handle_t hTracer, ze_bool_t enable) {
  ZE_REQUIRE_HANDLE(hTracer);
  Tracer::fromHandle(hTracer)->setEnabled(enable != 0);
  return ZE_RESULT_SUCCESS;
}

}  // namespace loom::l0
