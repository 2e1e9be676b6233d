#pragma once
// Files built into a test or benchmark program (loom_embedded_files in cmake/LoomKernels.cmake):
// its SPIR-V modules and OpenCL C sources. The program opens no file of the build machine, so it
// runs from any folder, on any machine.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace loom::test {

struct EmbeddedFile {
  const char* name;  // the file name, without folders
  const uint8_t* bytes;
  size_t size;
};

// Every file the program was linked with (made by loom_embedded_files).
std::span<const EmbeddedFile> embeddedFiles();

// The file named `name`, or null where the program holds none of that name.
const EmbeddedFile* findEmbeddedFile(std::string_view name);

// The bytes (SPIR-V, binaries) or the text (OpenCL C) of the file named `name`. A program asking
// for a file it does not hold is a build mistake: it says which and aborts.
std::vector<uint8_t> embeddedBytes(std::string_view name);
std::string embeddedText(std::string_view name);

}  // namespace loom::test
