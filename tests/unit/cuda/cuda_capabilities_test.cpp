#include "backends/cuda/cuda_capabilities.h"

#include <gtest/gtest.h>

#include <map>

namespace loom::backends::cuda {
namespace {

AttributeLookup lookupIn(const std::map<DeviceAttribute, int>& attributes) {
  return [attributes](DeviceAttribute which) {
    auto found = attributes.find(which);
    return found == attributes.end() ? 0 : found->second;
  };
}

TEST(CudaCapabilities, AnH100WithACurrentDriverHasBoth) {
  const CudaCapabilities capabilities = readCapabilities(12080, lookupIn({{kCanUseHostPointerForRegisteredMem, 1}}));
  EXPECT_TRUE(capabilities.registersHostMemoryInPlace);
  EXPECT_TRUE(capabilities.streamValueOperations) << "the v2 stream memory operations need no opt-in";
}

TEST(CudaCapabilities, OlderDriversHaveStreamOperationsOnlyWhenEnabled) {
  EXPECT_FALSE(readCapabilities(11040, lookupIn({})).streamValueOperations);
  EXPECT_TRUE(readCapabilities(11040, lookupIn({{kCanUseStreamMemOpsV1, 1}})).streamValueOperations);
}

TEST(CudaCapabilities, DependentLaunchesNeedHopperAndADriverWithLaunchAttributes) {
  const std::map<DeviceAttribute, int> hopper{{DeviceAttribute::ComputeCapabilityMajor, 9}};
  const std::map<DeviceAttribute, int> ampere{{DeviceAttribute::ComputeCapabilityMajor, 8}};
  EXPECT_TRUE(readCapabilities(12000, lookupIn(hopper)).dependentLaunches);
  EXPECT_TRUE(readCapabilities(13000, lookupIn({{DeviceAttribute::ComputeCapabilityMajor, 10}})).dependentLaunches);
  EXPECT_FALSE(readCapabilities(11080, lookupIn(hopper)).dependentLaunches) << "no cuLaunchKernelEx before 12.0";
  EXPECT_FALSE(readCapabilities(13000, lookupIn(ampere)).dependentLaunches) << "no griddepcontrol before sm_90";
}

TEST(CudaCapabilities, TheTexturePitchAlignmentIsTheDriversOrNone) {
  // CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT is 51 in cuda.h.
  EXPECT_EQ(readCapabilities(12080, lookupIn({{DeviceAttribute(51), 32}})).texturePitchAlignment, 32u);
  EXPECT_EQ(readCapabilities(12080, lookupIn({})).texturePitchAlignment, 0u) << "no texture objects then";
}

TEST(CudaCapabilities, TheLargestAccessPolicyWindowIsTheDriversOrNone) {
  EXPECT_EQ(readCapabilities(12080, lookupIn({{DeviceAttribute::MaxAccessPolicyWindowSize, 134213632}})).maxAccessPolicyWindow,
            134213632u);
  EXPECT_EQ(readCapabilities(12080, lookupIn({})).maxAccessPolicyWindow, 0u);
}

TEST(CudaCapabilities, RegisteredMemoryAtAnotherAddressIsNotUsed) {
  EXPECT_FALSE(readCapabilities(12080, lookupIn({})).registersHostMemoryInPlace);
}

}  // namespace
}  // namespace loom::backends::cuda
