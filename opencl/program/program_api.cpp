// Program entry points: creation from source, IL and binaries; build, compile and link; queries.
#include <algorithm>
#include <cstring>

#include "loom/compiler/compiler.h"
#include "loom/compiler/opencl_c.h"
#include "opencl/context/context.h"
#include "opencl/device/device.h"
#include "opencl/info.h"
#include "opencl/program/program.h"
#include "opencl/reference_counting.h"
#include "opencl/validation.h"

namespace loom::cl {
namespace {

using BuildNotify = void(CL_CALLBACK*)(cl_program, void*);

// Marks a library's binary, so that clCreateProgramWithBinary restores its binary type.
constexpr uint8_t kLibraryTag[8] = {'L', 'O', 'O', 'M', 'L', 'I', 'B', 0};

bool isLibraryBinary(const std::vector<uint8_t>& binary) {
  return binary.size() > sizeof(kLibraryTag) && std::equal(std::begin(kLibraryTag), std::end(kLibraryTag), binary.begin());
}

// The devices of a device list argument, each required to be one of `allowed`.
cl_int readDeviceList(const std::vector<Device*>& allowed, cl_uint count, const cl_device_id* list,
                      std::vector<Device*>& devices, const char* function) {
  if ((count == 0) != (list == nullptr))
    return reportError(CL_INVALID_VALUE, function, "num_devices and device_list disagree");
  for (cl_uint i = 0; i < count; ++i) {
    Device* device = objectOf<Device>(list[i]);
    if (device == nullptr || std::find(allowed.begin(), allowed.end(), device) == allowed.end())
      return reportError(CL_INVALID_DEVICE, function, "a device is not one of the program's");
    devices.push_back(device);
  }
  return CL_SUCCESS;
}

std::vector<Device*> programDevices(Program& program) {
  std::vector<Device*> devices;
  for (auto& build : program.builds()) devices.push_back(build.device);
  return devices;
}

cl_int createFromSource(cl_context context, cl_uint count, const char** strings, const size_t* lengths, cl_program* program) {
  Context* owner = objectOf<Context>(context);
  CL_REQUIRE(owner, CL_INVALID_CONTEXT, "not a context");
  CL_REQUIRE(count != 0 && strings != nullptr, CL_INVALID_VALUE, "no source strings");
  std::string source;
  for (cl_uint i = 0; i < count; ++i) {
    CL_REQUIRE(strings[i], CL_INVALID_VALUE, "a source string is null");
    source += (lengths && lengths[i]) ? std::string(strings[i], lengths[i]) : std::string(strings[i]);
  }
  auto* created = new Program(*owner, owner->devices(), Program::Origin::Source);
  created->source() = std::move(source);
  *program = created;
  return CL_SUCCESS;
}

cl_int createFromIl(cl_context context, const void* il, size_t length, cl_program* program) {
  Context* owner = objectOf<Context>(context);
  CL_REQUIRE(owner, CL_INVALID_CONTEXT, "not a context");
  CL_REQUIRE(il != nullptr && length != 0, CL_INVALID_VALUE, "il is null or empty");
  const auto* bytes = static_cast<const uint8_t*>(il);
  uint32_t magic = 0;
  if (length >= 4) std::memcpy(&magic, bytes, 4);
  CL_REQUIRE(length >= 20 && length % 4 == 0 && magic == 0x07230203, CL_INVALID_VALUE, "il is not a SPIR-V module");
  auto* created = new Program(*owner, owner->devices(), Program::Origin::Il);
  created->il().assign(bytes, bytes + length);
  *program = created;
  return CL_SUCCESS;
}

cl_int createFromBinary(cl_context context, cl_uint count, const cl_device_id* list, const size_t* lengths,
                        const unsigned char** binaries, cl_int* binaryStatus, cl_program* program) {
  Context* owner = objectOf<Context>(context);
  CL_REQUIRE(owner, CL_INVALID_CONTEXT, "not a context");
  CL_REQUIRE(count != 0 && list != nullptr, CL_INVALID_VALUE, "no devices");
  CL_REQUIRE(lengths != nullptr && binaries != nullptr, CL_INVALID_VALUE, "lengths or binaries is null");
  std::vector<Device*> devices;
  if (cl_int error = readDeviceList(owner->devices(), count, list, devices, "clCreateProgramWithBinary"); error != CL_SUCCESS)
    return error;
  for (cl_uint i = 0; i < count; ++i) CL_REQUIRE(binaries[i] && lengths[i], CL_INVALID_VALUE, "a binary is null or empty");
  auto* created = new Program(*owner, devices, Program::Origin::Binary);
  cl_int result = CL_SUCCESS;
  for (cl_uint i = 0; i < count; ++i) {
    Program::DeviceBuild& build = created->builds()[i];
    build.spirv.assign(binaries[i], binaries[i] + lengths[i]);
    uint32_t magic = 0;
    std::memcpy(&magic, binaries[i], std::min<size_t>(4, lengths[i]));
    // SPIR-V is what Loom returns for compiled objects, tagged SPIR-V for libraries; anything
    // else must be a native binary for this device.
    cl_int status = CL_SUCCESS;
    if (isLibraryBinary(build.spirv)) {
      build.binaryType = CL_PROGRAM_BINARY_TYPE_LIBRARY;
      build.spirv.erase(build.spirv.begin(), build.spirv.begin() + sizeof(kLibraryTag));
    } else if (magic == 0x07230203) {
      build.binaryType = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
    } else if (compiler::readNativeBinary(binaries[i], lengths[i]).status == compiler::Status::Success) {
      build.binaryType = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    } else {
      status = reportError(CL_INVALID_BINARY, "clCreateProgramWithBinary", "not a Loom binary");
    }
    if (binaryStatus) binaryStatus[i] = status;
    if (status != CL_SUCCESS) result = status;
  }
  if (result != CL_SUCCESS) {
    releaseProgram(*created);
    return result;
  }
  *program = created;
  return CL_SUCCESS;
}

cl_int checkNotify(BuildNotify notify, void* userData) {
  CL_REQUIRE(notify != nullptr || userData == nullptr, CL_INVALID_VALUE, "user_data without pfn_notify");
  return CL_SUCCESS;
}

cl_int linkPrograms(cl_context context, cl_uint numDevices, const cl_device_id* deviceList, const char* options,
                    cl_uint numInputs, const cl_program* inputs, cl_program* linked) {
  Context* owner = objectOf<Context>(context);
  CL_REQUIRE(owner, CL_INVALID_CONTEXT, "not a context");
  CL_REQUIRE(numInputs != 0 && inputs != nullptr, CL_INVALID_VALUE, "no input programs");
  std::vector<Device*> devices;
  if (cl_int error = readDeviceList(owner->devices(), numDevices, deviceList, devices, "clLinkProgram"); error != CL_SUCCESS)
    return error;
  if (devices.empty()) devices = owner->devices();
  const std::string optionText = options ? options : "";
  std::string invalidOptions;
  const std::optional<compiler::BuildOptions> parsed = parseOptions(optionText, invalidOptions);
  CL_REQUIRE(parsed, CL_INVALID_LINKER_OPTIONS, invalidOptions.c_str());
  const bool library = parsed->createLibrary;
  std::vector<std::vector<uint8_t>> modules;
  std::map<std::string, std::string> hints;  // the inputs' vectorTypeHints
  bool fromLoom = true;
  for (cl_uint i = 0; i < numInputs; ++i) {
    Program* input = objectOf<Program>(inputs[i]);
    CL_REQUIRE(input, CL_INVALID_PROGRAM, "an input is not a program");
    CL_REQUIRE(&input->context() == owner, CL_INVALID_CONTEXT, "an input belongs to another context");
    Program::DeviceBuild* build = input->buildFor(devices.front());
    CL_REQUIRE(build && !build->spirv.empty() && build->binaryType != CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
               CL_INVALID_OPERATION, "an input is not a compiled object or library");
    modules.push_back(build->spirv);
    fromLoom = fromLoom && build->spirvFromLoom;
    hints.insert(build->vectorTypeHints.begin(), build->vectorTypeHints.end());
  }
  compiler::SpirvResult result = compiler::linkSpirvModules(modules, library, fromLoom);
  auto* program = new Program(*owner, devices, Program::Origin::Linked);
  for (Program::DeviceBuild& build : program->builds()) {
    build.options = optionText;
    build.log = result.log;
    build.vectorTypeHints = hints;
    if (result.status != compiler::Status::Success) {
      build.status = CL_BUILD_ERROR;
    } else if (library) {
      build.status = CL_BUILD_SUCCESS;
      build.binaryType = CL_PROGRAM_BINARY_TYPE_LIBRARY;
      build.spirv = result.spirv;
      build.spirvFromLoom = result.fromLoom;
    } else {
      program->buildExecutable(build, result.spirv, result.fromLoom, optionText, *parsed);
    }
  }
  *linked = program;
  for (Program::DeviceBuild& build : program->builds())
    if (build.status != CL_BUILD_SUCCESS) return CL_LINK_PROGRAM_FAILURE;
  return CL_SUCCESS;
}

std::string kernelNames(core::Program& program) {
  std::string names;
  for (const std::string* kernel : program.info().kernelNames()) names += (names.empty() ? "" : ";") + *kernel;
  return names;
}

size_t globalVariableTotalSize(core::Program* program) {
  return program ? program->info().globalVariableTotalSize : 0;
}

// The binary a device's build is returned as: a native binary for executables, SPIR-V for
// compiled objects, and SPIR-V after kLibraryTag for libraries.
std::vector<uint8_t> binaryOf(Program::DeviceBuild& build) {
  if (build.program) return compiler::writeNativeBinary(build.program->compiled());
  if (build.binaryType != CL_PROGRAM_BINARY_TYPE_LIBRARY) return build.spirv;
  std::vector<uint8_t> binary(std::begin(kLibraryTag), std::end(kLibraryTag));
  binary.insert(binary.end(), build.spirv.begin(), build.spirv.end());
  return binary;
}

cl_int programBinaries(Program& program, const InfoRequest& out) {
  const size_t count = program.builds().size();
  if (out.sizeRet) *out.sizeRet = count * sizeof(unsigned char*);
  if (out.value == nullptr) return CL_SUCCESS;
  if (out.size < count * sizeof(unsigned char*)) return out.fail(CL_INVALID_VALUE, "param_value_size is too small");
  auto** destinations = static_cast<unsigned char**>(out.value);
  for (size_t i = 0; i < count; ++i) {
    if (destinations[i] == nullptr) continue;  // the application skips this device
    const std::vector<uint8_t> binary = binaryOf(program.builds()[i]);
    std::memcpy(destinations[i], binary.data(), binary.size());
  }
  return CL_SUCCESS;
}

}  // namespace
}  // namespace loom::cl

