#include "loom/core/kernel.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "loom/compiler/local_arguments.h"

namespace loom::core {
namespace {

using compiler::ArgumentKind;
using compiler::kLocalArgumentAlignment;

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

// The one launch command in `stream`, and its argument bytes.
struct RecordedLaunch {
  LaunchKernelCommand command;
  std::vector<uint8_t> arguments;
};

RecordedLaunch onlyLaunch(const CommandStream& stream) {
  std::vector<RecordedLaunch> launches;
  forEachCommand(stream.bytes(), [&](const DecodedCommand& command) {
    if (command.header->opcode != Opcode::LaunchKernel) return;
    const auto& recorded = command.as<LaunchKernelCommand>();
    const uint8_t* arguments = trailingData(command);
    launches.push_back({recorded, {arguments, arguments + recorded.launch.argumentSize}});
  });
  EXPECT_EQ(launches.size(), 1u);
  return launches.empty() ? RecordedLaunch{} : launches[0];
}

template <typename T>
T at(const std::vector<uint8_t>& bytes, size_t offset) {
  T value{};
  if (offset + sizeof(T) <= bytes.size()) std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

// A kernel of descriptor() whose launches go to a stream of their own.
class KernelLaunches : public ::testing::Test {
 protected:
  // Appends the kernel's launch to `stream`: the command of the one launch it then holds.
  LaunchKernelCommand append(const LaunchRange& range, const IndirectLaunch& indirect = {}) {
    kernel.appendLaunch(stream, range, indirect);
    return onlyLaunch(stream).command;
  }

  const compiler::KernelDescriptor d = descriptor();
  Kernel kernel{d, nullptr};
  CommandStream stream;
};

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

  CommandStream stream;
  kernel.appendLaunch(stream, {});
  const RecordedLaunch recorded = onlyLaunch(stream);
  ASSERT_EQ(recorded.arguments.size(), 32u);
  EXPECT_EQ(at<float*>(recorded.arguments, 0), &data);
  EXPECT_EQ(at<uint32_t>(recorded.arguments, 8), value);
  EXPECT_EQ(at<uint64_t>(recorded.arguments, 16), kLocalArgumentAlignment);  // after 100 bytes of static locals
  EXPECT_EQ(at<uint64_t>(recorded.arguments, 24), 2 * kLocalArgumentAlignment);
  EXPECT_EQ(recorded.command.launch.localMemorySize, 2 * kLocalArgumentAlignment + 256);
  EXPECT_EQ(kernel.localMemorySize(), 2 * kLocalArgumentAlignment + 256);
  EXPECT_EQ(recorded.command.launch.descriptor, &d);
}

// Local sizes come from the application: a sum past the address space saturates, so that the
// launch check refuses it instead of seeing a small size that wrapped around.
TEST(Kernel, LocalSizesAddingUpPastTheAddressSpaceSaturate) {
  const auto d = descriptor();
  Kernel kernel(d, nullptr);
  ASSERT_EQ(kernel.setArgument(2, SIZE_MAX, nullptr), ArgumentError::None);
  ASSERT_EQ(kernel.setArgument(3, 256, nullptr), ArgumentError::None);
  EXPECT_EQ(kernel.localMemorySize(), UINT64_MAX);
}

// What a launch recorded keeps: arguments set later, even local sizes that move the arena, do not
// reach it.
TEST(Kernel, LaterArgumentsDoNotChangeARecordedLaunch) {
  const auto d = descriptor();
  Kernel kernel(d, nullptr);
  float* pointer = nullptr;
  const uint32_t value = 1;
  kernel.setArgument(0, sizeof(pointer), &pointer);
  kernel.setArgument(1, 4, &value);
  kernel.setArgument(2, 10, nullptr);
  kernel.setArgument(3, 10, nullptr);
  CommandStream stream;
  kernel.appendLaunch(stream, {});

  float data = 0;
  pointer = &data;
  const uint32_t other = 2;
  kernel.setArgument(0, sizeof(pointer), &pointer);
  kernel.setArgument(1, 4, &other);
  kernel.setArgument(2, 1000, nullptr);
  const RecordedLaunch recorded = onlyLaunch(stream);
  EXPECT_EQ(at<float*>(recorded.arguments, 0), nullptr);
  EXPECT_EQ(at<uint32_t>(recorded.arguments, 8), value);
  EXPECT_EQ(at<uint64_t>(recorded.arguments, 24), 2 * kLocalArgumentAlignment);
  EXPECT_EQ(recorded.command.launch.localMemorySize, 2 * kLocalArgumentAlignment + 10);

  CommandStream next;
  kernel.appendLaunch(next, {});
  const RecordedLaunch later = onlyLaunch(next);
  EXPECT_EQ(at<float*>(later.arguments, 0), &data);
  EXPECT_EQ(at<uint32_t>(later.arguments, 8), other);
  EXPECT_EQ(at<uint64_t>(later.arguments, 24), 128 + 1024u) << "the first local argument grew to 1000 bytes";
  EXPECT_EQ(later.command.launch.localMemorySize, 128 + 1024 + 10u);
}

// Level Zero's shape: whole groups of the kernel's group size from id 0.
TEST_F(KernelLaunches, OfWholeGroupsCoversThemExactly) {
  kernel.setGroupSize(4, 2, 1);
  LaunchRange range;
  range.groupCount = {3, 5, 7};
  range.groupSize = kernel.groupSize();
  const KernelLaunch launch = append(range).launch;
  EXPECT_EQ(launch.workDim, 3u);
  EXPECT_EQ((std::array<uint32_t, 3>{launch.groupCount[0], launch.groupCount[1], launch.groupCount[2]}),
            (std::array<uint32_t, 3>{3, 5, 7}));
  EXPECT_EQ((std::array<uint32_t, 3>{launch.groupSize[0], launch.groupSize[1], launch.groupSize[2]}),
            (std::array<uint32_t, 3>{4, 2, 1}));
  EXPECT_EQ((std::array<uint64_t, 3>{launch.globalSize[0], launch.globalSize[1], launch.globalSize[2]}),
            (std::array<uint64_t, 3>{12, 10, 7}));
  EXPECT_EQ((std::array<uint64_t, 3>{launch.globalOffset[0], launch.globalOffset[1], launch.globalOffset[2]}),
            (std::array<uint64_t, 3>{0, 0, 0}));
}

// OpenCL's shape: an NDRange with an offset whose last groups are partial.
TEST_F(KernelLaunches, OfAnNdRangeKeepsItsGlobalSizeAndOffset) {
  LaunchRange range;
  range.workDim = 2;
  range.groupCount = {4, 2, 1};
  range.groupSize = {16, 8, 1};
  range.globalSize = {50, 9, 1};
  range.globalOffset = {3, 5, 0};
  const KernelLaunch launch = append(range).launch;
  EXPECT_EQ(launch.workDim, 2u);
  EXPECT_EQ(launch.groupCount[0], 4u);
  EXPECT_EQ(launch.groupSize[1], 8u);
  EXPECT_EQ(launch.globalSize[0], 50u);
  EXPECT_EQ(launch.globalSize[1], 9u);
  EXPECT_EQ(launch.globalSize[2], 1u);
  EXPECT_EQ(launch.globalOffset[0], 3u);
  EXPECT_EQ(launch.globalOffset[1], 5u);
}

TEST_F(KernelLaunches, IndirectOnesKeepWhereTheirCountsAre) {
  const uint32_t counts[3] = {1, 2, 3};
  const uint32_t kernelCount = 1;
  const LaunchKernelCommand command = append({}, {counts, &kernelCount, 4});
  EXPECT_EQ(command.indirect.groupCount, counts);
  EXPECT_EQ(command.indirect.kernelCount, &kernelCount);
  EXPECT_EQ(command.indirect.kernelIndex, 4u);
  const KernelLaunch resolved = command.launch.withGroupCount(counts);
  EXPECT_EQ(resolved.groupCount[2], 3u);
  EXPECT_EQ(resolved.globalSize[2], 3u);
}

// Level Zero's cooperative append: the flag reaches the backend's launch, indirect or not, and
// the stream's description says so.
TEST_F(KernelLaunches, CooperativeOnesStayCooperative) {
  const uint32_t counts[3] = {2, 1, 1};
  LaunchRange range;
  range.cooperative = true;
  const LaunchKernelCommand command = append(range, {counts});
  EXPECT_TRUE(command.launch.cooperative);
  EXPECT_TRUE(command.launch.withGroupCount(counts).cooperative);
  EXPECT_NE(describeCommandStream(stream.bytes()).find("cooperative"), std::string::npos);

  CommandStream ordinary;
  kernel.appendLaunch(ordinary, {});
  EXPECT_FALSE(onlyLaunch(ordinary).command.launch.cooperative);
  EXPECT_EQ(describeCommandStream(ordinary.bytes()).find("cooperative"), std::string::npos);
}

TEST(Kernel, NullPointerArgumentIsANullPointer) {
  const auto d = descriptor();
  Kernel kernel(d, nullptr);
  float data = 0;
  float* pointer = &data;
  ASSERT_EQ(kernel.setArgument(0, sizeof(pointer), &pointer), ArgumentError::None);
  ASSERT_EQ(kernel.setArgument(0, sizeof(void*), nullptr), ArgumentError::None);
  CommandStream stream;
  kernel.appendLaunch(stream, {});
  EXPECT_EQ(at<uint64_t>(onlyLaunch(stream).arguments, 0), 0u);
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
  gpu.simdWidth = 32;  // a warp
  DeviceInfo cpu = deviceWithGroupsOf(1024);
  cpu.simdWidth = 8;  // float lanes of AVX2
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
