// SPDX-License-Identifier: MIT
#include "core/analysis/analysis.h"

#include <gtest/gtest.h>

#include <utility>

namespace gapscope {
namespace {

/// Gaps of these durations, one after the other; a negative duration marks a stream gap. With `runLength`,
/// the list holds them in runs of that many (as the analysis fills it from several threads).
GapList gapsOf(std::initializer_list<TimeNs> durations, std::size_t runLength = 0)
{
    GapList gaps;
    std::vector<Gap> run;
    TimeNs t = 0;
    for (TimeNs d : durations) {
        Gap& g = run.emplace_back();
        if (d < 0)
            g.stream = LaneIndex { 3 };
        g.start = t;
        g.end = t + (d < 0 ? -d : d);
        t = g.end + 100;
        if (run.size() == runLength)
            gaps.append(std::exchange(run, {}));
    }
    gaps.append(std::move(run));
    return gaps;
}

std::vector<std::size_t> indicesOf(const GapList& gaps, const std::vector<const Gap*>& picked)
{
    std::vector<std::size_t> out;
    for (const Gap* g : picked)
        out.push_back(gaps.indexOf(*g));
    return out;
}

TEST(LongestGaps, LongestFirstTiesInListOrderStreamGapsLeftOutOnRequest)
{
    // One run, then the same gaps in runs of 1, 2 and 3: list order, not where a run's storage lies, breaks ties.
    for (std::size_t runLength : { 0, 1, 2, 3 }) {
        SCOPED_TRACE("runs of " + std::to_string(runLength));
        const GapList gaps = gapsOf({ 5, -9, 7, 7, 3, 9, 7 }, runLength);
        EXPECT_EQ(indicesOf(gaps, longestGaps(gaps, 3, true)), (std::vector<std::size_t> { 5, 2, 3 }));
        EXPECT_EQ(indicesOf(gaps, longestGaps(gaps, 4, false)), (std::vector<std::size_t> { 1, 5, 2, 3 }));
        EXPECT_EQ(indicesOf(gaps, longestGaps(gaps, 100, false)), (std::vector<std::size_t> { 1, 5, 2, 3, 6, 0, 4 }));
        EXPECT_EQ(indicesOf(gaps, longestGaps(gaps, 100, true)), (std::vector<std::size_t> { 5, 2, 3, 6, 0, 4 }));
        EXPECT_TRUE(longestGaps(gaps, 0, false).empty());
    }
    EXPECT_TRUE(longestGaps({}, 5, false).empty());
}

TEST(GapList, ReadsItsRunsAsOneSequence)
{
    // Runs of 3, 0, 1 and 2 gaps: every index and the iteration see the seven gaps in order.
    GapList gaps;
    std::vector<Gap> run;
    for (TimeNs start : { 0, 10, 20 })
        run.push_back(Gap { .start = start, .end = start + 5 });
    gaps.append(std::exchange(run, {}));
    gaps.append({});
    gaps.append({ Gap { .start = 30, .end = 35 } });
    gaps.append({ Gap { .start = 40, .end = 45 }, Gap { .start = 50, .end = 55 } });
    gaps.push_back(Gap { .start = 60, .end = 65 });
    ASSERT_EQ(gaps.size(), 7u);
    std::vector<TimeNs> starts;
    for (const Gap& g : gaps)
        starts.push_back(g.start);
    EXPECT_EQ(starts, (std::vector<TimeNs> { 0, 10, 20, 30, 40, 50, 60 }));
    for (std::size_t i = 0; i < gaps.size(); ++i) {
        EXPECT_EQ(gaps[i].start, static_cast<TimeNs>(10 * i));
        EXPECT_EQ(gaps.indexOf(gaps[i]), i);
    }
    gaps[4].cause = GapCause::Host;
    EXPECT_EQ(gaps.runs()[3][0].cause, GapCause::Host);
    const GapList none;
    EXPECT_TRUE(none.empty());
    EXPECT_TRUE(none.begin() == none.end());
}

TEST(LongestGaps, AgreesWithAStableSortOnManyGaps)
{
    std::vector<TimeNs> durations;
    for (int i = 0; i < 5000; ++i)
        durations.push_back((i * 7919) % 97 + 1);
    GapList gaps;
    TimeNs t = 0;
    for (TimeNs d : durations) {
        gaps.push_back(Gap { .start = t, .end = t + d });
        t += d + 1;
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
