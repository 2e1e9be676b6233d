// The CUDA backend on a real GPU, with hand-written PTX that follows loom/compiler/nvptx_launch_abi.h.
// Skipped where the driver finds no NVIDIA GPU.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <new>
#include <numeric>
#include <thread>

#include "backends/cuda/cuda_backend.h"
#include "loom/compiler/compiler.h"
#include "loom/compiler/nvptx_launch_abi.h"
#include "loom/compiler/opencl_c.h"
#include "loom/core/command_executor.h"
#include "loom/core/command_stream.h"
#include "loom/core/composite_backend.h"
#include "loom/core/event.h"
#include "loom/core/shared_memory.h"

namespace loom::backends::cuda {
namespace {

using compiler::ArgumentKind;

// scale(global float* data, float factor, local float* scratch): data[gid] *= factor through
// shared memory, for the work-items inside the global size. probe(global ulong* out, char tag,
// constant int* c, int n, local int* l): work-item 0 writes what it received.
// The test kernels' bodies: each becomes both entries of the launch contract.
constexpr char kScaleBody[] = R"((.param .u64 data, .param .f32 factor, .param .u32 scratch, .param .align 8 .b8 implicit[80])
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<12>;
  .reg .f32 %f<4>;
  ld.param.u64 %rd1, [data];
  cvta.to.global.u64 %rd1, %rd1;
  ld.param.f32 %f1, [factor];
  ld.param.u32 %r1, [scratch];
  ld.param.u64 %rd2, [implicit+0];
  ld.param.u64 %rd3, [implicit+24];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mul.wide.u32 %rd4, %r2, %r3;
  cvt.u64.u32 %rd5, %r4;
  add.u64 %rd4, %rd4, %rd5;
  setp.ge.u64 %p1, %rd4, %rd3;
  add.u64 %rd6, %rd4, %rd2;
  shl.b64 %rd7, %rd6, 2;
  add.u64 %rd8, %rd1, %rd7;
  mov.u64 %rd9, loom_local;
  cvt.u64.u32 %rd10, %r1;
  add.u64 %rd9, %rd9, %rd10;
  mul.wide.u32 %rd11, %r4, 4;
  add.u64 %rd9, %rd9, %rd11;
  @%p1 bra SKIP;
  ld.global.f32 %f2, [%rd8];
  mul.f32 %f3, %f2, %f1;
  st.shared.f32 [%rd9], %f3;
SKIP:
  bar.sync 0;
  @%p1 bra DONE;
  ld.shared.f32 %f2, [%rd9];
  st.global.f32 [%rd8], %f2;
DONE:
  ret;
}
)";

// Stores its arguments, then the implicit struct's offsets 0 and 2, global sizes 0 and 2 and work
// dimension, between them the block's x and z sizes (the enqueued local size).
constexpr char kProbeBody[] = R"((.param .u64 out, .param .u8 tag, .param .u64 c, .param .u32 n, .param .u32 l,
      .param .align 8 .b8 implicit[80])
{
  .reg .pred %p<2>;
  .reg .b16 %h<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<8>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  or.b32 %r1, %r1, %r2;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  ld.param.u8 %h1, [tag];
  cvt.u64.u16 %rd2, %h1;
  st.global.u64 [%rd1+0], %rd2;
  ld.param.u64 %rd3, [c];
  cvta.to.global.u64 %rd3, %rd3;
  ld.global.s32 %r3, [%rd3];
  cvt.s64.s32 %rd2, %r3;
  st.global.u64 [%rd1+8], %rd2;
  ld.param.u32 %r3, [n];
  cvt.s64.s32 %rd2, %r3;
  st.global.u64 [%rd1+16], %rd2;
  ld.param.u32 %r3, [l];
  cvt.u64.u32 %rd2, %r3;
  st.global.u64 [%rd1+24], %rd2;
  ld.param.u64 %rd2, [implicit+0];
  st.global.u64 [%rd1+32], %rd2;
  ld.param.u64 %rd2, [implicit+16];
  st.global.u64 [%rd1+40], %rd2;
  ld.param.u64 %rd2, [implicit+24];
  st.global.u64 [%rd1+48], %rd2;
  ld.param.u64 %rd2, [implicit+40];
  st.global.u64 [%rd1+56], %rd2;
  mov.u32 %r3, %ntid.x;
  cvt.u64.u32 %rd2, %r3;
  st.global.u64 [%rd1+64], %rd2;
  mov.u32 %r3, %ntid.z;
  cvt.u64.u32 %rd2, %r3;
  st.global.u64 [%rd1+72], %rd2;
  ld.param.u32 %r3, [implicit+48];
  cvt.u64.u32 %rd2, %r3;
  st.global.u64 [%rd1+80], %rd2;
DONE:
  ret;
}
)";

