#include "level_zero/tools/api_tracing.h"

#include <algorithm>
#include <mutex>

namespace loom::l0 {
namespace {

// The enabled tracers in creation order, and the set that calls beginning now use (null when
// none is enabled). Never destroyed: calls on other threads may still trace at exit.
struct Registry {
  std::mutex mutex;
  std::vector<Tracer*> enabled;
  std::atomic<std::shared_ptr<const ApiTracing::EnabledSet>> current;
};

Registry& registry() {
  static Registry& instance = *new Registry;
  return instance;
}

thread_local bool tInsideCallbacks = false;

}  // namespace

ApiTracing::EnabledSet::EnabledSet(const std::vector<Tracer*>& tracers) : tracers_(tracers) {
  callbacks_.reserve(tracers_.size());
  for (Tracer* tracer : tracers_) {
    tracer->hold();
    callbacks_.push_back(tracer->callbacks());
  }
}

ApiTracing::EnabledSet::~EnabledSet() {
  for (Tracer* tracer : tracers_) tracer->release();
}

void ApiTracing::enable(Tracer& tracer) {
  Registry& state = registry();
  std::lock_guard lock(state.mutex);
  auto byCreation = [](const Tracer* a, const Tracer* b) { return a->creationNumber() < b->creationNumber(); };
  auto position = std::lower_bound(state.enabled.begin(), state.enabled.end(), &tracer, byCreation);
  if (position != state.enabled.end() && *position == &tracer) return;
  state.enabled.insert(position, &tracer);
  publish();
}

void ApiTracing::disable(Tracer& tracer) {
  Registry& state = registry();
  std::lock_guard lock(state.mutex);
  state.enabled.erase(std::remove(state.enabled.begin(), state.enabled.end(), &tracer), state.enabled.end());
  publish();
}

// Under the registry's lock: the enabled tracers become the set later calls use.
void ApiTracing::publish() {
  Registry& state = registry();
  std::shared_ptr<const EnabledSet> set;
  if (!state.enabled.empty()) set = std::make_shared<const EnabledSet>(state.enabled);
  anyEnabled_.store(set != nullptr, std::memory_order_relaxed);
  state.current.store(std::move(set), std::memory_order_release);
}

bool ApiTracing::insideCallbacks() { return tInsideCallbacks; }

ApiTracing::Call::Call() {
  if (tInsideCallbacks) return;
  tracers_ = registry().current.load(std::memory_order_acquire);
  if (tracers_ == nullptr || tracers_->size() <= kInlineTracers) return;
  moreInstanceData_.resize(tracers_->size(), nullptr);
  instanceData_ = moreInstanceData_.data();
}

ApiTracing::Call::InsideCallbacks::InsideCallbacks() { tInsideCallbacks = true; }
ApiTracing::Call::InsideCallbacks::~InsideCallbacks() { tInsideCallbacks = false; }

}  // namespace loom::l0
