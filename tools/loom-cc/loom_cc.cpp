// loom-cc: compiles SPIR-V to a Loom native binary, and describes native binaries.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "loom/compiler/compiler.h"

namespace {

using loom::compiler::ArgumentKind;

void printUsage() {
  std::puts(
      "usage: loom-cc compile <input.spv> -o <output.bin> [--options \"<build options>\"]\n"
      "       loom-cc describe <input.bin | input.spv>\n"
      "compile   builds SPIR-V for the CPU (this machine's instruction set) into a native binary,\n"
      "          which zeModuleCreate accepts with ZE_MODULE_FORMAT_NATIVE\n"
      "describe  prints the kernels of a native binary (or of SPIR-V, after compiling it) with their\n"
      "          arguments, resources and attributes");
}

bool readFile(const std::string& path, std::vector<uint8_t>& bytes) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return false;
  bytes.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  return true;
}

const char* kindName(ArgumentKind kind) {
  switch (kind) {
    case ArgumentKind::GlobalPointer: return "global pointer";
    case ArgumentKind::ConstantPointer: return "constant pointer";
    case ArgumentKind::LocalPointer: return "local pointer";
    case ArgumentKind::Value: return "value";
    case ArgumentKind::Sampler: return "sampler";
    case ArgumentKind::Image: return "image";
  }
  return "?";
}

void describe(const loom::compiler::ProgramInfo& info) {
  for (const auto& kernel : info.kernels) {
    std::printf("kernel %s: argument buffer %u bytes, static local %u bytes, barrier frame %u bytes per work-item%s\n",
                kernel.name.c_str(), kernel.argumentBufferSize, kernel.staticLocalMemorySize, kernel.barrierFrameSize,
                kernel.hasBarriers ? ", barriers" : "");
    if (!kernel.attributes.empty()) std::printf("  attributes: %s\n", kernel.attributes.c_str());
    for (size_t i = 0; i < kernel.arguments.size(); ++i) {
      const auto& argument = kernel.arguments[i];
      std::printf("  arg %zu: %-16s offset %3u size %3u  %s %s\n", i, kindName(argument.kind), argument.offset, argument.size,
                  argument.typeName.c_str(), argument.name.c_str());
    }
  }
  for (const auto& global : info.globals) std::printf("global %s: %llu bytes\n", global.name.c_str(), (unsigned long long)global.size);
  for (const auto& name : info.exportedFunctions) std::printf("export %s\n", name.c_str());
  for (const auto& name : info.importedFunctions) std::printf("import %s\n", name.c_str());
}

bool isSpirv(const std::vector<uint8_t>& bytes) {
  uint32_t magic = 0;
  if (bytes.size() >= 4) std::memcpy(&magic, bytes.data(), 4);
  return magic == 0x07230203;
}

int fail(const loom::compiler::BuildResult& result) {
  std::fprintf(stderr, "loom-cc: %s\n", result.log.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || !std::strcmp(argv[1], "--help")) {
    printUsage();
    return argc >= 2 && !std::strcmp(argv[1], "--help") ? 0 : 2;
  }
  const std::string command = argv[1];
  std::string output, options;
  for (int i = 3; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "-o")) output = argv[i + 1];
    if (!std::strcmp(argv[i], "--options")) options = argv[i + 1];
  }
  std::vector<uint8_t> input;
  if (!readFile(argv[2], input)) {
    std::fprintf(stderr, "loom-cc: cannot read %s\n", argv[2]);
    return 1;
  }
  loom::compiler::BuildResult result;
  if (isSpirv(input)) {
    loom::compiler::CompileRequest request;
    request.spirv = std::move(input);
    request.options = options;
    result = loom::compiler::compileSpirv(request);
  } else {
    result = loom::compiler::readNativeBinary(input.data(), input.size());
  }
  if (result.status != loom::compiler::Status::Success) return fail(result);
  if (command == "describe") {
    describe(result.program->info);
    return 0;
  }
  if (command != "compile" || output.empty()) {
    printUsage();
    return 2;
  }
  const std::vector<uint8_t> binary = loom::compiler::writeNativeBinary(*result.program);
  std::ofstream(output, std::ios::binary).write(reinterpret_cast<const char*>(binary.data()), std::streamsize(binary.size()));
  std::printf("%s: %zu kernels, %zu bytes\n", output.c_str(), result.program->info.kernels.size(), binary.size());
  return 0;
}