using namespace loom::cl;
namespace compiler = loom::compiler;

extern "C" {

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count, const char** strings,
                                                              const size_t* lengths, cl_int* errcode_ret) {
  return createHandle<cl_program>(errcode_ret, [&](cl_program* program) {
    return createFromSource(context, count, strings, lengths, program);
  });
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithIL(cl_context context, const void* il, size_t length,
                                                          cl_int* errcode_ret) {
  return createHandle<cl_program>(errcode_ret, [&](cl_program* program) { return createFromIl(context, il, length, program); });
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                                              const cl_device_id* device_list, const size_t* lengths,
                                                              const unsigned char** binaries, cl_int* binary_status,
                                                              cl_int* errcode_ret) {
  return createHandle<cl_program>(errcode_ret, [&](cl_program* program) {
    return createFromBinary(context, num_devices, device_list, lengths, binaries, binary_status, program);
  });
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(cl_context context, cl_uint, const cl_device_id*,
                                                                      const char*, cl_int* errcode_ret) {
  const cl_int error = objectOf<Context>(context) ? reportError(CL_INVALID_VALUE, __func__, "Loom devices have no built-in kernels")
                                                  : reportError(CL_INVALID_CONTEXT, __func__, "not a context");
  return returnHandle<cl_program>(error, nullptr, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainProgram(cl_program program) {
  return retainHandle<Program>(program, CL_INVALID_PROGRAM, __func__);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseProgram(cl_program program) {
  return releaseHandle(program, CL_INVALID_PROGRAM, __func__, releaseProgram);
}

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                                               const char* options, void(CL_CALLBACK* pfn_notify)(cl_program, void*),
                                               void* user_data) {
  Program* object = objectOf<Program>(program);
  CL_REQUIRE(object, CL_INVALID_PROGRAM, "not a program");
  if (cl_int error = checkNotify(pfn_notify, user_data); error != CL_SUCCESS) return error;
  std::vector<Device*> devices;
  if (cl_int error = readDeviceList(programDevices(*object), num_devices, device_list, devices, __func__); error != CL_SUCCESS)
    return error;
  const cl_int result = object->build(devices, options ? options : "");
  if (pfn_notify) pfn_notify(program, user_data);
  if (result != CL_SUCCESS) return reportError(result, __func__, "the build failed: see CL_PROGRAM_BUILD_LOG");
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clCompileProgram(cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                                                 const char* options, cl_uint num_input_headers,
                                                 const cl_program* input_headers, const char** header_include_names,
                                                 void(CL_CALLBACK* pfn_notify)(cl_program, void*), void* user_data) {
  Program* object = objectOf<Program>(program);
  CL_REQUIRE(object, CL_INVALID_PROGRAM, "not a program");
  if (cl_int error = checkNotify(pfn_notify, user_data); error != CL_SUCCESS) return error;
  CL_REQUIRE((num_input_headers == 0) == (input_headers == nullptr) &&
                 (num_input_headers == 0) == (header_include_names == nullptr),
             CL_INVALID_VALUE, "num_input_headers, input_headers and header_include_names disagree");
  std::vector<std::pair<std::string, std::string>> headers;
  for (cl_uint i = 0; i < num_input_headers; ++i) {
    Program* header = objectOf<Program>(input_headers[i]);
    CL_REQUIRE(header && header->origin() == Program::Origin::Source, CL_INVALID_PROGRAM,
               "an input header is not a program created from source");
    CL_REQUIRE(header_include_names[i], CL_INVALID_VALUE, "a header include name is null");
    headers.emplace_back(header_include_names[i], header->source());
  }
  std::vector<Device*> devices;
  if (cl_int error = readDeviceList(programDevices(*object), num_devices, device_list, devices, __func__); error != CL_SUCCESS)
    return error;
  const cl_int result = object->compile(devices, options ? options : "", headers);
  if (pfn_notify) pfn_notify(program, user_data);
  if (result != CL_SUCCESS) return reportError(result, __func__, "the compile failed: see CL_PROGRAM_BUILD_LOG");
  return CL_SUCCESS;
}

CL_API_ENTRY cl_program CL_API_CALL clLinkProgram(cl_context context, cl_uint num_devices, const cl_device_id* device_list,
                                                  const char* options, cl_uint num_input_programs,
                                                  const cl_program* input_programs,
                                                  void(CL_CALLBACK* pfn_notify)(cl_program, void*), void* user_data,
                                                  cl_int* errcode_ret) {
  if (cl_int error = checkNotify(pfn_notify, user_data); error != CL_SUCCESS) return returnHandle<cl_program>(error, nullptr, errcode_ret);
  cl_program linked = nullptr;
  const cl_int error = linkPrograms(context, num_devices, device_list, options, num_input_programs, input_programs, &linked);
  if (linked && pfn_notify) pfn_notify(linked, user_data);
  if (errcode_ret) *errcode_ret = error;
  if (error != CL_SUCCESS) reportError(error, __func__, "the link failed: see CL_PROGRAM_BUILD_LOG");
  // A failed link still returns the program when one was made, so that its log can be read.
  return linked;
}

CL_API_ENTRY cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id, size_t spec_size,
                                                                   const void* spec_value) {
  Program* object = objectOf<Program>(program);
  CL_REQUIRE(object, CL_INVALID_PROGRAM, "not a program");
  CL_REQUIRE(object->origin() == Program::Origin::Il, CL_INVALID_PROGRAM, "the program was not created from IL");
  CL_REQUIRE(spec_value, CL_INVALID_VALUE, "spec_value is null");
  const auto sizes = compiler::specializationConstantSizes(object->il().data(), object->il().size());
  auto found = sizes.find(spec_id);
  CL_REQUIRE(found != sizes.end(), CL_INVALID_SPEC_ID, "the module declares no specialization constant with that id");
  CL_REQUIRE(found->second == spec_size, CL_INVALID_VALUE, "spec_size does not match the constant's size");
  uint64_t value = 0;
  std::memcpy(&value, spec_value, spec_size);
  object->specializationConstants()[spec_id] = value;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetProgramReleaseCallback(cl_program program, void(CL_CALLBACK* pfn_notify)(cl_program, void*),
                                                            void*) {
  Program* object = objectOf<Program>(program);
  CL_REQUIRE(object, CL_INVALID_PROGRAM, "not a program");
  CL_REQUIRE(pfn_notify, CL_INVALID_VALUE, "pfn_notify is null");
  // OpenCL 3.0: without program-scope constructors and destructors on any device
  // (CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT is false) the call is an invalid operation.
  CL_FAIL(CL_INVALID_OPERATION, "no device supports program-scope global constructors and destructors");
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramInfo(cl_program program, cl_program_info param_name, size_t param_value_size,
                                                 void* param_value, size_t* param_value_size_ret) {
  const InfoRequest out{param_value_size, param_value, param_value_size_ret, __func__};
  return answerInfo<Program>(program, CL_INVALID_PROGRAM, "not a program", out, [&](Program& object) {
    switch (param_name) {
      case CL_PROGRAM_REFERENCE_COUNT: return out.scalar(object.referenceCount());
      case CL_PROGRAM_CONTEXT: return out.scalar<cl_context>(&object.context());
      case CL_PROGRAM_NUM_DEVICES: return out.scalar<cl_uint>(static_cast<cl_uint>(object.builds().size()));
      case CL_PROGRAM_DEVICES: {
        std::vector<cl_device_id> devices;
        for (auto& build : object.builds()) devices.push_back(build.device);
        return out.array(devices);
      }
      case CL_PROGRAM_SOURCE: return out.string(object.source());
      case CL_PROGRAM_IL: return out.array(object.il());
      case CL_PROGRAM_BINARY_SIZES: {
        std::vector<size_t> sizes;
        for (auto& build : object.builds()) sizes.push_back(binaryOf(build).size());
        return out.array(sizes);
      }
      case CL_PROGRAM_BINARIES: return programBinaries(object, out);
      case CL_PROGRAM_NUM_KERNELS:
      case CL_PROGRAM_KERNEL_NAMES: {
        loom::core::Program* executable = object.anyExecutable();
        if (!executable) return out.fail(CL_INVALID_PROGRAM_EXECUTABLE, "the program has no executable");
        if (param_name == CL_PROGRAM_NUM_KERNELS) return out.scalar<size_t>(executable->info().kernelNames().size());
        return out.string(kernelNames(*executable));
      }
      case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
      case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT: return out.scalar<cl_bool>(CL_FALSE);
      default: return out.unknownName();
    }
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramBuildInfo(cl_program program, cl_device_id device, cl_program_build_info param_name,
                                                      size_t param_value_size, void* param_value,
                                                      size_t* param_value_size_ret) {
  const InfoRequest out{param_value_size, param_value, param_value_size_ret, __func__};
  return answerInfo<Program>(program, CL_INVALID_PROGRAM, "not a program", out, [&](Program& object) {
    Program::DeviceBuild* build = object.buildFor(objectOf<Device>(device));
    if (!build) return out.fail(CL_INVALID_DEVICE, "not a device of the program");
    switch (param_name) {
      case CL_PROGRAM_BUILD_STATUS: return out.scalar(build->status);
      case CL_PROGRAM_BUILD_OPTIONS: return out.string(build->options);
      case CL_PROGRAM_BUILD_LOG: return out.string(build->log);
      case CL_PROGRAM_BINARY_TYPE: return out.scalar(build->binaryType);
      case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: return out.scalar(globalVariableTotalSize(build->program.get()));
      default: return out.unknownName();
    }
  });
}

}  // extern "C"
