#pragma once
// What every OpenCL API test needs: the Loom platform among those the ICD loader lists, its
// device, a context and an in-order queue, programs built from OpenCL C strings (build log in
// the failure message), buffers, kernels and events released when the test ends, and bounded
// waits for asynchronous callbacks. Error codes print by name in failure messages.
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <functional>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "embedded_files.h"
#include "forced_backend.h"

namespace loom::test {

inline const char* clErrorName(cl_int code) {
  switch (code) {
#define LOOM_CL_NAME(name) \
  case name:               \
    return #name;
    LOOM_CL_NAME(CL_SUCCESS)
    LOOM_CL_NAME(CL_DEVICE_NOT_FOUND)
    LOOM_CL_NAME(CL_DEVICE_NOT_AVAILABLE)
    LOOM_CL_NAME(CL_COMPILER_NOT_AVAILABLE)
    LOOM_CL_NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    LOOM_CL_NAME(CL_OUT_OF_RESOURCES)
    LOOM_CL_NAME(CL_OUT_OF_HOST_MEMORY)
    LOOM_CL_NAME(CL_PROFILING_INFO_NOT_AVAILABLE)
    LOOM_CL_NAME(CL_MEM_COPY_OVERLAP)
    LOOM_CL_NAME(CL_IMAGE_FORMAT_MISMATCH)
    LOOM_CL_NAME(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    LOOM_CL_NAME(CL_BUILD_PROGRAM_FAILURE)
    LOOM_CL_NAME(CL_MAP_FAILURE)
    LOOM_CL_NAME(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    LOOM_CL_NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    LOOM_CL_NAME(CL_COMPILE_PROGRAM_FAILURE)
    LOOM_CL_NAME(CL_LINKER_NOT_AVAILABLE)
    LOOM_CL_NAME(CL_LINK_PROGRAM_FAILURE)
    LOOM_CL_NAME(CL_DEVICE_PARTITION_FAILED)
    LOOM_CL_NAME(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    LOOM_CL_NAME(CL_INVALID_VALUE)
    LOOM_CL_NAME(CL_INVALID_DEVICE_TYPE)
    LOOM_CL_NAME(CL_INVALID_PLATFORM)
    LOOM_CL_NAME(CL_INVALID_DEVICE)
    LOOM_CL_NAME(CL_INVALID_CONTEXT)
    LOOM_CL_NAME(CL_INVALID_QUEUE_PROPERTIES)
    LOOM_CL_NAME(CL_INVALID_COMMAND_QUEUE)
    LOOM_CL_NAME(CL_INVALID_HOST_PTR)
    LOOM_CL_NAME(CL_INVALID_MEM_OBJECT)
    LOOM_CL_NAME(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    LOOM_CL_NAME(CL_INVALID_IMAGE_SIZE)
    LOOM_CL_NAME(CL_INVALID_SAMPLER)
    LOOM_CL_NAME(CL_INVALID_BINARY)
    LOOM_CL_NAME(CL_INVALID_BUILD_OPTIONS)
    LOOM_CL_NAME(CL_INVALID_PROGRAM)
    LOOM_CL_NAME(CL_INVALID_PROGRAM_EXECUTABLE)
    LOOM_CL_NAME(CL_INVALID_KERNEL_NAME)
    LOOM_CL_NAME(CL_INVALID_KERNEL_DEFINITION)
    LOOM_CL_NAME(CL_INVALID_KERNEL)
    LOOM_CL_NAME(CL_INVALID_ARG_INDEX)
    LOOM_CL_NAME(CL_INVALID_ARG_VALUE)
    LOOM_CL_NAME(CL_INVALID_ARG_SIZE)
    LOOM_CL_NAME(CL_INVALID_KERNEL_ARGS)
    LOOM_CL_NAME(CL_INVALID_WORK_DIMENSION)
    LOOM_CL_NAME(CL_INVALID_WORK_GROUP_SIZE)
    LOOM_CL_NAME(CL_INVALID_WORK_ITEM_SIZE)
    LOOM_CL_NAME(CL_INVALID_GLOBAL_OFFSET)
    LOOM_CL_NAME(CL_INVALID_EVENT_WAIT_LIST)
    LOOM_CL_NAME(CL_INVALID_EVENT)
    LOOM_CL_NAME(CL_INVALID_OPERATION)
    LOOM_CL_NAME(CL_INVALID_GL_OBJECT)
    LOOM_CL_NAME(CL_INVALID_BUFFER_SIZE)
    LOOM_CL_NAME(CL_INVALID_MIP_LEVEL)
    LOOM_CL_NAME(CL_INVALID_GLOBAL_WORK_SIZE)
    LOOM_CL_NAME(CL_INVALID_PROPERTY)
    LOOM_CL_NAME(CL_INVALID_IMAGE_DESCRIPTOR)
    LOOM_CL_NAME(CL_INVALID_COMPILER_OPTIONS)
    LOOM_CL_NAME(CL_INVALID_LINKER_OPTIONS)
    LOOM_CL_NAME(CL_INVALID_DEVICE_PARTITION_COUNT)
    LOOM_CL_NAME(CL_INVALID_PIPE_SIZE)
    LOOM_CL_NAME(CL_INVALID_DEVICE_QUEUE)
    LOOM_CL_NAME(CL_INVALID_SPEC_ID)
    LOOM_CL_NAME(CL_MAX_SIZE_RESTRICTION_EXCEEDED)
#undef LOOM_CL_NAME
    default:
      return nullptr;
  }
}

inline std::string clCodeText(cl_int code) {
  if (const char* name = clErrorName(code)) return name;
  return "cl_int(" + std::to_string(code) + ")";
}

// EXPECT_CL(expected, call): compares two cl_int codes and prints both by name.
inline ::testing::AssertionResult clCodesEqual(const char* expectedText, const char* actualText, cl_int expected,
                                               cl_int actual) {
  if (expected == actual) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << actualText << " returned " << clCodeText(actual) << ", expected "
                                       << clCodeText(expected) << " (" << expectedText << ")";
}

#define EXPECT_CL(expected, call) EXPECT_PRED_FORMAT2(::loom::test::clCodesEqual, expected, call)
#define ASSERT_CL(expected, call) ASSERT_PRED_FORMAT2(::loom::test::clCodesEqual, expected, call)
#define EXPECT_CL_OK(call) EXPECT_CL(CL_SUCCESS, call)
#define ASSERT_CL_OK(call) ASSERT_CL(CL_SUCCESS, call)

constexpr auto kCallbackTimeout = std::chrono::seconds(10);

// Polls `done` until it holds or kCallbackTimeout passes (callbacks may run on another thread).
inline bool eventually(const std::function<bool()>& done) {
  const auto deadline = std::chrono::steady_clock::now() + kCallbackTimeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

// What the calls of an application's callback record, in the order they came, on whatever
// threads the runtime calls them: for each, the tag of its registration and what it was passed.
template <typename Call>
class CallbackLog {
 public:
  void add(Call call) {
    std::lock_guard lock(mutex_);
    calls_.push_back(std::move(call));
  }
  size_t size() const {
    std::lock_guard lock(mutex_);
    return calls_.size();
  }
  std::vector<Call> calls() const {
    std::lock_guard lock(mutex_);
    return calls_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<Call> calls_;
};

// The user_data of one callback registration: the log its calls go to and the tag they carry.
template <typename Call>
struct CallbackTag {
  CallbackLog<Call>* log;
  int tag;
};

// The calls of a destructor callback (clSetContextDestructorCallback,
// clSetMemObjectDestructorCallback): the registration's tag and the object destroyed.
template <typename Object>
using Destroyed = std::pair<int, Object>;

template <typename Object>
void CL_CALLBACK logDestroyed(Object object, void* data) {
  auto* tag = static_cast<CallbackTag<Destroyed<Object>>*>(data);
  tag->log->add({tag->tag, object});
}

// A test kernel's SPIR-V or OpenCL C (tests/kernels, tests/opencl/kernels; built into the program).
inline std::vector<uint8_t> readKernelFile(const std::string& name) { return embeddedBytes(name); }
inline std::string readKernelSource(const std::string& name) { return embeddedText(name); }

// How a program of a parameterized suite is made: from IL (no options), or from source with these
// build options.
struct ProgramKind {
  const char* name;
  const char* sourceOptions;
};

// From IL, and from OpenCL C 3.0 and 2.0 source, named by ProgramKind::name.
#define LOOM_INSTANTIATE_FOR_PROGRAM_KINDS(Suite)                                                                   \
  INSTANTIATE_TEST_SUITE_P(Programs, Suite,                                                                          \
                           testing::Values(ProgramKind{"FromIl", nullptr}, ProgramKind{"FromOpenClC30", "-cl-std=CL3.0"}, \
                                           ProgramKind{"FromOpenClC20", "-cl-std=CL2.0"}),                           \
                           [](const testing::TestParamInfo<ProgramKind>& info) { return std::string(info.param.name); })

inline std::set<std::string> splitWords(const std::string& text, char separator = ' ') {
  std::set<std::string> words;
  std::string word;
  std::istringstream in(text);
  while (std::getline(in, word, separator))
    if (!word.empty()) words.insert(word);
  return words;
}

// A string query: the value without its terminating zero; the reported size must count it.
template <typename Query>
std::string infoString(Query query) {
  size_t size = 0;
  EXPECT_CL_OK(query(0, nullptr, &size));
  std::string text(size, '\0');
  size_t returned = 0;
  EXPECT_CL_OK(query(size, text.data(), &returned));
  EXPECT_EQ(returned, size);
  EXPECT_TRUE(size > 0 && text[size - 1] == '\0') << "string info without a terminating zero";
  return text.c_str();
}

template <typename T, typename Query>
std::vector<T> infoArray(Query query) {
  size_t size = 0;
  EXPECT_CL_OK(query(0, nullptr, &size));
  EXPECT_EQ(size % sizeof(T), 0u);
  std::vector<T> items(size / sizeof(T));
  if (size) { EXPECT_CL_OK(query(size, items.data(), nullptr)); }
  return items;
}

template <typename T, typename Query>
T infoScalar(Query query) {
  T value{};
  size_t size = 0;
  EXPECT_CL_OK(query(sizeof(T), &value, &size));
  EXPECT_EQ(size, sizeof(T));
  return value;
}

// A fresh object's CL_*_REFERENCE_COUNT, read through its clGet*Info, starts at 1 and follows one
// clRetain* and one clRelease*.
template <typename Handle, typename Info>
void expectReferenceCounting(Handle object, cl_int (*getInfo)(Handle, Info, size_t, void*, size_t*),
                             std::type_identity_t<Info> countName, cl_int (*retain)(Handle), cl_int (*release)(Handle)) {
  const auto count = [&] {
    return infoScalar<cl_uint>([&](size_t s, void* v, size_t* r) { return getInfo(object, countName, s, v, r); });
  };
  EXPECT_EQ(count(), 1u);
  ASSERT_CL_OK(retain(object));
  EXPECT_EQ(count(), 2u);
  ASSERT_CL_OK(release(object));
  EXPECT_EQ(count(), 1u);
}

// The platform named "Loom" (PoCL may be listed too); null when the loader does not list it.
inline cl_platform_id loomPlatform() {
  cl_uint count = 0;
  if (clGetPlatformIDs(0, nullptr, &count) != CL_SUCCESS || count == 0) return nullptr;
  std::vector<cl_platform_id> platforms(count);
  if (clGetPlatformIDs(count, platforms.data(), nullptr) != CL_SUCCESS) return nullptr;
  for (cl_platform_id platform : platforms) {
    char name[128] = {};
    if (clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof(name), name, nullptr) == CL_SUCCESS &&
        std::strcmp(name, "Loom") == 0)
      return platform;
  }
  return nullptr;
}

class ClTest : public ::testing::Test {
 protected:
  void SetUp() override {
    platform = loomPlatform();
    ASSERT_NE(platform, nullptr) << "the ICD loader lists no platform named Loom (OCL_ICD_VENDORS=<build>/icd?)";
    // The platform's default device: the CPU, or the first GPU where Loom lists GPUs (the same
    // suite then runs on the GPU).
    const cl_int found = clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &device, nullptr);
    if (found == CL_DEVICE_NOT_FOUND && forcedOntoAbsentCuda()) GTEST_SKIP() << "LOOM_ForceBackend=cuda without libcuda.so.1";
    ASSERT_CL_OK(found);
    cl_int error = CL_SUCCESS;
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &error);
    ASSERT_CL_OK(error);
    queue = createQueue(0);
    ASSERT_NE(queue, nullptr);
  }

  // Everything the test made through these helpers, released in dependency order.
  void TearDown() override {
    for (cl_command_queue q : queues) EXPECT_CL_OK(clFinish(q));
    for (cl_event e : events) EXPECT_CL_OK(clReleaseEvent(e));
    for (cl_kernel k : kernels) EXPECT_CL_OK(clReleaseKernel(k));
    for (cl_program p : programs) EXPECT_CL_OK(clReleaseProgram(p));
    for (cl_mem m : buffers) EXPECT_CL_OK(clReleaseMemObject(m));
    for (void* pointer : svmPointers) clSVMFree(context, pointer);
    for (cl_command_queue q : queues) EXPECT_CL_OK(clReleaseCommandQueue(q));
    if (context) { EXPECT_CL_OK(clReleaseContext(context)); }
    for (cl_context c : otherContexts) EXPECT_CL_OK(clReleaseContext(c));
  }

  // --- queues and events ----------------------------------------------------------------------

  cl_command_queue createQueue(cl_command_queue_properties properties, cl_context in = nullptr) {
    const cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, properties, 0};
    cl_int error = CL_SUCCESS;
    cl_command_queue created = clCreateCommandQueueWithProperties(in ? in : context, device, list, &error);
    EXPECT_CL_OK(error);
    if (created) queues.push_back(created);
    return created;
  }

  cl_context createContext() {
    cl_int error = CL_SUCCESS;
    cl_context created = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &error);
    EXPECT_CL_OK(error);
    if (created) otherContexts.push_back(created);
    return created;
  }

  // Keeps `e` until the test ends; returns it.
  cl_event track(cl_event e) {
    if (e) events.push_back(e);
    return e;
  }

  cl_event userEvent(cl_context in = nullptr) {
    cl_int error = CL_SUCCESS;
    cl_event e = clCreateUserEvent(in ? in : context, &error);
    EXPECT_CL_OK(error);
    return track(e);
  }

  cl_int eventStatus(cl_event e) {
    cl_int status = 0;
    EXPECT_CL_OK(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr));
    return status;
  }

  // --- programs and kernels -------------------------------------------------------------------

  cl_program sourceProgram(const std::string& source, cl_context in = nullptr) {
    const char* text = source.c_str();
    cl_int error = CL_SUCCESS;
    cl_program created = clCreateProgramWithSource(in ? in : context, 1, &text, nullptr, &error);
    EXPECT_CL_OK(error);
    if (created) programs.push_back(created);
    return created;
  }

  // clGetProgramBuildInfo about this test's device, as a query for infoString or infoScalar.
  auto buildQuery(cl_program p, cl_program_build_info name) {
    return [=, this](size_t s, void* v, size_t* r) { return clGetProgramBuildInfo(p, device, name, s, v, r); };
  }
  std::string buildLog(cl_program p) { return infoString(buildQuery(p, CL_PROGRAM_BUILD_LOG)); }
  cl_build_status buildStatus(cl_program p) { return infoScalar<cl_build_status>(buildQuery(p, CL_PROGRAM_BUILD_STATUS)); }

  // A program built from OpenCL C `source`; the build log is the failure message.
  cl_program build(const std::string& source, const std::string& options = "-cl-std=CL3.0", cl_context in = nullptr) {
    cl_program p = sourceProgram(source, in);
    if (!p) return nullptr;
    const cl_int result = clBuildProgram(p, 0, nullptr, options.c_str(), nullptr, nullptr);
    EXPECT_CL_OK(result) << "options: " << options << "\nlog:\n" << buildLog(p);
    return p;
  }

  // `inputs` linked for this test's device with `options`; null, with a test failure, when it fails.
  cl_program link(std::vector<cl_program> inputs, const char* options = "") {
    cl_int error = CL_SUCCESS;
    cl_program linked = clLinkProgram(context, 1, &device, options, cl_uint(inputs.size()), inputs.data(), nullptr, nullptr, &error);
    EXPECT_CL_OK(error);
    if (linked) programs.push_back(linked);
    return linked;
  }

  cl_program ilProgram(const std::vector<uint8_t>& il) {
    cl_int error = CL_SUCCESS;
    cl_program created = clCreateProgramWithIL(context, il.data(), il.size(), &error);
    EXPECT_CL_OK(error);
    if (created) programs.push_back(created);
    return created;
  }

  cl_kernel kernel(cl_program from, const char* name) {
    cl_int error = CL_SUCCESS;
    cl_kernel created = clCreateKernel(from, name, &error);
    EXPECT_CL_OK(error) << name;
    if (created) kernels.push_back(created);
    return created;
  }

  // The kernel `name` of a program made as `kind` says from the test kernels `file`: from its
  // SPIR-V (file.spv) or from its OpenCL C (file.cl).
  cl_kernel kernelOfKind(const ProgramKind& kind, const std::string& file, const char* name) {
    cl_program p = nullptr;
    if (!kind.sourceOptions) {
      p = ilProgram(readKernelFile(file + ".spv"));
      if (p) {
        EXPECT_CL_OK(clBuildProgram(p, 0, nullptr, "", nullptr, nullptr)) << buildLog(p);
      }
    } else {
      p = build(readKernelSource(file + ".cl"), kind.sourceOptions);
    }
    return p ? kernel(p, name) : nullptr;
  }

  // The kernel `name` of a program built from `source`.
  cl_kernel buildKernel(const std::string& source, const char* name, const std::string& options = "-cl-std=CL3.0") {
    cl_program p = build(source, options);
    return p ? kernel(p, name) : nullptr;
  }

  template <typename... Arguments>
  void setArgs(cl_kernel k, const Arguments&... arguments) {
    cl_uint index = 0;
    auto set = [&](const auto& value) { EXPECT_CL_OK(clSetKernelArg(k, index++, sizeof(value), &value)); };
    (set(arguments), ...);
  }

  // A 1-D launch on the test's queue, waited for.
  void run1d(cl_kernel k, size_t global, const size_t* local = nullptr) {
    ASSERT_CL_OK(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, local, 0, nullptr, nullptr));
    ASSERT_CL_OK(clFinish(queue));
  }

