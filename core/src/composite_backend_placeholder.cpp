// SEAM for the merge of branch `implicit-scaling`: its composite backend defines
// createCompositeBackend (composite_backend.h); delete this file when it lands. Until then no
// composite can be made, so under ZE_FLAT_DEVICE_HIERARCHY=COMPOSITE each GPU stays a root
// device of its own (buildDeviceTree says so under LOOM_PrintDebugMessages).
#include "loom/core/composite_backend.h"
#include "loom/core/log.h"

namespace loom::core {

std::unique_ptr<Backend> createCompositeBackend(std::vector<Backend*> tiles) {
  debugMessage("implicit scaling is not built into this Loom: no root device over %zu GPUs", tiles.size());
  return nullptr;
}

}  // namespace loom::core
