// loom-cc: compiles SPIR-V to a Loom native binary, and describes native binaries.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "loom/compiler/compiler.h"
#include "loom/compiler/opencl_c.h"

namespace {

using loom::compiler::ArgumentKind;

void printUsage() {
  std::puts(
      "usage: loom-cc spirv <input.cl> -o <output.spv> [--options \"<build options>\"]\n"
      "       loom-cc compile <input.spv | input.cl> -o <output.bin> [--options \"<build options>\"] [--target cpu|nvptx]\n"
      "                       [--threads N] [--exports all|none]\n"
      "       loom-cc describe <input.bin | input.spv | input.cl> [--options \"<build options>\"] [--target cpu|nvptx]\n"
      "spirv     compiles OpenCL C (-cl-std= among the options, CL1.2 by default) to SPIR-V, which\n"
      "          zeModuleCreate and clCreateProgramWithIL accept\n"
      "compile   builds SPIR-V or OpenCL C into a native binary for the target: cpu (the default:\n"
      "          this machine's instruction set) or nvptx (PTX for NVIDIA GPUs), which zeModuleCreate\n"
      "          accepts with ZE_MODULE_FORMAT_NATIVE on a device of that target\n"
      "--threads N  CPU code generation on up to N threads, one partition of the kernels each\n"
      "          (default 0: one per core, for programs large enough to gain from it)\n"
      "--exports all|none  all (the default): every function stays callable by other modules and\n"
      "          through pointers, as zeModuleCreate builds; none: as clBuildProgram builds an\n"
      "          executable, which lets the compiler drop what the kernels inline\n"
      "describe  prints the kernels of a native binary (or of SPIR-V or OpenCL C, after compiling it)\n"
      "          with their arguments, resources and attributes\n"
      "A build that fails prints the compiler's log and exits with status 1.");
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

bool endsWith(const std::string& text, const char* suffix) {
  const size_t length = std::strlen(suffix);
  return text.size() >= length && text.compare(text.size() - length, length, suffix) == 0;
}

bool writeFile(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream file(path, std::ios::binary);
  file.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  return bool(file);
}

struct Arguments {
  std::string command, input, output, options, target = "cpu";
  unsigned threads = 0;  // code generation threads; 0: automatic
  std::string exports = "all";
};

// SPIR-V as it is; OpenCL C (a .cl file) through the in-process OpenCL C compiler.
bool spirvOf(const Arguments& arguments, std::vector<uint8_t>& input, std::string& log) {
  if (isSpirv(input) || !endsWith(arguments.input, ".cl")) return true;
  const loom::compiler::SpirvResult spirv =
      loom::compiler::compileOpenClSource({std::string(input.begin(), input.end()), arguments.options, {}});
  log = spirv.log;
  if (spirv.status != loom::compiler::Status::Success) return false;
  input = spirv.spirv;
  return true;
}

loom::compiler::BuildResult build(const Arguments& arguments, std::vector<uint8_t> input) {
  loom::compiler::BuildResult result;
  if (!spirvOf(arguments, input, result.log)) return result;
  if (!isSpirv(input)) return loom::compiler::readNativeBinary(input.data(), input.size());
  loom::compiler::CompileRequest request;
  request.spirv = std::move(input);
  request.options = arguments.options;
  request.target = arguments.target == "nvptx" ? loom::compiler::Target::Nvptx : loom::compiler::Target::Cpu;
  request.codeGenerationThreads = arguments.threads;
  request.exportFunctions = arguments.exports == "all";
  return loom::compiler::compileSpirv(request);
}

int fail(const std::string& log) {
  std::fprintf(stderr, "loom-cc: %s\n", log.c_str());
  return 1;
}

// loom-cc spirv: OpenCL C to SPIR-V.
int emitSpirv(const Arguments& arguments, std::vector<uint8_t> input) {
  std::string log;
  if (!endsWith(arguments.input, ".cl")) return fail(arguments.input + " is not OpenCL C (a .cl file)");
  if (!spirvOf(arguments, input, log)) return fail(log);
  if (!writeFile(arguments.output, input)) return fail("cannot write " + arguments.output);
  std::printf("%s: %zu bytes of SPIR-V\n", arguments.output.c_str(), input.size());
  return 0;
}

int compileOrDescribe(const Arguments& arguments, std::vector<uint8_t> input) {
  const loom::compiler::BuildResult result = build(arguments, std::move(input));
  if (result.status != loom::compiler::Status::Success) return fail(result.log);
  if (arguments.command == "describe") {
    describe(result.program->info);
    return 0;
  }
  const std::vector<uint8_t> binary = loom::compiler::writeNativeBinary(*result.program);
  if (!writeFile(arguments.output, binary)) return fail("cannot write " + arguments.output);
  std::printf("%s: %zu kernels, %zu bytes\n", arguments.output.c_str(), result.program->info.kernels.size(), binary.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || !std::strcmp(argv[1], "--help")) {
    printUsage();
    return argc >= 2 && !std::strcmp(argv[1], "--help") ? 0 : 2;
  }
  Arguments arguments{argv[1], argv[2]};
  for (int i = 3; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "-o")) arguments.output = argv[i + 1];
    if (!std::strcmp(argv[i], "--options")) arguments.options = argv[i + 1];
    if (!std::strcmp(argv[i], "--target")) arguments.target = argv[i + 1];
    if (!std::strcmp(argv[i], "--threads")) arguments.threads = static_cast<unsigned>(std::strtoul(argv[i + 1], nullptr, 10));
    if (!std::strcmp(argv[i], "--exports")) arguments.exports = argv[i + 1];
  }
  if (arguments.exports != "all" && arguments.exports != "none") {
    std::fprintf(stderr, "loom-cc: --exports takes all or none, not %s\n", arguments.exports.c_str());
    return 2;
  }
  if (arguments.target != "cpu" && arguments.target != "nvptx") {
    std::fprintf(stderr, "loom-cc: unknown target %s (cpu or nvptx)\n", arguments.target.c_str());
    return 2;
  }
  const bool writes = arguments.command == "spirv" || arguments.command == "compile";
  if ((!writes && arguments.command != "describe") || (writes && arguments.output.empty())) {
    printUsage();
    return 2;
  }
  std::vector<uint8_t> input;
  if (!readFile(arguments.input, input)) return fail("cannot read " + arguments.input);
  if (arguments.command == "spirv") return emitSpirv(arguments, std::move(input));
  return compileOrDescribe(arguments, std::move(input));
}
