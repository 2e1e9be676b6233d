// Texture mirrors (cuda_texture_mirror.h) on the fake CUDA driver: which images get one, what a
// mirror is made of and leaves behind, and how a queue keeps it current through the image
// registry: refreshed before a launch that may sample the image, marked stale after whatever may
// write its texels (launches through the image or a view of it, copies, fills), and left alone by
// work elsewhere. The fake's streams run memsets, so the stale word is read as the GPU would.
#include "backends/cuda/cuda_texture_mirror.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "backends/cuda/cuda_context.h"
#include "backends/cuda/cuda_image_registry.h"
#include "backends/cuda/cuda_program.h"
#include "backends/cuda/cuda_queue.h"
#include "fake_cuda_driver.h"

namespace loom::backends::cuda {
namespace {

using compiler::AccessQualifier;
using testing::FakeCudaDriver;

core::ImageShape shapeOf(core::ImageType type, core::ChannelOrder order, core::ChannelType channels) {
  core::ImageShape shape;
  shape.type = type;
  shape.format = {order, channels};
  shape.width = 300;
  shape.height = type == core::ImageType::Image2d ? 200 : 1;
  return core::withTightPitches(shape);
}

TEST(TextureMirrorServes, TwoDimensionalRgbaFloatImagesOnly) {
  using core::ChannelOrder;
  using core::ChannelType;
  using core::ImageType;
  EXPECT_TRUE(TextureMirror::serves(shapeOf(ImageType::Image2d, ChannelOrder::RGBA, ChannelType::Float)));
  EXPECT_FALSE(TextureMirror::serves(shapeOf(ImageType::Image2d, ChannelOrder::RGBA, ChannelType::UnormInt8)));
  EXPECT_FALSE(TextureMirror::serves(shapeOf(ImageType::Image2d, ChannelOrder::R, ChannelType::Float)));
  EXPECT_FALSE(TextureMirror::serves(shapeOf(ImageType::Image1d, ChannelOrder::RGBA, ChannelType::Float)));
}

// PTX as LLVM's NVPTX backend writes it: instructions after a tab, predicates before them.
constexpr const char* kEntries = R"(
.visible .entry samples(
	.param .u64 samples_param_0
)
{
	.reg .b64 	%rd<3>;
	@%p1 tex.2d.v4.f32.f32	{%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];
	ret;
}
.visible .entry gathers()
{
	tld4.r.2d.v4.f32.f32	{%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];
}
.visible .entry copies(
	.param .u64 copies_param_0
)
{
	ld.global.v4.u32 	{%r1, %r2, %r3, %r4}, [%rd1];
	st.global.v4.u32 	[%rd2], {%r1, %r2, %r3, %r4};
	ret;
}
.visible .entry calls()
{
	{ // callseq 0
	call.uni helper, ();
	} // callseq 0
	ret;
}
)";

TEST(PtxEntryMaySampleTextures, OnlyEntriesWithoutTextureInstructionsOrCallsCannot) {
  EXPECT_TRUE(ptxEntryMaySampleTextures(kEntries, "samples"));
  EXPECT_TRUE(ptxEntryMaySampleTextures(kEntries, "gathers"));
  EXPECT_FALSE(ptxEntryMaySampleTextures(kEntries, "copies"));
  EXPECT_TRUE(ptxEntryMaySampleTextures(kEntries, "calls")) << "the callee might";
  EXPECT_TRUE(ptxEntryMaySampleTextures(kEntries, "absent")) << "unknown: taken as sampling";
}

class TextureMirrors : public ::testing::Test {
 protected:
  TextureMirrors() {
    std::string error;
    context = PrimaryContext::retain(fake.driver(), 0, error);
    scope.emplace(*context);
    queue = CudaQueue::create(context, "gpu0", CudaQueue::Caller::AnyThread, false, error);
    fake.driver()->cuModuleLoadDataEx(&module, kTextureMirrorRefreshPtx, 0, nullptr, nullptr);
    fake.driver()->cuModuleGetFunction(&refresh, module, kTextureMirrorRefreshEntry);
    texels.resize(shape.rowPitch * shape.height);
    kernel = std::make_unique<CudaKernel>(context, KernelEntries{kernelEntry, kernelEntry}, 1024, false, false);
    fake.implicitParameterIndex = 1;  // the kernels below take one image
  }
  ~TextureMirrors() override {
    ImageRegistry::instance().remove(kDescriptor);
    ImageRegistry::instance().remove(kViewDescriptor);
    mirror.reset();
    queue.reset();
    fake.driver()->cuModuleUnload(module);
    EXPECT_TRUE(fake.misuse.empty()) << fake.misuse.front();
  }

