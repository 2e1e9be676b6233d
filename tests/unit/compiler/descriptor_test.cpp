// Kernel descriptors and program symbols: what the runtime learns about a program without running it.
#include <gtest/gtest.h>

#include <algorithm>

#include "kernel_runner.h"

namespace loom::compiler::test {
namespace {

const ProgramInfo& infoOf(const std::string& kernels) {
  const LoadedProgram& loaded = loadKernels(kernels);
  EXPECT_EQ(loaded.build.status, Status::Success) << loaded.log;
  static const ProgramInfo empty;
  return loaded.build.program ? loaded.build.program->info : empty;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

TEST(KernelDescriptor, LaysOutArgumentsAlignedNaturally) {
  const KernelDescriptor* mixed = infoOf("work_items").findKernel("mixed_arguments");
  ASSERT_NE(mixed, nullptr);
  const struct {
    ArgumentKind kind;
    uint32_t offset, size;
  } expected[] = {{ArgumentKind::GlobalPointer, 0, 8}, {ArgumentKind::Value, 8, 24},       {ArgumentKind::Value, 32, 1},
                  {ArgumentKind::Value, 34, 2},        {ArgumentKind::Value, 40, 8},       {ArgumentKind::Value, 48, 4},
                  {ArgumentKind::Value, 56, 8},        {ArgumentKind::Value, 64, 1},       {ArgumentKind::LocalPointer, 72, 8},
                  {ArgumentKind::ConstantPointer, 80, 8}};
  ASSERT_EQ(mixed->arguments.size(), std::size(expected));
  for (size_t i = 0; i < std::size(expected); ++i) {
    EXPECT_EQ(mixed->arguments[i].kind, expected[i].kind) << i;
    EXPECT_EQ(mixed->arguments[i].offset, expected[i].offset) << i;
    EXPECT_EQ(mixed->arguments[i].size, expected[i].size) << i;
  }
  EXPECT_EQ(mixed->argumentBufferSize, 88u);
}

// Names need -cl-kernel-arg-info when the SPIR-V is made; types and qualifiers are always there.
// Far above any device's parameter limit: a build failure naming the kernel and the argument,
// never an argument layout whose offsets wrap around.
TEST(KernelDescriptor, ArgumentsLargerThanSupportedFailNamingTheArgument) {
  const SpirvResult spirv = compileOpenClSource(
      {"typedef struct { char bytes[70000]; } Big;\n"
       "kernel void takes_big(global int* out, Big big) { out[0] = big.bytes[1]; }\n",
       "", {}});
  ASSERT_EQ(spirv.status, Status::Success) << spirv.log;
  const BuildResult built = compile(spirv.spirv);
  EXPECT_EQ(built.status, Status::BuildFailure);
  EXPECT_NE(built.log.find("kernel 'takes_big' argument 1: it takes 70000 bytes, more than the 65536 Loom supports"),
            std::string::npos)
      << built.log;
}

TEST(KernelDescriptor, DescribesArgumentInfo) {
  const KernelDescriptor* mixed = infoOf("work_items").findKernel("mixed_arguments");
  ASSERT_NE(mixed, nullptr);
  EXPECT_EQ(mixed->arguments[0].typeName, "double*");
  EXPECT_EQ(mixed->arguments[0].addressQualifier, AddressQualifier::Global);
  EXPECT_EQ(mixed->arguments[1].typeName, "struct mixed_t");
  EXPECT_EQ(mixed->arguments[1].addressQualifier, AddressQualifier::Private);
  EXPECT_EQ(mixed->arguments[3].typeName, "short");
  EXPECT_EQ(mixed->arguments[8].addressQualifier, AddressQualifier::Local);
  EXPECT_EQ(mixed->arguments[9].addressQualifier, AddressQualifier::Constant);
  EXPECT_EQ(mixed->arguments[9].accessQualifier, AccessQualifier::None);
}

TEST(KernelDescriptor, DescribesAttributesInSourceSyntax) {
  const ProgramInfo& info = infoOf("work_items");
  const KernelDescriptor* fixed = info.findKernel("fixed_group");
  ASSERT_NE(fixed, nullptr);
  EXPECT_EQ(fixed->requiredWorkGroupSize, (std::array<uint32_t, 3>{8, 4, 1}));
  EXPECT_EQ(fixed->vectorTypeHint, "float4");
  EXPECT_EQ(fixed->attributes, "reqd_work_group_size(8,4,1) vec_type_hint(float4)");
  const KernelDescriptor* hinted = info.findKernel("hinted_group");
  ASSERT_NE(hinted, nullptr);
  EXPECT_EQ(hinted->workGroupSizeHint, (std::array<uint32_t, 3>{16, 1, 1}));
  EXPECT_EQ(hinted->attributes, "work_group_size_hint(16,1,1)");
  const KernelDescriptor* add = info.findKernel("add_vectors");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->attributes, "");
  EXPECT_EQ(add->requiredWorkGroupSize, (std::array<uint32_t, 3>{0, 0, 0}));
}

TEST(KernelDescriptor, DescribesBarriersAndLocalMemory) {
  const ProgramInfo& info = infoOf("barriers");
  const KernelDescriptor* reduce = info.findKernel("reduce_in_groups");
  ASSERT_NE(reduce, nullptr);
  EXPECT_TRUE(reduce->hasBarriers);
  EXPECT_GT(reduce->barrierFrameSize, 0u);
  EXPECT_EQ(reduce->staticLocalMemorySize, 0u);
  EXPECT_EQ(reduce->arguments[2].kind, ArgumentKind::LocalPointer);
  const KernelDescriptor* reverse = info.findKernel("reverse_in_groups");
  ASSERT_NE(reverse, nullptr);
  EXPECT_TRUE(reverse->hasBarriers) << "the barrier is in a called function";
  EXPECT_EQ(reverse->staticLocalMemorySize, 64 * sizeof(int));
  const KernelDescriptor* rotate = info.findKernel("rotate_twice");
  ASSERT_NE(rotate, nullptr);
  EXPECT_GE(rotate->staticLocalMemorySize, 32 * sizeof(int) + 32 * sizeof(short));
  EXPECT_EQ(rotate->barrierFrameSize % 16, 0u);
  const KernelDescriptor* add = infoOf("work_items").findKernel("add_vectors");
  ASSERT_NE(add, nullptr);
  EXPECT_FALSE(add->hasBarriers);
  EXPECT_EQ(add->barrierFrameSize, 0u);
}

TEST(KernelDescriptor, CountsPrivateMemory) {
  const KernelDescriptor* table = infoOf("work_items").findKernel("private_table");
  ASSERT_NE(table, nullptr);
  EXPECT_GE(table->privateMemorySize, 16 * sizeof(int));
  const KernelDescriptor* reverse = infoOf("barriers").findKernel("reverse_in_groups");
  ASSERT_NE(reverse, nullptr);
  EXPECT_LE(reverse->privateMemorySize, reverse->barrierFrameSize);
}

TEST(ProgramInfo, ListsGlobalsExportsAndImports) {
  const ProgramInfo& info = infoOf("program_scope");
  ASSERT_EQ(info.globals.size(), 2u);
  EXPECT_EQ(info.globals[0].name, "counter_global");
  EXPECT_EQ(info.globals[0].size, 4u);
  EXPECT_EQ(info.globals[1].name, "table_global");
  EXPECT_EQ(info.globals[1].size, 16u);
  EXPECT_TRUE(contains(info.exportedFunctions, "exported_helper"));
  EXPECT_TRUE(info.importedFunctions.empty());
  EXPECT_EQ(infoOf("importer").importedFunctions, std::vector<std::string>{"linked_helper"});
  EXPECT_TRUE(contains(infoOf("exporter").exportedFunctions, "linked_helper"));
  EXPECT_FALSE(contains(infoOf("barriers").exportedFunctions, "exchange")) << "a function with a barrier cannot be called alone";
}

}  // namespace
}  // namespace loom::compiler::test
