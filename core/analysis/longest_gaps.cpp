// SPDX-License-Identifier: MIT
#include "core/analysis/analysis.h"

#include <algorithm>

namespace gapscope {

std::vector<const Gap*> longestGaps(const GapList& gaps, std::size_t count, bool deviceGapsOnly)
{
    struct Kept {
        TimeNs duration;
        std::size_t index; // in the list
        const Gap* gap;
    };
    // "Comes first": longer, or as long and earlier in the list.
    const auto first = [](const Kept& a, const Kept& b) {
        return a.duration != b.duration ? a.duration > b.duration : a.index < b.index;
    };
    std::vector<Kept> kept;
    std::vector<const Gap*> out;
    if (count == 0)
        return out;
    kept.reserve(std::min(count, gaps.size()));
    // A heap whose top is the kept gap that comes last: a gap replaces it only if it comes first.
    std::size_t index = 0;
    for (const std::vector<Gap>& run : gaps.runs()) {
        for (const Gap& gap : run) {
            const std::size_t i = index++;
            if (deviceGapsOnly && gap.stream)
                continue;
            if (kept.size() < count) {
                kept.push_back({ gap.duration(), i, &gap });
                std::push_heap(kept.begin(), kept.end(), first);
            } else if (gap.duration() > kept.front().duration) { // later in the list: only if strictly longer
                std::pop_heap(kept.begin(), kept.end(), first);
                kept.back() = { gap.duration(), i, &gap };
                std::push_heap(kept.begin(), kept.end(), first);
            }
        }
    }
    std::sort_heap(kept.begin(), kept.end(), first);
    out.reserve(kept.size());
    for (const Kept& k : kept)
        out.push_back(k.gap);
    return out;
}

std::vector<const Gap*> longestDeviceGaps(const AnalysisResult& result, std::size_t count)
{
    const std::vector<std::size_t>& ranked = result.longestDeviceGaps;
    // The ranking holds the `count` longest if it is that long, or if it holds every device gap.
    if (count > ranked.size() && ranked.size() == result.options.rankedDeviceGaps)
        return longestGaps(result.gaps, count, true);
    std::vector<const Gap*> out;
    for (std::size_t i = 0; i < std::min(count, ranked.size()); ++i)
        out.push_back(&result.gaps[ranked[i]]);
    return out;
}

} // namespace gapscope
