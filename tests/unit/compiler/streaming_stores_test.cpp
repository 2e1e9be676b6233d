// Streaming variants of work-group functions (compiler/src/cpu/streaming_stores.h): which kernels
// get one, that its vector stores to buffers are non-temporal where aligned, and that it computes
// what the plain function computes from aligned and unaligned starts alike.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <sstream>

#include "kernel_runner.h"

namespace loom::compiler::test {
namespace {

const char* const kTriad = R"(
kernel void triad(global float* a, global const float* b, global const float* c, float s) {
  size_t i = get_global_id(0);
  a[i] = b[i] + s * c[i];
})";

std::unique_ptr<CpuExecutable> build(const char* source) { return load(compileOpenClSource({source, "", {}})); }

// The final IR of `source`'s program, as LOOM_DumpKernelIr prints it.
std::string finalIr(const char* source) {
  const SpirvResult spirv = compileOpenClSource({source, "", {}});
  EXPECT_EQ(spirv.status, Status::Success) << spirv.log;
  CompileRequest request;
  request.spirv = spirv.spirv;
  request.dumpKernelIr = true;
  testing::internal::CaptureStderr();
  const BuildResult built = compileSpirv(request);
  std::string ir = testing::internal::GetCapturedStderr();
  EXPECT_EQ(built.status, Status::Success) << built.log;
  return ir;
}

// The body of function `name` in `ir`.
std::string functionBody(const std::string& ir, const std::string& name) {
  const size_t start = ir.find("@" + name + "(");
  if (start == std::string::npos) return "";
  return ir.substr(start, ir.find("\n}\n", start) - start);
}

// Whether `body` has a vector store of floats, aligned to its size, marked non-temporal.
bool hasAlignedNonTemporalVectorStore(const std::string& body) {
  std::istringstream lines(body);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("store <") == std::string::npos || line.find("x float>") == std::string::npos) continue;
    for (const char* aligned : {", align 16, !nontemporal", ", align 32, !nontemporal", ", align 64, !nontemporal"})
      if (line.find(aligned) != std::string::npos) return true;
  }
  return false;
}

TEST(StreamingStores, TriadStoresNonTemporallyOnlyInItsStreamingVariant) {
  const std::string ir = finalIr(kTriad);
  const std::string plain = functionBody(ir, "__loom_wg_triad"), streaming = functionBody(ir, "__loom_wg_triad.streaming");
  ASSERT_FALSE(streaming.empty()) << ir;
  EXPECT_EQ(plain.find("!nontemporal"), std::string::npos);
  EXPECT_TRUE(hasAlignedNonTemporalVectorStore(streaming)) << streaming;
  EXPECT_NE(streaming.find("@llvm.x86.sse.sfence()"), std::string::npos) << streaming;
}

struct FreeFloats {
  void operator()(float* memory) const { std::free(memory); }
};

// Runs `function` (the triad's plain or streaming work-group function) on buffers that start
// `skew` floats past a 64-byte boundary, with a global offset, and checks every element.
void expectTriad(const CpuExecutable& executable, WorkGroupFunction function, size_t skew) {
  ASSERT_NE(function, nullptr);
  constexpr size_t kCount = 10000, kOffset = 3;
  const size_t floats = kCount + kOffset + skew;
  std::unique_ptr<float, FreeFloats> storage[3];
  for (auto& buffer : storage) buffer.reset(static_cast<float*>(std::aligned_alloc(64, (floats * sizeof(float) + 63) / 64 * 64)));
  float *a = storage[0].get() + skew, *b = storage[1].get() + skew, *c = storage[2].get() + skew;
  for (size_t i = 0; i < kCount + kOffset; ++i) a[i] = -1.0f, b[i] = float(i), c[i] = 0.25f * float(i % 97);
  Range range = range1d(kCount, 100);
  range.globalOffset[0] = kOffset;
  Arguments(*executable.program().info.findKernel("triad")).set(0, a).set(1, b).set(2, c).set(3, 2.0f).run(function, range);
  for (size_t i = 0; i < kOffset; ++i) ASSERT_EQ(a[i], -1.0f) << i;
  for (size_t i = kOffset; i < kCount + kOffset; ++i) ASSERT_EQ(a[i], float(i) + 0.5f * float(i % 97)) << i;
}

TEST(StreamingStores, StreamingVariantComputesWhatThePlainFunctionDoes) {
  auto executable = build(kTriad);
  ASSERT_NE(executable, nullptr);
  std::string log;
  for (size_t skew : {0, 1, 13}) {
    SCOPED_TRACE(skew);
    expectTriad(*executable, executable->kernel("triad", log), skew);
    expectTriad(*executable, executable->streamingKernel("triad"), skew);
  }
}

// Non-temporal stores are ordered by neither atomics nor fences on x86 (the uniform conditions
// below make the optimizer split the x loop, so that its atomic-free copy has vector stores);
// scalar stores, stores to local memory and stores to a buffer the kernel reads (whose lines are
// in the cache already) gain nothing from streaming.
TEST(StreamingStores, KernelsThatWouldNotGainHaveNoStreamingVariant) {
  const char* source = R"(
    kernel void counts(global float* a, volatile global int* counter) {
      a[get_global_id(0)] = 1.0f;
      if (get_global_size(1) == 7) atomic_inc(counter);
    }
    kernel void fenced(global float* a, global float* b) {
      a[get_global_id(0)] = 1.0f;
      if (get_global_size(1) == 7) mem_fence(CLK_GLOBAL_MEM_FENCE);
      b[get_global_id(0)] = 2.0f;
    }
    kernel void scatters(global float* a, global const int* where) { a[where[get_global_id(0)]] = 1.0f; }
    kernel void stays_local(global const float* a, local float* scratch, global float* sum) {
      scratch[get_local_id(0)] = a[get_global_id(0)];
      barrier(CLK_LOCAL_MEM_FENCE);
      if (get_local_id(0) == 0) sum[get_group_id(0)] = scratch[0] + scratch[get_local_size(0) - 1];
    }
    kernel void axpy(global const float* x, global float* y, float a) { y[get_global_id(0)] += a * x[get_global_id(0)]; }
    kernel void streams(global float* a) { a[get_global_id(0)] = 1.0f; })";
  auto executable = build(source);
  ASSERT_NE(executable, nullptr);
  for (const char* name : {"counts", "fenced", "scatters", "stays_local", "axpy"})
    EXPECT_EQ(executable->streamingKernel(name), nullptr) << name;
  EXPECT_NE(executable->streamingKernel("streams"), nullptr);
}

}  // namespace
}  // namespace loom::compiler::test
