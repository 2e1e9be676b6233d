// A Level Zero program whose trace (LOOM_TraceFile) must hold a copy of 4096 bytes, a fill, a
// command stream submitted through a command queue, and host waits for a fence and an event:
// the work of the trace_file_level_zero_queue test. Exits nonzero when a call fails.
#include <level_zero/ze_api.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "ze_check.h"

namespace {
constexpr size_t kBytes = 4096;
constexpr uint64_t kForever = UINT64_MAX;
}  // namespace

int main() {
  CHECK(zeInit(0));
  uint32_t count = 1;
  ze_driver_handle_t driver;
  CHECK(zeDriverGet(&count, &driver));
  count = 1;
  ze_device_handle_t device;
  CHECK(zeDeviceGet(driver, &count, &device));
  ze_context_desc_t contextDesc{ZE_STRUCTURE_TYPE_CONTEXT_DESC};
  ze_context_handle_t context;
  CHECK(zeContextCreate(driver, &contextDesc, &context));

  ze_command_queue_desc_t queueDesc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
  ze_command_queue_handle_t queue;
  CHECK(zeCommandQueueCreate(context, device, &queueDesc, &queue));
  ze_command_list_desc_t listDesc{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
  ze_command_list_handle_t list;
  CHECK(zeCommandListCreate(context, device, &listDesc, &list));
  ze_event_pool_desc_t poolDesc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
  ze_event_pool_handle_t pool;
  CHECK(zeEventPoolCreate(context, &poolDesc, 0, nullptr, &pool));
  ze_event_desc_t eventDesc{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
  ze_event_handle_t done;
  CHECK(zeEventCreate(pool, &eventDesc, &done));
  ze_fence_desc_t fenceDesc{ZE_STRUCTURE_TYPE_FENCE_DESC};
  ze_fence_handle_t fence;
  CHECK(zeFenceCreate(queue, &fenceDesc, &fence));

  ze_device_mem_alloc_desc_t deviceDesc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
  void* onDevice = nullptr;
  CHECK(zeMemAllocDevice(context, &deviceDesc, kBytes, 64, device, &onDevice));
  std::vector<unsigned char> source(kBytes, 7), result(kBytes, 0);
  const unsigned char pattern = 42;
  CHECK(zeCommandListAppendMemoryCopy(list, onDevice, source.data(), kBytes, nullptr, 0, nullptr));
  CHECK(zeCommandListAppendBarrier(list, nullptr, 0, nullptr));
  CHECK(zeCommandListAppendMemoryFill(list, onDevice, &pattern, 1, kBytes / 2, nullptr, 0, nullptr));
  CHECK(zeCommandListAppendBarrier(list, nullptr, 0, nullptr));
  CHECK(zeCommandListAppendMemoryCopy(list, result.data(), onDevice, kBytes, done, 0, nullptr));
  CHECK(zeCommandListClose(list));
  CHECK(zeCommandQueueExecuteCommandLists(queue, 1, &list, fence));
  CHECK(zeEventHostSynchronize(done, kForever));
  CHECK(zeFenceHostSynchronize(fence, kForever));

  const bool correct = result[0] == pattern && result[kBytes / 2 - 1] == pattern && result[kBytes / 2] == 7;
  std::printf("copy and fill: %s\n", correct ? "correct" : "WRONG");
  CHECK(zeMemFree(context, onDevice));
  CHECK(zeFenceDestroy(fence));
  CHECK(zeEventDestroy(done));
  CHECK(zeEventPoolDestroy(pool));
  CHECK(zeCommandListDestroy(list));
  CHECK(zeCommandQueueDestroy(queue));
  CHECK(zeContextDestroy(context));
  return correct ? 0 : 1;
}