std::string bothEntries(const std::string& name, const char* body) {
  return ".visible .entry " + name + body + ".visible .entry " + name + compiler::nvptx::kWholeGroupsEntrySuffix + body;
}

const std::string kPtx = std::string(R"(
.version 7.0
.target sm_52
.address_size 64

.extern .shared .align 16 .b8 loom_local[];
.visible .global .align 4 .u32 counter = 42;

)") + bothEntries("scale", kScaleBody) + bothEntries("probe", kProbeBody);

compiler::KernelArgument argument(ArgumentKind kind, uint32_t offset, uint32_t size) {
  compiler::KernelArgument described;
  described.kind = kind;
  described.offset = offset;
  described.size = size;
  described.alignment = std::min(size, 8u);
  return described;
}

std::shared_ptr<compiler::CompiledProgram> ptxProgram(const char* ptx, size_t size) {
  auto program = std::make_shared<compiler::CompiledProgram>();
  program->target = compiler::Target::Nvptx;
  program->code.assign(ptx, ptx + size);
  compiler::KernelDescriptor scale;
  scale.name = "scale";
  scale.arguments = {argument(ArgumentKind::GlobalPointer, 0, 8), argument(ArgumentKind::Value, 8, 4),
                     argument(ArgumentKind::LocalPointer, 16, 8)};
  scale.argumentBufferSize = 24;
  compiler::KernelDescriptor probe;
  probe.name = "probe";
  probe.arguments = {argument(ArgumentKind::GlobalPointer, 0, 8), argument(ArgumentKind::Value, 8, 1),
                     argument(ArgumentKind::ConstantPointer, 16, 8), argument(ArgumentKind::Value, 24, 4),
                     argument(ArgumentKind::LocalPointer, 32, 8)};
  probe.argumentBufferSize = 40;
  program->info.kernels = {scale, probe};
  return program;
}

template <typename T>
void put(std::vector<uint8_t>& buffer, uint32_t offset, T value) {
  std::memcpy(buffer.data() + offset, &value, sizeof(T));
}

class CudaGpu : public testing::Test {
 protected:
  void SetUp() override {
    // Opened once and never closed, as the runtime does.
    static std::string whyNone;
    static auto* devices = new std::vector<core::DiscoveredDevice>(discoverCudaDevices(kDriverLibrary, whyNone));
    if (devices->empty()) GTEST_SKIP() << "no NVIDIA GPU: " << whyNone;
    gpu = static_cast<CudaBackend*>((*devices)[0].backend.get());
    gpus = devices;
  }

  std::unique_ptr<core::BackendProgram> load() {
    std::string log;
    auto program = gpu->loadProgram(ptxProgram(kPtx.c_str(), kPtx.size()), log);
    EXPECT_TRUE(program) << log;
    return program;
  }

  template <typename T>
  std::vector<T> download(const void* device, size_t count) {
    std::vector<T> host(count);
    gpu->copy(host.data(), device, count * sizeof(T));
    return host;
  }

  CudaBackend* gpu = nullptr;
  const std::vector<core::DiscoveredDevice>* gpus = nullptr;
};

// Shared host memory the GPU addresses in place, unregistered and freed when the test ends.
class RegisteredHostMemory {
 public:
  RegisteredHostMemory(CudaBackend& gpu, size_t size) : gpu_(gpu), block_(core::allocateSharedMemory(size, 0, {})) {
    registered_ = block_.address && gpu.registerHostMemory(block_.address, block_.mappedSize);
  }
  RegisteredHostMemory(const RegisteredHostMemory&) = delete;
  RegisteredHostMemory& operator=(const RegisteredHostMemory&) = delete;
  ~RegisteredHostMemory() {
    if (registered_) gpu_.unregisterHostMemory(block_.address);
    if (block_.address) core::freeSharedMemory(block_);
  }

  bool registered() const { return registered_; }
  void* address() const { return block_.address; }

 private:
  CudaBackend& gpu_;
  core::SharedMemoryBlock block_;
  bool registered_ = false;
};

TEST_F(CudaGpu, DescribesTheDevice) {
  const core::DeviceInfo& info = gpu->info();
  std::printf("%s: %u SMs, %u MHz, %llu MiB, L2 %llu KiB, shared %u, PCI id 0x%04x, UUID %02x%02x%02x%02x-%02x%02x\n",
              info.name.c_str(), info.computeUnits, info.coreClockMHz, (unsigned long long)(info.globalMemorySize >> 20),
              (unsigned long long)(info.lastLevelCacheSize >> 10), info.maxSharedLocalMemory, info.deviceId, info.uuid[0],
              info.uuid[1], info.uuid[2], info.uuid[3], info.uuid[4], info.uuid[5]);
  EXPECT_EQ(info.type, core::DeviceType::Gpu);
  EXPECT_EQ(info.vendorId, 0x10deu);
  EXPECT_FALSE(info.name.empty());
  EXPECT_GT(info.computeUnits, 1u);
  EXPECT_EQ(info.subGroupSizes, std::vector<uint32_t>{32});
  EXPECT_GE(info.maxSharedLocalMemory, 48u * 1024);
  EXPECT_GT(info.globalMemorySize, 1ull << 30);
  EXPECT_NE(info.uuid, (std::array<uint8_t, 16>{}));
  EXPECT_EQ(gpu->compilerTarget(), compiler::Target::Nvptx);
}

