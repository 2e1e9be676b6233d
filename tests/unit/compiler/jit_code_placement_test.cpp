// Kernel code loaded where the JIT could not keep an object's sections together: the small code
// model reaches the constant pools from the code through 32-bit offsets, so all of an object's
// sections must lie within 2 GiB of each other wherever the process's other mappings leave room.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include "../../child_process.h"
#include "kernel_runner.h"
#include "loom/compiler/opencl_c.h"

namespace loom::compiler::test {
namespace {

constexpr size_t kPage = 4096;
constexpr uint32_t kWorkItems = 64;
// Wider than the reach of a 32-bit offset.
constexpr size_t kBarrierBytes = size_t(6) << 30;
constexpr size_t kSinglePageHoles = 512;

// Maps inaccessible pages over every hole between the process's mappings, so that a new mapping
// goes below all of them.
void fillTheHoles() {
  std::ifstream maps("/proc/self/maps");
  uintptr_t previousEnd = 0;
  for (std::string line; std::getline(maps, line);) {
    uintptr_t start = 0, end = 0;
    char dash = 0;
    std::istringstream(line) >> std::hex >> start >> dash >> end;
    // Holes among the mappings only: not the one between the heap and the lowest mapping.
    if (previousEnd != 0 && start > previousEnd && start - previousEnd < (size_t(1) << 32))
      mmap(reinterpret_cast<void*>(previousEnd), start - previousEnd, PROT_NONE,
           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
    previousEnd = end;
  }
}

// Below every mapping, an inaccessible range wider than 2 GiB whose top holds free single pages:
// a new mapping of one page goes there, a larger one below the whole range.
void separateSinglePagesFromLargerMappings() {
  fillTheHoles();
  auto* barrier = static_cast<char*>(mmap(nullptr, kBarrierBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
  ASSERT_NE(barrier, MAP_FAILED);
  char* top = barrier + kBarrierBytes;
  for (size_t hole = 0; hole < kSinglePageHoles; ++hole) munmap(top - (2 * hole + 1) * kPage, kPage);
}

// Pages of code, and vector constants that fit one page.
const char* kConstantsSource = R"(
kernel void constants(global float4* out, global const float4* in) {
  size_t i = get_global_id(0);
  float4 v = in[i];
  float4 acc = (float4)(0.0f);
  #pragma unroll
  for (int k = 0; k < 48; ++k) acc = acc * v + (float4)(k + 0.5f, k + 0.25f, k + 0.125f, k + 0.0625f);
  out[i] = acc;
})";

std::array<float, 4> expectedConstants(float v) {
  std::array<float, 4> acc{};
  const float parts[4] = {0.5f, 0.25f, 0.125f, 0.0625f};
  for (int k = 0; k < 48; ++k)
    for (int c = 0; c < 4; ++c) acc[c] = acc[c] * v + (float(k) + parts[c]);
  return acc;
}

TEST(JitCodePlacement, KernelsReadTheirConstantsWhereOnlySinglePagesAreFreeNearby) {
  EXPECT_PASSES_IN_A_CHILD_PROCESS({
    // Another program first, so that the JIT itself exists before the address space is arranged.
    ASSERT_NE(load(compileOpenClSource({"kernel void k(global int* out) { out[0] = 1; }", "", {}})), nullptr);
    const SpirvResult spirv = compileOpenClSource({kConstantsSource, "", {}});
    ASSERT_EQ(spirv.status, Status::Success) << spirv.log;
    const BuildResult built = compile(spirv.spirv);
    ASSERT_EQ(built.status, Status::Success) << built.log;
    separateSinglePagesFromLargerMappings();
    auto executable = loadBuilt(built);
    ASSERT_NE(executable, nullptr);
    std::string log;
    WorkGroupFunction function = executable->kernel("constants", log);
    ASSERT_NE(function, nullptr) << log;
    std::vector<std::array<float, 4>> in(kWorkItems, {0.5f, 0.5f, 0.5f, 0.5f}), out(kWorkItems);
    Arguments(*executable->program().info.findKernel("constants"))
        .set(0, out.data())
        .set(1, in.data())
        .run(function, range1d(kWorkItems, kWorkItems));
    const std::array<float, 4> expected = expectedConstants(0.5f);
    for (uint32_t i = 0; i < kWorkItems; i += 7)
      for (int c = 0; c < 4; ++c) EXPECT_FLOAT_EQ(out[i][c], expected[c]) << "work-item " << i;
  });
}

}  // namespace
}  // namespace loom::compiler::test
