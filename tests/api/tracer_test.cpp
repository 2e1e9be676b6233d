// API tracing (zetTracerExp*) through the loader: the callbacks of enabled tracers run around the
// core functions, in order, with pointers to the call's arguments and its result.
#include <level_zero/zet_api.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "traced_functions.h"
#include "ze_test_helpers.h"

namespace loom::test {
namespace {

std::string hex(const void* pointer) {
  char text[32];
  std::snprintf(text, sizeof(text), "%p", pointer);
  return text;
}

std::string resultText(ze_result_t result) {
  const char* name = zeResultName(result);
  return name ? name : "ze_result_t " + std::to_string(uint32_t(result));
}

// What the callbacks of one tracer saw, in order.
struct CallLog {
  std::vector<std::string> entries;
};

CallLog& logOf(void* userData) { return *static_cast<CallLog*>(userData); }

class TracerTest : public ZeTest {
 protected:
  void TearDown() override {
    for (zet_tracer_exp_handle_t tracer : tracers) {
      EXPECT_ZE(zetTracerExpSetEnabled(tracer, false));
      EXPECT_ZE(zetTracerExpDestroy(tracer));
    }
    ZeTest::TearDown();
  }

  zet_tracer_exp_handle_t tracer(void* userData) {
    zet_tracer_exp_desc_t desc{ZET_STRUCTURE_TYPE_TRACER_EXP_DESC, nullptr, userData};
    zet_tracer_exp_handle_t handle = nullptr;
    EXPECT_ZE(zetTracerExpCreate(context, &desc, &handle));
    if (handle) tracers.push_back(handle);
    return handle;
  }

  // A tracer with these callbacks, enabled.
  zet_tracer_exp_handle_t enabledTracer(void* userData, zet_core_callbacks_t prologues, zet_core_callbacks_t epilogues) {
    zet_tracer_exp_handle_t handle = tracer(userData);
    EXPECT_ZE(zetTracerExpSetPrologues(handle, &prologues));
    EXPECT_ZE(zetTracerExpSetEpilogues(handle, &epilogues));
    EXPECT_ZE(zetTracerExpSetEnabled(handle, true));
    return handle;
  }

  // Forgets `handle` (the test destroyed it).
  void destroyed(zet_tracer_exp_handle_t handle) { std::erase(tracers, handle); }

