#pragma once
// A program built for one device: compiled code and metadata plus the device's loaded copy.
#include <memory>
#include <string>

#include "loom/compiler/compiler.h"
#include "loom/core/backend.h"

namespace loom::core {

class Device;

struct ProgramBuild {
  compiler::Status status = compiler::Status::BuildFailure;
  std::string log;
  std::unique_ptr<class Program> program;
};

class Program {
 public:
  static ProgramBuild fromSpirv(Device& device, compiler::CompileRequest request);
  static ProgramBuild fromNativeBinary(Device& device, const uint8_t* data, size_t size);

  const compiler::ProgramInfo& info() const { return compiled_->info; }
  const compiler::CompiledProgram& compiled() const { return *compiled_; }
  BackendProgram& loaded() { return *loaded_; }
  Device& device() const { return device_; }

 private:
  static ProgramBuild load(Device& device, compiler::BuildResult built);
  Program(Device& device, std::shared_ptr<const compiler::CompiledProgram> compiled,
          std::unique_ptr<BackendProgram> loaded)
      : device_(device), compiled_(std::move(compiled)), loaded_(std::move(loaded)) {}

  Device& device_;
  std::shared_ptr<const compiler::CompiledProgram> compiled_;
  std::unique_ptr<BackendProgram> loaded_;
};

}  // namespace loom::core