  // --- memory ---------------------------------------------------------------------------------

  cl_mem buffer(cl_mem_flags flags, size_t size, void* host = nullptr, cl_context in = nullptr) {
    cl_int error = CL_SUCCESS;
    cl_mem created = clCreateBuffer(in ? in : context, flags, size, host, &error);
    EXPECT_CL_OK(error);
    if (created) buffers.push_back(created);
    return created;
  }

  template <typename T>
  cl_mem bufferWith(const std::vector<T>& values, cl_mem_flags flags = CL_MEM_READ_WRITE) {
    return buffer(flags | CL_MEM_COPY_HOST_PTR, values.size() * sizeof(T), const_cast<T*>(values.data()));
  }

  template <typename T>
  std::vector<T> readBack(cl_mem from, size_t count, size_t offsetElements = 0) {
    std::vector<T> values(count);
    EXPECT_CL_OK(clEnqueueReadBuffer(queue, from, CL_TRUE, offsetElements * sizeof(T), count * sizeof(T), values.data(), 0,
                                     nullptr, nullptr));
    return values;
  }

  void* svmAlloc(cl_svm_mem_flags flags, size_t size, cl_uint alignment = 0) {
    void* pointer = clSVMAlloc(context, flags, size, alignment);
    EXPECT_NE(pointer, nullptr);
    if (pointer) svmPointers.push_back(pointer);
    return pointer;
  }

  template <typename T>
  T deviceInfo(cl_device_info name) {
    return infoScalar<T>([&](size_t s, void* v, size_t* r) { return clGetDeviceInfo(device, name, s, v, r); });
  }

  std::string deviceString(cl_device_info name) {
    return infoString([&](size_t s, void* v, size_t* r) { return clGetDeviceInfo(device, name, s, v, r); });
  }

  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;  // in order, without profiling
  std::vector<cl_command_queue> queues;
  std::vector<cl_event> events;
  std::vector<cl_kernel> kernels;
  std::vector<cl_program> programs;
  std::vector<cl_mem> buffers;
  std::vector<void*> svmPointers;
  std::vector<cl_context> otherContexts;
};

}  // namespace loom::test
