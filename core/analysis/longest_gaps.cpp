// SPDX-License-Identifier: MIT
#include "core/analysis/analysis.h"
#include "core/analysis/gap_ranking.h"

#include <algorithm>

namespace gapscope {

std::vector<const Gap*> longestGaps(const GapList& gaps, std::size_t count, bool deviceGapsOnly)
{
    GapRanking ranking(count);
    ranking.reserve(gaps.size());
    std::size_t index = 0;
    for (const Gap& gap : gaps) {
        if (!deviceGapsOnly || !gap.stream)
            ranking.offer({ gap.duration(), index });
        ++index;
    }
    std::vector<const Gap*> out;
    for (const RankedGap& r : ranking.sorted())
        out.push_back(&gaps[r.index]);
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
