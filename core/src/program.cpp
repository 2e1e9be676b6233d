#include "loom/core/program.h"

#include "loom/core/compiler_cache.h"
#include "loom/core/debug_keys.h"
#include "loom/core/device.h"
#include "loom/core/log.h"

namespace loom::core {

ProgramBuild Program::fromSpirv(Device& device, compiler::CompileRequest request) {
  request.target = device.backend().compilerTarget();
  // A root over several GPUs runs a launch's groups on all of them (implicit scaling).
  request.spansGpus = device.info().type == DeviceType::Gpu && device.subDevices().size() > 1;
  request.dumpKernelIr = debugKeys().DumpKernelIr;
  const CompilerCache& cache = compilerCache();
  const std::string key = CompilerCache::key(request);
  std::string cachedLog;
  if (auto cached = cache.load(key, &cachedLog)) return load(device, {compiler::Status::Success, std::move(cachedLog), std::move(cached)});
  compiler::BuildResult built = compiler::compileSpirv(request);
  if (built.status == compiler::Status::Success) cache.store(key, *built.program, built.log);
  return load(device, std::move(built));
}

ProgramBuild Program::fromNativeBinary(Device& device, const uint8_t* data, size_t size) {
  compiler::BuildResult read = compiler::readNativeBinary(data, size);
  if (read.status == compiler::Status::Success && read.program->target != device.backend().compilerTarget()) {
    read.status = compiler::Status::InvalidBinary;
    read.log = "native binary was compiled for another target than this device";
  }
  return load(device, std::move(read));
}

ProgramBuild Program::load(Device& device, compiler::BuildResult built) {
  ProgramBuild result{built.status, std::move(built.log), nullptr};
  if (built.status != compiler::Status::Success) return result;
  if (!result.log.empty()) debugMessage("the module builds with warnings:\n%s", result.log.c_str());
  std::string loadLog;
  auto loaded = device.backend().loadProgram(built.program, loadLog);
  if (!loaded) {
    result.status = compiler::Status::BuildFailure;
    result.log += loadLog;
    return result;
  }
  result.program.reset(new Program(device, std::move(built.program), std::move(loaded)));
  return result;
}

}  // namespace loom::core
