#pragma once
// What the Runtime's device discovery (backends/runtime.cpp) found out about the backends that
// list no device, or list devices with a limitation: one line each, also said under
// PrintDebugMessages, for loom-info to show.
#include <string>
#include <vector>

namespace loom::backends {

// The notes of the discovery Runtime::get() ran; empty before it ran.
const std::vector<std::string>& discoveryNotes();

}  // namespace loom::backends
