// SPDX-License-Identifier: MIT
#include "core/analysis/analysis.h"

#include <gtest/gtest.h>

#include <utility>

namespace gapscope {
namespace {

/// A run of these gaps, which share their process, device and stream.
GapRun runOf(const std::vector<Gap>& gaps)
{
    GapRun run;
    if (!gaps.empty())
        run = { gaps[0].process, gaps[0].device, gaps[0].stream, {} };
    for (const Gap& g : gaps) {
        EXPECT_TRUE(run.holds(g));
        run.gaps.emplace_back(g.start, g.end, g.closingOp, g.cause);
    }
    return run;
}

/// Gaps of these durations, one after the other; a negative duration marks a stream gap. With `runLength`,
/// the list holds them in runs of at most that many (as the analysis fills it from several threads), a run
/// also ending where device gaps and stream gaps meet.
GapList gapsOf(std::initializer_list<TimeNs> durations, std::size_t runLength = 0)
{
    GapList gaps;
    std::vector<Gap> run;
    TimeNs t = 0;
    for (TimeNs d : durations) {
        Gap g;
        if (d < 0)
            g.stream = LaneIndex { 3 };
        g.start = t;
        g.end = t + (d < 0 ? -d : d);
        t = g.end + 100;
        if (!run.empty() && run.back().stream != g.stream)
            gaps.append(runOf(std::exchange(run, {})));
        run.push_back(g);
        if (run.size() == runLength)
            gaps.append(runOf(std::exchange(run, {})));
    }
    gaps.append(runOf(run));
    return gaps;
}

TEST(LongestGaps, LongestFirstTiesInListOrderStreamGapsLeftOutOnRequest)
{
    // One run, then the same gaps in runs of 1, 2 and 3: list order, not where a run's storage lies, breaks ties.
    for (std::size_t runLength : { 0, 1, 2, 3 }) {
        SCOPED_TRACE("runs of " + std::to_string(runLength));
        const GapList gaps = gapsOf({ 5, -9, 7, 7, 3, 9, 7 }, runLength);
        EXPECT_EQ(longestGaps(gaps, 3, true), (std::vector<std::size_t> { 5, 2, 3 }));
        EXPECT_EQ(longestGaps(gaps, 4, false), (std::vector<std::size_t> { 1, 5, 2, 3 }));
        EXPECT_EQ(longestGaps(gaps, 100, false), (std::vector<std::size_t> { 1, 5, 2, 3, 6, 0, 4 }));
        EXPECT_EQ(longestGaps(gaps, 100, true), (std::vector<std::size_t> { 5, 2, 3, 6, 0, 4 }));
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
    gaps.append(runOf(std::exchange(run, {})));
    gaps.append({});
    gaps.append(runOf({ Gap { .start = 30, .end = 35 } }));
    gaps.append(runOf({ Gap { .start = 40, .end = 45 }, Gap { .start = 50, .end = 55, .cause = GapCause::Host } }));
    gaps.push_back(Gap { .start = 60, .end = 65 });
    ASSERT_EQ(gaps.size(), 7u);
    std::vector<TimeNs> starts;
    for (const Gap& g : gaps)
        starts.push_back(g.start);
    EXPECT_EQ(starts, (std::vector<TimeNs> { 0, 10, 20, 30, 40, 50, 60 }));
    for (std::size_t i = 0; i < gaps.size(); ++i)
        EXPECT_EQ(gaps[i].start, static_cast<TimeNs>(10 * i));
    EXPECT_EQ(gaps[5].cause, GapCause::Host);
    EXPECT_EQ(gaps.runs()[3].gaps[1].cause(), GapCause::Host);
    const GapList none;
    EXPECT_TRUE(none.empty());
    EXPECT_TRUE(none.begin() == none.end());
}

TEST(GapList, StoresEachGapIn24BytesAndHandsItBackWhole)
{
    // The closing op's lane and the cause share a word: each must come back as it went in, and change alone.
    const EventRef far { LaneIndex { (1u << 29) - 2 }, 0xfffffffeu };
    StoredGap g(5, 9, far, GapCause::Dependency);
    EXPECT_EQ(g.closingOp(), far);
    EXPECT_EQ(g.cause(), GapCause::Dependency);
    g.setCause(GapCause::Sync);
    EXPECT_EQ(g.closingOp(), far);
    EXPECT_EQ(g.cause(), GapCause::Sync);
    g.setClosingOp(std::nullopt);
    EXPECT_FALSE(g.closingOp().has_value());
    EXPECT_EQ(g.cause(), GapCause::Sync);
    g.setClosingOp(EventRef { LaneIndex { 0 }, 0 });
    EXPECT_EQ(g.closingOp(), (EventRef { LaneIndex { 0 }, 0 }));
    EXPECT_FALSE(StoredGap(1, 2, std::nullopt, GapCause::Host).closingOp().has_value());
    EXPECT_EQ(StoredGap().cause(), GapCause::Unknown);

    // Gaps of different devices and streams go to runs of their own, and come back with them.
    GapList gaps;
    gaps.push_back({ .start = 0, .end = 1, .process = { 1 }, .device = { 2 }, .cause = GapCause::Host });
    gaps.push_back({ .start = 2, .end = 3, .process = { 1 }, .device = { 2 }, .closingOp = far });
    gaps.push_back({ .start = 4, .end = 5, .process = { 1 }, .device = { 2 }, .stream = LaneIndex { 7 } });
    gaps.push_back({ .start = 6, .end = 7, .process = { 1 }, .device = { 3 } });
    ASSERT_EQ(gaps.runs().size(), 3u);
    EXPECT_EQ(gaps.runs()[0].gaps.size(), 2u);
    EXPECT_EQ(gaps[0].cause, GapCause::Host);
    EXPECT_EQ(gaps[1].closingOp, far);
    EXPECT_EQ(gaps[1].process.value, 1u);
    EXPECT_EQ(gaps[2].stream, LaneIndex { 7 });
    EXPECT_EQ(gaps[2].device.value, 2u);
    EXPECT_EQ(gaps[3].device.value, 3u);
    EXPECT_FALSE(gaps[3].stream.has_value());
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
    std::vector<std::size_t> sorted;
    for (std::size_t i = 0; i < gaps.size(); ++i)
        sorted.push_back(i);
    std::stable_sort(sorted.begin(), sorted.end(),
        [&](std::size_t a, std::size_t b) { return gaps[a].duration() > gaps[b].duration(); });
    sorted.resize(250);
    EXPECT_EQ(longestGaps(gaps, 250, true), sorted);
}

} // namespace
} // namespace gapscope
