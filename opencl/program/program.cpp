#include "opencl/program/program.h"

#include <algorithm>

#include "loom/compiler/compiler.h"
#include "loom/compiler/opencl_c.h"
#include "loom/core/runtime.h"
#include "opencl/context/context.h"
#include "opencl/device/device.h"
#include "opencl/validation.h"

namespace loom::cl {

namespace {

// Non-uniform work-groups are allowed unless the program asks for uniform ones or was built from
// source as OpenCL C 1.x (the default without -cl-std).
bool allowsNonUniformGroups(const compiler::BuildOptions& options, Program::Origin origin) {
  if (options.uniformWorkGroupSize) return false;
  return origin != Program::Origin::Source || options.languageVersion() >= 200;
}

cl_int buildFailureCode(compiler::Status status, cl_int failure, cl_int invalidOptions) {
  switch (status) {
    case compiler::Status::Success: return CL_SUCCESS;
    case compiler::Status::InvalidOptions: return invalidOptions;
    default: return failure;
  }
}

}  // namespace

std::optional<compiler::BuildOptions> parseOptions(const std::string& text, std::string& log) {
  std::optional<compiler::BuildOptions> parsed = compiler::parseBuildOptions(text, log);
  if (!parsed) log += "\n";
  return parsed;
}

Program::Program(Context& context, std::vector<Device*> devices, Origin origin) : context_(context), origin_(origin) {
  context_.retain();
  for (Device* device : devices) builds_.push_back(DeviceBuild{device});
}

Program::~Program() { releaseContext(context_); }

Program::DeviceBuild* Program::buildFor(const Device* device) {
  for (DeviceBuild& build : builds_)
    if (build.device == device) return &build;
  return nullptr;
}

core::Program* Program::anyExecutable() {
  for (DeviceBuild& build : builds_)
    if (build.program) return build.program.get();
  return nullptr;
}

cl_int Program::checkBuildable(const std::vector<Device*>& devices) {
  CL_REQUIRE(attachedKernels.load() == 0, CL_INVALID_OPERATION, "kernels are attached to the program");
  for (Device* device : devices) {
    DeviceBuild* build = buildFor(device);
    CL_REQUIRE(build, CL_INVALID_DEVICE, "a device is not one of the program's");
    CL_REQUIRE(build->status != CL_BUILD_IN_PROGRESS, CL_INVALID_OPERATION, "a build is in progress");
  }
  return CL_SUCCESS;
}

void Program::buildExecutable(DeviceBuild& build, const std::vector<uint8_t>& spirv, bool spirvFromLoom,
                              const std::string& options, const compiler::BuildOptions& parsed) {
  build.nonUniformGroups = allowsNonUniformGroups(parsed, origin_);
  compiler::CompileRequest request;
  request.spirv = spirv;
  request.spirvFromLoom = spirvFromLoom;
  request.options = options;
  request.exportFunctions = false;  // OpenCL has no function pointers to a program's functions
  request.uniformWorkGroups = !build.nonUniformGroups;
  request.specializationConstants = specializationConstants_;
  request.vectorTypeHints = build.vectorTypeHints;
  core::ProgramBuild built = core::Program::fromSpirv(build.device->core(), std::move(request));
  build.log += built.log;
  // OpenCL has no dynamic linking: an executable defines every function it calls.
  if (built.program && !built.program->info().importedFunctions.empty()) {
    build.log += "undefined functions (called, but defined in no program):";
    for (const std::string& name : built.program->info().importedFunctions) build.log += " " + name;
    build.log += "\n";
    built.program.reset();
  }
  build.program = std::move(built.program);
  build.status = build.program ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
  build.binaryType = build.program ? CL_PROGRAM_BINARY_TYPE_EXECUTABLE : CL_PROGRAM_BINARY_TYPE_NONE;
}

std::vector<Device*> Program::withSubDevices(std::vector<Device*> devices) const {
  if (origin_ != Origin::Source && origin_ != Origin::Il) return devices;  // a binary is loaded per device
  auto listed = [&](const Device* device) { return std::find(devices.begin(), devices.end(), device) != devices.end(); };
  for (const DeviceBuild& build : builds_) {
    if (listed(build.device)) continue;
    for (const Device* ancestor = build.device->parent(); ancestor; ancestor = ancestor->parent()) {
      if (!listed(ancestor)) continue;
      devices.push_back(build.device);
      break;
    }
  }
  return devices;
}

cl_int Program::build(const std::vector<Device*>& requested, const std::string& options) {
  const std::vector<Device*> devices = withSubDevices(requested.empty() ? context_.devices() : requested);
  if (cl_int error = checkBuildable(devices); error != CL_SUCCESS) return error;
  std::string invalidOptions;
  const std::optional<compiler::BuildOptions> parsed = parseOptions(options, invalidOptions);
  cl_int result = CL_SUCCESS;
  for (Device* device : devices) {
    DeviceBuild& build = *buildFor(device);
    build.options = options;
    build.log.clear();
    build.program.reset();
    if (!parsed) {
      build.log = invalidOptions;
      build.status = CL_BUILD_ERROR;
      result = CL_INVALID_BUILD_OPTIONS;
      continue;
    }
    std::vector<uint8_t> spirv;
    bool spirvFromLoom = false;
    if (origin_ != Origin::Linked) build.vectorTypeHints.clear();
    if (origin_ == Origin::Source) {
      compiler::SpirvResult compiled = compiler::compileOpenClSource({source_, options, {}});
      build.log = compiled.log;
      if (compiled.status != compiler::Status::Success) {
        build.status = CL_BUILD_ERROR;
        result = buildFailureCode(compiled.status, CL_BUILD_PROGRAM_FAILURE, CL_INVALID_BUILD_OPTIONS);
        continue;
      }
      spirv = std::move(compiled.spirv);
      spirvFromLoom = compiled.fromLoom;
      build.vectorTypeHints = std::move(compiled.vectorTypeHints);
    } else if (origin_ == Origin::Il) {
      spirv = il_;
    } else if (build.binaryType == CL_PROGRAM_BINARY_TYPE_EXECUTABLE && !build.spirv.empty()) {
      // A native binary from clCreateProgramWithBinary.
      core::ProgramBuild loaded = core::Program::fromNativeBinary(device->core(), build.spirv.data(), build.spirv.size());
      build.log = loaded.log;
      build.program = std::move(loaded.program);
      build.status = build.program ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
      if (!build.program) result = CL_INVALID_BINARY;
      continue;
    } else {
      spirv = build.spirv;  // a compiled object or library
      spirvFromLoom = build.spirvFromLoom;
    }
    buildExecutable(build, spirv, spirvFromLoom, options, *parsed);
    if (build.status != CL_BUILD_SUCCESS && result == CL_SUCCESS) result = CL_BUILD_PROGRAM_FAILURE;
  }
  return result;
}

cl_int Program::compile(const std::vector<Device*>& requested, const std::string& options,
                        const std::vector<std::pair<std::string, std::string>>& headers) {
  const std::vector<Device*> devices = requested.empty() ? context_.devices() : requested;
  if (cl_int error = checkBuildable(devices); error != CL_SUCCESS) return error;
  CL_REQUIRE(origin_ == Origin::Source || origin_ == Origin::Il, CL_INVALID_OPERATION,
             "only programs created from source or IL can be compiled");
  compiler::SpirvResult compiled;
  if (!parseOptions(options, compiled.log)) {
    compiled.status = compiler::Status::InvalidOptions;
  } else if (origin_ == Origin::Source) {
    compiled = compiler::compileOpenClSource({source_, options, headers});
  } else {
    compiled.status = compiler::Status::Success;
    compiled.spirv = il_;
  }
  for (Device* device : devices) {
    DeviceBuild& build = *buildFor(device);
    build.options = options;
    build.log = compiled.log;
    build.program.reset();
    const bool success = compiled.status == compiler::Status::Success;
    build.status = success ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
    build.binaryType = success ? CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT : CL_PROGRAM_BINARY_TYPE_NONE;
    build.spirv = success ? compiled.spirv : std::vector<uint8_t>{};
    build.spirvFromLoom = success && compiled.fromLoom;
    build.vectorTypeHints = compiled.vectorTypeHints;
  }
  return buildFailureCode(compiled.status, CL_COMPILE_PROGRAM_FAILURE, CL_INVALID_COMPILER_OPTIONS);
}

void releaseProgram(Program& program) {
  if (!program.release()) return;
  // Kernels of the program may still run: its code goes once submitted work has completed.
  Program* object = &program;
  core::Runtime::get().releaseAfterSubmittedWork([object] { delete object; });
}

}  // namespace loom::cl
