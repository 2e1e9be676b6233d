// Loom's native binary: a round trip keeps everything, and damage is always detected.
#include <gtest/gtest.h>

#include "kernel_runner.h"

namespace loom::compiler::test {
namespace {

const CompiledProgram& smallProgram() {
  static const BuildResult built = compileKernels("exporter");
  EXPECT_EQ(built.status, Status::Success) << built.log;
  return *built.program;
}

TEST(NativeBinary, RoundTripKeepsInfoAndCodeAndRuns) {
  ASSERT_NE(loadKernels("barriers").build.program, nullptr);
  const CompiledProgram& program = *loadKernels("barriers").build.program;
  const std::vector<uint8_t> binary = writeNativeBinary(program);
  const BuildResult read = readNativeBinary(binary.data(), binary.size());
  ASSERT_EQ(read.status, Status::Success) << read.log;
  EXPECT_EQ(read.program->code, program.code);
  ASSERT_EQ(read.program->info.kernels.size(), program.info.kernels.size());
  for (const KernelDescriptor& original : program.info.kernels) {
    const KernelDescriptor* copy = read.program->info.findKernel(original.name);
    ASSERT_NE(copy, nullptr) << original.name;
    EXPECT_EQ(copy->argumentBufferSize, original.argumentBufferSize);
    EXPECT_EQ(copy->barrierFrameSize, original.barrierFrameSize);
    EXPECT_EQ(copy->staticLocalMemorySize, original.staticLocalMemorySize);
    EXPECT_EQ(copy->hasBarriers, original.hasBarriers);
    ASSERT_EQ(copy->arguments.size(), original.arguments.size());
    for (size_t i = 0; i < copy->arguments.size(); ++i) {
      EXPECT_EQ(copy->arguments[i].kind, original.arguments[i].kind);
      EXPECT_EQ(copy->arguments[i].offset, original.arguments[i].offset);
      EXPECT_EQ(copy->arguments[i].name, original.arguments[i].name);
    }
  }
  expectReversesOneGroup(read, 32);
}

// Image and sampler arguments keep their kind, type name and access through the binary.
TEST(NativeBinary, KeepsImageArguments) {
  const BuildResult built = compileKernels("image_kernels");
  ASSERT_EQ(built.status, Status::Success) << built.log;
  const std::vector<uint8_t> binary = writeNativeBinary(*built.program);
  const BuildResult read = readNativeBinary(binary.data(), binary.size());
  ASSERT_EQ(read.status, Status::Success) << read.log;
  const KernelDescriptor* kernel = read.program->info.findKernel("copy_first_pixel");
  ASSERT_NE(kernel, nullptr);
  ASSERT_EQ(kernel->arguments.size(), 2u);
  EXPECT_EQ(kernel->arguments[0].kind, ArgumentKind::Image);
  EXPECT_EQ(kernel->arguments[0].typeName, "image2d_t");
  EXPECT_EQ(kernel->arguments[0].accessQualifier, AccessQualifier::ReadOnly);
  EXPECT_EQ(kernel->arguments[0].size, 8u);
  EXPECT_TRUE(read.program->info.unavailableKernels.empty());
}

// A kernel that takes a multisampled image is set aside: the rest of its module builds, and the
// binary keeps which kernel cannot run and why.
TEST(NativeBinary, KeepsTheKernelsTheProgramCannotRun) {
  const BuildResult built = compile(readSpirv("msaa_image"));
  ASSERT_EQ(built.status, Status::Success) << built.log;
  ASSERT_NE(built.program->info.findKernel("plain"), nullptr);
  EXPECT_EQ(built.program->info.findKernel("samples"), nullptr);
  const std::vector<uint8_t> binary = writeNativeBinary(*built.program);
  const BuildResult read = readNativeBinary(binary.data(), binary.size());
  ASSERT_EQ(read.status, Status::Success) << read.log;
  const UnavailableKernel* unavailable = read.program->info.findUnavailableKernel("samples");
  ASSERT_NE(unavailable, nullptr);
  EXPECT_NE(unavailable->reason.find("multisampled"), std::string::npos) << unavailable->reason;
  ASSERT_EQ(read.program->info.kernelNames().size(), 2u);
  EXPECT_EQ(*read.program->info.kernelNames()[1], "samples");
}

TEST(NativeBinary, KeepsProgramSymbolsAndAttributes) {
  ASSERT_NE(loadKernels("work_items").build.program, nullptr);
  ASSERT_NE(loadKernels("program_scope").build.program, nullptr);
  const CompiledProgram& program = *loadKernels("work_items").build.program;
  const std::vector<uint8_t> binary = writeNativeBinary(program);
  const BuildResult read = readNativeBinary(binary.data(), binary.size());
  ASSERT_EQ(read.status, Status::Success) << read.log;
  EXPECT_EQ(read.program->info.findKernel("fixed_group")->attributes, "reqd_work_group_size(8,4,1) vec_type_hint(float4)");
  const CompiledProgram& scoped = *loadKernels("program_scope").build.program;
  const std::vector<uint8_t> scopedBinary = writeNativeBinary(scoped);
  const BuildResult scopedRead = readNativeBinary(scopedBinary.data(), scopedBinary.size());
  ASSERT_EQ(scopedRead.status, Status::Success) << scopedRead.log;
  EXPECT_EQ(scopedRead.program->info.globals.size(), 2u);
  EXPECT_EQ(scopedRead.program->info.exportedFunctions, scoped.info.exportedFunctions);
}

TEST(NativeBinary, EveryTruncationIsInvalid) {
  const std::vector<uint8_t> binary = writeNativeBinary(smallProgram());
  for (size_t length = 0; length < binary.size(); ++length) {
    const BuildResult read = readNativeBinary(binary.data(), length);
    ASSERT_EQ(read.status, Status::InvalidBinary) << length;
    ASSERT_FALSE(read.log.empty());
  }
  EXPECT_EQ(readNativeBinary(nullptr, 0).status, Status::InvalidBinary);
}

TEST(NativeBinary, FlippedBytesAreDetected) {
  const std::vector<uint8_t> binary = writeNativeBinary(smallProgram());
  for (size_t at = 0; at < binary.size(); at += 1 + at / 64) {
    std::vector<uint8_t> flipped = binary;
    flipped[at] ^= 0x10;
    const BuildResult read = readNativeBinary(flipped.data(), flipped.size());
    EXPECT_EQ(read.status, Status::InvalidBinary) << "byte " << at;
  }
}

// Descriptors the runtime cannot use safely, in a binary whose checksum is right: the reader
// refuses each, naming the kernel, the argument and what is wrong.
TEST(NativeBinary, DescriptorsTheRuntimeCannotUseAreInvalid) {
  auto pointerOf4Bytes = [](KernelDescriptor& k) { k.arguments[0].size = 4; };
  auto outsideTheBuffer = [](KernelDescriptor& k) { k.arguments[0].offset = k.argumentBufferSize; };
  auto hugeBuffer = [](KernelDescriptor& k) { k.argumentBufferSize = 1u << 30; };
  auto zeroDimension = [](KernelDescriptor& k) { k.requiredWorkGroupSize = {8, 0, 1}; };
  const struct {
    void (*damage)(KernelDescriptor&);
    bool aboutArgument;
    const char* message;
  } cases[] = {{pointerOf4Bytes, true, "is a pointer of 4 bytes, not 8"},
               {outsideTheBuffer, true, "lies outside the argument buffer"},
               {hugeBuffer, false, "its arguments take 1073741824 bytes, more than the 65536 Loom supports"},
               {zeroDimension, false, "reqd_work_group_size has a zero dimension"}};
  ASSERT_NE(loadKernels("barriers").build.program, nullptr);
  for (const auto& c : cases) {
    CompiledProgram program = *loadKernels("barriers").build.program;
    KernelDescriptor& kernel = program.info.kernels.at(0);
    ASSERT_EQ(kernel.arguments.at(0).kind, ArgumentKind::GlobalPointer);
    c.damage(kernel);
    const std::vector<uint8_t> binary = writeNativeBinary(program);
    const BuildResult read = readNativeBinary(binary.data(), binary.size());
    EXPECT_EQ(read.status, Status::InvalidBinary) << c.message;
    EXPECT_NE(read.log.find("kernel '" + kernel.name + "': " + (c.aboutArgument ? "argument 0 " : "")), std::string::npos) << read.log;
    EXPECT_NE(read.log.find(c.message), std::string::npos) << read.log;
  }
}

TEST(NativeBinary, SpirvIsNotANativeBinary) {
  const std::vector<uint8_t> spirv = readSpirv("exporter");
  EXPECT_EQ(readNativeBinary(spirv.data(), spirv.size()).status, Status::InvalidBinary);
}

}  // namespace
}  // namespace loom::compiler::test
