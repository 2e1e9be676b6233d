#pragma once
// A program: its source, IL or binaries, and per device the build (status, options, log and the
// core program). Compiled objects and libraries (clCompileProgram, clLinkProgram -create-library)
// are SPIR-V; executables are core programs, whose binaries are Loom native binaries.
#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "loom/compiler/build_options.h"
#include "loom/core/program.h"
#include "opencl/api_object.h"

namespace loom::cl {

class Context;
class Device;

class Program : public _cl_program, public RefCounted {
 public:
  static constexpr Magic kMagic = Magic::Program;
  enum class Origin { Source, Il, Binary, Linked };

  struct DeviceBuild {
    Device* device;
    cl_build_status status = CL_BUILD_NONE;
    cl_program_binary_type binaryType = CL_PROGRAM_BINARY_TYPE_NONE;
    std::string options;
    // Whether NDRanges may end in partial work-groups: what the options and the OpenCL C version
    // of the executable allow.
    bool nonUniformGroups = true;
    std::string log;
    std::vector<uint8_t> spirv;            // compiled object or library
    bool spirvFromLoom = false;            // Loom's frontend or linker wrote it (SpirvResult::fromLoom)
    // Kernel -> vec_type_hint as the source wrote it, for the executable (SPIR-V loses signedness).
    std::map<std::string, std::string> vectorTypeHints;
    std::unique_ptr<core::Program> program;  // executable
  };

  Program(Context& context, std::vector<Device*> devices, Origin origin);
  ~Program();

  Context& context() const { return context_; }
  Origin origin() const { return origin_; }
  std::vector<DeviceBuild>& builds() { return builds_; }
  DeviceBuild* buildFor(const Device* device);
  std::string& source() { return source_; }
  std::vector<uint8_t>& il() { return il_; }
  std::map<uint32_t, uint64_t>& specializationConstants() { return specializationConstants_; }

  // Builds an executable for every device in `devices` (all of the program's when empty).
  cl_int build(const std::vector<Device*>& devices, const std::string& options);
  // clCompileProgram: source (or IL) to a compiled object per device.
  cl_int compile(const std::vector<Device*>& devices, const std::string& options,
                 const std::vector<std::pair<std::string, std::string>>& headers);
  // A device's executable from SPIR-V (and the build's vectorTypeHints) with `options`, which
  // parse as `parsed`; records status and log. `spirvFromLoom` as in CompileRequest.
  void buildExecutable(DeviceBuild& build, const std::vector<uint8_t>& spirv, bool spirvFromLoom, const std::string& options,
                       const compiler::BuildOptions& parsed);

  // The first device's executable, or null when no device has one.
  core::Program* anyExecutable();
  bool hasExecutable() { return anyExecutable() != nullptr; }
  // Kernels created from the program keep it from being rebuilt.
  std::atomic<int> attachedKernels{0};

 private:
  cl_int checkBuildable(const std::vector<Device*>& devices);
  // `devices` and the program's sub-devices of them: a sub-device runs what its parent runs, so a
  // build for a device builds for its sub-devices in the program too (OpenCL-CTS device_partition
  // builds for the parent and runs on the sub-devices). Not for binaries, loaded per device.
  std::vector<Device*> withSubDevices(std::vector<Device*> devices) const;

  Context& context_;
  Origin origin_;
  std::vector<DeviceBuild> builds_;
  std::string source_;
  std::vector<uint8_t> il_;
  std::map<uint32_t, uint64_t> specializationConstants_;
};

void releaseProgram(Program& program);

// `text` parsed, or nullopt with the reason written to `log`.
std::optional<compiler::BuildOptions> parseOptions(const std::string& text, std::string& log);

}  // namespace loom::cl
