// Shared virtual memory: coarse- and fine-grained clSVMAlloc, kernels writing SVM the host reads,
// clEnqueueSVMMemcpy/MemFill/Map/Unmap/Free (with its callback), clSetKernelArgSVMPointer with
// offsets, and clSetKernelExecInfo for pointers reached only through other pointers.
#include "cl_test_helpers.h"

#include <algorithm>
#include <numeric>

namespace loom::test {
namespace {

const char* const kSvmKernels = R"(
kernel void square(global int* d) { size_t i = get_global_id(0); d[i] = d[i] * d[i]; }
kernel void count_up(global volatile int* counter) { atomic_inc(counter); }
kernel void take_ticket(global volatile int* counter, global int* tickets) { tickets[get_global_id(0)] = atomic_inc(counter); }
typedef struct { global int* target; int value; } Indirect;
kernel void through_pointer(global Indirect* table) {
  size_t i = get_global_id(0);
  *table[i].target = table[i].value;
}
)";

class SvmTest : public ClTest {
 protected:
  void SetUp() override {
    ClTest::SetUp();
    if (HasFatalFailure() || IsSkipped()) return;
    capabilities = deviceInfo<cl_device_svm_capabilities>(CL_DEVICE_SVM_CAPABILITIES);
    if (!(capabilities & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) GTEST_SKIP() << "the device reports no SVM";
    program = build(kSvmKernels);
  }
  cl_device_svm_capabilities capabilities = 0;
  cl_program program = nullptr;
};

TEST_F(SvmTest, CoarseGrainBufferThroughMapKernelAndUnmap) {
  const size_t n = 1000;
  auto* data = static_cast<int*>(svmAlloc(CL_MEM_READ_WRITE, n * sizeof(int)));
  ASSERT_NE(data, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(data) % 128, 0u);  // alignment 0: the largest OpenCL C type (long16)
  ASSERT_CL_OK(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_WRITE, data, n * sizeof(int), 0, nullptr, nullptr));
  for (size_t i = 0; i < n; ++i) data[i] = int(i);
  ASSERT_CL_OK(clEnqueueSVMUnmap(queue, data, 0, nullptr, nullptr));
  cl_kernel k = kernel(program, "square");
  ASSERT_CL_OK(clSetKernelArgSVMPointer(k, 0, data));
  ASSERT_NO_FATAL_FAILURE(run1d(k, n));
  cl_event mapped = nullptr;
  ASSERT_CL_OK(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, data, n * sizeof(int), 0, nullptr, &mapped));
  track(mapped);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(data[i], int(i * i)) << i;
  cl_command_type type = 0;
  ASSERT_CL_OK(clGetEventInfo(mapped, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, nullptr));
  EXPECT_EQ(type, cl_command_type(CL_COMMAND_SVM_MAP));
  ASSERT_CL_OK(clEnqueueSVMUnmap(queue, data, 0, nullptr, nullptr));
  // An SVM pointer with an offset into the allocation: the kernel sees the offset.
  ASSERT_CL_OK(clSetKernelArgSVMPointer(k, 0, data + 10));
  ASSERT_NO_FATAL_FAILURE(run1d(k, 2));
  std::vector<int> back(12);
  ASSERT_CL_OK(clEnqueueSVMMemcpy(queue, CL_TRUE, back.data(), data, back.size() * sizeof(int), 0, nullptr, nullptr));
  for (int i = 0; i < 10; ++i) EXPECT_EQ(back[i], i * i);
  EXPECT_EQ(back[10], 100 * 100);
  EXPECT_EQ(back[11], 121 * 121);
  // A buffer over the SVM allocation reports it.
  cl_mem over = buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, 64, data);
  EXPECT_EQ(infoScalar<cl_bool>([&](size_t s, void* v, size_t* r) { return clGetMemObjectInfo(over, CL_MEM_USES_SVM_POINTER, s, v, r); }),
            cl_bool(CL_TRUE));
}

