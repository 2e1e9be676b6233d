#pragma once
// A backend that records what core asks of it, for tests of submission and execution.
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "loom/core/backend.h"

namespace loom::core::testing {

class FakeBackendBase : public Backend {
 public:
  explicit FakeBackendBase(DeviceInfo info = {}) : info_(std::move(info)) { info_.name = "fake"; }
  const DeviceInfo& info() const override { return info_; }
  compiler::Target compilerTarget() const override { return compiler::Target::Cpu; }
  std::unique_ptr<BackendProgram> loadProgram(std::shared_ptr<const compiler::CompiledProgram>, std::string&) override {
    return nullptr;
  }
  // Its queues complete each command as it is issued, as the CPU's do.
  class SynchronousQueue final : public BackendQueue {
   public:
    explicit SynchronousQueue(FakeBackendBase& device) : device_(device) {}
    bool asynchronous() const override { return false; }
    void launch(const KernelLaunch& launch, const uint8_t* arguments) override { device_.recordLaunch(launch, arguments); }
    void copy(void* destination, const void* source, size_t size) override { device_.copy(destination, source, size); }
    void fill(void* destination, const void* pattern, size_t patternSize, size_t size) override {
      device_.fill(destination, pattern, patternSize, size);
    }
    bool completed() override { return true; }
    void synchronize() override {}

   private:
    FakeBackendBase& device_;
  };

  std::unique_ptr<BackendQueue> createQueue() override { return std::make_unique<SynchronousQueue>(*this); }
  void recordLaunch(const KernelLaunch& launch, const uint8_t* arguments) {
    std::lock_guard lock(mutex);
    launches.push_back(launch);
    launchArguments.emplace_back(arguments, arguments + launch.argumentSize);
    launchThreads.push_back(std::this_thread::get_id());
  }
  void copy(void* destination, const void* source, size_t size) override { std::memmove(destination, source, size); }
  void fill(void* destination, const void* pattern, size_t patternSize, size_t size) override {
    auto* out = static_cast<char*>(destination);
    for (size_t i = 0; i < size; ++i) out[i] = static_cast<const char*>(pattern)[i % patternSize];
  }
  uint64_t timestamp() const override { return ++clock; }

  std::mutex mutex;
  std::vector<KernelLaunch> launches;
  std::vector<std::vector<uint8_t>> launchArguments;
  std::vector<std::thread::id> launchThreads;  // which thread issued each launch
  mutable uint64_t clock = 100;

