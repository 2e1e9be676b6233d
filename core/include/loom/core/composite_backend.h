#pragma once
// Implicit scaling: one root device over several tiles. The composite backend reports the sum of
// its tiles and gives queues that split each kernel launch, copy and fill among the tiles' own
// queues, then join them, so that a program written for one device uses all of them.
#include <memory>
#include <vector>

#include "loom/core/backend.h"

namespace loom::core {

// A backend over `tiles` (at least one; the caller keeps them alive longer than the composite).
// With LOOM_EnableImplicitScaling=0 the composite behaves as tiles[0].
std::unique_ptr<Backend> createCompositeBackend(std::vector<Backend*> tiles);

}  // namespace loom::core
