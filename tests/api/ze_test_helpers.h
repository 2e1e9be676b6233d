#pragma once
// What every Level Zero API test needs: the Loom device through the loader, a context, modules
// from the SPIR-V kernels built into the program, allocations, lists, queues and events that are
// released when the test ends, and bounded waits. Result codes print by name in failure messages.
#include <gtest/gtest.h>
#include <level_zero/ze_api.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "embedded_files.h"
#include "forced_backend.h"

// gtest finds this by argument-dependent lookup: ze_result_t lives in the global namespace.
inline const char* zeResultName(ze_result_t result) {
  switch (result) {
#define LOOM_RESULT_NAME(name) \
  case name:                   \
    return #name;
    LOOM_RESULT_NAME(ZE_RESULT_SUCCESS)
    LOOM_RESULT_NAME(ZE_RESULT_NOT_READY)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_DEVICE_LOST)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_MODULE_LINK_FAILURE)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_UNINITIALIZED)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_UNSUPPORTED_VERSION)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_INVALID_ARGUMENT)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_INVALID_NULL_HANDLE)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_INVALID_NULL_POINTER)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_INVALID_SIZE)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_UNSUPPORTED_SIZE)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_INVALID_ENUMERATION)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_INVALID_NATIVE_BINARY)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_INVALID_GLOBAL_NAME)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_INVALID_KERNEL_NAME)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_INVALID_FUNCTION_NAME)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_INVALID_GLOBAL_WIDTH_DIMENSION)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_INVALID_KERNEL_ATTRIBUTE_VALUE)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_OVERLAPPING_REGIONS)
    LOOM_RESULT_NAME(ZE_RESULT_ERROR_UNKNOWN)
#undef LOOM_RESULT_NAME
    default:
      return nullptr;
  }
}

inline std::ostream& operator<<(std::ostream& out, ze_result_t result) {
  if (const char* name = zeResultName(result)) return out << name;
  return out << "ze_result_t(0x" << std::hex << uint32_t(result) << std::dec << ")";
}

#define ASSERT_ZE(call) ASSERT_EQ(ZE_RESULT_SUCCESS, (call))
#define EXPECT_ZE(call) EXPECT_EQ(ZE_RESULT_SUCCESS, (call))

