#include "loom/core/engine.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <utility>

#include "loom/core/command_executor.h"
#include "loom/core/command_stream.h"
#include "loom/core/debug_keys.h"
#include "loom/core/log.h"
#include "loom/core/process_generation.h"
#include "loom/core/spin_wait.h"
#include "loom/core/trace_recorder.h"

namespace loom::core {

namespace {
constexpr uint64_t kPollEvery = 16;  // streams issued between polls of a busy device
// How often an idle engine polls work that waits in the queue for a signal: from the first pause,
// doubling up to the longest.
constexpr auto kFirstPause = std::chrono::microseconds(50);
constexpr auto kLongestPause = std::chrono::milliseconds(1);
// A queue waiting this long for events on the device may wait forever (an event nobody signals,
// or a driver that serializes what the application assumed to run together): said once.
constexpr uint64_t kLongDeviceWaitNs = 10'000'000'000;
// The storage of handed-over streams that have run, kept for the next ones: how many, how large.
constexpr size_t kSpareStorageCount = 16;
constexpr size_t kSpareStorageBytes = 4096;

// A submitted stream: a regular list's, which it may submit again, or one handed over whole.
struct SubmittedStream {
  std::shared_ptr<const std::vector<uint8_t>> shared;
  std::vector<uint8_t> owned;

  const std::vector<uint8_t>& bytes() const { return shared ? *shared : owned; }
};
}  // namespace

class Engine::State {
 public:
  State(Backend& backend, std::function<void()> onCompletion, EngineRegistry* registry,
        std::function<void()> ownerCompletion);
  ~State() { unlist(); }

  uint64_t submit(SubmittedStream stream);
  // Takes what `stream` holds, and gives it the storage of a stream that has run, if any.
  uint64_t submit(CommandStream& stream);
  uint64_t runHereOrSubmit(CommandStream& stream);
  uint64_t completionTag() const { return progress_.completionTag.load(std::memory_order_acquire); }
  uint64_t submittedTaskCount() const { return progress_.submitted.load(std::memory_order_acquire); }
  bool waitForTaskCount(uint64_t taskCount, uint64_t timeoutNs);
  int32_t deviceFailure() const { return executor_.deviceFailure(); }
  // The arrow on the trace from the submission of `taskCount` to its execution.
  uint64_t traceFlow(uint64_t taskCount) const { return uint64_t(executor_.traceTrack()) << 40 | taskCount; }
  // The engine's thread: runs submissions until the engine closes and nothing is left.
  void run();
  // The engine's owner goes: nothing more is submitted, the owner's completion handler no longer
  // runs, and the thread ends once it has run what is left. True when nothing is left already.
  bool close();
  // The thread exists only in the process that created it: a forked child executes submissions
  // on the submitting thread.
  bool ownedByThisProcess() const { return processGeneration() == ownerProcess_; }
  // Leaves the registry (at the end, or in a forked child, where no thread completes the work).
  void unlist();

 private:
  // Replaces `taken`, which has run, with the streams submitted since, in order; false when the
  // engine stops. While none is there, issued device work is retired as it completes.
  bool takeSubmitted(std::vector<SubmittedStream>& taken);
  // Keeps the storage of a handed-over stream that has run, until spareRanStorage.
  void keepRanStorage(SubmittedStream& ran);
  // Hands the storage kept since the last call to later submissions; the caller holds mutex_.
  // Before a completion is published, so that a submitter that waits for each stream finds the
  // storage of the one before.
  void spareRanStorage();
  bool nothingSubmitted() const { return submittedTaskCount() == issued_.load(std::memory_order_acquire); }
  // Completes the streams issued so far (their work is done): advances the completion tag.
  void retireIssued();
  // With nothing submitted: waits until the issued work is done, then retires it. Work that
  // waits in the queue for a signal may take any time: then the engine polls it and returns
  // early, returning false, when a submission arrives (which it issues then) or the engine stops.
  bool retireWhileIdle();
  void trace(const std::vector<uint8_t>& stream) const;
  // Executes the stream with `taskCount` on the engine's track of the trace.
  void execute(const std::vector<uint8_t>& stream, uint64_t taskCount);
  // Queues the stream for the engine's thread; the caller holds mutex_. Returns its task count.
  uint64_t queueLocked(SubmittedStream stream);
  // Runs on the calling thread, for a process that does not own the engine (after fork).
  uint64_t runHere(const std::vector<uint8_t>& stream);
  // Queues the stream `make` returns under mutex_ and wakes the engine's thread.
  template <typename MakeStream>
  uint64_t queueAndWake(MakeStream make);
  // Storage of a stream that has run, or none; the caller holds mutex_.
  std::vector<uint8_t> takeSpareStorageLocked();
  // Runs the stream to completion on the calling thread, which holds mutex_; returns its task count.
  uint64_t runLocked(const std::vector<uint8_t>& stream);

