#include "loom/core/trace_recorder.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "loom/core/debug_keys.h"
#include "loom/core/futex.h"
#include "loom/core/log.h"

namespace loom::core {
namespace {

// Tracks other than threads show as threads of these ids, clear of the kernel's thread ids.
constexpr int64_t kFirstTrackTid = 1'000'000'000;

// One thread's events. Only that thread appends; the writer takes the lock to read them. Events
// go into blocks that never move, so that an append never copies what came before (a vector's
// growth would stall the calling thread for as long as copying the whole trace takes).
class ThreadBuffer {
 public:
  void append(const TraceEvent& event) {
    std::lock_guard lock(mutex_);
    if (blocks_.empty() || usedInLast_ == kBlockEvents) {
      blocks_.push_back(std::make_unique_for_overwrite<TraceEvent[]>(kBlockEvents));
      usedInLast_ = 0;
    }
    blocks_.back()[usedInLast_++] = event;
  }
  std::vector<TraceEvent> events() {
    std::lock_guard lock(mutex_);
    std::vector<TraceEvent> all;
    for (size_t block = 0; block < blocks_.size(); ++block) {
      const size_t used = block + 1 == blocks_.size() ? usedInLast_ : kBlockEvents;
      all.insert(all.end(), blocks_[block].get(), blocks_[block].get() + used);
    }
    return all;
  }

  int64_t tid = 0;
  std::string name;

 private:
  static constexpr size_t kBlockEvents = 4096;
  std::mutex mutex_;
  std::vector<std::unique_ptr<TraceEvent[]>> blocks_;
  size_t usedInLast_ = 0;
};

struct Recording {
  std::string path;
  int file = -1;
  uint64_t origin = 0;  // the trace's zero, in monotonicNanoseconds()
  std::mutex mutex;     // everything below, and writing
  std::vector<std::shared_ptr<ThreadBuffer>> buffers;
  std::vector<std::string> tracks;       // track i + 1's name
  std::unordered_set<std::string> names;  // interned; nodes never move
};

// Created when Loom loads with LOOM_TraceFile set, and never destroyed: engine threads may record
// while the process exits.
Recording* recording = nullptr;

// The recording holds every thread's buffer beyond the thread's end; the thread reads its own
// through a plain pointer, which costs no TLS initialization check.
thread_local std::shared_ptr<ThreadBuffer> threadBufferOwner;
thread_local ThreadBuffer* threadBuffer = nullptr;
thread_local uint32_t threadTrack = TraceRecorder::kThreadTrack;

std::string threadName() {
  char name[32] = "";
  pthread_getname_np(pthread_self(), name, sizeof(name));
  return name;
}

ThreadBuffer& bufferOfThisThread() {
  if (threadBuffer) return *threadBuffer;
  threadBufferOwner = std::make_shared<ThreadBuffer>();
  threadBuffer = threadBufferOwner.get();
  threadBuffer->tid = gettid();
  threadBuffer->name = threadName();
  std::lock_guard lock(recording->mutex);
  recording->buffers.push_back(threadBufferOwner);
  return *threadBuffer;
}

// Opens the file now, so that a path that cannot be written is said at once. Another recorder
// holding it (Loom's other API library in this process, another process) leaves it alone: this
// one then writes <path>.<pid>.
int openTraceFile(std::string& path) {
  int file = open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (file < 0 || flock(file, LOCK_EX | LOCK_NB) == 0) return file;
  close(file);
  path += "." + std::to_string(getpid());
  return open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
}

void appendEscaped(std::string& out, const std::string& text) {
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\u%04x", c);
      out += escaped;
    } else {
      out += c;
    }
  }
}

void appendFormat(std::string& out, const char* format, ...) __attribute__((format(printf, 2, 3)));
void appendFormat(std::string& out, const char* format, ...) {
  char text[256];
  va_list arguments;
  va_start(arguments, format);
  const int length = std::vsnprintf(text, sizeof(text), format, arguments);
  va_end(arguments);
  out.append(text, static_cast<size_t>(std::clamp(length, 0, int(sizeof(text)) - 1)));
}