namespace loom::test {

constexpr uint64_t kTimeout = 10'000'000'000ull;  // 10 s in nanoseconds: every wait is bounded
// A hang guard, not a measure: a child of the sanitizer build on a loaded machine spends seconds
// compiling its kernels before it runs them.
constexpr auto kChildTimeout = std::chrono::seconds(120);
// Values work_item_ids (tests/kernels/work_item_kernels.cl) writes per work-item.
constexpr size_t kWorkItemRecord = 27;

// A test kernel's SPIR-V (tests/kernels, built into the program).
inline std::vector<uint8_t> readKernelFile(const std::string& name) { return embeddedBytes(name); }

// The text of a build log (empty for a null handle); the log is destroyed.
inline std::string takeBuildLog(ze_module_build_log_handle_t log) {
  if (!log) return {};
  size_t size = 0;
  EXPECT_ZE(zeModuleBuildLogGetString(log, &size, nullptr));
  std::string text(size, '\0');
  EXPECT_ZE(zeModuleBuildLogGetString(log, &size, text.data()));
  EXPECT_ZE(zeModuleBuildLogDestroy(log));
  return text.c_str();  // without the terminating zero
}

// Waits for a child process: its exit code, 128 + the signal's number when a signal ended it, -1
// when it did not finish within kChildTimeout (it is killed then).
inline int waitForChild(pid_t pid) {
  const auto deadline = std::chrono::steady_clock::now() + kChildTimeout;
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Runs `child` in a forked process and returns its exit code (waitForChild): 0 when it returned
// true, 1 when false.
inline int runInChildProcess(const std::function<bool()>& child) {
  const pid_t pid = fork();
  if (pid == 0) _exit(child() ? 0 : 1);
  if (pid < 0) return -1;
  return waitForChild(pid);
}

constexpr const char* kChildInputVariable = "LOOM_TEST_CHILD_INPUT";

// Runs one test of this binary (a DISABLED_ one, which runs only so) in a new process: fork and
// exec, since CUDA cannot be used in a forked child. The test reads `input` with childInput().
// Returns its exit code (waitForChild): 0 when the test passed.
inline int runTestInNewProcess(const std::string& test, const std::vector<uint8_t>& input) {
  std::string hex;
  for (uint8_t byte : input) hex += "0123456789abcdef"[byte >> 4], hex += "0123456789abcdef"[byte & 15];
  std::vector<std::string> environment{std::string(kChildInputVariable) + "=" + hex};
  for (char** variable = environ; *variable; ++variable)
    if (std::string(*variable).rfind(std::string(kChildInputVariable) + "=", 0) != 0) environment.emplace_back(*variable);
  const std::string executable = std::filesystem::read_symlink("/proc/self/exe");
  std::vector<std::string> arguments{executable, "--gtest_filter=" + test, "--gtest_also_run_disabled_tests"};
  auto pointers = [](std::vector<std::string>& strings) {
    std::vector<char*> result;
    for (std::string& text : strings) result.push_back(text.data());
    result.push_back(nullptr);
    return result;
  };
  std::vector<char*> argv = pointers(arguments), envp = pointers(environment);
  const pid_t pid = fork();
  if (pid == 0) {
    execve(executable.c_str(), argv.data(), envp.data());
    _exit(127);
  }
  if (pid < 0) return -1;
  return waitForChild(pid);
}

// What runTestInNewProcess gave this process's test; empty when the test runs on its own.
inline std::vector<uint8_t> childInput() {
  const char* hex = std::getenv(kChildInputVariable);
  std::vector<uint8_t> bytes;
  for (size_t i = 0; hex && hex[i] && hex[i + 1]; i += 2) bytes.push_back(uint8_t(std::stoi(std::string(hex + i, 2), nullptr, 16)));
  return bytes;
}

// The input as a `T`, as the parent wrote it with bytesOf; skips the test when it runs on its own.
#define CHILD_INPUT(T, name)                                                                 \
  const std::vector<uint8_t> name##Bytes = childInput();                                     \
  if (name##Bytes.size() != sizeof(T)) GTEST_SKIP() << "runs only as another test's child"; \
  T name;                                                                                    \
  std::memcpy(&name, name##Bytes.data(), sizeof(T))

template <typename T>
std::vector<uint8_t> bytesOf(const T& value) {
  const auto* bytes = reinterpret_cast<const uint8_t*>(&value);
  return {bytes, bytes + sizeof(T)};
}

// Skips a test of a capability that only the CPU device has, saying which.
#define SKIP_UNLESS_CPU_DEVICE(what) \
  if (deviceType() != ZE_DEVICE_TYPE_CPU) GTEST_SKIP() << what << " only on the CPU device"

// What a two-call query lists: its count first, then the handles.
template <typename Handle, typename Query>
std::vector<Handle> listed(Query query) {
  uint32_t count = 0;
  EXPECT_ZE(query(&count, nullptr));
  std::vector<Handle> found(count);
  EXPECT_ZE(query(&count, found.data()));
  return found;
}

class ZeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const ze_result_t init = zeInit(0);
    // Forced onto CUDA (LOOM_ForceBackend=cuda) on a machine without its driver: nothing to test.
    if (init == ZE_RESULT_ERROR_UNINITIALIZED && forcedOntoAbsentCuda()) GTEST_SKIP() << "LOOM_ForceBackend=cuda without libcuda.so.1";
    ASSERT_ZE(init);
    uint32_t count = 1;
    ASSERT_ZE(zeDriverGet(&count, &driver));
    count = 1;
    ASSERT_ZE(zeDeviceGet(driver, &count, &device));
    ze_context_desc_t contextDesc{ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    ASSERT_ZE(zeContextCreate(driver, &contextDesc, &context));
    list = immediateList(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
  }

  // Everything a test made through these helpers, released in dependency order.
  void TearDown() override {
    for (ze_event_handle_t event : events) EXPECT_ZE(zeEventDestroy(event));
    for (ze_event_pool_handle_t pool : eventPools) EXPECT_ZE(zeEventPoolDestroy(pool));
    for (ze_kernel_handle_t k : kernels) EXPECT_ZE(zeKernelDestroy(k));
    for (ze_module_handle_t m : modules) EXPECT_ZE(zeModuleDestroy(m));
    for (ze_command_list_handle_t l : commandLists) EXPECT_ZE(zeCommandListDestroy(l));
    for (ze_fence_handle_t fence : fences) EXPECT_ZE(zeFenceDestroy(fence));
    for (ze_command_queue_handle_t queue : queues) EXPECT_ZE(zeCommandQueueDestroy(queue));
    for (void* memory : allocations) EXPECT_ZE(zeMemFree(context, memory));
    if (context) {
      EXPECT_ZE(zeContextDestroy(context));
    }
  }

  // The version at which zeDriverGetExtensionProperties lists extension `name`; 0 where it does not.
  uint32_t listedExtensionVersion(const char* name) {
    uint32_t count = 0;
    EXPECT_ZE(zeDriverGetExtensionProperties(driver, &count, nullptr));
    std::vector<ze_driver_extension_properties_t> extensions(count);
    EXPECT_ZE(zeDriverGetExtensionProperties(driver, &count, extensions.data()));
    for (const ze_driver_extension_properties_t& extension : extensions)
      if (std::strcmp(extension.name, name) == 0) return extension.version;
    return 0;
  }

  // --- command lists, queues, fences ---------------------------------------------------------

  static ze_command_queue_desc_t queueDesc(ze_command_queue_mode_t mode, uint32_t ordinal, uint32_t index) {
    ze_command_queue_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
    desc.mode = mode;
    desc.ordinal = ordinal;
    desc.index = index;
    return desc;
  }

  ze_command_list_handle_t immediateList(ze_command_queue_mode_t mode, uint32_t ordinal = 0, uint32_t index = 0) {
    const ze_command_queue_desc_t desc = queueDesc(mode, ordinal, index);
    ze_command_list_handle_t handle = nullptr;
    EXPECT_ZE(zeCommandListCreateImmediate(context, device, &desc, &handle));
    if (handle) commandLists.push_back(handle);
    return handle;
  }

  ze_command_list_handle_t regularList(uint32_t ordinal = 0) {
    ze_command_list_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
    desc.commandQueueGroupOrdinal = ordinal;
    ze_command_list_handle_t handle = nullptr;
    EXPECT_ZE(zeCommandListCreate(context, device, &desc, &handle));
    if (handle) commandLists.push_back(handle);
    return handle;
  }

  ze_command_queue_handle_t commandQueue(ze_command_queue_mode_t mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                         uint32_t ordinal = 0, uint32_t index = 0) {
    const ze_command_queue_desc_t desc = queueDesc(mode, ordinal, index);
    ze_command_queue_handle_t handle = nullptr;
    EXPECT_ZE(zeCommandQueueCreate(context, device, &desc, &handle));
    if (handle) queues.push_back(handle);
    return handle;
  }

  ze_fence_handle_t fence(ze_command_queue_handle_t queue, ze_fence_flags_t flags = 0) {
    ze_fence_desc_t desc{ZE_STRUCTURE_TYPE_FENCE_DESC, nullptr, flags};
    ze_fence_handle_t handle = nullptr;
    EXPECT_ZE(zeFenceCreate(queue, &desc, &handle));
    if (handle) fences.push_back(handle);
    return handle;
  }

  // Executes a closed regular list on a compute queue of its own and waits (bounded) for it.
  void execute(ze_command_list_handle_t closed) {
    if (!executionQueue) executionQueue = commandQueue();
    ASSERT_ZE(zeCommandQueueExecuteCommandLists(executionQueue, 1, &closed, nullptr));
    ASSERT_ZE(zeCommandQueueSynchronize(executionQueue, kTimeout));
  }

  // --- events ----------------------------------------------------------------------------------

  ze_event_pool_handle_t eventPool(ze_event_pool_flags_t flags, uint32_t count = 4) {
    ze_event_pool_desc_t desc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, flags, count};
    ze_event_pool_handle_t handle = nullptr;
    EXPECT_ZE(zeEventPoolCreate(context, &desc, 1, &device, &handle));
    if (handle) eventPools.push_back(handle);
    return handle;
  }

  ze_event_handle_t event(ze_event_pool_handle_t pool, uint32_t index = 0) {
    ze_event_desc_t desc{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, index, ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
    ze_event_handle_t handle = nullptr;
    EXPECT_ZE(zeEventCreate(pool, &desc, &handle));
    if (handle) events.push_back(handle);
    return handle;
  }

  // A host-visible event in a pool of its own.
  ze_event_handle_t hostVisibleEvent(ze_event_pool_flags_t extraFlags = 0) {
    return event(eventPool(ZE_EVENT_POOL_FLAG_HOST_VISIBLE | extraFlags, 1));
  }

  // --- modules and kernels -------------------------------------------------------------------

  ze_module_handle_t module(const std::string& file, const char* flags = "", ze_module_build_log_handle_t* log = nullptr) {
    const std::vector<uint8_t> spirv = readKernelFile(file);
    EXPECT_FALSE(spirv.empty()) << file;
    ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC};
    desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
    desc.inputSize = spirv.size();
    desc.pInputModule = spirv.data();
    desc.pBuildFlags = flags;
    ze_module_handle_t handle = nullptr;
    EXPECT_ZE(zeModuleCreate(context, device, &desc, &handle, log));
    if (handle) modules.push_back(handle);
    return handle;
  }

  ze_kernel_handle_t kernel(ze_module_handle_t from, const char* name) {
    ze_kernel_desc_t desc{ZE_STRUCTURE_TYPE_KERNEL_DESC};
    desc.pKernelName = name;
    ze_kernel_handle_t handle = nullptr;
    EXPECT_ZE(zeKernelCreate(from, &desc, &handle));
    if (handle) kernels.push_back(handle);
    return handle;
  }

  // A kernel of tests/kernels/api_kernels.cl; the module is built once per test.
  ze_kernel_handle_t apiKernel(const char* name) {
    if (!apiModule) apiModule = module("api_kernels.spv");
    return kernel(apiModule, name);
  }

  template <typename... Arguments>
  void setArguments(ze_kernel_handle_t k, Arguments... arguments) {
    uint32_t index = 0;
    auto set = [&](const auto& value) { EXPECT_ZE(zeKernelSetArgumentValue(k, index++, sizeof(value), &value)); };
    (set(arguments), ...);
  }

  // A 1-D launch of `groups` groups of `groupSize` on `on` (the synchronous immediate list by default).
  void launch(ze_kernel_handle_t k, uint32_t groups, uint32_t groupSize, ze_command_list_handle_t on = nullptr) {
    ASSERT_ZE(zeKernelSetGroupSize(k, groupSize, 1, 1));
    ze_group_count_t count{groups, 1, 1};
    ASSERT_ZE(zeCommandListAppendLaunchKernel(on ? on : list, k, &count, nullptr, 0, nullptr));
  }

  // --- memory --------------------------------------------------------------------------------

  template <typename T>
  T* shared(size_t count) {
    ze_device_mem_alloc_desc_t deviceDesc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    ze_host_mem_alloc_desc_t hostDesc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    return allocated<T>([&](void** memory) {
      return zeMemAllocShared(context, &deviceDesc, &hostDesc, count * sizeof(T), 64, device, memory);
    });
  }

  template <typename T>
  T* deviceMemory(size_t count) {
    ze_device_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    return allocated<T>([&](void** memory) { return zeMemAllocDevice(context, &desc, count * sizeof(T), 64, device, memory); });
  }

  template <typename T>
  T* hostMemory(size_t count) {
    ze_host_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    return allocated<T>([&](void** memory) { return zeMemAllocHost(context, &desc, count * sizeof(T), 64, memory); });
  }

  // What `allocate(&memory)` allocates, freed when the test ends.
  template <typename T, typename Allocate>
  T* allocated(Allocate&& allocate) {
    void* memory = nullptr;
    EXPECT_ZE(allocate(&memory));
    if (memory) allocations.push_back(memory);
    return static_cast<T*>(memory);
  }

  // Device memory is host-accessible only on the CPU device: tests that read or write it from
  // the host go through copies on the synchronous list, which work on every device.
  template <typename T>
  std::vector<T> download(const T* from, size_t count) {
    std::vector<T> host(count);
    EXPECT_ZE(zeCommandListAppendMemoryCopy(list, host.data(), from, count * sizeof(T), nullptr, 0, nullptr));
    return host;
  }

  template <typename T>
  void upload(T* to, const std::vector<T>& host) {
    EXPECT_ZE(zeCommandListAppendMemoryCopy(list, to, host.data(), host.size() * sizeof(T), nullptr, 0, nullptr));
  }

  ze_device_type_t deviceType() {
    ze_device_properties_t properties{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    EXPECT_ZE(zeDeviceGetProperties(device, &properties));
    return properties.type;
  }

  ze_driver_handle_t driver = nullptr;
  ze_device_handle_t device = nullptr;
  ze_context_handle_t context = nullptr;
  ze_command_list_handle_t list = nullptr;  // synchronous immediate list on the compute group
  ze_module_handle_t apiModule = nullptr;
  ze_command_queue_handle_t executionQueue = nullptr;
  std::vector<ze_event_handle_t> events;
  std::vector<ze_event_pool_handle_t> eventPools;
  std::vector<ze_kernel_handle_t> kernels;
  std::vector<ze_module_handle_t> modules;
  std::vector<ze_command_list_handle_t> commandLists;
  std::vector<ze_fence_handle_t> fences;
  std::vector<ze_command_queue_handle_t> queues;
  std::vector<void*> allocations;
};

}  // namespace loom::test