TEST_F(SvmTest, MemcpyAndMemFillAreExact) {
  auto* a = static_cast<uint8_t*>(svmAlloc(CL_MEM_READ_WRITE, 4096));
  auto* b = static_cast<uint8_t*>(svmAlloc(CL_MEM_READ_WRITE, 4096));
  ASSERT_TRUE(a && b);
  std::vector<uint8_t> host(4096);
  for (size_t i = 0; i < host.size(); ++i) host[i] = uint8_t(i * 13 + 5);
  ASSERT_CL_OK(clEnqueueSVMMemcpy(queue, CL_FALSE, a, host.data(), host.size(), 0, nullptr, nullptr));
  cl_event copied = nullptr;
  ASSERT_CL_OK(clEnqueueSVMMemcpy(queue, CL_FALSE, b, a, 4096, 0, nullptr, &copied));
  track(copied);
  for (size_t patternSize : {size_t(1), size_t(4), size_t(16), size_t(128)}) {
    std::vector<uint8_t> fill(patternSize);
    for (size_t i = 0; i < patternSize; ++i) fill[i] = uint8_t(0xf0 + i);
    const size_t offset = 2 * 128, length = 4 * patternSize;
    ASSERT_CL_OK(clEnqueueSVMMemFill(queue, b + offset, fill.data(), patternSize, length, 1, &copied, nullptr));
    for (size_t i = 0; i < length; ++i) host[offset + i] = fill[i % patternSize];
  }
  std::vector<uint8_t> out(4096);
  ASSERT_CL_OK(clEnqueueSVMMemcpy(queue, CL_TRUE, out.data(), b, out.size(), 0, nullptr, nullptr));
  EXPECT_EQ(out, host);
  cl_command_type type = 0;
  ASSERT_CL_OK(clGetEventInfo(copied, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, nullptr));
  EXPECT_EQ(type, cl_command_type(CL_COMMAND_SVM_MEMCPY));
  // Overlap, bad patterns and misaligned fills.
  EXPECT_CL(CL_MEM_COPY_OVERLAP, clEnqueueSVMMemcpy(queue, CL_TRUE, a + 8, a, 16, 0, nullptr, nullptr));
  const uint32_t value = 1;
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueSVMMemFill(queue, a, &value, 3, 12, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueSVMMemFill(queue, a + 2, &value, 4, 16, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueSVMMemFill(queue, a, &value, 4, 14, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueSVMMemcpy(queue, CL_TRUE, nullptr, a, 16, 0, nullptr, nullptr));
}

TEST_F(SvmTest, FineGrainBufferIsSharedWithoutMapping) {
  if (!(capabilities & CL_DEVICE_SVM_FINE_GRAIN_BUFFER)) GTEST_SKIP() << "no fine-grained SVM buffers";
  const size_t n = 256;
  auto* data = static_cast<int*>(svmAlloc(CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, n * sizeof(int)));
  ASSERT_NE(data, nullptr);
  for (size_t i = 0; i < n; ++i) data[i] = int(i) - 100;
  cl_kernel k = kernel(program, "square");
  ASSERT_CL_OK(clSetKernelArgSVMPointer(k, 0, data));
  ASSERT_NO_FATAL_FAILURE(run1d(k, n));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(data[i], (int(i) - 100) * (int(i) - 100));
  if (!(capabilities & CL_DEVICE_SVM_ATOMICS)) return;
  auto* counter = static_cast<int*>(svmAlloc(CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, sizeof(int)));
  ASSERT_NE(counter, nullptr);
  *counter = 5;
  cl_kernel count = kernel(program, "count_up");
  ASSERT_CL_OK(clSetKernelArgSVMPointer(count, 0, counter));
  ASSERT_NO_FATAL_FAILURE(run1d(count, 4096));
  EXPECT_EQ(*counter, 4101);
}

// Every work-item takes a ticket from one fine-grained counter: each ticket is handed out once.
// On a GPU root device the parts of the launch run on several GPUs at once, whose atomics must be
// atomic across GPUs (system scope), not only within one.
TEST_F(SvmTest, FineGrainAtomicsHandOutEveryTicketOnce) {
  if (!(capabilities & CL_DEVICE_SVM_ATOMICS)) GTEST_SKIP() << "no SVM atomics";
  const size_t n = size_t(1) << 18;
  auto* counter = static_cast<int*>(svmAlloc(CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, sizeof(int)));
  auto* tickets = static_cast<int*>(svmAlloc(CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, n * sizeof(int)));
  ASSERT_TRUE(counter && tickets);
  *counter = 0;
  cl_kernel take = kernel(program, "take_ticket");
  ASSERT_CL_OK(clSetKernelArgSVMPointer(take, 0, counter));
  ASSERT_CL_OK(clSetKernelArgSVMPointer(take, 1, tickets));
  ASSERT_NO_FATAL_FAILURE(run1d(take, n));
  EXPECT_EQ(*counter, int(n));
  std::vector<int> sorted(tickets, tickets + n);
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> expected(n);
  std::iota(expected.begin(), expected.end(), 0);
  EXPECT_TRUE(sorted == expected) << "tickets handed out twice or never";
}

struct FreeRecord {
  std::atomic<int> calls{0};
  cl_command_queue queue = nullptr;
  std::vector<void*> pointers;
};

void CL_CALLBACK svmFreed(cl_command_queue q, cl_uint count, void** pointers, void* data) {
  auto* record = static_cast<FreeRecord*>(data);
  record->queue = q;
  record->pointers.assign(pointers, pointers + count);
  record->calls.fetch_add(1);
}

TEST_F(SvmTest, EnqueueSvmFreeCallsTheCallbackWithThePointers) {
  void* first = clSVMAlloc(context, CL_MEM_READ_WRITE, 256, 0);
  void* second = clSVMAlloc(context, CL_MEM_READ_WRITE, 512, 0);
  ASSERT_TRUE(first && second);
  FreeRecord record;
  void* pointers[] = {first, second};
  cl_event freed = nullptr;
  ASSERT_CL_OK(clEnqueueSVMFree(queue, 2, pointers, svmFreed, &record, 0, nullptr, &freed));
  track(freed);
  ASSERT_CL_OK(clWaitForEvents(1, &freed));
  ASSERT_TRUE(eventually([&] { return record.calls.load() == 1; }));
  EXPECT_EQ(record.queue, queue);
  EXPECT_EQ(record.pointers, (std::vector<void*>{first, second}));
  cl_command_type type = 0;
  ASSERT_CL_OK(clGetEventInfo(freed, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, nullptr));
  EXPECT_EQ(type, cl_command_type(CL_COMMAND_SVM_FREE));
  // The callback owns the memory now.
  clSVMFree(context, first);
  clSVMFree(context, second);
  // Without a callback Loom frees them.
  void* third = clSVMAlloc(context, CL_MEM_READ_WRITE, 64, 0);
  ASSERT_NE(third, nullptr);
  ASSERT_CL_OK(clEnqueueSVMFree(queue, 1, &third, nullptr, nullptr, 0, nullptr, nullptr));
  ASSERT_CL_OK(clFinish(queue));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueSVMFree(queue, 0, nullptr, nullptr, nullptr, 0, nullptr, nullptr));
}

// Pointers stored in SVM and used by the kernel without being arguments.
TEST_F(SvmTest, ExecInfoSvmPointersReachIndirectAllocations) {
  struct Indirect {
    int* target;
    int value;
  };
  const size_t n = 4;
  auto* table = static_cast<Indirect*>(svmAlloc(CL_MEM_READ_WRITE, n * sizeof(Indirect)));
  auto* targets = static_cast<int*>(svmAlloc(CL_MEM_READ_WRITE, n * sizeof(int) * 32));
  ASSERT_TRUE(table && targets);
  ASSERT_CL_OK(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_WRITE, table, n * sizeof(Indirect), 0, nullptr, nullptr));
  for (size_t i = 0; i < n; ++i) table[i] = {targets + 32 * i, int(100 + i)};
  ASSERT_CL_OK(clEnqueueSVMUnmap(queue, table, 0, nullptr, nullptr));
  const int zero = 0;
  ASSERT_CL_OK(clEnqueueSVMMemFill(queue, targets, &zero, sizeof(zero), n * sizeof(int) * 32, 0, nullptr, nullptr));
  cl_kernel k = kernel(program, "through_pointer");
  ASSERT_CL_OK(clSetKernelArgSVMPointer(k, 0, table));
  void* used[] = {targets};
  ASSERT_CL_OK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(used), used));
  const cl_bool noSystem = CL_FALSE;
  ASSERT_CL_OK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof(noSystem), &noSystem));
  ASSERT_NO_FATAL_FAILURE(run1d(k, n));
  ASSERT_CL_OK(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, targets, n * sizeof(int) * 32, 0, nullptr, nullptr));
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(targets[32 * i], int(100 + i));
    EXPECT_EQ(targets[32 * i + 1], 0);
  }
  ASSERT_CL_OK(clEnqueueSVMUnmap(queue, targets, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clSetKernelExecInfo(k, 0x7777, sizeof(used), used));
  EXPECT_CL(CL_INVALID_VALUE, clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(used), nullptr));
  EXPECT_CL(CL_INVALID_ARG_INDEX, clSetKernelArgSVMPointer(k, 1, table));
}