TEST_F(CudaGpu, CopiesBetweenHostAndDevice) {
  std::vector<uint32_t> data(1000);
  std::iota(data.begin(), data.end(), 1u);
  void* device = gpu->allocateDevice(data.size() * 4);
  void* pinned = gpu->allocateHost(data.size() * 4);
  ASSERT_TRUE(device && pinned);
  gpu->copy(device, data.data(), data.size() * 4);
  gpu->copy(pinned, device, data.size() * 4);
  EXPECT_EQ(std::memcmp(pinned, data.data(), data.size() * 4), 0);
  EXPECT_EQ(download<uint32_t>(device, data.size()), data);
  gpu->release(device, core::MemoryType::Device);
  gpu->release(pinned, core::MemoryType::Host);
}

// A 3-D region between device memory and pageable host memory with different pitches, through a
// queue (one 2-D copy per slice), against the same copy done row by row on the host.
TEST_F(CudaGpu, QueuesCopyRegionsBetweenPitchedLayouts) {
  std::vector<uint8_t> source(32 * 8 * 3);
  std::iota(source.begin(), source.end(), uint8_t{0});
  auto* device = static_cast<uint8_t*>(gpu->allocateDevice(source.size()));
  ASSERT_TRUE(device);
  gpu->copy(device, source.data(), source.size());
  core::CopyRegionCommand region{};
  region.source = device;
  region.sourceRegion = {3, 1, 1, 32, 256};  // rows of 32 bytes, slices of 256
  std::vector<uint8_t> host(20 * 6 * 2, 0xee);
  region.destination = host.data();
  region.destinationRegion = {1, 0, 0, 20, 120};
  region.width = 17, region.height = 5, region.depth = 2;
  std::unique_ptr<core::BackendQueue> queue = gpu->createQueue();
  queue->copyRegion(region);
  queue->synchronize();
  EXPECT_EQ(queue->takeFailure(), 0);
  for (uint64_t z = 0; z < 2; ++z)
    for (uint64_t y = 0; y < 6; ++y)
      for (uint64_t x = 0; x < 20; ++x) {
        const bool inside = y < 5 && x >= 1 && x < 18;
        const uint8_t expected = inside ? source[(1 + z) * 256 + (1 + y) * 32 + 3 + (x - 1)] : 0xee;
        ASSERT_EQ(host[z * 120 + y * 20 + x], expected) << x << "," << y << "," << z;
      }
  gpu->release(device, core::MemoryType::Device);
}