 private:
  DeviceInfo info_;
};

class FakeBackend final : public FakeBackendBase {
 public:
  using FakeBackendBase::FakeBackendBase;
};

// A device whose queues run copies only when the test lets the device work (`finishWork`), as a
// GPU runs them after launch returns: for the asynchronous paths of executors and engines. Its
// queues wait and write values in the queue, as a GPU's stream memory operations do.
class FakeAsynchronousBackend final : public FakeBackendBase {
 public:
  class Queue final : public BackendQueue {
   public:
    explicit Queue(FakeAsynchronousBackend& device) : device_(device) {}
    bool asynchronous() const override { return true; }
    void launch(const KernelLaunch& launch, const uint8_t* arguments) override { device_.recordLaunch(launch, arguments); }
    void copy(void* destination, const void* source, size_t size) override {
      std::lock_guard lock(device_.workMutex);
      ++device_.copiesIssued;
      device_.pending.push_back([=] { return std::memmove(destination, source, size), true; });
    }
    void fill(void* destination, const void* pattern, size_t patternSize, size_t size) override {
      std::vector<char> copy(static_cast<const char*>(pattern), static_cast<const char*>(pattern) + patternSize);
      std::lock_guard lock(device_.workMutex);
      device_.pending.push_back([=, this] { return device_.FakeBackendBase::fill(destination, copy.data(), copy.size(), size), true; });
    }
    bool completed() override {
      std::lock_guard lock(device_.workMutex);
      ++device_.completionQueries;
      return device_.pending.empty();
    }
    void synchronize() override {
      std::unique_lock lock(device_.workMutex);
      device_.workDone.wait(lock, [&] { return device_.pending.empty(); });
    }
    int32_t takeFailure() override { return std::exchange(device_.failure, 0); }
    // A mark takes the device clock when the device reaches it; the clock ticks 1000 per mark.
    uint32_t markTime() override {
      if (!device_.marks) return kNoMark;
      std::lock_guard lock(device_.workMutex);
      const auto mark = static_cast<uint32_t>(device_.markTimes.size());
      device_.markTimes.push_back(0);
      device_.pending.push_back([this, mark] { return device_.markTimes[mark] = device_.deviceClock += 1000, true; });
      return mark;
    }
    uint64_t timeOfMark(uint32_t mark) override {
      if (device_.onTimeOfMark) device_.onTimeOfMark(mark);
      std::lock_guard lock(device_.workMutex);
      return device_.markTimes.at(mark);
    }
    void forgetMarks() override {
      std::lock_guard lock(device_.workMutex);
      device_.markTimes.clear();
    }
    bool markReached(uint32_t mark) override {
      std::lock_guard lock(device_.workMutex);
      return device_.markTimes.at(mark) != 0;
    }
    // The work after a wait runs only once the word has reached the value.
    bool waitValue(const uint32_t* address, uint32_t value) override {
      if (!device_.valueOperations) return false;
      std::lock_guard lock(device_.workMutex);
      device_.waitsIssued.push_back(address);
      device_.pending.push_back([=] { return std::atomic_ref<const uint32_t>(*address).load() >= value; });
      return true;
    }
    bool writeValue(uint32_t* address, uint32_t value) override {
      if (!device_.valueOperations) return false;
      std::lock_guard lock(device_.workMutex);
      device_.writesIssued.push_back(address);
      device_.pending.push_back([=] { return std::atomic_ref<uint32_t>(*address).store(value), true; });
      return true;
    }
    // The work after a join runs only once the other device has run what it had at the join.
    bool joinAfter(BackendQueue& other) override {
      auto* before = dynamic_cast<Queue*>(&other);
      if (!before || !device_.queueJoins) return false;
      FakeAsynchronousBackend& otherDevice = before->device_;
      uint64_t target = 0;
      {
        std::lock_guard lock(otherDevice.workMutex);
        target = otherDevice.completedCommands.load() + otherDevice.pending.size();
      }
      std::lock_guard lock(device_.workMutex);
      ++device_.joinsIssued;
      device_.pending.push_back([&otherDevice, target] { return otherDevice.completedCommands.load() >= target; });
      return true;
    }

   private:
    FakeAsynchronousBackend& device_;
  };

  std::unique_ptr<BackendQueue> createQueue() override { return std::make_unique<Queue>(*this); }
  bool runsLaunchParts() const override { return runsParts; }

  // Runs the commands issued so far, in order, as the device would: up to a wait whose value has
  // not been written yet.
  void finishWork() {
    std::lock_guard lock(workMutex);
    size_t done = 0;
    while (done < pending.size() && pending[done]()) {
      ++done;
      ++completedCommands;
    }
    pending.erase(pending.begin(), pending.begin() + done);
    workDone.notify_all();
  }

  std::mutex workMutex;
  std::condition_variable workDone;
  size_t completionQueries = 0;  // calls of a queue's completed()
  // Each returns false, and runs again later, while it cannot complete (a wait).
  std::vector<std::function<bool()>> pending;
  bool valueOperations = true;
  bool runsParts = false;  // its queues run parts of split launches (Backend::runsLaunchParts)
  bool queueJoins = true;  // its queues join others in the queue (BackendQueue::joinAfter)
  size_t joinsIssued = 0;
  std::atomic<uint64_t> completedCommands{0};
  std::vector<const uint32_t*> waitsIssued;
  std::vector<const uint32_t*> writesIssued;
  // What takeFailure reports next: set before execute() for a command the device refuses, after
  // it for a fault while the device runs the work.
  int32_t failure = 0;
  std::vector<uint64_t> markTimes;  // of the marks not forgotten yet
  // Called as the executor asks for a mark's time, before the event it times is updated.
  std::function<void(uint32_t mark)> onTimeOfMark;
  bool marks = true;  // false: markTime() marks nothing, as a driver out of events
  uint64_t deviceClock = 0;
  size_t copiesIssued = 0;
};

}  // namespace loom::core::testing
