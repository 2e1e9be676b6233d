#pragma once
// Tells the loop vectorizer that the work-item loops of barrier regions carry no dependences.
#include <vector>

#include "work_item_loops.h"

namespace loom::compiler::cpu {

// Between two barriers, work-items do not communicate through memory (that would be a data
// race), so iterations of a region's work-item loop are independent: each of its memory
// accesses joins one access group, which the loop declares parallel. A loop with an access the
// group cannot vouch for (atomics, calls, volatile accesses) is left alone, as is one whose
// atomics are lowered to plain accesses afterwards (they have no group).
void markRegionLoopsParallel(const std::vector<RegionLoop>& loops);

}  // namespace loom::compiler::cpu