TEST_F(SvmTest, InvalidAllocationsReturnNull) {
  EXPECT_EQ(clSVMAlloc(context, CL_MEM_READ_WRITE, 0, 0), nullptr);
  EXPECT_EQ(clSVMAlloc(context, CL_MEM_READ_WRITE, 64, 3), nullptr);  // not a power of two
  EXPECT_EQ(clSVMAlloc(context, CL_MEM_READ_WRITE | CL_MEM_SVM_ATOMICS, 64, 0), nullptr);  // atomics need fine grain
  EXPECT_EQ(clSVMAlloc(context, CL_MEM_READ_WRITE, size_t(deviceInfo<cl_ulong>(CL_DEVICE_MAX_MEM_ALLOC_SIZE)) + 1, 0), nullptr);
  EXPECT_EQ(clSVMAlloc(nullptr, CL_MEM_READ_WRITE, 64, 0), nullptr);
  // A requested alignment is honoured.
  void* aligned = svmAlloc(CL_MEM_READ_WRITE, 100, 4096);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(aligned) % 4096, 0u);
}

// "clSVMAlloc will fail if values specified in flags do not follow rules described for supported
// values in the SVM Memory Flags table": READ_WRITE, WRITE_ONLY and READ_ONLY are alternatives,
// as for buffers.
TEST_F(SvmTest, ConflictingAccessFlagsReturnNull) {
  for (cl_svm_mem_flags flags : {cl_svm_mem_flags(CL_MEM_READ_WRITE | CL_MEM_READ_ONLY), cl_svm_mem_flags(CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY),
                                 cl_svm_mem_flags(CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY)}) {
    void* pointer = clSVMAlloc(context, flags, 64, 0);
    EXPECT_EQ(pointer, nullptr) << "flags 0x" << std::hex << flags;
    if (pointer) clSVMFree(context, pointer);
  }
}

}  // namespace
}  // namespace loom::test
