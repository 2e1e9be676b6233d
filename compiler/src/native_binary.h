#pragma once
// What the native binary's container needs besides compiler.h's reader and writer.
#include <cstddef>
#include <cstdint>

namespace loom::compiler {

// Writes the checksum that readNativeBinary checks into the binary's header (writeNativeBinary
// seals what it writes). A binary shorter than the ELF header is left alone. Tools that change a
// binary on purpose, such as the fuzz target, seal it again so that the reader looks past it.
void sealNativeBinary(uint8_t* data, size_t size);

}  // namespace loom::compiler
