// SPDX-License-Identifier: MIT
#include "core/analysis/analysis.h"

#include <algorithm>

namespace gapscope {

std::vector<const Gap*> longestGaps(const std::vector<Gap>& gaps, std::size_t count, bool deviceGapsOnly)
{
    // "Comes first": longer, or as long and earlier in the list.
    const auto first = [](const Gap* a, const Gap* b) {
        return a->duration() != b->duration() ? a->duration() > b->duration() : a < b;
    };
    std::vector<const Gap*> kept;
    if (count == 0)
        return kept;
    kept.reserve(std::min(count, gaps.size()));
    // A heap whose top is the kept gap that comes last: a gap replaces it only if it comes first.
    for (const Gap& gap : gaps) {
        if (deviceGapsOnly && gap.stream)
            continue;
        if (kept.size() < count) {
            kept.push_back(&gap);
            std::push_heap(kept.begin(), kept.end(), first);
        } else if (gap.duration() > kept.front()->duration()) { // later in the list: only if strictly longer
            std::pop_heap(kept.begin(), kept.end(), first);
            kept.back() = &gap;
            std::push_heap(kept.begin(), kept.end(), first);
        }
    }
    std::sort_heap(kept.begin(), kept.end(), first);
    return kept;
}

} // namespace gapscope