  std::vector<zet_tracer_exp_handle_t> tracers;
};

// Callbacks that log zeDeviceGetProperties with the name of their tracer (its user data).
struct NamedLog {
  std::string name;
  std::vector<std::string>* entries;
};

zet_core_callbacks_t namedPrologues() {
  zet_core_callbacks_t callbacks{};
  callbacks.Device.pfnGetPropertiesCb = [](ze_device_get_properties_params_t*, ze_result_t, void* userData, void** instance) {
    auto& log = *static_cast<NamedLog*>(userData);
    log.entries->push_back(log.name + " prologue");
    *instance = &log.name;
  };
  return callbacks;
}

zet_core_callbacks_t namedEpilogues() {
  zet_core_callbacks_t callbacks{};
  callbacks.Device.pfnGetPropertiesCb = [](ze_device_get_properties_params_t*, ze_result_t, void* userData, void** instance) {
    auto& log = *static_cast<NamedLog*>(userData);
    const bool ownInstance = *instance == &log.name;
    log.entries->push_back(log.name + " epilogue" + (ownInstance ? "" : " with another tracer's instance data"));
  };
  return callbacks;
}

TEST_F(TracerTest, CallbacksRunAroundEachCallWithItsArgumentsAndResult) {
  zet_core_callbacks_t prologues{}, epilogues{};
  prologues.Mem.pfnAllocDeviceCb = [](ze_mem_alloc_device_params_t* p, ze_result_t, void* user, void**) {
    logOf(user).entries.push_back("zeMemAllocDevice before: context " + hex(*p->phContext) + " device " + hex(*p->phDevice) +
                                  " size " + std::to_string(*p->psize) + " alignment " + std::to_string(*p->palignment) +
                                  " allocation " + hex(**p->ppptr));
  };
  epilogues.Mem.pfnAllocDeviceCb = [](ze_mem_alloc_device_params_t* p, ze_result_t result, void* user, void**) {
    logOf(user).entries.push_back("zeMemAllocDevice after: " + resultText(result) + " allocation " + hex(**p->ppptr));
  };
  prologues.CommandList.pfnAppendLaunchKernelCb = [](ze_command_list_append_launch_kernel_params_t* p, ze_result_t, void* user, void**) {
    logOf(user).entries.push_back("zeCommandListAppendLaunchKernel before: list " + hex(*p->phCommandList) + " kernel " +
                                  hex(*p->phKernel) + " groups " + std::to_string((*p->ppLaunchFuncArgs)->groupCountX) +
                                  " signal " + hex(*p->phSignalEvent) + " waits " + std::to_string(*p->pnumWaitEvents));
  };
  epilogues.CommandList.pfnAppendLaunchKernelCb = [](ze_command_list_append_launch_kernel_params_t*, ze_result_t result, void* user, void**) {
    logOf(user).entries.push_back("zeCommandListAppendLaunchKernel after: " + resultText(result));
  };
  prologues.CommandQueue.pfnExecuteCommandListsCb = [](ze_command_queue_execute_command_lists_params_t* p, ze_result_t, void* user, void**) {
    logOf(user).entries.push_back("zeCommandQueueExecuteCommandLists before: queue " + hex(*p->phCommandQueue) + " lists " +
                                  std::to_string(*p->pnumCommandLists) + " first " + hex((*p->pphCommandLists)[0]) +
                                  " fence " + hex(*p->phFence));
  };
  epilogues.CommandQueue.pfnExecuteCommandListsCb = [](ze_command_queue_execute_command_lists_params_t*, ze_result_t result, void* user, void**) {
    logOf(user).entries.push_back("zeCommandQueueExecuteCommandLists after: " + resultText(result));
  };
  prologues.Event.pfnHostSynchronizeCb = [](ze_event_host_synchronize_params_t* p, ze_result_t, void* user, void**) {
    logOf(user).entries.push_back("zeEventHostSynchronize before: event " + hex(*p->phEvent) + " timeout " + std::to_string(*p->ptimeout));
  };
  epilogues.Event.pfnHostSynchronizeCb = [](ze_event_host_synchronize_params_t* p, ze_result_t result, void* user, void**) {
    logOf(user).entries.push_back("zeEventHostSynchronize after: " + resultText(result));
  };

  constexpr uint32_t kCount = 64;
  float* a = shared<float>(kCount);
  float* b = shared<float>(kCount);
  for (uint32_t i = 0; i < kCount; ++i) a[i] = float(i), b[i] = 0.5f;
  ze_kernel_handle_t add = apiKernel("add_vectors");
  ze_command_list_handle_t commands = regularList();
  ze_command_queue_handle_t queue = commandQueue();
  ze_event_handle_t done = hostVisibleEvent();

  CallLog log;
  enabledTracer(&log, prologues, epilogues);
  void* sum = nullptr;
  ze_device_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
  ASSERT_ZE(zeMemAllocDevice(context, &desc, kCount * sizeof(float), 64, device, &sum));
  allocations.push_back(sum);
  setArguments(add, a, b, sum);
  ASSERT_ZE(zeKernelSetGroupSize(add, 16, 1, 1));
  const ze_group_count_t groups{kCount / 16, 1, 1};
  ASSERT_ZE(zeCommandListAppendLaunchKernel(commands, add, &groups, done, 0, nullptr));
  ASSERT_ZE(zeCommandListClose(commands));
  ASSERT_ZE(zeCommandQueueExecuteCommandLists(queue, 1, &commands, nullptr));
  ASSERT_ZE(zeEventHostSynchronize(done, kTimeout));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeEventHostSynchronize(nullptr, 0));

