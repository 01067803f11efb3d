// SPDX-License-Identifier: MIT
#include "app/models/event_details.h"
#include "app/models/event_search.h"
#include "app/models/gap_model.h"
#include "app/models/kernel_model.h"
#include "timeline/timeline_test_traces.h"

#include <QSortFilterProxyModel>

#include <gtest/gtest.h>

using namespace gapscope;

namespace {

// Events of makeSmallTrace() in (start, lane, index) order:
// (1000, lane 0, 0) step, (1000, lane 0, 1) launch, (2000, lane 1, 0) k1, (5000, lane 0, 2) launch,
// (6000, lane 0, 3) sync, (7000, lane 1, 1) k2.
struct SearchCase {
    const char* text;
    std::optional<EventRef> from;
    TimeNs bound;
    bool forward;
    std::optional<EventRef> expected;
    std::size_t count;
};

class EventSearchTest : public ::testing::TestWithParam<SearchCase> { };

TEST_P(EventSearchTest, StepsThroughMatchesInTimeOrder)
{
    static const Trace trace = test::makeSmallTrace();
    const SearchCase& c = GetParam();
    const models::EventSearch search(trace, c.text);
    EXPECT_EQ(search.count(trace), c.count);
    const auto hit = c.forward ? search.next(trace, c.from, c.bound) : search.previous(trace, c.from, c.bound);
    EXPECT_EQ(hit, c.expected) << c.text;
}

const EventRef kLaunch1 { LaneIndex { 0 }, 1 };
const EventRef kLaunch2 { LaneIndex { 0 }, 2 };
const EventRef kK1 { LaneIndex { 1 }, 0 };
const EventRef kK2 { LaneIndex { 1 }, 1 };

INSTANTIATE_TEST_SUITE_P(Cases, EventSearchTest,
    ::testing::Values(SearchCase { "launch", std::nullopt, 0, true, kLaunch1, 2 },
        SearchCase { "LAUNCH", kLaunch1, 0, true, kLaunch2, 2 }, // case-insensitive
        SearchCase { "launch", kLaunch2, 0, true, kLaunch1, 2 }, // wraps around
        SearchCase { "launch", std::nullopt, 3000, true, kLaunch2, 2 }, // from the visible start
        SearchCase { "k", kK1, 0, true, kLaunch2, 4 }, // "k1", "k2", "cudaLaunchKernel" x2
        SearchCase { "k", kK2, 0, false, kLaunch2, 4 },
        SearchCase { "k", kLaunch1, 0, false, kK2, 4 }, // wraps to the last
        SearchCase { "k", std::nullopt, 4000, false, kK1, 4 }, // before the visible end
        SearchCase { "nothing like this", std::nullopt, 0, true, std::nullopt, 0 },
        SearchCase { "", std::nullopt, 0, true, std::nullopt, 0 }));

AnalysisResult threeGaps()
{
    // Device gaps of 5 us (launch), 2 ms (host) and 300 us (sync) on device 0, and a stream gap.
    AnalysisResult result;
    const auto gap = [](TimeNs start, TimeNs end, GapCause cause) {
        Gap g;
        g.start = start;
        g.end = end;
        g.cause = cause;
        return g;
    };
    result.gaps = { gap(10'000, 15'000, GapCause::Launch), gap(100'000, 2'100'000, GapCause::Host),
        gap(3'000'000, 3'300'000, GapCause::Sync) };
    Gap streamGap = gap(0, 9'000'000, GapCause::Unknown);
    streamGap.stream = LaneIndex { 1 };
    result.gaps.push_back(streamGap);
    return result;
}

TEST(GapModelTest, ListsDeviceGapsAboveTheThresholdLongestFirst)
{
    auto trace = std::make_shared<const Trace>(test::makeSmallTrace());
    models::GapModel model;
    model.setData(trace, timeline::makeAnalysisSnapshot(*trace, threeGaps()));
    model.setThreshold(0);
    ASSERT_EQ(model.rowCount(), 3); // the stream gap is not a device gap
    EXPECT_EQ(model.gapAt(0), 1u);
    EXPECT_EQ(model.gapAt(1), 2u);
    EXPECT_EQ(model.gapAt(2), 0u);
    EXPECT_EQ(model.index(0, models::GapModel::DurationColumn).data().toString(), QStringLiteral("2.000 ms"));
    EXPECT_EQ(model.index(0, models::GapModel::CauseColumn).data().toString(), QStringLiteral("host"));
    EXPECT_EQ(model.index(0, models::GapModel::DeviceColumn).data().toString(), QStringLiteral("rank 0 GPU 0"));
    // Evidence is worked out from the trace when shown: these hand-made gaps have no closing op.
    EXPECT_EQ(model.index(1, models::GapModel::EvidenceColumn).data().toString(),
        QStringLiteral("no GPU activity after the gap: nothing to say why it is idle"));
    // The trace starts at 1000 ns: the host gap starts 99 us in.
    EXPECT_EQ(model.index(0, models::GapModel::StartColumn).data().toString(), QStringLiteral("+99.00 \u00b5s"));

    model.setThreshold(300'000);
    ASSERT_EQ(model.rowCount(), 2);
    EXPECT_EQ(model.rowOf(0), std::nullopt);
    EXPECT_EQ(model.rowOf(2), 1);

    // Sorting by start through a proxy uses the numeric sort role, not the text.
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(models::GapModel::SortRole);
    proxy.sort(models::GapModel::StartColumn, Qt::AscendingOrder);
    EXPECT_EQ(proxy.index(0, 0).data(models::GapModel::GapIndexRole).toULongLong(), 1u);
}

TEST(KernelModelTest, LongestInstanceOfAKernelName)
{
    Trace trace = test::makeSmallTrace();
    EXPECT_EQ(models::longestKernelNamed(trace, "k2"), (EventRef { LaneIndex { 1 }, 1 }));
    EXPECT_EQ(models::longestKernelNamed(trace, "cudaLaunchKernel"), std::nullopt); // not a kernel
    EXPECT_EQ(models::longestKernelNamed(trace, "absent"), std::nullopt);
}

TEST(EventDetailsTest, DescribesAnEventAndItsLaunch)
{
    const Trace trace = test::makeSmallTrace();
    const QString html = models::eventDetailsHtml(trace, EventRef { LaneIndex { 1 }, 1 }, 1000);
    EXPECT_TRUE(html.contains(QStringLiteral("<h3 style='margin:0'>k2</h3>")));
    EXPECT_TRUE(html.contains(QStringLiteral("+6.000 \u00b5s"))); // start 7000, trace start 1000
    EXPECT_TRUE(html.contains(QStringLiteral("500 ns"))); // duration
    EXPECT_TRUE(html.contains(QStringLiteral("rank 0, GPU 0 stream 7")));
    // Launched by the second cudaLaunchKernel (lane 0, index 2), 2 us before.
    EXPECT_TRUE(html.contains(QStringLiteral("href='event:0:2'")));
    EXPECT_TRUE(html.contains(QStringLiteral("2.000 \u00b5s")));
    EXPECT_EQ(models::eventFromLink(QStringLiteral("event:0:2"), trace), (EventRef { LaneIndex { 0 }, 2 }));
    EXPECT_EQ(models::eventFromLink(QStringLiteral("event:0:9"), trace), std::nullopt);
    EXPECT_EQ(models::eventFromLink(QStringLiteral("http://x"), trace), std::nullopt);
}

} // namespace
