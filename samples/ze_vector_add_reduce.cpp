// A small Level Zero program: vector add and a work-group reduction with barriers, local memory
// and a final atomic add, on Loom's first device (a GPU where Loom lists NVIDIA GPUs, else the
// CPU) through the loader, every result checked on the host. LOOM_SAMPLE_DEVICE_TYPE=cpu or gpu
// runs it on the first device of that type instead; LOOM_SAMPLE_KERNEL=FILE reads the SPIR-V from FILE instead of
// the build folder or the copy beside the installed sample (the relocatable bundle,
// scripts/bundle.sh, sets it).
#include <level_zero/ze_api.h>

#include "ze_check.h"
#include "sample_data.h"
#include "sample_options.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

namespace {

struct Device {
  ze_driver_handle_t driver;
  ze_device_handle_t device;
  ze_context_handle_t context;
  ze_command_list_handle_t list;
};

// The first device (of the type asked for) of any driver the loader reports: Loom's device
// (ZE_ENABLE_ALT_DRIVERS points the loader at libze_loom).
Device open() {
  const SampleDevice wanted = sampleDevice();
  CHECK(zeInit(0));
  uint32_t driverCount = 0;
  CHECK(zeDriverGet(&driverCount, nullptr));
  std::vector<ze_driver_handle_t> drivers(driverCount);
  CHECK(zeDriverGet(&driverCount, drivers.data()));
  for (ze_driver_handle_t driver : drivers) {
    uint32_t deviceCount = 0;
    CHECK(zeDeviceGet(driver, &deviceCount, nullptr));
    std::vector<ze_device_handle_t> devices(deviceCount);
    CHECK(zeDeviceGet(driver, &deviceCount, devices.data()));
    for (ze_device_handle_t device : devices) {
      ze_device_properties_t properties{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
      CHECK(zeDeviceGetProperties(device, &properties));
      const bool gpu = properties.type == ZE_DEVICE_TYPE_GPU;
      if (wanted == SampleDevice::Gpu && !gpu) continue;
      if (wanted == SampleDevice::Cpu && properties.type != ZE_DEVICE_TYPE_CPU) continue;
      ze_driver_properties_t driverProperties{ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES};
      CHECK(zeDriverGetProperties(driver, &driverProperties));
      ze_api_version_t version{};
      CHECK(zeDriverGetApiVersion(driver, &version));
      const bool loom = std::memcmp(driverProperties.uuid.id, "loom", 4) == 0;
      std::printf("driver: %s, version %u, Level Zero API %d.%d\n", loom ? "Loom" : "not Loom", driverProperties.driverVersion,
                  ZE_MAJOR_VERSION(version), ZE_MINOR_VERSION(version));
      std::printf("device: %s (%s)\n", properties.name, gpu ? "GPU" : properties.type == ZE_DEVICE_TYPE_CPU ? "CPU" : "other");
      Device d{driver, device, nullptr, nullptr};
      ze_context_desc_t contextDesc{ZE_STRUCTURE_TYPE_CONTEXT_DESC};
      CHECK(zeContextCreate(d.driver, &contextDesc, &d.context));
      ze_command_queue_desc_t queueDesc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
      queueDesc.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;  // each append returns when its work is done
      CHECK(zeCommandListCreateImmediate(d.context, d.device, &queueDesc, &d.list));
      return d;
    }
  }
  std::fprintf(stderr, "no %s device: run with ZE_ENABLE_ALT_DRIVERS=<build>/lib/libze_loom.so.1%s\n",
               sampleDeviceName(wanted), wanted == SampleDevice::Gpu ? " (loom-info says why Loom lists no GPU)" : "");
  std::exit(1);
}

ze_module_handle_t loadModule(const Device& d) {
  const std::string path = sampleFilePath("LOOM_SAMPLE_KERNEL", LOOM_SAMPLE_KERNEL);
  std::ifstream file(path, std::ios::binary);
  std::vector<uint8_t> spirv((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (spirv.empty()) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    std::exit(1);
  }
  std::printf("kernels: %s\n", path.c_str());
  ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC};
  desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
  desc.inputSize = spirv.size();
  desc.pInputModule = spirv.data();
  ze_module_handle_t module;
  CHECK(zeModuleCreate(d.context, d.device, &desc, &module, nullptr));
  return module;
}

template <typename T>
T* allocate(const Device& d, size_t count) {
  ze_device_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
  ze_host_mem_alloc_desc_t hostDesc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
  void* memory = nullptr;
  CHECK(zeMemAllocShared(d.context, &desc, &hostDesc, count * sizeof(T), 64, d.device, &memory));
  return static_cast<T*>(memory);
}

ze_kernel_handle_t kernel(ze_module_handle_t module, const char* name) {
  ze_kernel_desc_t desc{ZE_STRUCTURE_TYPE_KERNEL_DESC};
  desc.pKernelName = name;
  ze_kernel_handle_t handle;
  CHECK(zeKernelCreate(module, &desc, &handle));
  return handle;
}

bool vectorAdd(const Device& d, ze_module_handle_t module) {
  const uint32_t n = 1 << 20, groupSize = 256;
  float *a = allocate<float>(d, n), *b = allocate<float>(d, n), *sum = allocate<float>(d, n);
  fillVectorAddInputs(a, b, n);
  for (uint32_t i = 0; i < n; ++i) sum[i] = -1.0f;
  ze_kernel_handle_t add = kernel(module, "vector_add");
  CHECK(zeKernelSetGroupSize(add, groupSize, 1, 1));
  CHECK(zeKernelSetArgumentValue(add, 0, sizeof(a), &a));
  CHECK(zeKernelSetArgumentValue(add, 1, sizeof(b), &b));
  CHECK(zeKernelSetArgumentValue(add, 2, sizeof(sum), &sum));
  ze_group_count_t groups{n / groupSize, 1, 1};
  CHECK(zeCommandListAppendLaunchKernel(d.list, add, &groups, nullptr, 0, nullptr));
  const bool right = vectorAddIsCorrect(sum, n);
  CHECK(zeKernelDestroy(add));
  for (void* p : {(void*)a, (void*)b, (void*)sum}) CHECK(zeMemFree(d.context, p));
  return right;
}

bool reduction(const Device& d, ze_module_handle_t module) {
  const uint32_t n = 1 << 16, groupSize = 128;
  int* values = allocate<int>(d, n);
  int* result = allocate<int>(d, 1);
  const long long expected = fillReductionInput(values, n);
  *result = 0;
  ze_kernel_handle_t reduce = kernel(module, "reduce_sum");
  CHECK(zeKernelSetGroupSize(reduce, groupSize, 1, 1));
  CHECK(zeKernelSetArgumentValue(reduce, 0, sizeof(values), &values));
  CHECK(zeKernelSetArgumentValue(reduce, 1, sizeof(result), &result));
  CHECK(zeKernelSetArgumentValue(reduce, 2, groupSize * sizeof(int), nullptr));  // local memory by size
  ze_group_count_t groups{n / groupSize, 1, 1};
  CHECK(zeCommandListAppendLaunchKernel(d.list, reduce, &groups, nullptr, 0, nullptr));
  const bool right = reductionIsCorrect(*result, expected, n, groupSize);
  CHECK(zeKernelDestroy(reduce));
  CHECK(zeMemFree(d.context, values));
  CHECK(zeMemFree(d.context, result));
  return right;
}

}  // namespace

int main() {
  Device d = open();
  ze_module_handle_t module = loadModule(d);
  const bool passed = vectorAdd(d, module) & reduction(d, module);
  CHECK(zeModuleDestroy(module));
  CHECK(zeCommandListDestroy(d.list));
  CHECK(zeContextDestroy(d.context));
  return sampleVerdict(passed);
}
