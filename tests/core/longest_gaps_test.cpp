// SPDX-License-Identifier: MIT
#include "core/analysis/analysis.h"

#include <gtest/gtest.h>

namespace gapscope {
namespace {

/// Gaps of these durations, one after the other; a negative duration marks a stream gap.
std::vector<Gap> gapsOf(std::initializer_list<TimeNs> durations)
{
    std::vector<Gap> gaps;
    TimeNs t = 0;
    for (TimeNs d : durations) {
        Gap& g = gaps.emplace_back();
        if (d < 0)
            g.stream = LaneIndex { 3 };
        g.start = t;
        g.end = t + (d < 0 ? -d : d);
        t = g.end + 100;
    }
    return gaps;
}

std::vector<std::size_t> indicesOf(const std::vector<Gap>& gaps, const std::vector<const Gap*>& picked)
{
    std::vector<std::size_t> out;
    for (const Gap* g : picked)
        out.push_back(static_cast<std::size_t>(g - gaps.data()));
    return out;
}

TEST(LongestGaps, LongestFirstTiesInListOrderStreamGapsLeftOutOnRequest)
{
    const std::vector<Gap> gaps = gapsOf({ 5, -9, 7, 7, 3, 9, 7 });
    EXPECT_EQ(indicesOf(gaps, longestGaps(gaps, 3, true)), (std::vector<std::size_t> { 5, 2, 3 }));
    EXPECT_EQ(indicesOf(gaps, longestGaps(gaps, 4, false)), (std::vector<std::size_t> { 1, 5, 2, 3 }));
    EXPECT_EQ(indicesOf(gaps, longestGaps(gaps, 100, false)), (std::vector<std::size_t> { 1, 5, 2, 3, 6, 0, 4 }));
    EXPECT_EQ(indicesOf(gaps, longestGaps(gaps, 100, true)), (std::vector<std::size_t> { 5, 2, 3, 6, 0, 4 }));
    EXPECT_TRUE(longestGaps(gaps, 0, false).empty());
    EXPECT_TRUE(longestGaps({}, 5, false).empty());
}

TEST(LongestGaps, AgreesWithAStableSortOnManyGaps)
{
    std::vector<TimeNs> durations;
    for (int i = 0; i < 5000; ++i)
        durations.push_back((i * 7919) % 97 + 1);
    std::vector<Gap> gaps;
    TimeNs t = 0;
    for (TimeNs d : durations) {
        Gap& g = gaps.emplace_back();
        g.start = t;
        g.end = t + d;
        t = g.end + 1;
    }
    std::vector<const Gap*> sorted;
    for (const Gap& g : gaps)
        sorted.push_back(&g);
    std::stable_sort(
        sorted.begin(), sorted.end(), [](const Gap* a, const Gap* b) { return a->duration() > b->duration(); });
    sorted.resize(250);
    EXPECT_EQ(longestGaps(gaps, 250, true), sorted);
}

} // namespace
} // namespace gapscope
