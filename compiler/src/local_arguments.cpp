#include "loom/compiler/local_arguments.h"

#include <cstring>

namespace loom::compiler {

namespace {

uint64_t saturatingAdd(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }
uint64_t alignUp(uint64_t value, uint64_t alignment) { return saturatingAdd(value, alignment - 1) / alignment * alignment; }

}  // namespace

uint64_t layOutLocalArguments(const KernelDescriptor& kernel, std::span<const uint64_t> localSizes, uint8_t* argumentBuffer) {
  uint64_t offset = kernel.staticLocalMemorySize;
  for (size_t i = 0; i < kernel.arguments.size(); ++i) {
    if (kernel.arguments[i].kind != ArgumentKind::LocalPointer) continue;
    offset = alignUp(offset, kLocalArgumentAlignment);
    std::memcpy(argumentBuffer + kernel.arguments[i].offset, &offset, sizeof(offset));
    offset = saturatingAdd(offset, localSizes[i]);
  }
  return offset;
}

}  // namespace loom::compiler