const char* categoryName(TraceCategory category) {
  switch (category) {
    case TraceCategory::Api: return "api";
    case TraceCategory::Submission: return "submission";
    case TraceCategory::Stream: return "stream";
    case TraceCategory::Kernel: return "kernel";
    case TraceCategory::Copy: return "copy";
    case TraceCategory::Fill: return "fill";
    case TraceCategory::Wait: return "wait";
  }
  return "other";
}

// Microseconds, as the format counts them, with the nanoseconds as three decimals.
struct Microseconds {
  uint64_t whole, thousandths;
};
Microseconds microseconds(uint64_t nanoseconds) { return {nanoseconds / 1000, nanoseconds % 1000}; }
// Trace time: since the recording began.
Microseconds traceTime(uint64_t time) { return microseconds(time > recording->origin ? time - recording->origin : 0); }

void appendMetadata(std::string& out, const char* what, int64_t tid, const std::string& value, int64_t pid) {
  appendFormat(out, "{\"ph\":\"M\",\"pid\":%" PRId64 ",\"tid\":%" PRId64 ",\"name\":\"%s\",\"args\":{\"name\":\"", pid,
               tid, what);
  appendEscaped(out, value);
  out += "\"}},\n";
}

void appendSortIndex(std::string& out, int64_t tid, int64_t index, int64_t pid) {
  appendFormat(out,
               "{\"ph\":\"M\",\"pid\":%" PRId64 ",\"tid\":%" PRId64
               ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":%" PRId64 "}},\n",
               pid, tid, index);
}

void appendFlow(std::string& out, const char* phase, uint64_t id, Microseconds time, int64_t tid, int64_t pid) {
  appendFormat(out,
               "{%s,\"pid\":%" PRId64 ",\"tid\":%" PRId64 ",\"ts\":%" PRIu64 ".%03" PRIu64 ",\"id\":%" PRIu64
               ",\"cat\":\"submission\",\"name\":\"submission\"},\n",
               phase, pid, tid, time.whole, time.thousandths, id);
}

void appendEvent(std::string& out, const TraceEvent& event, int64_t tid, int64_t pid) {
  const Microseconds start = traceTime(event.start);
  const Microseconds duration = microseconds(event.end > event.start ? event.end - event.start : 0);
  appendFormat(out,
               "{\"ph\":\"X\",\"pid\":%" PRId64 ",\"tid\":%" PRId64 ",\"ts\":%" PRIu64 ".%03" PRIu64 ",\"dur\":%" PRIu64
               ".%03" PRIu64 ",\"cat\":\"%s\",\"name\":\"",
               pid, tid, start.whole, start.thousandths, duration.whole, duration.thousandths, categoryName(event.category));
  appendEscaped(out, event.name);
  out += '"';
  if (event.argument) appendFormat(out, ",\"args\":{\"%s\":%" PRIu64 "}", event.argument, event.value);
  out += "},\n";
  // Flow arrows bind to the slice that encloses them on their track.
  if (event.flowOut) appendFlow(out, "\"ph\":\"s\"", event.flowOut, start, tid, pid);
  if (event.flowIn) appendFlow(out, "\"ph\":\"f\",\"bp\":\"e\"", event.flowIn, start, tid, pid);
}

int64_t tidOf(const TraceEvent& event, const ThreadBuffer& buffer) {
  return event.track == TraceRecorder::kThreadTrack ? buffer.tid : kFirstTrackTid + event.track;
}

bool recordsOnItsOwnTrack(const std::vector<TraceEvent>& events) {
  return std::any_of(events.begin(), events.end(),
                     [](const TraceEvent& event) { return event.track == TraceRecorder::kThreadTrack; });
}

std::string processName() {
  char name[32] = "";
  FILE* comm = std::fopen("/proc/self/comm", "r");
  if (comm) {
    if (std::fgets(name, sizeof(name), comm)) name[std::strcspn(name, "\n")] = '\0';
    std::fclose(comm);
  }
  return name;
}