  const std::vector<std::string> expected{
      "zeMemAllocDevice before: context " + hex(context) + " device " + hex(device) + " size 256 alignment 64 allocation " + hex(nullptr),
      "zeMemAllocDevice after: ZE_RESULT_SUCCESS allocation " + hex(sum),
      "zeCommandListAppendLaunchKernel before: list " + hex(commands) + " kernel " + hex(add) + " groups 4 signal " + hex(done) + " waits 0",
      "zeCommandListAppendLaunchKernel after: ZE_RESULT_SUCCESS",
      "zeCommandQueueExecuteCommandLists before: queue " + hex(queue) + " lists 1 first " + hex(commands) + " fence " + hex(nullptr),
      "zeCommandQueueExecuteCommandLists after: ZE_RESULT_SUCCESS",
      "zeEventHostSynchronize before: event " + hex(done) + " timeout " + std::to_string(kTimeout),
      "zeEventHostSynchronize after: ZE_RESULT_SUCCESS",
      "zeEventHostSynchronize before: event " + hex(nullptr) + " timeout 0",
      "zeEventHostSynchronize after: ZE_RESULT_ERROR_INVALID_NULL_HANDLE",
  };
  EXPECT_EQ(expected, log.entries);
  const std::vector<float> result = download(static_cast<const float*>(sum), kCount);
  for (uint32_t i = 0; i < kCount; ++i) ASSERT_EQ(float(i) + 0.5f, result[i]) << i;
}

TEST_F(TracerTest, ProloguesMayChangeTheArguments) {
  void* memory = nullptr;
  ze_host_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
  ASSERT_NE(ZE_RESULT_SUCCESS, zeMemAllocHost(context, &desc, 0, 64, &memory));

  zet_core_callbacks_t prologues{}, epilogues{};
  prologues.Mem.pfnAllocHostCb = [](ze_mem_alloc_host_params_t* p, ze_result_t, void*, void**) { *p->psize = 128; };
  epilogues.Mem.pfnAllocHostCb = [](ze_mem_alloc_host_params_t* p, ze_result_t result, void* user, void**) {
    logOf(user).entries.push_back("size " + std::to_string(*p->psize) + ": " + resultText(result));
  };
  CallLog log;
  enabledTracer(&log, prologues, epilogues);
  ASSERT_ZE(zeMemAllocHost(context, &desc, 0, 64, &memory));
  allocations.push_back(memory);
  EXPECT_EQ(std::vector<std::string>{"size 128: ZE_RESULT_SUCCESS"}, log.entries);
  ze_memory_allocation_properties_t properties{ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
  ASSERT_ZE(zeMemGetAllocProperties(context, memory, &properties, nullptr));
  EXPECT_EQ(ZE_MEMORY_TYPE_HOST, properties.type);
  size_t size = 0;
  ASSERT_ZE(zeMemGetAddressRange(context, memory, nullptr, &size));
  EXPECT_GE(size, 128u);
}

// The slots recordTracedCallback saw since the last reset.
struct SlotRecord {
  std::vector<size_t> prologues;
  std::vector<size_t> epilogues;
  std::vector<ze_result_t> results;
};

}  // namespace

void recordTracedCallback(void* userData, size_t slot, bool epilogue, ze_result_t result) {
  auto& record = *static_cast<SlotRecord*>(userData);
  if (!epilogue) return record.prologues.push_back(slot);
  record.epilogues.push_back(slot);
  record.results.push_back(result);
}

namespace {

TEST_F(TracerTest, EveryTracedFunctionRunsTheCallbacksOfItsOwnSlot) {
  constexpr size_t kSlots = sizeof(zet_core_callbacks_t) / sizeof(void*);
  static_assert(sizeof(zet_core_callbacks_t) % sizeof(void*) == 0, "ze_callbacks_t holds only callbacks");
  zet_core_callbacks_t prologues{}, epilogues{};
  setRecordingCallbacks<false>(prologues);
  setRecordingCallbacks<true>(epilogues);
  // The list generated from ze_api.h covers every member of ze_callbacks_t, each once.
  std::array<uintptr_t, kSlots> slots{};
  std::memcpy(slots.data(), &prologues, sizeof(prologues));
  EXPECT_EQ(kSlots, size_t(std::count_if(slots.begin(), slots.end(), [](uintptr_t slot) { return slot != 0; })));
  std::set<size_t> listed;
  for (const TracedFunction& function : kTracedFunctions) listed.insert(function.slot);
  EXPECT_EQ(kSlots, std::size(kTracedFunctions));
  EXPECT_EQ(kSlots, listed.size());

  SlotRecord record;
  enabledTracer(&record, prologues, epilogues);
  for (const TracedFunction& function : kTracedFunctions) {
    record = {};
    const ze_result_t result = function.callWithZeros();
    EXPECT_EQ(std::vector<size_t>{function.slot}, record.prologues) << function.name;
    EXPECT_EQ(std::vector<size_t>{function.slot}, record.epilogues) << function.name;
    EXPECT_EQ(std::vector<ze_result_t>{result}, record.results) << function.name;
  }
}

TEST_F(TracerTest, TracersRunInCreationOrderWithTheirOwnData) {
  std::vector<std::string> entries;
  NamedLog first{"first", &entries}, second{"second", &entries};
  zet_tracer_exp_handle_t firstTracer = tracer(&first);
  zet_tracer_exp_handle_t secondTracer = tracer(&second);
  for (zet_tracer_exp_handle_t handle : {firstTracer, secondTracer}) {
    zet_core_callbacks_t prologues = namedPrologues(), epilogues = namedEpilogues();
    ASSERT_ZE(zetTracerExpSetPrologues(handle, &prologues));
    ASSERT_ZE(zetTracerExpSetEpilogues(handle, &epilogues));
  }
  // Enabled in the other order: creation decides.
  ASSERT_ZE(zetTracerExpSetEnabled(secondTracer, true));
  ASSERT_ZE(zetTracerExpSetEnabled(firstTracer, true));
  ze_device_properties_t properties{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
  ASSERT_ZE(zeDeviceGetProperties(device, &properties));
  EXPECT_EQ((std::vector<std::string>{"first prologue", "second prologue", "first epilogue", "second epilogue"}), entries);
}

TEST_F(TracerTest, OnlyEnabledTracersRunTheirCallbacks) {
  std::vector<std::string> entries;
  NamedLog named{"tracer", &entries};
  zet_tracer_exp_handle_t handle = tracer(&named);
  zet_core_callbacks_t prologues = namedPrologues(), epilogues = namedEpilogues();
  ASSERT_ZE(zetTracerExpSetPrologues(handle, &prologues));
  ASSERT_ZE(zetTracerExpSetEpilogues(handle, &epilogues));
  ze_device_properties_t properties{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
  ASSERT_ZE(zeDeviceGetProperties(device, &properties));
  EXPECT_TRUE(entries.empty()) << "a tracer is created disabled";
  ASSERT_ZE(zetTracerExpSetEnabled(handle, true));
  ASSERT_ZE(zeDeviceGetProperties(device, &properties));
  ASSERT_ZE(zetTracerExpSetEnabled(handle, false));
  ASSERT_ZE(zeDeviceGetProperties(device, &properties));
  EXPECT_EQ((std::vector<std::string>{"tracer prologue", "tracer epilogue"}), entries);
}

TEST_F(TracerTest, CallbacksChangeOnlyWhileTheTracerIsDisabled) {
  CallLog log;
  zet_tracer_exp_handle_t handle = tracer(&log);
  zet_core_callbacks_t callbacks{};
  ASSERT_ZE(zetTracerExpSetEnabled(handle, true));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zetTracerExpSetPrologues(handle, &callbacks));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zetTracerExpSetEpilogues(handle, &callbacks));
  ASSERT_ZE(zetTracerExpSetEnabled(handle, false));
  EXPECT_ZE(zetTracerExpSetPrologues(handle, &callbacks));
  EXPECT_ZE(zetTracerExpSetEpilogues(handle, &callbacks));
}

TEST_F(TracerTest, AnEnabledTracerCannotBeDestroyed) {
  CallLog log;
  zet_tracer_exp_handle_t handle = tracer(&log);
  ASSERT_ZE(zetTracerExpSetEnabled(handle, true));
  EXPECT_EQ(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE, zetTracerExpDestroy(handle));
  ASSERT_ZE(zetTracerExpSetEnabled(handle, false));
  ASSERT_ZE(zetTracerExpDestroy(handle));
  destroyed(handle);
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zetTracerExpSetEnabled(handle, true)) << "a destroyed tracer";
}

TEST_F(TracerTest, BadArgumentsFailWithTheirCodes) {
  CallLog log;
  zet_tracer_exp_desc_t desc{ZET_STRUCTURE_TYPE_TRACER_EXP_DESC, nullptr, &log};
  zet_tracer_exp_handle_t handle = nullptr;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zetTracerExpCreate(nullptr, &desc, &handle));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zetTracerExpCreate(context, nullptr, &handle));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zetTracerExpCreate(context, &desc, nullptr));
  zet_tracer_exp_desc_t noUserData{ZET_STRUCTURE_TYPE_TRACER_EXP_DESC, nullptr, nullptr};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zetTracerExpCreate(context, &noUserData, &handle));
  zet_tracer_exp_desc_t wrongType{ZET_STRUCTURE_TYPE_METRIC_GROUP_PROPERTIES, nullptr, &log};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zetTracerExpCreate(context, &wrongType, &handle));
  EXPECT_EQ(nullptr, handle);

  zet_core_callbacks_t callbacks{};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zetTracerExpSetPrologues(nullptr, &callbacks));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zetTracerExpSetEpilogues(nullptr, &callbacks));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zetTracerExpSetEnabled(nullptr, true));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zetTracerExpDestroy(nullptr));
  handle = tracer(&log);
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zetTracerExpSetPrologues(handle, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zetTracerExpSetEpilogues(handle, nullptr));
  auto* notATracer = reinterpret_cast<zet_tracer_exp_handle_t>(context);
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zetTracerExpSetEnabled(notATracer, true));
}