  Backend& backend_;
  CommandExecutor executor_;
  std::function<void()> onCompletion_;
  std::function<void()> ownerCompletion_;
  std::atomic<bool> ownerGone_{false};
  EngineRegistry* registry_;
  uint64_t registryId_ = 0;
  const uint32_t ownerProcess_;  // process generation (process_generation.h)
  // What submitters write, what only the engine's thread writes, and the counters each side polls
  // (progress_) lie on separate cache lines, so that a submission moves as few lines between cores
  // as it can.
  alignas(kCacheLineBytes) std::mutex mutex_;
  std::condition_variable workArrived_;
  std::condition_variable completed_;
  // Streams submitted and not yet taken by the engine's thread, which takes them all at once: in
  // a vector, so that, swapped with the thread's, a steady stream of submissions allocates nothing.
  std::vector<SubmittedStream> pending_;
  // Empty storage of handed-over streams that have run, for the next ones (CommandStream::take).
  std::vector<std::vector<uint8_t>> spareStorage_;
  uint64_t taskCount_ = 0;
  bool stopping_ = false;
  // Streams issued to the executor: by the engine thread, or by runLocked while the engine is idle.
  alignas(kCacheLineBytes) std::atomic<uint64_t> issued_{0};
  std::vector<std::vector<uint8_t>> ranStorage_;  // the engine's thread's, kept by keepRanStorage
  EngineProgress progress_;  // the task count submitted and the completion tag, readable without the lock
};

Engine::Engine(Backend& backend, std::function<void()> onCompletion, EngineRegistry* registry,
               std::function<void()> ownerCompletion)
    : backend_(backend),
      state_(std::make_shared<State>(backend, std::move(onCompletion), registry, std::move(ownerCompletion))),
      worker_([state = state_] { state->run(); }) {}

Engine::~Engine() {
  if (!state_->ownedByThisProcess()) {
    state_->unlist();
    worker_.detach();  // it does not exist in this process
    return;
  }
  // Work that has not completed may never complete (a kernel that loops): the thread finishes it
  // alone, holding the state. On its own thread (an owner destroyed from its completion handler)
  // the engine cannot wait for itself.
  const bool done = state_->close();
  if (done && worker_.get_id() != std::this_thread::get_id()) {
    worker_.join();
    return;
  }
  if (!done)
    debugMessage("a %s engine was destroyed before its work completed: its thread finishes the work alone",
                 backend_.info().name.c_str());
  worker_.detach();
}

namespace {
uint64_t traceSubmission(TraceScope& traced, uint64_t taskCount, uint64_t flow) {
  traced.setArgument("task", taskCount);
  traced.setFlowOut(flow);
  return taskCount;
}
}  // namespace

uint64_t Engine::submit(std::shared_ptr<const std::vector<uint8_t>> stream) {
  TraceScope traced("submit", TraceCategory::Submission);
  const uint64_t taskCount = state_->submit(SubmittedStream{std::move(stream), {}});
  return traceSubmission(traced, taskCount, state_->traceFlow(taskCount));
}

uint64_t Engine::submit(CommandStream& stream) {
  TraceScope traced("submit", TraceCategory::Submission);
  const uint64_t taskCount = state_->submit(stream);
  return traceSubmission(traced, taskCount, state_->traceFlow(taskCount));
}

uint64_t Engine::runHereOrSubmit(CommandStream& stream) {
  TraceScope traced("submit", TraceCategory::Submission);
  const uint64_t taskCount = state_->runHereOrSubmit(stream);
  return traceSubmission(traced, taskCount, state_->traceFlow(taskCount));
}

uint64_t Engine::completionTag() const { return state_->completionTag(); }

uint64_t Engine::submittedTaskCount() const { return state_->submittedTaskCount(); }

bool Engine::waitForTaskCount(uint64_t taskCount, uint64_t timeoutNs) {
  return state_->waitForTaskCount(taskCount, timeoutNs);
}

int32_t Engine::deviceFailure() const { return state_->deviceFailure(); }

Engine::State::State(Backend& backend, std::function<void()> onCompletion, EngineRegistry* registry,
                     std::function<void()> ownerCompletion)
    : backend_(backend),
      executor_(backend),
      onCompletion_(std::move(onCompletion)),
      ownerCompletion_(std::move(ownerCompletion)),
      registry_(registry),
      ownerProcess_(processGeneration()) {
  if (registry_) registryId_ = registry_->add(&progress_);
}

void Engine::State::unlist() {
  if (registry_) registry_->remove(registryId_);
  registry_ = nullptr;
}

bool Engine::State::close() {
  ownerGone_.store(true, std::memory_order_release);
  bool done;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    done = pending_.empty() && completionTag() == taskCount_;
  }
  workArrived_.notify_all();
  return done;
}

