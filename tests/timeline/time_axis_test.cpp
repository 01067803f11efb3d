// SPDX-License-Identifier: MIT
#include "app/timeline/geometry/time_axis.h"

#include <gtest/gtest.h>

using namespace gapscope;
using namespace gapscope::timeline;

namespace {

// A realistic absolute time: CLOCK_REALTIME ns of the ResNet-50 sample (ts 1623143089861 ms).
constexpr TimeNs kEpoch = 1'623'143'089'861'000'000;

struct MappingCase {
    TimeAxis axis;
    TimeNs time;
    double x;
};

class TimeToXTest : public ::testing::TestWithParam<MappingCase> { };

TEST_P(TimeToXTest, MapsTimeToXAndBack)
{
    const MappingCase& c = GetParam();
    EXPECT_DOUBLE_EQ(c.axis.timeToX(c.time), c.x);
    EXPECT_EQ(c.axis.xToTime(c.x), c.time);
}

INSTANTIATE_TEST_SUITE_P(Cases, TimeToXTest,
    ::testing::Values(
        // 10 ns per pixel.
        MappingCase { { 0, 1000, 100 }, 500, 50.0 }, MappingCase { { 0, 1000, 100 }, 0, 0.0 },
        MappingCase { { 0, 1000, 100 }, 1000, 100.0 },
        // Outside the range: negative and beyond the width.
        MappingCase { { 0, 1000, 100 }, -250, -25.0 }, MappingCase { { 0, 1000, 100 }, 1500, 150.0 },
        // Absolute CLOCK_REALTIME times keep nanosecond precision (a double of the
        // absolute time would be off by up to 128 ns).
        MappingCase { { kEpoch, kEpoch + 1920, 1920 }, kEpoch + 1, 1.0 },
        MappingCase { { kEpoch, kEpoch + 1'000'000'000, 1920 }, kEpoch + 500'000'000, 960.0 },
        // Sub-nanosecond pixels when zoomed in very far.
        MappingCase { { kEpoch, kEpoch + 100, 1000 }, kEpoch + 7, 70.0 }));

TEST(TimeAxisTest, XToTimeRoundsToNearestNanosecond)
{
    const TimeAxis axis { kEpoch, kEpoch + 1000, 100 };
    EXPECT_EQ(axis.xToTime(25.44), kEpoch + 254);
    EXPECT_EQ(axis.xToTime(25.46), kEpoch + 255);
    EXPECT_EQ(axis.xToTime(-0.04), kEpoch);
}

struct ColumnsCase {
    double x0;
    double x1;
    int first;
    int last;
};
class ColumnsOfTest : public ::testing::TestWithParam<ColumnsCase> { };

TEST_P(ColumnsOfTest, CoversEveryTouchedColumnAndAtLeastOne)
{
    const ColumnsCase& c = GetParam();
    const ColumnSpan span = columnsOf(c.x0, c.x1);
    EXPECT_EQ(span.first, c.first);
    EXPECT_EQ(span.last, c.last);
}

INSTANTIATE_TEST_SUITE_P(Cases, ColumnsOfTest,
    ::testing::Values(ColumnsCase { 10.0, 20.0, 10, 20 }, ColumnsCase { 10.2, 10.4, 10, 11 },
        ColumnsCase { 10.5, 10.5, 10, 11 }, // zero length
        ColumnsCase { 9.9, 10.1, 9, 11 }, // straddles a column boundary
        ColumnsCase { -3.5, -1.0, -4, -1 }));

struct ZoomCase {
    TimeAxis axis;
    double anchorX;
    double factor;
    NavigationLimits limits;
    TimeAxis expected;
};
class ZoomAroundTest : public ::testing::TestWithParam<ZoomCase> { };

TEST_P(ZoomAroundTest, KeepsAnchorAndClamps)
{
    const ZoomCase& c = GetParam();
    EXPECT_EQ(zoomAround(c.axis, c.anchorX, c.factor, c.limits), c.expected);
}

INSTANTIATE_TEST_SUITE_P(Cases, ZoomAroundTest,
    ::testing::Values(
        // Anchor at x 25 (t 250): half the span, t 250 stays at a quarter of the width.
        ZoomCase { { 0, 1000, 100 }, 25, 2.0, { 0, 10000, 10, 0.0 }, { 125, 625, 100 } },
        // Zooming out past the bounds: the whole bounds (no margin) and no more.
        ZoomCase { { 0, 1000, 100 }, 50, 0.5, { 0, 1000, 10, 0.0 }, { 0, 1000, 100 } },
        // Zooming out past the bounds with a 5 % margin on each side.
        ZoomCase { { 0, 1000, 100 }, 50, 0.5, { 0, 1000, 10, 0.05 }, { -50, 1050, 100 } },
        // Not shorter than minSpan (100 ns), still around the anchor (t 500 at x 50).
        ZoomCase { { 0, 1000, 100 }, 50, 100.0, { 0, 1000, 100, 0.0 }, { 450, 550, 100 } },
        // Zooming in at the left edge keeps the left edge.
        ZoomCase { { kEpoch, kEpoch + 1'000'000, 1000 }, 0, 4.0, { kEpoch, kEpoch + 1'000'000, 10, 0.0 },
            { kEpoch, kEpoch + 250'000, 1000 } }));

struct PanCase {
    TimeAxis axis;
    double dx;
    NavigationLimits limits;
    TimeAxis expected;
};
class PanTest : public ::testing::TestWithParam<PanCase> { };

TEST_P(PanTest, MovesByPixelsWithinBounds)
{
    const PanCase& c = GetParam();
    EXPECT_EQ(panByPixels(c.axis, c.dx, c.limits), c.expected);
}

INSTANTIATE_TEST_SUITE_P(Cases, PanTest,
    ::testing::Values(
        // 10 ns per pixel: dragging the content 10 px right shows 100 ns earlier.
        PanCase { { 1000, 2000, 100 }, 10, { 0, 10000, 10, 0.0 }, { 900, 1900, 100 } },
        PanCase { { 1000, 2000, 100 }, -25, { 0, 10000, 10, 0.0 }, { 1250, 2250, 100 } },
        // Stops at the start of the bounds.
        PanCase { { 0, 1000, 100 }, 10, { 0, 10000, 10, 0.0 }, { 0, 1000, 100 } },
        // Stops at the end of the bounds plus its 5 % margin (500 ns).
        PanCase { { 9000, 10000, 100 }, -200, { 0, 10000, 10, 0.05 }, { 9500, 10500, 100 } }));

TEST(TimeAxisTest, FitRangeAddsContextOnBothSides)
{
    const NavigationLimits limits { 0, 10'000, 10, 0.0 };
    EXPECT_EQ(fitRange(1000, 2000, 100, 0.25, limits), (TimeAxis { 750, 2250, 100 }));
    // A zero-length event gets the minimum span around it.
    EXPECT_EQ(
        fitRange(5000, 5000, 100, 0.25, NavigationLimits { 0, 10'000, 100, 0.0 }), (TimeAxis { 4950, 5050, 100 }));
}

struct StepCase {
    double nsPerPixel;
    double minSpacing;
    TimeNs step;
};
class RulerStepTest : public ::testing::TestWithParam<StepCase> { };

TEST_P(RulerStepTest, PicksSmallestOneTwoFiveStepWideEnough)
{
    EXPECT_EQ(rulerStep(GetParam().nsPerPixel, GetParam().minSpacing), GetParam().step);
}

INSTANTIATE_TEST_SUITE_P(Cases, RulerStepTest,
    ::testing::Values(StepCase { 10, 80, 1000 }, StepCase { 10, 100, 1000 }, StepCase { 10, 101, 2000 },
        StepCase { 1e6, 80, 100'000'000 }, StepCase { 0.01, 80, 1 }, StepCase { 3.0, 80, 500 }));

struct LabelCase {
    TimeNs relative;
    TimeNs step;
    const char* label;
};
class TickLabelTest : public ::testing::TestWithParam<LabelCase> { };

TEST_P(TickLabelTest, UsesTheStepsUnitAndDecimals)
{
    EXPECT_EQ(formatTickLabel(GetParam().relative, GetParam().step), GetParam().label);
}

INSTANTIATE_TEST_SUITE_P(Cases, TickLabelTest,
    ::testing::Values(LabelCase { 1'500'000, 500'000, "1.5 ms" }, LabelCase { 200'000'000, 100'000'000, "0.2 s" },
        LabelCase { 1'250'000'000, 250'000'000, "1.25 s" }, LabelCase { 3'000, 1'000, "3 \u00b5s" },
        LabelCase { -20, 10, "-20 ns" }, LabelCase { 0, 2'000'000, "0 ms" },
        LabelCase { 12'345'000'000, 1'000'000'000, "12 s" }));

TEST(RulerTicksTest, MajorTicksOnStepMultiplesOfTheOrigin)
{
    // 10 ns per pixel, at least 30 px between labels: step 500 ns, minor ticks every 100 ns.
    const TimeAxis axis { kEpoch + 150, kEpoch + 1150, 100 };
    const auto ticks = rulerTicks(axis, kEpoch, 30);
    ASSERT_EQ(ticks.size(), 10u); // 200, 300, ..., 1100
    EXPECT_EQ(ticks.front().time, kEpoch + 200);
    EXPECT_DOUBLE_EQ(ticks.front().x, 5.0);
    EXPECT_FALSE(ticks.front().major);
    std::vector<std::string> majors;
    for (const RulerTick& tick : ticks) {
        if (tick.major)
            majors.push_back(tick.label);
    }
    EXPECT_EQ(majors, (std::vector<std::string> { "0.5 \u00b5s", "1.0 \u00b5s" }));
}

} // namespace

// Zoomed in far from the trace start, the ruler counts from a base near the view instead
// of writing nine-digit labels ("655257670 ns"); near the start it counts from the origin as before.
TEST(RulerBaseTest, DeepZoomFarFromTheOriginCountsFromANearbyBase)
{
    const TimeNs origin = 1'000'000'000;
    // 200 ns over 1000 px, 655.25767 ms after the origin: a 20 ns step (90 px at least).
    const TimeAxis deep { origin + 655'257'670, origin + 655'257'870, 1000.0 };
    const TimeNs step = rulerStep(deep.nsPerPixel(), 90.0);
    ASSERT_EQ(step, 20);
    const TimeNs base = rulerLabelBase(deep, origin, 90.0);
    // A multiple of ten steps from the origin, at or before the view's start.
    EXPECT_EQ(base, origin + 655'257'600);
    EXPECT_EQ(formatRulerBase(base - origin, step), "+655.25760 ms");
    std::vector<std::string> labels;
    for (const RulerTick& tick : rulerTicks(deep, base, 90.0)) {
        if (tick.major)
            labels.push_back(tick.label);
    }
    ASSERT_FALSE(labels.empty());
    EXPECT_EQ(labels.front(), "80 ns");
    EXPECT_EQ(labels.back(), "260 ns");
    // The tick positions are those of the origin-based ruler: only the labels change.
    const auto fromOrigin = rulerTicks(deep, origin, 90.0);
    const auto fromBase = rulerTicks(deep, base, 90.0);
    ASSERT_EQ(fromOrigin.size(), fromBase.size());
    for (std::size_t i = 0; i < fromBase.size(); ++i) {
        EXPECT_EQ(fromOrigin[i].time, fromBase[i].time);
        EXPECT_EQ(fromOrigin[i].major, fromBase[i].major);
    }
    // Near the origin (a whole 8 µs trace) labels are short already: the origin is the base.
    const TimeAxis whole { origin, origin + 8000, 1000.0 };
    EXPECT_EQ(rulerLabelBase(whole, origin, 90.0), origin);
}
