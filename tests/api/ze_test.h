#pragma once
// What every Level Zero API test needs: the Loom device through the loader, a context, modules
// from the build's SPIR-V kernels, allocations and immediate execution.
#include <gtest/gtest.h>
#include <level_zero/ze_api.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#define ASSERT_ZE(call) ASSERT_EQ(ZE_RESULT_SUCCESS, (call))
#define EXPECT_ZE(call) EXPECT_EQ(ZE_RESULT_SUCCESS, (call))

namespace loom::test {

constexpr uint64_t kTimeout = 10'000'000'000ull;  // 10 s: bounded waits everywhere

inline std::vector<uint8_t> readKernelFile(const std::string& name) {
  std::ifstream file(std::string(LOOM_TEST_KERNEL_DIR) + "/" + name, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

class ZeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_ZE(zeInit(0));
    uint32_t count = 1;
    ASSERT_ZE(zeDriverGet(&count, &driver));
    count = 1;
    ASSERT_ZE(zeDeviceGet(driver, &count, &device));
    ze_context_desc_t contextDesc{ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    ASSERT_ZE(zeContextCreate(driver, &contextDesc, &context));
    list = immediateList(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
  }

  void TearDown() override {
    for (ze_kernel_handle_t kernel : kernels) EXPECT_ZE(zeKernelDestroy(kernel));
    for (ze_module_handle_t module : modules) EXPECT_ZE(zeModuleDestroy(module));
    for (void* memory : allocations) EXPECT_ZE(zeMemFree(context, memory));
    for (ze_command_list_handle_t immediate : immediateLists) EXPECT_ZE(zeCommandListDestroy(immediate));
    if (context) {
      EXPECT_ZE(zeContextDestroy(context));
    }
  }

  ze_command_list_handle_t immediateList(ze_command_queue_mode_t mode, uint32_t ordinal = 0) {
    ze_command_queue_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
    desc.mode = mode;
    desc.ordinal = ordinal;
    ze_command_list_handle_t handle = nullptr;
    EXPECT_ZE(zeCommandListCreateImmediate(context, device, &desc, &handle));
    immediateLists.push_back(handle);
    return handle;
  }

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

  ze_kernel_handle_t apiKernel(const char* name) {
    if (!apiModule) apiModule = module("api_kernels.spv");
    return kernel(apiModule, name);
  }

  template <typename T>
  T* shared(size_t count) {
    ze_device_mem_alloc_desc_t deviceDesc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    ze_host_mem_alloc_desc_t hostDesc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    void* memory = nullptr;
    EXPECT_ZE(zeMemAllocShared(context, &deviceDesc, &hostDesc, count * sizeof(T), 64, device, &memory));
    allocations.push_back(memory);
    return static_cast<T*>(memory);
  }

  template <typename... Arguments>
  void setArguments(ze_kernel_handle_t k, Arguments... arguments) {
    uint32_t index = 0;
    auto set = [&](const auto& value) { EXPECT_ZE(zeKernelSetArgumentValue(k, index++, sizeof(value), &value)); };
    (set(arguments), ...);
  }

  void launch(ze_kernel_handle_t k, uint32_t groups, uint32_t groupSize, ze_command_list_handle_t on = nullptr) {
    ASSERT_ZE(zeKernelSetGroupSize(k, groupSize, 1, 1));
    ze_group_count_t count{groups, 1, 1};
    ASSERT_ZE(zeCommandListAppendLaunchKernel(on ? on : list, k, &count, nullptr, 0, nullptr));
  }

  ze_driver_handle_t driver = nullptr;
  ze_device_handle_t device = nullptr;
  ze_context_handle_t context = nullptr;
  ze_command_list_handle_t list = nullptr;  // synchronous immediate list
  ze_module_handle_t apiModule = nullptr;
  std::vector<ze_kernel_handle_t> kernels;
  std::vector<ze_module_handle_t> modules;
  std::vector<void*> allocations;
  std::vector<ze_command_list_handle_t> immediateLists;
};

}  // namespace loom::test