void Engine::State::trace(const std::vector<uint8_t>& stream) const {
  if (debugKeys().PrintCommandStream)
    std::fprintf(stderr, "[loom] command stream submitted to %s engine:\n%s", backend_.info().name.c_str(),
                 describeCommandStream(stream).c_str());
}

uint64_t Engine::State::submit(SubmittedStream stream) {
  trace(stream.bytes());
  if (!ownedByThisProcess()) return runHere(stream.bytes());
  return queueAndWake([&] { return std::move(stream); });
}

uint64_t Engine::State::submit(CommandStream& stream) {
  trace(stream.bytes());
  if (!ownedByThisProcess()) {
    const uint64_t taskCount = runHere(stream.bytes());
    stream.clear();
    return taskCount;
  }
  return queueAndWake([&] { return SubmittedStream{nullptr, stream.take(takeSpareStorageLocked())}; });
}

uint64_t Engine::State::runHere(const std::vector<uint8_t>& stream) {
  std::lock_guard lock(mutex_);
  return runLocked(stream);
}

template <typename MakeStream>
uint64_t Engine::State::queueAndWake(MakeStream make) {
  uint64_t taskCount;
  {
    std::lock_guard lock(mutex_);
    taskCount = queueLocked(make());
  }
  workArrived_.notify_one();
  return taskCount;
}

std::vector<uint8_t> Engine::State::takeSpareStorageLocked() {
  std::vector<uint8_t> storage;
  if (!spareStorage_.empty()) {
    storage = std::move(spareStorage_.back());
    spareStorage_.pop_back();
  }
  return storage;
}

uint64_t Engine::State::queueLocked(SubmittedStream stream) {
  pending_.push_back(std::move(stream));
  progress_.submitted.store(++taskCount_, std::memory_order_release);
  return taskCount_;
}

uint64_t Engine::State::runHereOrSubmit(CommandStream& stream) {
  std::unique_lock lock(mutex_);
  // Only on a synchronous queue (the CPU), and only when the engine has completed everything:
  // then its thread touches neither the executor nor the counters until the lock is free.
  if (executor_.asynchronous() || !pending_.empty() || completionTag() != taskCount_) {
    lock.unlock();
    return submit(stream);
  }
  trace(stream.bytes());
  const uint64_t taskCount = runLocked(stream.bytes());
  lock.unlock();
  stream.clear();
  completed_.notify_all();
  return taskCount;
}

uint64_t Engine::State::runLocked(const std::vector<uint8_t>& stream) {
  // Holding the lock keeps the engine thread from starting later submissions, and from retiring,
  // meanwhile.
  const uint64_t taskCount = ++taskCount_;
  progress_.submitted.store(taskCount, std::memory_order_release);
  issued_.store(taskCount, std::memory_order_release);
  execute(stream, taskCount);
  executor_.retire(true);
  progress_.completionTag.store(taskCount, std::memory_order_release);
  return taskCount;
}

void Engine::State::execute(const std::vector<uint8_t>& stream, uint64_t taskCount) {
  const TraceTrackScope onEngine(executor_.traceTrack());
  TraceScope traced("command stream", TraceCategory::Stream);
  traced.setArgument("task", taskCount);
  traced.setFlowIn(traceFlow(taskCount));
  executor_.execute(stream);
}

