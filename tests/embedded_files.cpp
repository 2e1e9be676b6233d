#include "embedded_files.h"

#include <cstdio>
#include <cstdlib>

namespace loom::test {

namespace {

const EmbeddedFile& requireEmbeddedFile(std::string_view name) {
  if (const EmbeddedFile* file = findEmbeddedFile(name)) return *file;
  std::fprintf(stderr, "this program holds no file named '%.*s': add it to its loom_embedded_files in CMake\n",
               static_cast<int>(name.size()), name.data());
  std::abort();
}

}  // namespace

const EmbeddedFile* findEmbeddedFile(std::string_view name) {
  for (const EmbeddedFile& file : embeddedFiles())
    if (name == file.name) return &file;
  return nullptr;
}

std::vector<uint8_t> embeddedBytes(std::string_view name) {
  const EmbeddedFile& file = requireEmbeddedFile(name);
  return {file.bytes, file.bytes + file.size};
}

std::string embeddedText(std::string_view name) {
  const EmbeddedFile& file = requireEmbeddedFile(name);
  return {reinterpret_cast<const char*>(file.bytes), file.size};
}

}  // namespace loom::test
