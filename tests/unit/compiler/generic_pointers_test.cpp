// OpenCL C 2.0's generic address space functions on the CPU (compiler/builtins/generic_pointers.cl,
// compiler/src/cpu/pointer_spaces.h): global, local and private pointers passed through generic
// ones, with and without a barrier (which moves private variables into the barrier frames).
#include <gtest/gtest.h>

#include "kernel_runner.h"

namespace loom::compiler::test {
namespace {

// Per work-item, nine answers: to_global, to_local, to_private of a global, a local and a private
// pointer (1 where the answer is the pointer itself, 0 for NULL, 2 for anything else), then
// get_fence of the three.
constexpr const char* kSource = R"(
  int answer(generic int* pointer, generic void* converted) {
    return converted == 0 ? 0 : converted == (generic void*)pointer ? 1 : 2;
  }
  void classify(generic int* g, generic int* l, generic int* p, global int* out) {
    generic int* pointers[3] = {g, l, p};
    for (int i = 0; i < 3; ++i) {
      out[i * 3 + 0] = answer(pointers[i], to_global(pointers[i]));
      out[i * 3 + 1] = answer(pointers[i], to_local(pointers[i]));
      out[i * 3 + 2] = answer(pointers[i], to_private(pointers[i]));
      out[9 + i] = get_fence(pointers[i]);
    }
  }
  kernel void spaces(global int* data, local int* scratch, global int* out) {
    local int shared[4];
    int mine[2] = {1, 2};
    size_t id = get_global_id(0);
    classify(data + id, get_local_id(0) % 2 ? scratch : shared, mine + (id & 1), out + id * 12);
  }
  kernel void private_in_a_leaf(global int* out) {
    float mine = 3.0f;
    out[get_global_id(0)] = to_private(&mine) != 0;
  }
  kernel void spaces_across_barrier(global int* data, local int* scratch, global int* out) {
    int mine[2] = {1, 2};
    size_t id = get_global_id(0);
    generic int* private_pointer = mine + (id & 1);
    scratch[get_local_id(0)] = mine[id & 1];
    barrier(CLK_LOCAL_MEM_FENCE);
    classify(data + id, scratch + get_local_id(0), private_pointer, out + id * 12);
    out[id * 12 + 8] += *private_pointer - (int)(id & 1) - 1;  // the pointer still reaches the variable
  })";

struct SpacesProgram {
  BuildResult built;
  std::unique_ptr<CpuExecutable> executable;
  WorkGroupFunction function = nullptr;
};

void loadSpaces(const char* kernelName, SpacesProgram& program) {
  const SpirvResult spirv = compileOpenClSource({kSource, "-cl-std=CL2.0", {}});
  ASSERT_EQ(spirv.status, Status::Success) << spirv.log;
  program.built = compile(spirv.spirv);
  program.executable = loadBuilt(program.built);
  ASSERT_NE(program.executable, nullptr);
  std::string log;
  program.function = program.executable->kernel(kernelName, log);
  ASSERT_NE(program.function, nullptr) << log;
}

void expectSpaces(const char* kernelName) {
  SpacesProgram program;
  ASSERT_NO_FATAL_FAILURE(loadSpaces(kernelName, program));
  const BuildResult& built = program.built;
  const WorkGroupFunction function = program.function;
  constexpr int kItems = 8;
  std::vector<int32_t> data(kItems), out(kItems * 12, -1);
  Arguments(*built.program->info.findKernel(kernelName))
      .set(0, data.data())
      .setLocal(1, 4 * kItems)
      .set(2, out.data())
      .run(function, range1d(kItems, 4));
  constexpr int32_t kLocalFence = 1, kGlobalFence = 2;  // CLK_LOCAL_MEM_FENCE, CLK_GLOBAL_MEM_FENCE
  const int32_t expected[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, kGlobalFence, kLocalFence, kGlobalFence};
  for (int item = 0; item < kItems; ++item)
    for (int i = 0; i < 12; ++i) EXPECT_EQ(out[item * 12 + i], expected[i]) << kernelName << " work-item " << item << " answer " << i;
}

TEST(GenericPointers, ToAddressSpaceAndGetFenceTellGlobalLocalAndPrivateApart) { expectSpaces("spaces"); }

// A kernel that calls nothing once inlined: its variables must not sit below the stack pointer
// (in the red zone), where the test for private memory would not look.
TEST(GenericPointers, PrivateVariablesOfAKernelThatCallsNothingArePrivate) {
  SpacesProgram program;
  ASSERT_NO_FATAL_FAILURE(loadSpaces("private_in_a_leaf", program));
  constexpr int kItems = 8;
  std::vector<int32_t> out(kItems, -1);
  Arguments(*program.built.program->info.findKernel("private_in_a_leaf")).set(0, out.data()).run(program.function, range1d(kItems, 4));
  for (int item = 0; item < kItems; ++item) EXPECT_EQ(out[item], 1) << "work-item " << item;
}

TEST(GenericPointers, PrivateVariablesKeptAcrossABarrierArePrivate) { expectSpaces("spaces_across_barrier"); }

}  // namespace
}  // namespace loom::compiler::test
