// SPDX-License-Identifier: MIT
#include "core/analysis/analysis.h"
#include "core/analysis/gap_ranking.h"

#include <algorithm>

namespace gapscope {

std::vector<std::size_t> longestGaps(const GapList& gaps, std::size_t count, bool deviceGapsOnly)
{
    const auto forEachGap = [&](auto&& visit) {
        std::size_t index = 0;
        for (const GapRun& run : gaps.runs()) {
            if (deviceGapsOnly && run.stream) {
                index += run.gaps.size();
                continue;
            }
            for (const StoredGap& gap : run.gaps)
                visit(RankedGap { gap.duration(), index++ });
        }
    };
    std::vector<RankedGap> ranked;
    if (count >= gaps.size()) {
        // Every gap (the full JSON report): one sort in the same order, not a heap of them all.
        ranked.reserve(gaps.size());
        forEachGap([&](RankedGap gap) { ranked.push_back(gap); });
        std::sort(ranked.begin(), ranked.end(), rankedBefore);
    } else {
        GapRanking ranking(count);
        ranking.reserve(gaps.size());
        forEachGap([&](RankedGap gap) { ranking.offer(gap); });
        ranked = ranking.sorted();
    }
    std::vector<std::size_t> out;
    out.reserve(ranked.size());
    for (const RankedGap& r : ranked)
        out.push_back(r.index);
    return out;
}

std::vector<std::size_t> longestDeviceGaps(const AnalysisResult& result, std::size_t count)
{
    const std::vector<std::size_t>& ranked = result.longestDeviceGaps;
    // The ranking holds the `count` longest if it is that long, or if it holds every device gap.
    if (count > ranked.size() && ranked.size() == result.options.rankedDeviceGaps)
        return longestGaps(result.gaps, count, true);
    return { ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(std::min(count, ranked.size())) };
}

} // namespace gapscope
