#pragma once
// Runs a command stream, in order, on one device's backend.
#include <vector>

#include "loom/core/backend.h"

namespace loom::core {

void executeCommandStream(const std::vector<uint8_t>& bytes, Backend& backend);

}  // namespace loom::core