TEST_F(CudaGpu, FillsEveryPatternSize) {
  const uint8_t pattern[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  const uint8_t same[4] = {9, 9, 9, 9};
  const uint8_t pair[4] = {1, 2, 1, 2};
  const size_t size = 300001;
  auto* device = static_cast<uint8_t*>(gpu->allocateDevice(size + 8));
  ASSERT_TRUE(device);
  struct Case {
    const uint8_t* pattern;
    size_t patternSize, offset, size;
  };
  for (const Case& c : {Case{same, 4, 1, size}, Case{pair, 4, 0, size - 1}, Case{pattern, 4, 0, size - 1},
                        Case{pair, 4, 2, 1000}, Case{pattern, 4, 4, 4096}, Case{pattern, 8, 0, size}, Case{pattern, 16, 3, size}, Case{pattern, 2, 0, 7}}) {
    gpu->fill(device, same, 1, size + 8);
    gpu->fill(device + c.offset, c.pattern, c.patternSize, c.size);
    const std::vector<uint8_t> host = download<uint8_t>(device + c.offset, c.size);
    for (size_t i = 0; i < c.size; ++i)
      ASSERT_EQ(host[i], c.pattern[i % c.patternSize]) << "pattern " << c.patternSize << " size " << c.size << " at " << i;
    EXPECT_EQ(download<uint8_t>(device + c.offset + c.size, 1)[0], 9);
  }
  gpu->release(device, core::MemoryType::Device);
}

TEST_F(CudaGpu, LaunchesWithLocalMemoryAndANonUniformLastGroup) {
  auto program = load();
  ASSERT_TRUE(program);
  const auto compiled = ptxProgram(kPtx.c_str(), kPtx.size() + 1);
  std::string log;
  core::BackendKernel* kernel = program->kernel("scale", log);
  ASSERT_TRUE(kernel) << log;
  const size_t count = 1000;
  std::vector<float> data(count + 8, 1.0f);
  auto* device = static_cast<float*>(gpu->allocateDevice(data.size() * 4));
  gpu->copy(device, data.data(), data.size() * 4);
  std::unique_ptr<core::BackendQueue> queue = gpu->createQueue();
  for (uint32_t localOffset : {0u, 64u * 1024}) {  // the second needs the opt-in above 48 KiB
    std::vector<uint8_t> arguments(24);
    put<uint64_t>(arguments, 0, reinterpret_cast<uint64_t>(device));
    put<float>(arguments, 8, 2.0f);
    put<uint64_t>(arguments, 16, localOffset);
    core::KernelLaunch launch;
    launch.kernel = kernel;
    launch.descriptor = &compiled->info.kernels[0];
    launch.argumentSize = static_cast<uint32_t>(arguments.size());
    launch.localMemorySize = localOffset + 128 * 4;
    launch.workDim = 1;
    launch.groupSize[0] = 128;
    launch.groupCount[0] = (count - 3 + 127) / 128;
    launch.globalSize[0] = count - 3;
    launch.globalOffset[0] = 3;
    queue->launch(launch, arguments.data());
    queue->synchronize();
    EXPECT_EQ(queue->takeFailure(), 0);
  }
  const std::vector<float> result = download<float>(device, data.size());
  for (size_t i = 0; i < data.size(); ++i) ASSERT_EQ(result[i], i >= 3 && i < count ? 4.0f : 1.0f) << i;
  gpu->release(device, core::MemoryType::Device);
}

// The parts of a split launch, each run by itself as a GPU of a root device runs its own, give
// every work-item the ids of the unsplit launch: the compiler's PTX (nvptx_launch_abi.h) on the GPU.
// OpenCL C compiled for the GPU by Loom's compiler.
compiler::BuildResult compileForGpu(const char* source) {
  const compiler::SpirvResult spirv = compiler::compileOpenClSource({source, "", {}});
  if (spirv.status != compiler::Status::Success) return {spirv.status, spirv.log, nullptr};
  compiler::CompileRequest request;
  request.spirv = spirv.spirv;
  request.target = compiler::Target::Nvptx;
  return compiler::compileSpirv(request);
}

TEST_F(CudaGpu, PartsOfASplitLaunchSeeTheIdsOfTheWholeLaunch) {
  const compiler::BuildResult built = compileForGpu(R"(kernel void ids(global uint* out) {
      global uint* record = out + 6 * ((get_global_id(1) - get_global_offset(1)) * get_global_size(0) + get_global_id(0) - get_global_offset(0));
      for (uint d = 0; d < 2; ++d) {
        record[d] = get_global_id(d);
        record[2 + d] = get_group_id(d);
        record[4 + d] = get_num_groups(d);
      }
    })");
  ASSERT_EQ(built.status, compiler::Status::Success) << built.log;
  std::string log;
  std::unique_ptr<core::BackendProgram> program = gpu->loadProgram(built.program, log);
  ASSERT_TRUE(program) << log;
  core::BackendKernel* kernel = program->kernel("ids", log);
  ASSERT_TRUE(kernel) << log;
  const uint32_t groups[2] = {5, 6}, groupSize[2] = {8, 4};
  const size_t items = size_t(groups[0]) * groupSize[0] * groups[1] * groupSize[1];
  auto* records = static_cast<uint32_t*>(gpu->allocateDevice(items * 6 * 4));
  std::unique_ptr<core::BackendQueue> queue = gpu->createQueue();
  for (const uint64_t offset : {uint64_t(0), uint64_t(3)}) {  // the entry for whole groups, then for any launch
    for (const int dimension : {0, 1}) {
      core::KernelLaunch launch;
      launch.setRange({2, {groups[0], groups[1], 1}, {groupSize[0], groupSize[1], 1}, {offset, 0, 0}, {}, false});
      launch.kernel = kernel;
      launch.descriptor = &built.program->info.kernels[0];
      launch.argumentSize = launch.descriptor->argumentBufferSize;
      std::vector<uint8_t> arguments(launch.argumentSize);
      put<uint64_t>(arguments, launch.descriptor->arguments[0].offset, reinterpret_cast<uint64_t>(records));
      gpu->fill(records, "\xff", 1, items * 6 * 4);
      const uint32_t first = groups[dimension] / 2 + 1;
      queue->launch(launch.part(dimension, 0, first), arguments.data());
      queue->launch(launch.part(dimension, first, groups[dimension] - first), arguments.data());
      queue->synchronize();
      ASSERT_EQ(queue->takeFailure(), 0);
      const std::vector<uint32_t> result = download<uint32_t>(records, items * 6);
      const uint32_t width = groups[0] * groupSize[0];
      for (size_t linear = 0; linear < items; ++linear) {
        const uint32_t id[2] = {uint32_t(linear % width), uint32_t(linear / width)};
        const uint32_t* record = result.data() + 6 * linear;
        for (int d = 0; d < 2; ++d) {
          ASSERT_EQ(record[d], id[d] + (d == 0 ? offset : 0)) << "global id " << d << " of " << linear << ", split along " << dimension;
          ASSERT_EQ(record[2 + d], id[d] / groupSize[d]) << "group id " << d << " of " << linear;
          ASSERT_EQ(record[4 + d], groups[d]) << "groups " << d;
        }
      }
    }
  }
  gpu->release(records, core::MemoryType::Device);
}