  CUdeviceptr texelAddress() const { return reinterpret_cast<CUdeviceptr>(texels.data()); }
  void createRegisteredMirror(bool streamWrites = true) {
    mirror = TextureMirror::create(*fake.driver(), shape, texelAddress(), refresh, streamWrites);
    ASSERT_TRUE(mirror);
    ImageRegistry::instance().add(kDescriptor, texelAddress(), texels.size(), mirror.get());
  }
  uint32_t staleWord() {
    queue->synchronize();
    return *reinterpret_cast<const uint32_t*>(mirror->staleWord());
  }
  void setStaleWord(uint32_t value) { *reinterpret_cast<uint32_t*>(mirror->staleWord()) = value; }
  // A launch of a kernel whose one argument is an image of `access`, given `descriptor`.
  void launchWithImage(AccessQualifier access, uint64_t descriptor) {
    compiler::KernelArgument argument;
    argument.kind = compiler::ArgumentKind::Image;
    argument.size = 8;
    argument.accessQualifier = access;
    kernelDescriptor.arguments = {argument};
    core::KernelLaunch launch;
    launch.setRange({2, {4, 4, 1}, {16, 16, 1}, {}, {}, false});
    launch.kernel = kernel.get();
    launch.descriptor = &kernelDescriptor;
    uint8_t arguments[8];
    std::memcpy(arguments, &descriptor, sizeof(descriptor));
    queue->launch(launch, arguments);
  }
  // The names of the calls on the queue's stream, launches named by their function.
  std::vector<std::string> streamCalls() {
    std::vector<std::string> names;
    for (const testing::FakeCudaCall& call : fake.calls) {
      if (call.name == "cuLaunchKernel")
        names.push_back(call.function == refresh ? "refresh" : "kernel");
      else if (call.name == "cuStreamWriteValue32")
        names.push_back("word");
      else if (call.name == "cuMemsetD32Async" || call.name == "cuMemcpyAsync" || call.name == "cuMemcpy2DAsync")
        names.push_back(call.name);
    }
    return names;
  }

