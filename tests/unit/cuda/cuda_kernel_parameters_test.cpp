#include "backends/cuda/cuda_kernel_parameters.h"

#include <gtest/gtest.h>

#include <cstring>

namespace loom::backends::cuda {
namespace {

using compiler::ArgumentKind;

compiler::KernelArgument argument(ArgumentKind kind, uint32_t offset, uint32_t size, uint32_t alignment) {
  compiler::KernelArgument described;
  described.kind = kind;
  described.offset = offset;
  described.size = size;
  described.alignment = alignment;
  return described;
}

template <typename T>
T read(const KernelParameters& parameters, size_t index) {
  T value;
  std::memcpy(&value, parameters.pointers[index], sizeof(T));
  return value;
}

// kernel(global float* a, int n, local float* scratch, float4 v, constant int* c, char tag)
struct MixedKernel {
  compiler::KernelDescriptor descriptor;
  uint8_t arguments[64] = {};

  MixedKernel() {
    descriptor.arguments = {argument(ArgumentKind::GlobalPointer, 0, 8, 8), argument(ArgumentKind::Value, 8, 4, 4),
                            argument(ArgumentKind::LocalPointer, 16, 8, 8), argument(ArgumentKind::Value, 32, 16, 16),
                            argument(ArgumentKind::ConstantPointer, 48, 8, 8), argument(ArgumentKind::Value, 56, 1, 1)};
    descriptor.argumentBufferSize = sizeof(arguments);
    const uint64_t a = 0x7f0000001000, localOffset = 256, c = 0x7f0000002000;
    const int32_t n = -5;
    const float v[4] = {1, 2, 3, 4};
    std::memcpy(arguments + 0, &a, 8);
    std::memcpy(arguments + 8, &n, 4);
    std::memcpy(arguments + 16, &localOffset, 8);  // as core writes it: 64 bits
    std::memcpy(arguments + 32, v, 16);
    std::memcpy(arguments + 48, &c, 8);
    arguments[56] = 'x';
  }
};

core::KernelLaunch someLaunch(const compiler::KernelDescriptor& descriptor) {
  core::KernelLaunch launch;
  launch.descriptor = &descriptor;
  launch.argumentSize = descriptor.argumentBufferSize;
  launch.workDim = 2;
  launch.groupSize[0] = 64, launch.groupSize[1] = 4;
  launch.globalSize[0] = 1000, launch.globalSize[1] = 8;
  launch.globalOffset[0] = 7;
  return launch;
}

TEST(CudaKernelParameters, OneParameterPerArgumentThenTheImplicitStruct) {
  MixedKernel kernel;
  const KernelParameters parameters(someLaunch(kernel.descriptor), kernel.arguments);
  ASSERT_EQ(parameters.pointers.size(), 7u);
  // The arguments are read where they lie, not copied.
  const uint32_t offsets[6] = {0, 8, 16, 32, 48, 56};
  for (size_t i = 0; i < 6; ++i) EXPECT_EQ(parameters.pointers[i], kernel.arguments + offsets[i]) << i;
  EXPECT_EQ(parameters.pointers[6], &parameters.implicit);
}

TEST(CudaKernelParameters, ValuesAndLocalOffsetsReadAsThePtxParametersTakeThem) {
  MixedKernel kernel;
  const KernelParameters parameters(someLaunch(kernel.descriptor), kernel.arguments);
  EXPECT_EQ(read<uint64_t>(parameters, 0), 0x7f0000001000u);
  EXPECT_EQ(read<int32_t>(parameters, 1), -5);
  static_assert(compiler::nvptx::kLocalPointerParameterSize == sizeof(uint32_t));
  EXPECT_EQ(read<uint32_t>(parameters, 2), 256u) << "the .u32 parameter of a local pointer is its arena offset";
  EXPECT_EQ(read<float>(parameters, 3), 1.0f);
  EXPECT_EQ(std::memcmp(parameters.pointers[3], kernel.arguments + 32, 16), 0);
  EXPECT_EQ(read<uint64_t>(parameters, 4), 0x7f0000002000u);
  EXPECT_EQ(read<char>(parameters, 5), 'x');
}

TEST(CudaKernelParameters, ImplicitStructHoldsTheLaunchGeometry) {
  MixedKernel kernel;
  const KernelParameters parameters(someLaunch(kernel.descriptor), kernel.arguments);
  const auto implicit = read<compiler::nvptx::ImplicitLaunchParameters>(parameters, 6);
  EXPECT_EQ(implicit.globalOffset[0], 7u);
  EXPECT_EQ(implicit.globalOffset[1], 0u);
  EXPECT_EQ(implicit.globalSize[0], 1000u);
  EXPECT_EQ(implicit.globalSize[1], 8u);
  EXPECT_EQ(implicit.globalSize[2], 1u);
  EXPECT_EQ(implicit.workDim, 2u);
  for (int d = 0; d < 3; ++d) {
    EXPECT_EQ(implicit.groupIdBase[d], 0u) << "a launch that is no part runs its groups from 0";
    EXPECT_EQ(implicit.numGroups[d], 1u);
  }
}

// A part of a split launch: the whole launch's counts and range, its own first group.
TEST(CudaKernelParameters, APartTakesItsFirstGroupAndTheWholeLaunchsCounts) {
  core::KernelLaunch launch;
  launch.setRange({2, {10, 6, 1}, {8, 8, 1}, {3, 0, 0}, {}, false});
  const core::KernelLaunch part = launch.part(1, 4, 2);
  const compiler::nvptx::ImplicitLaunchParameters implicit = implicitParameters(part);
  const uint32_t base[3] = {0, 4, 0}, total[3] = {10, 6, 1};
  for (int d = 0; d < 3; ++d) {
    EXPECT_EQ(implicit.groupIdBase[d], base[d]) << d;
    EXPECT_EQ(implicit.numGroups[d], total[d]) << d;
  }
  EXPECT_EQ(implicit.globalSize[1], 48u);
  EXPECT_EQ(implicit.globalOffset[0], 3u);
  const Grid grid = gridOf(part);
  EXPECT_EQ(grid.x, 10u);
  EXPECT_EQ(grid.y, 2u);
  EXPECT_EQ(grid.z, 1u);
  EXPECT_FALSE(runsOnWholeGroupsEntry(part)) << "the offset is not 0";
}

// The entry for whole groups serves launches of whole groups at global offset 0.
TEST(CudaKernelParameters, LaunchesOfWholeGroupsAtOffsetZeroAreTold) {
  core::KernelLaunch launch;
  launch.workDim = 2;
  const uint32_t groupSize[3] = {64, 4, 1}, groupCount[3] = {16, 2, 1};
  for (int d = 0; d < 3; ++d) {
    launch.groupSize[d] = groupSize[d];
    launch.groupCount[d] = groupCount[d];
    launch.globalSize[d] = uint64_t(groupSize[d]) * groupCount[d];
  }
  EXPECT_TRUE(runsOnWholeGroupsEntry(launch));
  launch.globalOffset[1] = 3;
  EXPECT_FALSE(runsOnWholeGroupsEntry(launch)) << "the entry for whole groups takes the offset as 0";
  launch.globalOffset[1] = 0;
  launch.globalSize[1] = 7;
  EXPECT_FALSE(runsOnWholeGroupsEntry(launch)) << "7 is no multiple of 4: the last row of groups is partial";
}

TEST(CudaKernelParameters, KernelWithoutArgumentsGetsOnlyTheImplicitStruct) {
  const compiler::KernelDescriptor none;
  const KernelParameters parameters(someLaunch(none), nullptr);
  EXPECT_EQ(parameters.pointers, std::vector<void*>{const_cast<compiler::nvptx::ImplicitLaunchParameters*>(&parameters.implicit)});
}

TEST(CudaKernelParameters, ImplicitStructLayoutIsTheCompilersContract) {
  using compiler::nvptx::ImplicitLaunchParameters;
  EXPECT_EQ(sizeof(ImplicitLaunchParameters), 80u);
  EXPECT_EQ(offsetof(ImplicitLaunchParameters, globalSize), 24u);
  EXPECT_EQ(offsetof(ImplicitLaunchParameters, workDim), 48u);
  EXPECT_EQ(offsetof(ImplicitLaunchParameters, groupIdBase), 52u);
  EXPECT_EQ(offsetof(ImplicitLaunchParameters, numGroups), 64u);
}

}  // namespace
}  // namespace loom::backends::cuda