TEST_F(CudaGpu, KernelReceivesMixedArgumentsAndTheImplicitStruct) {
  auto program = load();
  ASSERT_TRUE(program);
  std::string log;
  core::BackendKernel* kernel = program->kernel("probe", log);
  ASSERT_TRUE(kernel) << log;
  auto* out = static_cast<uint64_t*>(gpu->allocateDevice(11 * 8));
  auto* constant = static_cast<int32_t*>(gpu->allocateDevice(4));
  const int32_t seven = -7;
  gpu->copy(constant, &seven, 4);
  std::vector<uint8_t> arguments(40);
  put<uint64_t>(arguments, 0, reinterpret_cast<uint64_t>(out));
  put<char>(arguments, 8, 'L');
  put<uint64_t>(arguments, 16, reinterpret_cast<uint64_t>(constant));
  put<int32_t>(arguments, 24, 123456);
  put<uint64_t>(arguments, 32, 48);
  const auto compiled = ptxProgram(kPtx.c_str(), kPtx.size() + 1);
  core::KernelLaunch launch;
  launch.kernel = kernel;
  launch.descriptor = &compiled->info.kernels[1];
  launch.argumentSize = static_cast<uint32_t>(arguments.size());
  launch.localMemorySize = 64;
  launch.workDim = 3;
  for (int d = 0; d < 3; ++d) launch.groupSize[d] = 2, launch.groupCount[d] = 2, launch.globalSize[d] = 4;
  launch.globalOffset[0] = 5, launch.globalOffset[2] = 9;
  launch.globalSize[2] = 3;
  std::unique_ptr<core::BackendQueue> queue = gpu->createQueue();
  queue->launch(launch, arguments.data());
  queue->synchronize();
  EXPECT_EQ(queue->takeFailure(), 0);
  EXPECT_EQ(download<uint64_t>(out, 11), (std::vector<uint64_t>{'L', uint64_t(-7), 123456, 48, 5, 9, 4, 3, 2, 2, 3}));
  gpu->release(out, core::MemoryType::Device);
  gpu->release(constant, core::MemoryType::Device);
}

TEST_F(CudaGpu, ProgramsExposeGlobalsAndReportErrors) {
  auto program = load();
  ASSERT_TRUE(program);
  void* counter = program->globalVariable("counter");
  ASSERT_TRUE(counter);
  EXPECT_EQ(download<uint32_t>(counter, 1)[0], 42u);
  EXPECT_EQ(program->globalVariable("missing"), nullptr);
  EXPECT_EQ(program->function("scale"), nullptr);
  std::string log;
  EXPECT_EQ(program->kernel("missing", log), nullptr);
  EXPECT_NE(log.find("CUDA_ERROR_NOT_FOUND"), std::string::npos) << log;
  log.clear();
  EXPECT_TRUE(program->link({}, log)) << log;  // nothing to import

  const char broken[] = ".version 7.0\n.target sm_52\n.address_size 64\n.visible .entry bad() { bogus; }\n";
  EXPECT_EQ(gpu->loadProgram(ptxProgram(broken, sizeof(broken)), log), nullptr);
  EXPECT_NE(log.find("cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX"), std::string::npos) << log;
  EXPECT_NE(log.find("'bogus'"), std::string::npos) << log;  // the JIT's own error log
}

// A program of hand-written PTX that exports `exports` and imports `imports` (nvptx_launch_abi.h).
std::shared_ptr<compiler::CompiledProgram> linkableProgram(const std::string& ptx, std::vector<std::string> exports,
                                                           std::vector<std::string> imports) {
  auto program = std::make_shared<compiler::CompiledProgram>();
  program->target = compiler::Target::Nvptx;
  program->code.assign(ptx.begin(), ptx.end());
  program->info.exportedFunctions = std::move(exports);
  program->info.importedFunctions = std::move(imports);
  return program;
}