// The whole file, from what every thread has recorded so far; the caller holds recording->mutex.
std::string traceText() {
  const int64_t pid = getpid();
  std::string out = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  appendMetadata(out, "process_name", 0, processName() + " (Loom)", pid);
  std::vector<std::vector<TraceEvent>> events;
  for (const auto& buffer : recording->buffers) events.push_back(buffer->events());
  // Threads first (those with events of their own: an engine's thread records on its tracks),
  // then the engines' tracks in the order they were made.
  for (size_t thread = 0; thread < events.size(); ++thread)
    if (recordsOnItsOwnTrack(events[thread]))
      appendMetadata(out, "thread_name", recording->buffers[thread]->tid, recording->buffers[thread]->name, pid);
  for (size_t track = 0; track < recording->tracks.size(); ++track) {
    const int64_t tid = kFirstTrackTid + int64_t(track) + 1;
    appendMetadata(out, "thread_name", tid, recording->tracks[track], pid);
    appendSortIndex(out, tid, int64_t(track) + 1, pid);
  }
  for (size_t thread = 0; thread < events.size(); ++thread) {
    // Scopes end inner first: in start order, enclosing events come before what they enclose.
    std::stable_sort(events[thread].begin(), events[thread].end(), [](const TraceEvent& a, const TraceEvent& b) {
      return a.start != b.start ? a.start < b.start : a.end > b.end;
    });
    for (const TraceEvent& event : events[thread]) appendEvent(out, event, tidOf(event, *recording->buffers[thread]), pid);
  }
  if (out.ends_with(",\n")) out.erase(out.size() - 2, 1);
  out += "]}\n";
  return out;
}

bool writeAll(int file, const std::string& text) {
  if (ftruncate(file, 0) != 0) return false;
  size_t written = 0;
  while (written < text.size()) {
    const ssize_t result = pwrite(file, text.data() + written, text.size() - written, off_t(written));
    if (result < 0 && errno == EINTR) continue;
    if (result <= 0) return false;
    written += size_t(result);
  }
  return true;
}

void writeAtExit() {
  if (TraceRecorder::enabled()) TraceRecorder::get().write();
}

}  // namespace

std::atomic<bool> TraceRecorder::enabled_{TraceRecorder::start()};

bool TraceRecorder::start() {
  std::string path = debugKeys().TraceFile;
  if (path.empty()) return false;
  const int file = openTraceFile(path);
  if (file < 0) {
    debugMessage("LOOM_TraceFile: cannot write the trace to %s (%s); tracing is off", path.c_str(), std::strerror(errno));
    return false;
  }
  recording = new Recording;
  recording->path = path;
  recording->file = file;
  recording->origin = monotonicNanoseconds();
  pthread_atfork(nullptr, nullptr, stopInChild);
  std::atexit(writeAtExit);
  return true;
}

// A forked child has copies of the parent's buffers, perhaps with a lock held by a thread that
// did not come along: it records nothing and writes nothing.
void TraceRecorder::stopInChild() { enabled_.store(false, std::memory_order_relaxed); }

TraceRecorder& TraceRecorder::get() {
  static TraceRecorder recorder;
  return recorder;
}

uint32_t TraceRecorder::addTrack(const std::string& name) {
  std::lock_guard lock(recording->mutex);
  recording->tracks.push_back(name);
  return static_cast<uint32_t>(recording->tracks.size());
}

const char* TraceRecorder::intern(const std::string& name) {
  std::lock_guard lock(recording->mutex);
  return recording->names.insert(name).first->c_str();
}

void TraceRecorder::record(TraceEvent event) {
  if (!enabled()) return;
  if (event.track == kThreadTrack) event.track = threadTrack;
  bufferOfThisThread().append(event);
}

bool TraceRecorder::write() {
  std::lock_guard lock(recording->mutex);
  if (writeAll(recording->file, traceText())) return true;
  debugMessage("LOOM_TraceFile: writing the trace to %s failed (%s)", recording->path.c_str(), std::strerror(errno));
  return false;
}

uint32_t TraceRecorder::currentTrack() { return threadTrack; }

uint32_t TraceRecorder::setCurrentTrack(uint32_t track) { return std::exchange(threadTrack, track); }

void TraceScope::begin(const char* name, TraceCategory category) {
  event_ = TraceEvent{};
  event_.name = name;
  event_.category = category;
  event_.start = monotonicNanoseconds();
}

void TraceScope::end() {
  event_.end = monotonicNanoseconds();
  TraceRecorder::get().record(event_);
}

}  // namespace loom::core