  static constexpr uint64_t kDescriptor = 0x5000;
  static constexpr uint64_t kViewDescriptor = 0x6000;
  FakeCudaDriver fake;  // first: outlives everything that calls it
  std::shared_ptr<PrimaryContext> context;
  std::optional<PrimaryContext::Scope> scope;
  std::unique_ptr<CudaQueue> queue;
  CUmodule module = nullptr;
  CUfunction refresh = nullptr;
  const CUfunction kernelEntry = reinterpret_cast<CUfunction>(0xa0);
  std::unique_ptr<CudaKernel> kernel;
  compiler::KernelDescriptor kernelDescriptor;
  core::ImageShape shape = shapeOf(core::ImageType::Image2d, core::ChannelOrder::RGBA, core::ChannelType::Float);
  std::vector<uint8_t> texels;
  std::unique_ptr<TextureMirror> mirror;
};

TEST_F(TextureMirrors, AMirrorIsAnArrayOfTheImageWithASurfaceAndAWordAndLeavesNothingBehind) {
  createRegisteredMirror();
  ASSERT_EQ(fake.arrays.size(), 1u);
  const CudaArray3dDescriptor& array = fake.arrays.begin()->second;
  EXPECT_EQ(array.Width, 300u);
  EXPECT_EQ(array.Height, 200u);
  EXPECT_EQ(array.Depth, 0u);  // 2D
  EXPECT_EQ(array.Format, ArrayFormat::Float);
  EXPECT_EQ(array.NumChannels, 4u);
  EXPECT_EQ(array.Flags, CUDA_ARRAY3D_SURFACE_LDST);
  EXPECT_EQ(mirror->resource().resType, CU_RESOURCE_TYPE_ARRAY);
  EXPECT_EQ(mirror->resource().res.array.hArray, fake.arrays.begin()->first);
  EXPECT_EQ(fake.surfaces.size(), 1u);
  ImageRegistry::instance().remove(kDescriptor);
  mirror.reset();
  EXPECT_TRUE(fake.arrays.empty());
  EXPECT_TRUE(fake.surfaces.empty());
  EXPECT_TRUE(fake.deviceMemory.empty());
}

TEST_F(TextureMirrors, AMirrorTheDriverRefusesLeavesNothingBehind) {
  fake.failing["cuSurfObjectCreate"] = CUDA_ERROR_OUT_OF_MEMORY;
  EXPECT_FALSE(TextureMirror::create(*fake.driver(), shape, texelAddress(), refresh, true));
  EXPECT_TRUE(fake.arrays.empty());
  EXPECT_TRUE(fake.deviceMemory.empty());
}

TEST_F(TextureMirrors, AReadOnlyImageIsRefreshedBeforeTheKernelAndTheWordCleared) {
  createRegisteredMirror();
  setStaleWord(1);
  launchWithImage(AccessQualifier::ReadOnly, kDescriptor);
  EXPECT_EQ(streamCalls(), (std::vector<std::string>{"refresh", "word", "kernel"}));
  const testing::FakeCudaCall call = fake.callsNamed("cuLaunchKernel").front();
  EXPECT_EQ(call.grid[0], 2u);   // 300 texels in blocks of 256
  EXPECT_EQ(call.grid[1], 64u);  // rows walked by 64 blocks
  EXPECT_EQ(call.block[0], 256u);
  EXPECT_EQ(staleWord(), 0u);
}

TEST_F(TextureMirrors, WithoutStreamMemoryOperationsTheWordIsWrittenByMemsets) {
  createRegisteredMirror(false);
  setStaleWord(1);
  launchWithImage(AccessQualifier::ReadOnly, kDescriptor);
  launchWithImage(AccessQualifier::WriteOnly, kDescriptor);
  EXPECT_EQ(streamCalls(), (std::vector<std::string>{"refresh", "cuMemsetD32Async", "kernel", "kernel", "cuMemsetD32Async"}));
  EXPECT_EQ(staleWord(), 1u);
}

TEST_F(TextureMirrors, AKernelWithoutTextureReadsIsNotPrecededByARefresh) {
  kernel = std::make_unique<CudaKernel>(context, KernelEntries{kernelEntry, kernelEntry}, 1024, false, false, false);
  createRegisteredMirror();
  setStaleWord(1);
  launchWithImage(AccessQualifier::ReadOnly, kDescriptor);
  EXPECT_EQ(streamCalls(), (std::vector<std::string>{"kernel"}));
  EXPECT_EQ(staleWord(), 1u) << "still stale for the next kernel that samples";
}

TEST_F(TextureMirrors, AWriteOnlyImageIsMarkedStaleAfterTheKernelAndNotRefreshed) {
  createRegisteredMirror();
  setStaleWord(0);
  launchWithImage(AccessQualifier::WriteOnly, kDescriptor);
  EXPECT_EQ(streamCalls(), (std::vector<std::string>{"kernel", "word"}));
  EXPECT_EQ(staleWord(), 1u);
}

TEST_F(TextureMirrors, AnImageOfNoKnownAccessIsRefreshedBeforeAndMarkedAfter) {
  createRegisteredMirror();
  setStaleWord(0);
  launchWithImage(AccessQualifier::None, kDescriptor);
  EXPECT_EQ(streamCalls(), (std::vector<std::string>{"refresh", "word", "kernel", "word"}));
  EXPECT_EQ(staleWord(), 1u);
}

TEST_F(TextureMirrors, WritesThroughAViewMarkTheViewedImagesMirror) {
  createRegisteredMirror();
  ImageRegistry::instance().add(kViewDescriptor, texelAddress(), texels.size(), nullptr);
  setStaleWord(0);
  launchWithImage(AccessQualifier::ReadWrite, kViewDescriptor);
  EXPECT_EQ(streamCalls(), (std::vector<std::string>{"kernel", "word"}));
  EXPECT_EQ(staleWord(), 1u);
}

TEST_F(TextureMirrors, CopiesAndFillsIntoTheTexelsMarkTheMirrorAndOthersDoNot) {
  createRegisteredMirror();
  std::vector<uint8_t> elsewhere(4096);
  setStaleWord(0);
  queue->copy(elsewhere.data(), texels.data(), 64);  // reads the image
  queue->copy(texels.data() + 100, elsewhere.data(), 64);
  EXPECT_EQ(streamCalls(), (std::vector<std::string>{"cuMemcpyAsync", "cuMemcpyAsync", "word"}));
  EXPECT_EQ(staleWord(), 1u);

  setStaleWord(0);
  const core::Region3d row{0, 3, 0, shape.rowPitch, shape.slicePitch};
  const core::Region3d packed{0, 0, 0, 64, 64};
  queue->copyRegion({texels.data(), elsewhere.data(), row, packed, 64, 1, 1});
  EXPECT_EQ(staleWord(), 1u);

  setStaleWord(0);
  const uint32_t zero = 0;
  queue->fill(elsewhere.data(), &zero, sizeof(zero), 256);
  EXPECT_EQ(staleWord(), 0u);
  queue->fill(texels.data() + texels.size() - 16, &zero, sizeof(zero), 16);
  EXPECT_EQ(staleWord(), 1u);
}

// A region fill goes row by row (a fill, then copies doubling it): one mark for the whole region.
TEST_F(TextureMirrors, ARegionCommandMarksTheMirrorOnce) {
  createRegisteredMirror();
  setStaleWord(0);
  const float texel[4] = {1, 2, 3, 4};
  const core::Region3d rows{0, 2, 0, shape.rowPitch, shape.slicePitch};
  queue->fillRegion({texels.data(), rows, 16 * sizeof(texel), 8, 1, sizeof(texel)}, texel);
  const std::vector<std::string> calls = streamCalls();
  EXPECT_EQ(std::count(calls.begin(), calls.end(), "word"), 1);
  EXPECT_EQ(calls.back(), "word");
  EXPECT_EQ(staleWord(), 1u);
}

TEST_F(TextureMirrors, ARemovedImageIsNoLongerTracked) {
  createRegisteredMirror();
  ImageRegistry::instance().remove(kDescriptor);
  launchWithImage(AccessQualifier::None, kDescriptor);
  queue->copy(texels.data(), texels.data() + 64, 64);
  EXPECT_EQ(streamCalls(), (std::vector<std::string>{"kernel", "cuMemcpyAsync"}));
}

}  // namespace
}  // namespace loom::backends::cuda