constexpr char kPtxHeader[] = ".version 7.0\n.target sm_52\n.address_size 64\n";

TEST_F(CudaGpu, ProgramsLinkTheirImportsAndGiveFunctionAddresses) {
  const std::string exporter = std::string(kPtxHeader) + R"(
.visible .func (.param .b32 result) triple(.param .b32 x)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [x];
  mul.lo.s32 %r2, %r1, 3;
  st.param.b32 [result], %r2;
  ret;
}
.visible .global .align 8 .u64 __loom_address_of_triple = triple;
)";
  const char* body = R"((.param .u64 out, .param .align 8 .b8 implicit[80])
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  {
    .param .b32 x;
    .param .b32 result;
    st.param.b32 [x], 14;
    call (result), triple, (x);
    ld.param.b32 %r1, [result];
  }
  ld.param.u64 %rd1, [out];
  st.global.u32 [%rd1], %r1;
  ret;
}
)";
  const std::string importer = std::string(kPtxHeader) + ".extern .func (.param .b32 result) triple(.param .b32 x);\n" +
                               bothEntries("use_triple", body);
  std::string log;
  auto exporting = gpu->loadProgram(linkableProgram(exporter, {"triple"}, {}), log);
  auto importing = gpu->loadProgram(linkableProgram(importer, {}, {"triple"}), log);
  ASSERT_TRUE(exporting && importing) << log;
  EXPECT_NE(exporting->function("triple"), nullptr);
  EXPECT_EQ(exporting->function("missing"), nullptr);
  EXPECT_EQ(importing->kernel("use_triple", log), nullptr) << "not linked yet";
  log.clear();
  EXPECT_FALSE(importing->link({}, log));
  EXPECT_NE(log.find("unresolved import: triple"), std::string::npos) << log;
  log.clear();
  ASSERT_TRUE(importing->link({exporting.get()}, log)) << log;
  EXPECT_NE(importing->kernel("use_triple", log), nullptr) << log;
  EXPECT_NE(importing->function("triple"), nullptr) << "the linked module holds the exporter's code";
}

TEST_F(CudaGpu, SharedMemoryIsHostAccessibleAndBoundedByFreeMemory) {
  auto* shared = static_cast<uint32_t*>(gpu->allocateShared(4096));
  ASSERT_TRUE(shared);
  shared[0] = 0xdeadbeef;
  const uint8_t fives[1] = {5};
  gpu->fill(shared + 1, fives, 1, 4);
  EXPECT_EQ(shared[1], 0x05050505u);
  EXPECT_EQ(shared[0], 0xdeadbeefu);
  gpu->release(shared, core::MemoryType::Shared);
  EXPECT_EQ(gpu->allocateShared(gpu->info().globalMemorySize + 1), nullptr);
}

TEST_F(CudaGpu, TimestampsAreMonotonicNanoseconds) {
  const uint64_t first = gpu->timestamp();
  const uint8_t zero[1] = {0};
  void* device = gpu->allocateDevice(1 << 20);
  gpu->fill(device, zero, 1, 1 << 20);
  EXPECT_GT(gpu->timestamp(), first);
  gpu->release(device, core::MemoryType::Device);
}

// Virtual memory in the driver's address space: pages of the true granularity, one physical
// memory mapped at two addresses with an offset, read-only and inaccessible pages, copies.
TEST_F(CudaGpu, VirtualMemoryMapsPhysicalPagesWithAccess) {
  core::AddressSpace* space = gpu->addressSpace();
  ASSERT_NE(space, nullptr) << "the GPU has no virtual memory management";
  const size_t page = space->pageSize();
  std::printf("virtual memory page: %zu KiB\n", page >> 10);
  EXPECT_GE(page, 64u * 1024);
  EXPECT_EQ(page & (page - 1), 0u);
  auto physical = gpu->createPhysicalMemory(2 * page);
  ASSERT_NE(physical, nullptr);
  void* first = space->reserve(nullptr, 2 * page);
  void* second = space->reserve(nullptr, page);
  ASSERT_TRUE(first && second);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(first) % page, 0u);
  ASSERT_EQ(space->map(first, 2 * page, *physical, 0, core::MemoryAccess::ReadWrite), core::VirtualMemoryStatus::Success);
  ASSERT_EQ(space->map(second, page, *physical, page, core::MemoryAccess::ReadWrite), core::VirtualMemoryStatus::Success);
  physical.reset();  // the mappings keep the pages
  const uint8_t seven[1] = {7};
  gpu->fill(static_cast<char*>(first) + page, seven, 1, page);
  EXPECT_EQ(download<uint8_t>(second, 16), std::vector<uint8_t>(16, 7)) << "the second mapping shows the first's second page";

  const core::VirtualMemoryStatus readOnly = space->protect(second, page, core::MemoryAccess::ReadOnly);
  std::printf("read-only pages: %s\n", readOnly == core::VirtualMemoryStatus::Success ? "supported" : "refused by the driver");
  EXPECT_TRUE(readOnly == core::VirtualMemoryStatus::Success || readOnly == core::VirtualMemoryStatus::Unsupported);
  ASSERT_EQ(space->protect(second, page, core::MemoryAccess::None), core::VirtualMemoryStatus::Success);
  ASSERT_EQ(space->protect(second, page, core::MemoryAccess::ReadWrite), core::VirtualMemoryStatus::Success);
  EXPECT_EQ(download<uint8_t>(second, 16), std::vector<uint8_t>(16, 7)) << "access comes back with the same pages";

  space->unmap(first, 2 * page);
  space->unmap(second, page);
  space->release(first, 2 * page);
  space->release(second, page);
}

