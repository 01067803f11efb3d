// SPDX-License-Identifier: MIT
// The two merges the device pass reads the streams beside the busiest one with: both give every event of their
// runs once, in start order, equal starts in run order, as a stable sort of the runs' events one after the other.
#include "core/analysis/start_order_merge.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>

namespace gapscope {
namespace {

struct Runs {
    std::vector<std::vector<Event>> lanes;
    std::vector<LaneRun> runs;
};

/// `count` lanes of random sizes (some empty) with starts drawn from a small range, so that equal starts
/// within and across lanes are common; each run is the lane from its second event on.
Runs randomRuns(std::uint32_t seed, std::size_t count)
{
    std::mt19937 random(seed);
    Runs out;
    out.lanes.resize(count);
    for (std::size_t l = 0; l < count; ++l) {
        const std::size_t events = random() % 4 == 0 ? 0 : random() % 300;
        TimeNs t = 0;
        for (std::size_t i = 0; i < events; ++i) {
            t += static_cast<TimeNs>(random() % 3); // 0: the same start as the event before
            out.lanes[l].push_back(Event { .start = t, .end = t + 1 });
        }
    }
    for (std::size_t l = 0; l < count; ++l) {
        const Event* begin = out.lanes[l].data();
        const Event* end = begin + out.lanes[l].size();
        out.runs.push_back(
            { LaneIndex { static_cast<std::uint32_t>(10 + l) }, begin, begin == end ? end : begin + 1, end });
    }
    return out;
}

/// What a merge must give: (lane, index) of every event in the runs, by start, ties in run order.
std::vector<std::pair<std::uint32_t, std::uint32_t>> expectedOrder(const Runs& r)
{
    std::vector<MergedEvent> all;
    for (const LaneRun& run : r.runs) {
        for (const Event* e = run.first; e != run.last; ++e)
            all.push_back({ e->start, e, run.begin, run.lane });
    }
    std::stable_sort(
        all.begin(), all.end(), [](const MergedEvent& a, const MergedEvent& b) { return a.start < b.start; });
    std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
    for (const MergedEvent& m : all)
        out.emplace_back(m.lane.value, m.index());
    return out;
}

TEST(FewRunsMerge, GivesEveryEventInStartOrderTiesInRunOrder)
{
    for (std::uint32_t seed = 1; seed <= 50; ++seed) {
        const std::size_t count = 1 + seed % FewRunsMerge::kMaxRuns;
        SCOPED_TRACE("seed " + std::to_string(seed) + ", " + std::to_string(count) + " runs");
        const Runs r = randomRuns(seed, count);
        FewRunsMerge merge(r.runs);
        std::vector<std::pair<std::uint32_t, std::uint32_t>> got;
        TimeNs previous = std::numeric_limits<TimeNs>::min();
        while (!merge.done()) {
            const TimeNs announced = merge.nextStart();
            const MergedEvent m = merge.take();
            EXPECT_EQ(m.start, announced);
            EXPECT_EQ(m.event->start, m.start);
            EXPECT_GE(m.start, previous);
            previous = m.start;
            got.emplace_back(m.lane.value, m.index());
        }
        EXPECT_EQ(merge.nextStart(), std::numeric_limits<TimeNs>::max());
        EXPECT_EQ(got, expectedOrder(r));
    }
}

TEST(HeapMerge, GivesEveryEventInStartOrderTiesInRunOrder)
{
    // Up to 14 runs: more than FewRunsMerge takes, the case the device pass hands to the heap.
    for (std::uint32_t seed = 1; seed <= 30; ++seed) {
        const std::size_t count = 1 + seed % 14;
        SCOPED_TRACE("seed " + std::to_string(seed) + ", " + std::to_string(count) + " runs");
        const Runs r = randomRuns(seed, count);
        HeapMerge merge(r.runs);
        std::vector<std::pair<std::uint32_t, std::uint32_t>> got;
        TimeNs previous = std::numeric_limits<TimeNs>::min();
        while (!merge.done()) {
            const TimeNs next = merge.nextStart();
            const MergedEvent m = merge.take();
            EXPECT_EQ(m.start, next);
            EXPECT_GE(m.start, previous);
            previous = m.start;
            got.emplace_back(m.lane.value, m.index());
        }
        EXPECT_EQ(merge.nextStart(), std::numeric_limits<TimeNs>::max());
        EXPECT_EQ(got, expectedOrder(r));
    }
}

TEST(FewRunsMerge, NoRunsOrOnlyEmptyOnesIsDoneAtOnce)
{
    EXPECT_TRUE(FewRunsMerge({}).done());
    EXPECT_TRUE(HeapMerge({}).done());
    std::vector<Event> none;
    const LaneRun empty { LaneIndex { 1 }, none.data(), none.data(), none.data() };
    EXPECT_TRUE(FewRunsMerge({ empty, empty }).done());
    EXPECT_TRUE(HeapMerge({ empty, empty }).done());
}

} // namespace
} // namespace gapscope
