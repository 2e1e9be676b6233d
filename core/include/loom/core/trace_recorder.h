#pragma once
// The timeline that LOOM_TraceFile=<path> writes: a Chrome trace-event file (Perfetto's viewer and
// chrome://tracing open it) of API calls on their threads, command streams and the device work
// of each engine on tracks of their own, and host waits.
//
// When the key is unset every hook costs one load and one branch (enabled()). When set, each
// thread appends its events to a buffer of its own under a lock no other thread takes until the
// file is written: at process exit (or when the library is unloaded), and on write().
#include <atomic>
#include <cstdint>
#include <string>

namespace loom::core {

// What an event is; the file shows it as the event's category.
enum class TraceCategory : uint8_t { Api, Submission, Stream, Kernel, Copy, Fill, Wait };

struct TraceEvent {
  const char* name;  // a literal, or a name TraceRecorder::intern() gave
  TraceCategory category;
  uint32_t track;         // TraceRecorder::kThreadTrack: the recording thread's current track
  uint64_t start, end;    // monotonicNanoseconds()
  const char* argument;   // the name of one numeric argument, or nullptr
  uint64_t value;
  uint64_t flowOut;       // an arrow from this event to the event whose flowIn is the same (0: none)
  uint64_t flowIn;
};

class TraceRecorder {
 public:
  static constexpr uint32_t kThreadTrack = 0;

  // True when LOOM_TraceFile names a file this process can write (read once, when Loom loads).
  static bool enabled() { return enabled_.load(std::memory_order_relaxed); }
  // The process's recorder; only while enabled().
  static TraceRecorder& get();

  // A track of its own, shown as `name` (an engine, a device queue, one tile of it).
  uint32_t addTrack(const std::string& name);
  // A name that stays valid for the life of the process (a kernel's).
  const char* intern(const std::string& name);
  // Appends `event` to the calling thread's buffer; kThreadTrack stands for the thread's current
  // track (TraceTrackScope), else its own.
  void record(TraceEvent event);
  // Writes every event recorded so far to the file; false (said under PrintDebugMessages) when
  // the file cannot be written.
  bool write();

  // While a TraceTrackScope lives, the thread's events go to its track: an engine's work shows on
  // the engine's track whichever thread runs it.
  static uint32_t currentTrack();
  static uint32_t setCurrentTrack(uint32_t track);

 private:
  TraceRecorder() = default;
  static bool start();
  static void stopInChild();
  static std::atomic<bool> enabled_;
};

// Times its own life as one event on the calling thread's current track: an API call, a wait.
class TraceScope {
 public:
  explicit TraceScope(const char* name, TraceCategory category = TraceCategory::Api) {
    if (TraceRecorder::enabled())
      begin(name, category);
    else
      event_.name = nullptr;  // all that is written while tracing is off
  }
  ~TraceScope() {
    if (event_.name) end();
  }
  TraceScope(const TraceScope&) = delete;
  TraceScope& operator=(const TraceScope&) = delete;

  void setArgument(const char* name, uint64_t value) {
    event_.argument = name;
    event_.value = value;
  }
  void setFlowOut(uint64_t id) { event_.flowOut = id; }
  void setFlowIn(uint64_t id) { event_.flowIn = id; }

 private:
  void begin(const char* name, TraceCategory category);
  void end();

  TraceEvent event_;
};

// Sends the calling thread's events to `track` while it lives (does nothing while tracing is off).
class TraceTrackScope {
 public:
  explicit TraceTrackScope(uint32_t track) {
    if (TraceRecorder::enabled()) previous_ = TraceRecorder::setCurrentTrack(track);
  }
  ~TraceTrackScope() {
    if (TraceRecorder::enabled()) TraceRecorder::setCurrentTrack(previous_);
  }
  TraceTrackScope(const TraceTrackScope&) = delete;
  TraceTrackScope& operator=(const TraceTrackScope&) = delete;

 private:
  uint32_t previous_ = TraceRecorder::kThreadTrack;
};

}  // namespace loom::core