// Two GPUs that can reach each other copy between their memories and map each other's pages.
TEST_F(CudaGpu, PeersReachEachOthersMemory) {
  if (gpus->size() < 2) GTEST_SKIP() << "one GPU only";
  auto* other = static_cast<CudaBackend*>((*gpus)[1].backend.get());
  const core::PeerAccess access = gpu->peerAccess(*other);
  std::printf("GPU 0 -> GPU 1: access %d, atomics %d\n", access.access, access.atomics);
  if (!access.access) GTEST_SKIP() << "the GPUs cannot reach each other";
  std::vector<uint32_t> data(4096);
  std::iota(data.begin(), data.end(), 3u);
  void* mine = gpu->allocateDevice(data.size() * 4);
  void* theirs = other->allocateDevice(data.size() * 4);
  ASSERT_TRUE(mine && theirs);
  gpu->copy(mine, data.data(), data.size() * 4);
  gpu->copy(theirs, mine, data.size() * 4);
  EXPECT_EQ(download<uint32_t>(theirs, data.size()), data);
  gpu->release(mine, core::MemoryType::Device);
  other->release(theirs, core::MemoryType::Device);
}

// Core's shareable host memory, registered in place: the GPU's copies reach it at its address.
// A root over two GPUs (implicit scaling): each launch is split between them, and each reads what
// the other GPU wrote in the launch before, which the root's joins (a stream wait on the other
// GPU's event) must order.
TEST_F(CudaGpu, ARootOverTwoGpusSplitsLaunchesAndOrdersThemAcrossTheGpus) {
  if (gpus->size() < 2) GTEST_SKIP() << "one GPU only";
  auto* other = static_cast<CudaBackend*>((*gpus)[1].backend.get());
  if (!gpu->peerAccess(*other).access || !other->peerAccess(*gpu).access) GTEST_SKIP() << "the GPUs cannot reach each other";
  const compiler::BuildResult built = compileForGpu(R"(kernel void rotate(global const uint* in, global uint* out, uint n) {
      const size_t i = get_global_id(0);
      out[i] = in[(i + n / 2) % n] + 1;
    })");
  ASSERT_EQ(built.status, compiler::Status::Success) << built.log;
  std::unique_ptr<core::Backend> root = core::createCompositeBackend({gpu, other});
  std::string log;
  std::unique_ptr<core::BackendProgram> program = root->loadProgram(built.program, log);
  ASSERT_TRUE(program) << log;
  core::BackendKernel* kernel = program->kernel("rotate", log);
  ASSERT_TRUE(kernel) << log;
  const uint32_t n = 1 << 20, rounds = 10;
  void* buffers[2] = {gpu->allocateDevice(n * 4), gpu->allocateDevice(n * 4)};
  ASSERT_TRUE(buffers[0] && buffers[1]);
  const uint32_t zero = 0;
  gpu->fill(buffers[0], &zero, 4, n * 4);
  std::unique_ptr<core::BackendQueue> queue = root->createQueue();
  const compiler::KernelDescriptor& descriptor = built.program->info.kernels[0];
  for (uint32_t round = 0; round < rounds; ++round) {
    core::KernelLaunch launch;
    launch.setRange({1, {n / 256, 1, 1}, {256, 1, 1}, {}, {}, false});
    launch.kernel = kernel;
    launch.descriptor = &descriptor;
    launch.argumentSize = descriptor.argumentBufferSize;
    std::vector<uint8_t> arguments(launch.argumentSize);
    put<uint64_t>(arguments, descriptor.arguments[0].offset, reinterpret_cast<uint64_t>(buffers[round % 2]));
    put<uint64_t>(arguments, descriptor.arguments[1].offset, reinterpret_cast<uint64_t>(buffers[1 - round % 2]));
    put<uint32_t>(arguments, descriptor.arguments[2].offset, n);
    queue->launch(launch, arguments.data());
  }
  queue->synchronize();
  EXPECT_EQ(queue->takeFailure(), 0);
  const std::vector<uint32_t> result = download<uint32_t>(buffers[rounds % 2], n);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(result[i], rounds) << i;
  for (void* buffer : buffers) gpu->release(buffer, core::MemoryType::Device);
}

