// Fuzz target: Loom's native binary (zeModuleCreate with ZE_MODULE_FORMAT_NATIVE,
// clCreateProgramWithBinary, entries of the compiler cache). readNativeBinary gets the bytes as
// they come and, because almost any change fails the checksum first, a copy sealed again, so that
// changes reach the section table and the program information. What the reader accepts must be
// safe for the runtime to use: it writes back to a binary that reads the same, and core::Kernel
// (the launch state both APIs keep) takes a value for every argument of every kernel and lays out
// a launch. The object code itself is not loaded: a native binary is machine code that the
// application chose to run, and its loader is LLVM's.
#include <cstdint>
#include <vector>

#include "build_result_check.h"
#include "loom/compiler/compiler.h"
#include "loom/core/kernel.h"
#include "native_binary.h"

namespace {

using namespace loom::compiler;
using loom::fuzz::require;
using loom::fuzz::succeeded;
using loom::fuzz::throughNativeBinary;

// Sets every argument as an application following the descriptor would, then records a launch.
void useAsTheRuntimeWould(const KernelDescriptor& descriptor) {
  loom::core::Kernel kernel(descriptor, nullptr);
  for (uint32_t index = 0; index < descriptor.arguments.size(); ++index) {
    const KernelArgument& argument = descriptor.arguments[index];
    const std::vector<uint8_t> value(argument.size, 0x5a);
    void* const pointer = nullptr;
    switch (argument.kind) {
      case ArgumentKind::GlobalPointer:
      case ArgumentKind::ConstantPointer: kernel.setArgument(index, sizeof(pointer), &pointer); break;
      case ArgumentKind::LocalPointer: kernel.setArgument(index, 64, nullptr); break;
      case ArgumentKind::Value: kernel.setArgument(index, value.size(), value.data()); break;
      case ArgumentKind::Sampler:
      case ArgumentKind::Image: kernel.setArgument(index, sizeof(pointer), &pointer); break;
    }
  }
  loom::core::CommandStream stream;
  kernel.appendLaunch(stream, {});
  require(!stream.empty(), "a launch is recorded");
}

void checkRead(const uint8_t* data, size_t size) {
  const BuildResult read = readNativeBinary(data, size);
  if (!succeeded(read, Status::InvalidBinary)) return;
  throughNativeBinary(*read.program);
  for (const KernelDescriptor& kernel : read.program->info.kernels) useAsTheRuntimeWould(kernel);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  checkRead(data, size);
  std::vector<uint8_t> sealed(data, data + size);
  sealNativeBinary(sealed.data(), sealed.size());
  checkRead(sealed.data(), sealed.size());
  return 0;
}