// Counts what a callback of zeDeviceGetProperties does: calls it again (not traced).
std::atomic<int> nestedPrologues{0};

TEST_F(TracerTest, CallsThatCallbacksMakeAreNotTraced) {
  nestedPrologues = 0;
  zet_core_callbacks_t prologues{}, epilogues{};
  prologues.Device.pfnGetPropertiesCb = [](ze_device_get_properties_params_t* p, ze_result_t, void*, void**) {
    ++nestedPrologues;
    ze_device_properties_t properties{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    EXPECT_ZE(zeDeviceGetProperties(*p->phDevice, &properties));
  };
  CallLog log;
  enabledTracer(&log, prologues, epilogues);
  ze_device_properties_t properties{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
  ASSERT_ZE(zeDeviceGetProperties(device, &properties));
  ASSERT_ZE(zeDeviceGetProperties(device, &properties));
  EXPECT_EQ(2, nestedPrologues.load());
}

// A callback that disables its own tracer, then tries to destroy it: the call it runs in still
// holds the tracer.
struct SelfDestruction {
  zet_tracer_exp_handle_t tracer = nullptr;
  ze_result_t disabled = ZE_RESULT_ERROR_UNKNOWN;
  ze_result_t destroyed = ZE_RESULT_ERROR_UNKNOWN;
};

TEST_F(TracerTest, ACallbackCannotDestroyTheTracerItRunsFor) {
  SelfDestruction attempt;
  zet_core_callbacks_t prologues{}, epilogues{};
  prologues.Device.pfnGetPropertiesCb = [](ze_device_get_properties_params_t*, ze_result_t, void* user, void**) {
    auto& attempt = *static_cast<SelfDestruction*>(user);
    attempt.disabled = zetTracerExpSetEnabled(attempt.tracer, false);
    attempt.destroyed = zetTracerExpDestroy(attempt.tracer);
  };
  attempt.tracer = enabledTracer(&attempt, prologues, epilogues);
  ze_device_properties_t properties{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
  ASSERT_ZE(zeDeviceGetProperties(device, &properties));
  EXPECT_EQ(ZE_RESULT_SUCCESS, attempt.disabled);
  EXPECT_EQ(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE, attempt.destroyed);
}

// What the callbacks of one tracer of the threaded test saw.
struct ThreadedCounts {
  std::atomic<int> prologues{0};
  std::atomic<int> epilogues{0};
  std::atomic<int> lostInstanceData{0};
  std::atomic<int> afterDestroy{0};
  std::atomic<bool> destroyed{false};
};

zet_core_callbacks_t countingPrologues() {
  zet_core_callbacks_t callbacks{};
  callbacks.Device.pfnGetPropertiesCb = [](ze_device_get_properties_params_t*, ze_result_t, void* user, void** instance) {
    auto& counts = *static_cast<ThreadedCounts*>(user);
    if (counts.destroyed) ++counts.afterDestroy;
    ++counts.prologues;
    *instance = user;
  };
  return callbacks;
}

zet_core_callbacks_t countingEpilogues() {
  zet_core_callbacks_t callbacks{};
  callbacks.Device.pfnGetPropertiesCb = [](ze_device_get_properties_params_t*, ze_result_t, void* user, void** instance) {
    auto& counts = *static_cast<ThreadedCounts*>(user);
    if (*instance != user) ++counts.lostInstanceData;
    ++counts.epilogues;
    if (counts.destroyed) ++counts.afterDestroy;
  };
  return callbacks;
}

TEST_F(TracerTest, CallsOnOtherThreadsWhileTracersComeAndGo) {
  constexpr int kThreads = 3;
  constexpr int kRounds = 40;
  ThreadedCounts lasting;
  enabledTracer(&lasting, countingPrologues(), countingEpilogues());
  std::deque<ThreadedCounts> rounds(kRounds);

  std::atomic<bool> stop{false};
  std::atomic<int> failures{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < kThreads; ++t) {
    callers.emplace_back([&] {
      while (!stop) {
        ze_device_properties_t properties{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
        if (zeDeviceGetProperties(device, &properties) != ZE_RESULT_SUCCESS) ++failures;
      }
    });
  }
  for (ThreadedCounts& counts : rounds) {
    zet_tracer_exp_handle_t handle = enabledTracer(&counts, countingPrologues(), countingEpilogues());
    // Until the callers ran through this tracer (they call without pause).
    const auto deadline = std::chrono::steady_clock::now() + kChildTimeout;
    while (counts.epilogues == 0 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
    EXPECT_ZE(zetTracerExpSetEnabled(handle, false));
    EXPECT_ZE(zetTracerExpDestroy(handle));
    destroyed(handle);
    counts.destroyed = true;
  }
  stop = true;
  for (std::thread& caller : callers) caller.join();

  EXPECT_EQ(0, failures.load());
  for (ThreadedCounts* counts : {&lasting, &rounds.front(), &rounds.back()}) EXPECT_GT(counts->epilogues.load(), 0);
  EXPECT_EQ(lasting.prologues.load(), lasting.epilogues.load());
  EXPECT_EQ(0, lasting.lostInstanceData.load());
  for (const ThreadedCounts& counts : rounds) {
    EXPECT_EQ(counts.prologues.load(), counts.epilogues.load()) << "every call ran both callbacks of the tracers it began with";
    EXPECT_EQ(0, counts.lostInstanceData.load());
    EXPECT_EQ(0, counts.afterDestroy.load()) << "no callback runs once its tracer is destroyed";
  }
}

// No debugger attaches to Loom's kernels; the device says so instead of failing the query.
TEST_F(TracerTest, DevicesCannotBeAttachedForDebug) {
  zet_device_debug_properties_t properties{ZET_STRUCTURE_TYPE_DEVICE_DEBUG_PROPERTIES, nullptr, ~0u};
  ASSERT_ZE(zetDeviceGetDebugProperties(device, &properties));
  EXPECT_EQ(0u, properties.flags & ZET_DEVICE_DEBUG_PROPERTY_FLAG_ATTACH);
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zetDeviceGetDebugProperties(nullptr, &properties));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zetDeviceGetDebugProperties(device, nullptr));
}

TEST_F(TracerTest, KernelsHaveNoProfilingMetaData) {
  zet_profile_properties_t properties{ZET_STRUCTURE_TYPE_PROFILE_PROPERTIES, nullptr, ~0u, ~0u};
  ASSERT_ZE(zetKernelGetProfileInfo(apiKernel("empty_kernel"), &properties));
  EXPECT_EQ(0u, properties.flags);
  EXPECT_EQ(0u, properties.numTokens);
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zetKernelGetProfileInfo(nullptr, &properties));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zetKernelGetProfileInfo(apiKernel("empty_kernel"), nullptr));
}

// The spec's profiling request builds (lzt's test_pin passes it), and the log says nothing comes of it.
TEST_F(TracerTest, AModuleBuiltForProfilingSaysItsKernelsHaveNoProfilingMetaData) {
  ze_module_build_log_handle_t log = nullptr;
  ze_module_handle_t profiled = module("api_kernels.spv", "-zet-profile-flags 3", &log);
  ASSERT_NE(profiled, nullptr);
  EXPECT_NE(takeBuildLog(log).find("-zet-profile-flags 3: no profiling information"), std::string::npos);
  zet_profile_properties_t properties{ZET_STRUCTURE_TYPE_PROFILE_PROPERTIES, nullptr, ~0u, ~0u};
  ASSERT_ZE(zetKernelGetProfileInfo(kernel(profiled, "empty_kernel"), &properties));
  EXPECT_EQ(0u, properties.flags) << "no flag was acted on";
  EXPECT_EQ(0u, properties.numTokens);
}

TEST_F(TracerTest, ModulesHaveNoDebugInformation) {
  size_t size = 0;
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
            zetModuleGetDebugInfo(module("api_kernels.spv"), ZET_MODULE_DEBUG_INFO_FORMAT_ELF_DWARF, &size, nullptr));
}

}  // namespace
}  // namespace loom::test