bool Engine::State::waitForTaskCount(uint64_t taskCount, uint64_t timeoutNs) {
  auto done = [&] { return completionTag() >= taskCount; };
  if (timeoutNs == 0) return done();
  TraceScope traced("wait for task", TraceCategory::Wait);
  traced.setArgument("task", taskCount);
  const uint64_t deadline = timeoutNs == UINT64_MAX ? UINT64_MAX : monotonicNanoseconds() + timeoutNs;
  if (spinUntil(done, deadline, waitSpinNanoseconds(backend_.info().type))) return true;
  std::unique_lock lock(mutex_);
  if (timeoutNs == UINT64_MAX) {
    completed_.wait(lock, done);
    return true;
  }
  const uint64_t now = monotonicNanoseconds();
  return completed_.wait_for(lock, std::chrono::nanoseconds(deadline > now ? deadline - now : 0), done);
}

void Engine::State::run() {
  std::vector<SubmittedStream> taken;
  while (takeSubmitted(taken)) {
    for (SubmittedStream& stream : taken) {
      execute(stream.bytes(), issued_.load(std::memory_order_acquire) + 1);
      stream.shared.reset();  // a regular list's stream: its list may be reset or destroyed now
      keepRanStorage(stream);
      const uint64_t issued = issued_.fetch_add(1, std::memory_order_acq_rel) + 1;
      // Now and then, retire without waiting when the device is done already, so that a steady
      // stream of submissions never keeps waiters of earlier ones waiting (a poll of the device
      // after every stream would cost each launch a driver call).
      if ((executor_.idle() || issued % kPollEvery == 0) && executor_.retire(false)) retireIssued();
    }
  }
  executor_.retire(true);
  retireIssued();
}

bool Engine::State::takeSubmitted(std::vector<SubmittedStream>& taken) {
  // Back-to-back submissions are common: poll briefly before sleeping, so that the next one is
  // issued without a wake-up (and, on a GPU, before the device runs dry). Once the device is done,
  // poll again: a waiter that has just been told tends to submit more at once.
  for (;;) {
    for (int spin = 0; spin < 20000 && nothingSubmitted(); ++spin)
      if (!executor_.idle() && spin % 64 == 0 && executor_.retire(false)) retireIssued();
    if (!nothingSubmitted() || executor_.idle() || !retireWhileIdle()) break;
  }
  taken.clear();
  std::unique_lock lock(mutex_);
  spareRanStorage();
  workArrived_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
  if (pending_.empty()) return false;
  taken.swap(pending_);
  return true;
}

void Engine::State::keepRanStorage(SubmittedStream& ran) {
  const size_t capacity = ran.owned.capacity();
  if (capacity == 0 || capacity > kSpareStorageBytes || ranStorage_.size() == kSpareStorageCount) return;
  ran.owned.clear();
  ranStorage_.push_back(std::move(ran.owned));
}

void Engine::State::spareRanStorage() {
  for (std::vector<uint8_t>& storage : ranStorage_) {
    if (spareStorage_.size() == kSpareStorageCount) break;
    spareStorage_.push_back(std::move(storage));
  }
  ranStorage_.clear();
}

bool Engine::State::retireWhileIdle() {
  if (!executor_.waitsInQueue()) {
    executor_.retire(true);
    retireIssued();
    return true;
  }
  auto pause = std::chrono::duration_cast<std::chrono::microseconds>(kFirstPause);
  const uint64_t since = debugKeys().PrintDebugMessages ? monotonicNanoseconds() : 0;
  bool said = false;
  while (!executor_.retire(false)) {
    if (!said && debugKeys().PrintDebugMessages && monotonicNanoseconds() - since > kLongDeviceWaitNs) {
      debugMessage("%s engine: its queue has waited %llu s for events on the device: %s", backend_.info().name.c_str(),
                   (unsigned long long)(kLongDeviceWaitNs / 1'000'000'000), executor_.describeQueueWaits().c_str());
      said = true;
    }
    std::unique_lock lock(mutex_);
    if (workArrived_.wait_for(lock, pause, [&] { return stopping_ || !pending_.empty(); })) return false;
    pause = std::min<std::chrono::microseconds>(pause * 2, kLongestPause);
  }
  retireIssued();
  return true;
}

void Engine::State::retireIssued() {
  {
    // Under the lock: runLocked may be advancing both counters on another thread.
    std::lock_guard lock(mutex_);
    spareRanStorage();
    const uint64_t issued = issued_.load(std::memory_order_acquire);
    if (completionTag() == issued) return;
    progress_.completionTag.store(issued, std::memory_order_release);
  }
  completed_.notify_all();
  if (onCompletion_) onCompletion_();
  if (ownerCompletion_ && !ownerGone_.load(std::memory_order_acquire)) ownerCompletion_();
}

}  // namespace loom::core
