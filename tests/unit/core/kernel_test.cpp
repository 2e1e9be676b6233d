#include "loom/core/kernel.h"

#include <gtest/gtest.h>

#include <cstring>

namespace loom::core {
namespace {

using compiler::ArgumentKind;

// global float*, uint by value, local pointer, local pointer
compiler::KernelDescriptor descriptor() {
  compiler::KernelDescriptor d;
  d.name = "k";
  d.arguments = {{ArgumentKind::GlobalPointer, 0, 8, 8}, {ArgumentKind::Value, 8, 4, 4},
                 {ArgumentKind::LocalPointer, 16, 8, 8}, {ArgumentKind::LocalPointer, 24, 8, 8}};
  d.argumentBufferSize = 32;
  d.staticLocalMemorySize = 100;
  return d;
}

TEST(Kernel, ChecksArgumentIndexSizeAndValue) {
  const auto d = descriptor();
  Kernel kernel(d, nullptr);
  const uint32_t value = 7;
  void* pointer = nullptr;
  EXPECT_EQ(kernel.setArgument(4, 4, &value), ArgumentError::InvalidIndex);
  EXPECT_EQ(kernel.setArgument(0, 4, &pointer), ArgumentError::InvalidSize);
  EXPECT_EQ(kernel.setArgument(1, 8, &value), ArgumentError::InvalidSize);
  EXPECT_EQ(kernel.setArgument(1, 4, nullptr), ArgumentError::InvalidValue);
  EXPECT_EQ(kernel.setArgument(2, 0, nullptr), ArgumentError::InvalidSize);
  EXPECT_EQ(kernel.setArgument(2, 16, &value), ArgumentError::InvalidValue);
  EXPECT_FALSE(kernel.allArgumentsSet());
}

TEST(Kernel, LaunchCapturesArgumentsAndPlacesLocalArgumentsAfterStaticLocals) {
  const auto d = descriptor();
  Kernel kernel(d, nullptr);
  float data = 0;
  float* pointer = &data;
  const uint32_t value = 0xabcdef;
  ASSERT_EQ(kernel.setArgument(0, sizeof(pointer), &pointer), ArgumentError::None);
  ASSERT_EQ(kernel.setArgument(1, 4, &value), ArgumentError::None);
  ASSERT_EQ(kernel.setArgument(2, 10, nullptr), ArgumentError::None);
  ASSERT_EQ(kernel.setArgument(3, 256, nullptr), ArgumentError::None);
  EXPECT_TRUE(kernel.allArgumentsSet());
  kernel.setGroupSize(4, 2, 1);

  std::vector<uint8_t> arguments;
  const LaunchKernelCommand launch = kernel.prepareLaunch(arguments);
  ASSERT_EQ(arguments.size(), 32u);
  float* capturedPointer;
  uint32_t capturedValue;
  uint64_t firstLocal, secondLocal;
  std::memcpy(&capturedPointer, arguments.data(), 8);
  std::memcpy(&capturedValue, arguments.data() + 8, 4);
  std::memcpy(&firstLocal, arguments.data() + 16, 8);
  std::memcpy(&secondLocal, arguments.data() + 24, 8);
  EXPECT_EQ(capturedPointer, &data);
  EXPECT_EQ(capturedValue, value);
  EXPECT_EQ(firstLocal, kLocalArgumentAlignment);  // after 100 bytes of static locals
  EXPECT_EQ(secondLocal, 2 * kLocalArgumentAlignment);
  EXPECT_EQ(launch.localMemorySize, 2 * kLocalArgumentAlignment + 256);
  EXPECT_EQ(launch.groupSize[0], 4u);
  EXPECT_EQ(launch.groupSize[1], 2u);

  // A later change does not alter what was captured.
  const uint32_t other = 1;
  kernel.setArgument(1, 4, &other);
  std::memcpy(&capturedValue, arguments.data() + 8, 4);
  EXPECT_EQ(capturedValue, value);
}

TEST(Kernel, NullPointerArgumentIsANullPointer) {
  const auto d = descriptor();
  Kernel kernel(d, nullptr);
  ASSERT_EQ(kernel.setArgument(0, sizeof(void*), nullptr), ArgumentError::None);
  std::vector<uint8_t> arguments;
  kernel.prepareLaunch(arguments);
  uint64_t pointer = 1;
  std::memcpy(&pointer, arguments.data(), 8);
  EXPECT_EQ(pointer, 0u);
}

TEST(Kernel, RequiredWorkGroupSizeIsTheInitialGroupSize) {
  auto d = descriptor();
  d.requiredWorkGroupSize = {8, 4, 2};
  Kernel kernel(d, nullptr);
  EXPECT_EQ(kernel.groupSize(), (std::array<uint32_t, 3>{8, 4, 2}));
}

// A GPU kernel with many registers allows fewer work-items per group than its device.
class RegisterBoundKernel final : public BackendKernel {
 public:
  uint32_t groupSizeLimit() const override { return 384; }
};

TEST(Kernel, MaxGroupSizeIsTheLowerOfDeviceAndKernelLimits) {
  const auto d = descriptor();
  EXPECT_EQ(Kernel(d, nullptr).maxGroupSize(1024), 1024u) << "no kernel limit: the device's applies";
  RegisterBoundKernel bound;
  EXPECT_EQ(Kernel(d, &bound).maxGroupSize(1024), 384u);
  EXPECT_EQ(Kernel(d, &bound).maxGroupSize(256), 256u);
}

DeviceInfo deviceWithGroupsOf(uint32_t maxWorkGroupSize) {
  DeviceInfo info;
  info.maxWorkGroupSize = maxWorkGroupSize;
  info.maxGroupSize = {maxWorkGroupSize, maxWorkGroupSize, 64};
  return info;
}

TEST(Kernel, SuggestedGroupSizesDivideTheGlobalSizeAlongXFirst) {
  const auto d = descriptor();
  const Kernel kernel(d, nullptr);
  const DeviceInfo info = deviceWithGroupsOf(1024);
  using Size = std::array<uint32_t, 3>;
  EXPECT_EQ(kernel.suggestGroupSize(info, {1024, 1, 1}, 1, false), (Size{256, 1, 1}));
  EXPECT_EQ(kernel.suggestGroupSize(info, {96, 64, 1}, 2, false), (Size{96, 2, 1})) << "x first, then what is left for y";
  EXPECT_EQ(kernel.suggestGroupSize(info, {1000, 7, 3}, 3, false), (Size{250, 1, 1}));
  EXPECT_EQ(kernel.suggestGroupSize(info, {1024, 1024, 1}, 1, false), (Size{256, 1, 1})) << "dimensions past the range's are 1";
  // A prime global size: whole groups of one work-item, or one partial group of 256.
  EXPECT_EQ(kernel.suggestGroupSize(info, {1009, 1, 1}, 1, false), (Size{1, 1, 1}));
  EXPECT_EQ(kernel.suggestGroupSize(info, {1009, 1, 1}, 1, true), (Size{256, 1, 1}));
  // The kernel's and the device's limits bound the suggestion.
  RegisterBoundKernel bound;
  EXPECT_EQ(Kernel(d, &bound).suggestGroupSize(deviceWithGroupsOf(128), {4096, 1, 1}, 1, false), (Size{128, 1, 1}));
  auto fixed = descriptor();
  fixed.requiredWorkGroupSize = {8, 4, 2};
  EXPECT_EQ(Kernel(fixed, nullptr).suggestGroupSize(info, {1024, 1024, 1024}, 3, true), (Size{8, 4, 2}));
}

TEST(Kernel, SuggestedGroupSizesAlongXAreMultiplesOfWhatTheDevicePrefers) {
  const auto d = descriptor();
  const Kernel kernel(d, nullptr);
  using Size = std::array<uint32_t, 3>;
  DeviceInfo gpu = deviceWithGroupsOf(1024);
  gpu.preferredGroupSizeMultiple = 32;  // a warp
  DeviceInfo cpu = deviceWithGroupsOf(1024);
  cpu.preferredGroupSizeMultiple = 8;  // float lanes of AVX2
  // 8160 = 32 * 255: 255 divides it, but whole warps (160) and whole vectors (240) run better.
  EXPECT_EQ(kernel.suggestGroupSize(deviceWithGroupsOf(1024), {8160, 1, 1}, 1, false), (Size{255, 1, 1}));
  EXPECT_EQ(kernel.suggestGroupSize(gpu, {8160, 1, 1}, 1, false), (Size{160, 1, 1}));
  EXPECT_EQ(kernel.suggestGroupSize(cpu, {8160, 1, 1}, 1, false), (Size{240, 1, 1}));
  // No multiple of the warp divides 1000: the largest divisor still does.
  EXPECT_EQ(kernel.suggestGroupSize(gpu, {1000, 1, 1}, 1, false), (Size{250, 1, 1}));
  // A partial group of a prime global size is whole warps too.
  gpu.maxGroupSize[0] = 200;
  EXPECT_EQ(kernel.suggestGroupSize(gpu, {1009, 1, 1}, 1, true), (Size{192, 1, 1}));
}

}  // namespace
}  // namespace loom::core