TEST_F(CudaGpu, RegisteredSharedMemoryIsReachedAtItsHostAddress) {
  RegisteredHostMemory host(*gpu, 8192);
  ASSERT_TRUE(host.registered()) << "CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM?";
  const uint8_t sevens[4] = {7, 7, 7, 7};
  void* device = gpu->allocateDevice(8192);
  ASSERT_TRUE(device);
  gpu->fill(device, sevens, 4, 8192);
  gpu->copy(host.address(), device, 8192);
  EXPECT_EQ(static_cast<uint8_t*>(host.address())[8191], 7);
  gpu->release(device, core::MemoryType::Device);
}

// A wait in the stream holds the work after it until the host writes the word; the write after
// the work lands once it is done.
TEST_F(CudaGpu, AQueueWaitsInTheStreamForAWordTheHostWrites) {
  RegisteredHostMemory host(*gpu, 4096);
  ASSERT_TRUE(host.registered());
  auto* words = static_cast<uint32_t*>(host.address());
  uint32_t& gate = words[0];
  uint32_t& done = words[1];
  void* device = gpu->allocateDevice(4096);
  ASSERT_TRUE(device);
  const uint8_t nines[4] = {9, 9, 9, 9};
  std::unique_ptr<core::BackendQueue> queue = gpu->createQueue();
  ASSERT_TRUE(queue->waitValue(&gate, 1)) << "the driver has no stream memory operations";
  queue->fill(device, nines, 4, 4096);
  ASSERT_TRUE(queue->writeValue(&done, 1));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(queue->completed());
  EXPECT_EQ(std::atomic_ref<uint32_t>(done).load(), 0u);
  std::atomic_ref<uint32_t>(gate).store(1);
  queue->synchronize();
  EXPECT_EQ(queue->takeFailure(), 0);
  EXPECT_EQ(std::atomic_ref<uint32_t>(done).load(), 1u);
  EXPECT_EQ(download<uint8_t>(device, 4096)[4095], 9);
  queue.reset();
  gpu->release(device, core::MemoryType::Device);
}

// level-zero-tests' GivenMemoryCopiesWithDependencies on the GPU: a copy signals `copied`; the
// next copy waits in the stream for `gate`, which the host signals only once it has seen
// `copied`. The signal completes when the stream passes it, while the stream still waits.
TEST_F(CudaGpu, ASignalBeforeAWaitInTheStreamCompletesWhileTheStreamWaits) {
  RegisteredHostMemory host(*gpu, 4096);
  ASSERT_TRUE(host.registered());
  auto* storage = static_cast<core::EventStorage*>(host.address());
  for (int i = 0; i < 2; ++i) new (&storage[i]) core::EventStorage{};
  core::Event copied(&storage[0], true, core::DeviceType::Gpu), gate(&storage[1], true, core::DeviceType::Gpu);
  void* source = gpu->allocateDevice(4096);
  void* middle = gpu->allocateDevice(4096);
  ASSERT_TRUE(source && middle);
  const uint8_t nines[4] = {9, 9, 9, 9};
  gpu->fill(source, nines, 4, 4096);
  gate.noteDeviceSignalIssued();  // as another queue's signal does: the stream waits for it
  core::Event* waited[] = {&gate};
  core::CommandStream stream;
  stream.appendCopy({middle, source, 4096});
  stream.appendSignalEvent(&copied);
  stream.appendWaitEvents(waited, 1);
  stream.appendCopy({source, middle, 4096});
  {
    core::CommandExecutor executor(*gpu);
    executor.execute(stream.bytes());
    bool seen = false;
    for (int poll = 0; poll < 10000 && !seen; ++poll) {  // 10 s at most: a hang fails instead
      EXPECT_FALSE(executor.retire(false)) << "the stream waits for the host";
      seen = copied.isSignaled();
      if (!seen) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    gate.hostSignal();
    EXPECT_TRUE(executor.retire(true));
    EXPECT_TRUE(seen) << "the signal waited for the work after the stream's wait";
    EXPECT_EQ(copied.error(), 0);
  }
  EXPECT_EQ(download<uint8_t>(middle, 4096)[4095], 9);
  gpu->release(source, core::MemoryType::Device);
  gpu->release(middle, core::MemoryType::Device);
}

}  // namespace
}  // namespace loom::backends::cuda
